//! Literature A's comparison: df-pn against alpha-beta *proving* the
//! result of random solvable positions of few pieces (the thesis: 300
//! positions of 2, 3 and 4 pieces of Jungle Checkers, where df-pn lost
//! because it looped on repetitions).
//!
//! Positions are drawn at random (random material with a piece of each
//! side at least, random squares, random side to move) and kept when the
//! tables say they are won or lost for the side to move: those are the
//! solvable ones (a draw is never proven by alpha-beta's scores). Neither
//! method sees the tables:
//! - **alpha-beta**: the engine's iterative deepening (every enhancement,
//!   one thread, a fresh table) until an iteration's score is a mate; the
//!   nodes of every iteration up to it.
//! - **df-pn**: [`zoo_solve::dfpn`] asked whether the side to move wins
//!   (for a won position: proven) or avoids losing (for a lost one:
//!   disproven), with its default graph-history mode; its MID calls.
//!
//! Each answer is checked against the table: a proof of the wrong result
//! is counted as wrong, not as solved.

use crate::plot::log_plot;
use crate::report::csv_field;
use crate::solvers::{by_manager, Manager};
use crate::Report;
use anyhow::Result;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use zoo_core::{Game, History, Oracle, Outcome, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits};
use zoo_solve::manager::GraphSlot;
use zoo_solve::{Answer, Goal};

/// Draws random positions of `pieces` of the start position's pieces
/// ([`crate::positions`]) that `oracle` says are won or lost for the side
/// to move: `count` of them.
pub fn random_solvable<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    pieces: u32,
    count: usize,
    rng: &mut StdRng,
) -> Result<Vec<(G, Outcome)>> {
    crate::positions::random_valued(rules, oracle, pieces, count, &|o| o != Outcome::Draw, rng)
}

/// What one method did on one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempt {
    /// The result proven: `Some(true)` the table's, `Some(false)` another
    /// one, `None` none within the limit.
    pub proved: Option<bool>,
    /// Nodes (alpha-beta) or MID calls (df-pn).
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
}

/// Alpha-beta until an iteration's score is a mate, at most `nodes` nodes.
pub fn alpha_beta<G: EngineGame>(pos: &G, value: Outcome, nodes: u64) -> Result<Attempt> {
    let m = mate_search(pos, None, nodes)?;
    Ok(Attempt {
        proved: m.mate.map(|m| (m > 0) == (value == Outcome::Win)),
        nodes: m.nodes,
        seconds: m.seconds,
    })
}

/// What [`mate_search`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mate {
    /// The first mate score of the deepening (positive: the side to move
    /// wins), `None` when the node limit came first.
    pub mate: Option<i32>,
    /// Nodes of every iteration up to it (the limit when none).
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
}

/// The engine's iterative deepening (every enhancement, one thread, a
/// fresh table, a repetition a draw, `oracle`'s values below the root)
/// until an iteration's score is a mate, at most `nodes` nodes.
pub fn mate_search<G: EngineGame>(
    pos: &G,
    oracle: Option<Arc<dyn Oracle<G>>>,
    nodes: u64,
) -> Result<Mate> {
    let eval =
        G::eval_by_name(crate::measure::experiment_eval::<G>()).map_err(anyhow::Error::msg)?;
    let cfg = Config {
        threads: 1,
        ..Config::default()
    };
    let mut engine = Engine::new(cfg, eval, G::Tactics::default());
    engine.set_oracle(oracle);
    let stop = engine.stop_handle();
    let h = History::starting_at(Repetition::First, pos.key(), pos.piece_count());
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let t = Instant::now();
    let mut found: Option<(i32, u64)> = None;
    engine.search(pos, &h, &limits, &mut |it| {
        if let (None, Some(m)) = (found, it.mate) {
            found = Some((m, it.total_nodes));
            stop.store(true, Ordering::Relaxed);
        }
    });
    let seconds = t.elapsed().as_secs_f64();
    Ok(match found {
        Some((m, n)) => Mate {
            mate: Some(m),
            nodes: n,
            seconds,
        },
        None => Mate {
            mate: None,
            nodes,
            seconds,
        },
    })
}

/// df-pn as `zoo solve` runs it by default (the proof manager,
/// [`by_manager`]) on the question whose answer shows `value`, at most
/// `nodes` MID calls.
pub fn df_pn<G: Game>(pos: &G, value: Outcome, nodes: u64) -> Attempt {
    // A win is proven as Win; a loss as NotLose disproven.
    let (goal, shows) = match value {
        Outcome::Win => (Goal::Win, Answer::Proven),
        _ => (Goal::NotLose, Answer::Disproven),
    };
    match by_manager(
        pos,
        goal,
        None,
        &zoo_solve::Limits::nodes(nodes),
        &mut GraphSlot::default(),
        &Manager::default(),
    ) {
        Some(r) => Attempt {
            proved: match r.answer {
                Answer::Unknown => None,
                a => Some(a == shows),
            },
            nodes: r.nodes,
            seconds: r.seconds,
        },
        // The tables did not fit: nothing searched.
        None => Attempt {
            proved: None,
            nodes: 0,
            seconds: 0.0,
        },
    }
}

/// One position of the experiment.
#[derive(Clone, Debug)]
pub struct Row {
    /// Pieces on the board.
    pub pieces: u32,
    /// The position.
    pub fen: String,
    /// Its value for the side to move, from the tables.
    pub value: Outcome,
    /// Alpha-beta's attempt.
    pub alpha_beta: Attempt,
    /// df-pn's attempt.
    pub df_pn: Attempt,
}

/// Runs both methods on every position (`positions`: each with its
/// table value), at most `nodes` nodes each; `progress` hears of each.
pub fn run<G: EngineGame>(
    positions: &[(G, Outcome)],
    nodes: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>> {
    let mut rows = Vec::with_capacity(positions.len());
    for (i, (pos, value)) in positions.iter().enumerate() {
        let ab = alpha_beta(pos, *value, nodes)?;
        let dp = df_pn(pos, *value, nodes);
        let row = Row {
            pieces: pos.piece_count(),
            fen: pos.to_fen(),
            value: *value,
            alpha_beta: ab,
            df_pn: dp,
        };
        progress(&format!(
            "{}/{} {} ({}): alpha-beta {} nodes {}, df-pn {} calls {}",
            i + 1,
            positions.len(),
            row.fen,
            value.name(),
            ab.nodes,
            said(ab.proved),
            dp.nodes,
            said(dp.proved)
        ));
        rows.push(row);
    }
    Ok(rows)
}

fn said(p: Option<bool>) -> &'static str {
    match p {
        Some(true) => "proved",
        Some(false) => "WRONG",
        None => "unsolved",
    }
}

/// The experiment's files: every position (CSV), the summary per number
/// of pieces (Markdown) and the nodes of each method, positions sorted by
/// them (SVG, log scale). `game` names the files.
pub fn report(game: &str, rows: &[Row], nodes: u64) -> Result<Report> {
    let mut csv = String::from(
        "pieces,fen,value,ab_result,ab_nodes,ab_seconds,dfpn_result,dfpn_nodes,dfpn_seconds\n",
    );
    for r in rows {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{:.4},{},{},{:.4}",
            r.pieces,
            csv_field(&r.fen),
            r.value.name(),
            said(r.alpha_beta.proved),
            r.alpha_beta.nodes,
            r.alpha_beta.seconds,
            said(r.df_pn.proved),
            r.df_pn.nodes,
            r.df_pn.seconds
        );
    }
    let mut md = String::from(
        "| pieces | positions | alpha-beta proved | wrong | nodes: median of the proved | all | seconds | df-pn proved | wrong | MID calls: median of the proved | all | seconds |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.pieces).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for n in sizes {
        let of: Vec<&Row> = rows.iter().filter(|r| r.pieces == n).collect();
        let cols = |f: &dyn Fn(&Row) -> Attempt| {
            let proved = of.iter().filter(|r| f(r).proved == Some(true)).count();
            let wrong = of.iter().filter(|r| f(r).proved == Some(false)).count();
            let mut ns: Vec<u64> = of
                .iter()
                .filter(|r| f(r).proved == Some(true))
                .map(|r| f(r).nodes)
                .collect();
            ns.sort_unstable();
            let median = ns.get(ns.len() / 2).map_or("–".to_string(), u64::to_string);
            let all: u64 = of.iter().map(|r| f(r).nodes).sum();
            let secs: f64 = of.iter().map(|r| f(r).seconds).sum();
            format!("{proved} | {wrong} | {median} | {all} | {secs:.1}")
        };
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {} |",
            of.len(),
            cols(&|r| r.alpha_beta),
            cols(&|r| r.df_pn)
        );
    }
    let _ = writeln!(
        md,
        "\nAt most {nodes} nodes (alpha-beta) or MID calls (df-pn) a position; \"all\" and the plot count an unproved position's whole budget."
    );
    let series = |name: &str, f: &dyn Fn(&Row) -> Attempt| {
        let mut ns: Vec<u64> = rows.iter().map(|r| f(r).nodes).collect();
        ns.sort_unstable();
        (
            name.to_string(),
            ns.iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1, n.max(1) as f64))
                .collect::<Vec<_>>(),
        )
    };
    let labels: Vec<String> = (0..=rows.len()).map(|i| i.to_string()).collect();
    let svg = log_plot(
        &format!("{game}: proving random solvable positions"),
        "positions, sorted by the method's nodes",
        &labels,
        &[
            series("alpha-beta (nodes)", &|r| r.alpha_beta),
            series("df-pn (MID calls)", &|r| r.df_pn),
        ],
    )?;
    Ok(Report {
        files: vec![
            (format!("proving-{game}.md"), md.clone()),
            (format!("proving-{game}.csv"), csv),
            (format!("proving-{game}.svg"), svg),
        ],
        summary: Some(md),
    })
}

/// Draws `per_size` positions of each size in `sizes` with `seed`, then
/// runs the experiment on them.
pub fn proving<G: EngineGame>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    sizes: &[u32],
    per_size: usize,
    seed: u64,
    nodes: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for &n in sizes {
        positions.extend(random_solvable::<G>(rules, oracle, n, per_size, &mut rng)?);
    }
    let rows = run(&positions, nodes, progress)?;
    report(G::start(rules).game_name(), &rows, nodes)
}
