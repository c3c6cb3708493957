//! `zoo census`: how many positions a game has per number of pieces — for
//! the animal games by kind and reachability (docs/census.md), for
//! checkers the count of literature C with its tighter estimate.

use crate::games::game_parser;
use anyhow::{bail, Result};
use clap::Args;
use std::sync::atomic::{AtomicBool, Ordering};
use zoo_app::census::{
    animal_census, animal_estimate, checkers_census, CensusRequest, Estimate, EstimateReport,
    Method, Reading,
};

use zoo_app::{AppError, GameKind};

#[derive(Args, Debug)]
pub struct CensusArgs {
    /// The game whose positions are counted.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Only the row of this many pieces (animal games).
    #[arg(long, conflicts_with = "max_pieces")]
    pub pieces: Option<u32>,
    /// Rows 1 to this many pieces (default: every row the method reaches
    /// quickly: all 8 counted for Jungle Checkers, 3 enumerated otherwise).
    #[arg(long)]
    pub max_pieces: Option<u32>,
    /// What makes a position reachable: `one` (a legal move from an
    /// unfinished position leads here), `two` (from a `one`-reachable
    /// one), `thesis` (`one`, and `two` for den wins: literature A's table),
    /// `fixpoint` (a chain of predecessors without end).
    #[arg(long, default_value = "thesis")]
    pub reach: Reading,
    /// `count` (Jungle Checkers under one or thesis; the default there) or
    /// `enumerate` (every position classified with the rules).
    #[arg(long)]
    pub method: Option<Method>,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Threads that count materials at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Estimate the rows by this many random draws each (with a 95%
    /// interval) instead of counting them: for rows too large to
    /// enumerate. Without --pieces/--max-pieces, every row.
    #[arg(long, conflicts_with_all = ["method", "checkpoint"])]
    pub sample: Option<u64>,
    /// The seed of the draws (the same seed, the same estimate).
    #[arg(long, default_value_t = 1, requires = "sample")]
    pub seed: u64,
    /// Keep the materials enumerated so far in this file; a rerun with the
    /// same file goes on where the last one stopped.
    #[arg(long)]
    pub checkpoint: Option<std::path::PathBuf>,
    /// One JSON line per row (type `row`), then the result (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

pub fn run(a: &CensusArgs) -> Result<()> {
    match a.game {
        GameKind::ClassicalCheckers | GameKind::EnglishCheckers => run_checkers(a),
        GameKind::Jungle | GameKind::JungleCheckers => run_animal(a),
    }
}

fn run_animal(a: &CensusArgs) -> Result<()> {
    let counted = a.game == GameKind::JungleCheckers
        && matches!(a.reach, Reading::One | Reading::Thesis)
        && a.method != Some(Method::Enumerate);
    let most = if a.game == GameKind::Jungle { 16 } else { 8 };
    let pieces = match (a.pieces, a.max_pieces) {
        (Some(n), _) => (n, n),
        (None, Some(n)) => (1, n),
        (None, None) if counted || a.sample.is_some() => (1, most),
        (None, None) => (1, 3),
    };
    let req = CensusRequest {
        game: a.game,
        rules: a.rules.name(),
        pieces,
        reach: a.reach,
        method: a.method,
        threads: a.threads,
        checkpoint: a.checkpoint.clone(),
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = super::progress::share_bar();
    let progress = super::progress::follow(&bar);
    if let Some(samples) = a.sample {
        let r = animal_estimate(&req, samples, a.seed, &progress, &STOP);
        bar.finish_and_clear();
        return print_estimate(a, r);
    }
    let r = animal_census(&req, &progress, &STOP);
    bar.finish_and_clear();
    let c = match r {
        Err(AppError::Interrupted) => match &a.checkpoint {
            Some(p) => bail!(
                "census stopped by Ctrl-C; the materials counted are in {}: run the same command to go on",
                p.display()
            ),
            None => bail!("census stopped by Ctrl-C; no counts (--checkpoint FILE keeps them)"),
        },
        r => r?,
    };
    if a.json {
        return json_rows(&c.rows, &c);
    }
    println!(
        "{} census, rules {}, reach {}, method {}",
        c.game,
        c.rules,
        c.reach,
        serde_json::to_value(c.method)?.as_str().unwrap_or("?")
    );
    let head = [
        "pieces",
        "unfinished",
        "unreachable",
        "stalemates",
        "won material",
        "won den",
        "unreach. won",
        "reachable",
    ];
    let widths = [6, 17, 11, 10, 14, 17, 13, 17];
    let line = |cells: [String; 8]| {
        let text: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:>w$}"))
            .collect();
        println!("{}", text.join("  "));
    };
    line(head.map(String::from));
    for r in &c.rows {
        line([
            r.pieces.to_string(),
            r.unfinished.to_string(),
            r.unreachable_unfinished.to_string(),
            r.stalemates.to_string(),
            r.won_material.to_string(),
            r.won_den.to_string(),
            r.unreachable_won.to_string(),
            r.reachable.to_string(),
        ]);
    }
    let what = if c.complete {
        "total"
    } else {
        "total of these rows"
    };
    println!("{what}: {} reachable positions", c.total);
    Ok(())
}

/// A `row` line per row, then the report as the result (docs/json.md).
fn json_rows<R: serde::Serialize, C: serde::Serialize>(rows: &[R], c: &C) -> Result<()> {
    for row in rows {
        super::json::line("row", row)?;
    }
    super::json::result(c)
}

fn print_estimate(a: &CensusArgs, r: Result<EstimateReport, AppError>) -> Result<()> {
    let c = match r {
        Err(AppError::Interrupted) => bail!("census stopped by Ctrl-C; no estimate"),
        r => r?,
    };
    if a.json {
        return json_rows(&c.rows, &c);
    }
    println!(
        "{} census estimated from {} draws per row (seed {}), rules {}, reach {}; 95% intervals",
        c.game, c.samples, c.seed, c.rules, c.reach
    );
    let e = |x: Estimate| format!("{:.3e} ± {:.1e}", x.value, x.half_width);
    println!(
        "{:>6}  {:>20}  {:>20}  {:>20}  {:>20}  {:>20}",
        "pieces", "unfinished", "unreachable", "won material", "won den", "reachable"
    );
    for r in &c.rows {
        println!(
            "{:>6}  {:>20}  {:>20}  {:>20}  {:>20}  {:>20}",
            r.pieces,
            e(r.unfinished),
            e(r.unreachable_unfinished),
            e(r.won_material),
            e(r.won_den),
            e(r.reachable)
        );
    }
    let what = if c.complete {
        "total"
    } else {
        "total of these rows"
    };
    println!("{what}: {} reachable positions", e(c.total));
    Ok(())
}

fn run_checkers(a: &CensusArgs) -> Result<()> {
    if a.pieces.is_some()
        || a.max_pieces.is_some()
        || a.method.is_some()
        || a.rules.given()
        || a.sample.is_some()
        || a.checkpoint.is_some()
    {
        bail!("the checkers census counts every row of arrangements; --pieces, --max-pieces, --method, --rules, --sample and --checkpoint are for the animal games");
    }
    let c = checkers_census(a.game)?;
    let (rows, all, restricted) = (&c.rows, c.total, c.total_restricted);
    let (max_kings, max_difference) = (c.max_kings, c.max_difference);
    if a.json {
        return super::json::result(&c);
    }
    println!(
        "{:>6}  {:>28}  {:>28}",
        "pieces",
        "positions",
        format!("≤{max_kings} kings, diff ≤{max_difference}")
    );
    for r in rows {
        println!("{:>6}  {:>28}  {:>28}", r.pieces, r.positions, r.restricted);
    }
    println!("{:>6}  {:>28}  {:>28}", "total", all, restricted);
    println!(
        "        ≈ {:.3e}                    ≈ {:.3e}",
        all as f64, restricted as f64
    );
    Ok(())
}
