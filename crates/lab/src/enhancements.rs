//! The enhancement ladder experiment (literature C): total nodes of each
//! rung of [`Config::ladder`] and each of its variants, by game phase and
//! depth, over a test set.

use crate::measure::{count, experiment_eval};
use crate::plot::log_plot;
use crate::report::Report;
use crate::testset::PHASES;
use anyhow::{bail, Result};
use std::fmt::Write as _;
use zoo_search::{Config, EngineGame};

/// The published depths of a game: deep enough for the enhancements to
/// show, shallow enough to run in minutes (Jungle branches more).
pub fn default_depths(game: &str) -> Vec<u32> {
    if game == "jungle" {
        vec![4, 6]
    } else {
        vec![6, 8]
    }
}

/// Searches every position of `set` (phase, position) to each of `depths`
/// with each configuration, and tabulates the total nodes per phase and
/// depth, with the change against the rung above (variants: against the
/// top rung). Files: `enhancements-<game>.md`, `.csv` and `.svg` (the
/// rungs only); the summary is the Markdown table. `progress` gets a line
/// per configuration.
pub fn enhancements<G: EngineGame>(
    set: &[(String, G)],
    depths: &[u32],
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let name = G::start(&G::default_rules()).game_name();
    // The ladder, then the variants of its top rung (the reference below the line).
    let mut stages = Config::ladder();
    let reference = stages.len() - 1;
    stages.extend(Config::ladder_variants());
    // totals[stage][phase][depth]
    let mut totals = vec![vec![vec![0u64; depths.len()]; PHASES.len()]; stages.len()];
    for (si, (sname, cfg)) in stages.iter().enumerate() {
        for (label, pos) in set {
            let Some(pi) = PHASES.iter().position(|p| p == label) else {
                bail!(
                    "unknown phase {label:?} in the test set (expected opening, middle, endgame)"
                );
            };
            for (di, &d) in depths.iter().enumerate() {
                totals[si][pi][di] += count(pos, cfg, experiment_eval::<G>(), d)?.nodes;
            }
        }
        progress(&format!("{sname}: done"));
    }
    let mut md = format!(
        "# Enhancements added in turn: {name}\n\n\
         Total nodes over the test set ({} positions), fixed depth, evaluation `{}`, \
         no quiescence (but in the rows named for it), no reductions, no repetition rule. In brackets: change against the row above \
         (for the variants below the line: against `{}`).\n\n| configuration |",
        set.len(),
        experiment_eval::<G>(),
        stages[reference].0
    );
    let mut csv = String::from("configuration,phase,depth,nodes\n");
    for p in PHASES {
        for d in depths {
            let _ = write!(md, " {p} d{d} |");
        }
    }
    md.push_str("\n|---|");
    for _ in 0..PHASES.len() * depths.len() {
        md.push_str("---:|");
    }
    md.push('\n');
    for (si, (sname, _)) in stages.iter().enumerate() {
        let _ = write!(md, "| {sname} |");
        for pi in 0..PHASES.len() {
            for (di, d) in depths.iter().enumerate() {
                let n = totals[si][pi][di];
                let base = if si == 0 {
                    None
                } else if si <= reference {
                    Some(totals[si - 1][pi][di])
                } else {
                    Some(totals[reference][pi][di])
                };
                match base.filter(|&b| b > 0) {
                    Some(b) => {
                        let _ = write!(
                            md,
                            " {n} ({:+.0}%) |",
                            100.0 * (n as f64 - b as f64) / b as f64
                        );
                    }
                    None => {
                        let _ = write!(md, " {n} |");
                    }
                }
                let _ = writeln!(
                    csv,
                    "{},{},{d},{n}",
                    crate::report::csv_field(sname),
                    PHASES[pi]
                );
            }
        }
        md.push('\n');
        if si == reference {
            let _ = writeln!(
                md,
                "| *variants:* |{}",
                " |".repeat(PHASES.len() * depths.len())
            );
        }
    }
    let labels: Vec<String> = stages.iter().map(|s| s.0.to_string()).collect();
    let mut series = Vec::new();
    for (pi, p) in PHASES.iter().enumerate() {
        for (di, d) in depths.iter().enumerate() {
            let pts: Vec<(u32, f64)> = (0..=reference)
                .map(|si| (si as u32, totals[si][pi][di] as f64))
                .collect();
            series.push((format!("{p}, depth {d}"), pts));
        }
    }
    let svg = log_plot(
        &format!("{name}: total nodes as enhancements are added"),
        "configuration",
        &labels,
        &series,
    )?;
    Ok(Report {
        files: vec![
            (format!("enhancements-{name}.md"), md.clone()),
            (format!("enhancements-{name}.csv"), csv),
            (format!("enhancements-{name}.svg"), svg),
        ],
        summary: Some(md),
    })
}
