//! `zoo tb verify`: the tables against an independent search, whole or
//! sampled.

use super::args::*;
use anyhow::{bail, Result};
use zoo_app::{GameKind, TableSet};

/// `zoo tb verify`: every game asked for is checked even when one
/// disagrees; the report says which.
pub(super) fn run(v: &VerifyArgs) -> Result<()> {
    let games: Vec<GameKind> = match v.game {
        Some(g) => vec![g],
        None => GameKind::ALL
            .iter()
            .copied()
            .filter(|g| g.has_tables())
            .collect(),
    };
    // Every game is checked even when one disagrees: the report
    // says which.
    let mut failed = Vec::new();
    for &g in &games {
        let c = run_verify(g, v)?;
        if v.json {
            crate::cmd::json::line("game", &c.report)?;
        }
        if c.disagreements > 0 {
            failed.push(match c.seed {
                Some(seed) => format!("{g} (repeat it with --seed {seed})"),
                None => g.to_string(),
            });
        }
    }
    if v.json {
        crate::cmd::json::result(&serde_json::json!({
            "games": games.len(),
            "failed": failed,
        }))?;
    }
    if !failed.is_empty() {
        bail!("verification failed: {}", failed.join(", "));
    }
    Ok(())
}

/// What `verify` found for one game.
struct Checked {
    /// The report, for `--json`.
    report: serde_json::Value,
    disagreements: u64,
    /// The seed of `--positions`, to repeat the check.
    seed: Option<u64>,
}

/// Checks the tables of one game, printing its report unless `--json`.
fn run_verify(game: GameKind, a: &VerifyArgs) -> Result<Checked> {
    let set = a.tables.set(game)?;
    if let Some(positions) = a.positions {
        return run_verify_sample(&set, a, positions);
    }
    if a.wdl {
        let r = set.wdl(a.pieces, true, &|_, _| {})?;
        if !a.json {
            println!(
                "{} {}: {} WDL files up to {} pieces, {} entries compared with their tables: {} disagreements{}",
                r.game,
                r.rules,
                r.files,
                r.pieces,
                r.entries,
                r.disagreements,
                if r.disagreeing.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", r.disagreeing.join(", "))
                }
            );
        }
        return Ok(Checked {
            report: serde_json::to_value(&r)?,
            disagreements: r.disagreements,
            seed: None,
        });
    }
    // Materials solved and checked, on stderr when it is a terminal.
    let bar = crate::cmd::progress::share_bar();
    let r = set.verify_with_progress(
        a.pieces,
        a.sample(),
        a.threads,
        &crate::cmd::progress::follow(&bar),
    );
    bar.finish_and_clear();
    let r = r?;
    let checked = Checked {
        report: serde_json::to_value(&r)?,
        disagreements: r.mismatch_count,
        seed: None,
    };
    if a.json {
        return Ok(checked);
    }
    println!(
        "{} {}: {} materials, {} positions checked up to {} pieces in {:.1} s: {} disagreements",
        r.game, r.rules, r.materials, r.positions, r.pieces, r.seconds, r.mismatch_count
    );
    for s in &r.mismatches {
        println!("  {s}");
    }
    Ok(checked)
}

/// `verify --positions K`: K random entries of every table with exactly
/// `--pieces` pieces against the values of their moves.
fn run_verify_sample(set: &TableSet, a: &VerifyArgs, positions: u64) -> Result<Checked> {
    let r = set.verify_positions(a.pieces, a.sample(), positions, a.seed, a.threads)?;
    if !a.json {
        println!(
            "{} {}: {} of {} {}-piece tables, {} random positions ({} per table, seed {}) checked against their moves{} in {:.1} s: {} disagreements",
            r.game,
            r.rules,
            r.tables.len(),
            r.tables.len() + r.missing.len(),
            r.pieces,
            r.positions,
            r.positions_per_table,
            r.seed,
            if r.colour_swaps > 0 {
                format!(", {} against their colour swaps", r.colour_swaps)
            } else {
                String::new()
            },
            r.seconds,
            r.disagreements
        );
        if !r.missing.is_empty() {
            // A size built in part (7-piece slices) can miss thousands.
            const SHOWN: usize = 12;
            let more = r.missing.len().saturating_sub(SHOWN);
            println!(
                "  not built yet, not checked: {}{}",
                r.missing[..r.missing.len().min(SHOWN)].join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
        }
        for d in &r.listed {
            println!("  {}", d.text);
        }
        if r.listed.len() as u64 != r.disagreements {
            println!("  (the first {} listed)", r.listed.len());
        }
    }
    Ok(Checked {
        report: serde_json::to_value(&r)?,
        disagreements: r.disagreements,
        seed: Some(r.seed),
    })
}
