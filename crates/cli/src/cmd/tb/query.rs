//! `zoo tb stats | diff | probe | advantage`: what the tables say.

use super::args::*;
use anyhow::{bail, Context, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use zoo_app::{human_bytes, TableSet};
use zoo_core::Outcome;

pub(super) fn run_stats(a: &StatsArgs) -> Result<()> {
    let s = a.tables.set(a.game)?.stats(a.pieces)?;
    if a.json {
        crate::cmd::json::result(&s)?;
    } else {
        println!(
            "{} {}, {} pieces, White to move, {}:",
            s.game, s.rules, s.pieces, s.counted
        );
        println!(
            "positions {}  wins {}  losses {}  draws {}  longest {} plies",
            s.positions, s.wins, s.losses, s.draws, s.longest
        );
        if s.missing > 0 {
            println!(
                "({} tables of {} pieces not built: the counts are those of the tables there)",
                s.missing, s.pieces
            );
        }
    }
    Ok(())
}

pub(super) fn run_diff(a: &DiffArgs) -> Result<()> {
    let mine = a.tables.set(a.game)?;
    let dir = a.against_dir.as_ref().unwrap_or(&a.tables.dir);
    let other = TableSet::new(a.game, Some(&a.against), dir)?;
    let bar = crate::cmd::progress::count_bar("materials");
    let r = mine.diff(&other, a.pieces, &crate::cmd::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        for m in &r.materials {
            crate::cmd::json::line("material", m)?;
        }
        return crate::cmd::json::result(&r);
    }
    println!(
        "{} {} pieces, {} against {}: {} entries, {} with another result ({} of them without a legal move), {} with another distance only",
        r.game, r.pieces, r.rules, r.other_rules, r.entries, r.changed, r.no_move, r.distance_changed
    );
    let mut by_change: Vec<_> = r.materials.iter().filter(|m| m.changed > 0).collect();
    let played = by_change.iter().filter(|m| m.changed > m.no_move).count();
    println!(
        "{} materials with another result ({played} of them in positions with a legal move), {} with another distance only",
        by_change.len(),
        r.materials.len() - by_change.len(),
    );
    // Changes through play first (the rule's consequences), then the most.
    by_change.sort_by_key(|m| std::cmp::Reverse((m.changed - m.no_move, m.changed)));
    if by_change.len() > a.top {
        println!("the first {} (--top):", a.top);
    }
    for m in by_change.iter().take(a.top) {
        let t: Vec<String> = m
            .transitions
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let (fen, vals) = match (&m.example_played, &m.example_played_values) {
            (Some(f), Some(v)) => (f.as_str(), v),
            _ => (
                m.example.as_deref().unwrap_or("-"),
                m.example_values
                    .as_ref()
                    .expect("a changed material has an example"),
            ),
        };
        println!(
            "  {:<8} {:>6} changed, {:>6} without a move: {}; e.g. {} ({} / {})",
            m.material,
            m.changed,
            m.no_move,
            t.join(", "),
            fen,
            vals.0,
            vals.1,
        );
    }
    Ok(())
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

pub(super) fn run_probe(a: &ProbeArgs) -> Result<()> {
    let r = a
        .tables
        .set(a.game)?
        .probe(&a.fen)
        .context("cannot probe --fen")?;
    if a.json {
        crate::cmd::json::result(&r)?;
        return Ok(());
    }
    println!("{}", r.fen);
    if r.game_over {
        println!("game over: {} for the side to move", outcome_name(r.value));
    } else if r.value == Outcome::Draw {
        println!("draw");
    } else if !r.distance_known {
        println!(
            "{} for the side to move (distance unknown: WDL-only files)",
            outcome_name(r.value)
        );
    } else {
        println!(
            "{} in {} plies for the side to move",
            outcome_name(r.value),
            r.distance
        );
    }
    for m in &r.moves {
        let (c, s) = (&m.coord, &m.san);
        if m.value == Outcome::Draw {
            println!("  {c:<6} {s:<6} draw");
        } else if !r.distance_known {
            println!("  {c:<6} {s:<6} {}", outcome_name(m.value));
        } else {
            println!(
                "  {c:<6} {s:<6} {} in {}",
                outcome_name(m.value),
                m.distance
            );
        }
    }
    Ok(())
}

/// `tb advantage --pieces N`: a line per material written, then the size.
pub(super) fn run_advantage_size(
    set: &TableSet,
    a: &AdvantageArgs,
    pieces: u32,
    progress: &(dyn Fn(zoo_app::tables::advantage::Sweep) + Sync),
    stop: &AtomicBool,
) -> Result<()> {
    let json = a.json;
    let mut failed = None;
    let mut done = |r: &zoo_app::tables::advantage::AdvantageReport| {
        let shown = if json {
            crate::cmd::json::line("material", r)
        } else {
            let sweeps: Vec<String> = r.passes.iter().map(|p| p.sweeps.to_string()).collect();
            println!(
                "{}: {} entries per side, {} sweeps, {}",
                r.material,
                r.entries,
                sweeps.join(" + "),
                r.written
                    .as_ref()
                    .map_or("not written".into(), |(p, n)| format!(
                        "wrote {p} ({})",
                        human_bytes(*n)
                    ))
            );
            Ok(())
        };
        if let Err(e) = shown {
            failed.get_or_insert(e);
        }
    };
    let r = set.advantage_size(pieces, a.threads, progress, &mut done, stop)?;
    if let Some(e) = failed {
        return Err(e);
    }
    if json {
        return crate::cmd::json::result(&r);
    }
    println!(
        "{} {} {} pieces: {} WDL files written ({}), {} materials there already",
        r.game,
        r.rules,
        r.pieces,
        r.written.len(),
        human_bytes(r.bytes),
        r.present
    );
    Ok(())
}

pub(super) fn run_advantage(a: &AdvantageArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    // A second Ctrl-C ends the process at once.
    let _ = ctrlc::set_handler(move || {
        if s.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let quiet = a.json;
    let progress = move |w: zoo_app::tables::advantage::Sweep| {
        if !quiet {
            eprintln!(
                "{:?}'s advantage: sweep {} cleared {}",
                w.advantage, w.number, w.cleared
            );
        }
    };
    let material = match (&a.material, a.pieces) {
        (Some(m), _) => m,
        (None, Some(pieces)) => return run_advantage_size(&set, a, pieces, &progress, &stop),
        (None, None) => bail!("--material or --pieces"),
    };
    let r = set.advantage(material, a.threads, a.write, &progress, &stop)?;
    if a.json {
        return crate::cmd::json::result(&r);
    }
    println!(
        "{} {} {}: {} entries per side, {} of bits per pass",
        r.game,
        r.rules,
        r.material,
        r.entries,
        human_bytes(r.bits_bytes)
    );
    for p in &r.passes {
        let vs = match p.disagreements {
            Some(d) => format!(", {d} entries disagree with the table"),
            None => String::new(),
        };
        println!(
            "{}'s advantage: {} sweeps, {:.1} s{vs}",
            p.advantage, p.sweeps, p.seconds
        );
    }
    for (side, c) in r.counts.iter().enumerate() {
        let table = match r.table_counts.as_ref().and_then(|t| t.get(side)) {
            Some(t) if t == c => " (the table's)".to_string(),
            Some(t) => format!(
                " (the table: wins {} draws {} losses {})",
                t.wins, t.draws, t.losses
            ),
            None => String::new(),
        };
        println!(
            "{} to move: wins {}  draws {}  losses {}{table}",
            ["White", "Black"][side],
            c.wins,
            c.draws,
            c.losses
        );
    }
    match r.agrees() {
        Some(false) => bail!(
            "{}: the advantage mode disagrees with the table",
            r.material
        ),
        Some(true) => println!("equal to the table, entry by entry"),
        None => println!("no table of {} to compare with", r.material),
    }
    if let Some((path, len)) = &r.written {
        println!("wrote {path} ({})", human_bytes(*len));
    }
    Ok(())
}
