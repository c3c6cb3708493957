//! Nodes against depth from the start position, for negamax, plain
//! alpha-beta, the exact enhancements and the full engine.

use crate::measure::{count, experiment_eval};
use crate::plot::log_plot;
use crate::report::Report;
use anyhow::Result;
use std::fmt::Write as _;
use zoo_search::{Config, EngineGame};

/// Depths 1 to `max_depth` from `G`'s start (negamax stops at 5 and plain
/// alpha-beta at 8: beyond, they take too long to be worth plotting).
/// Files: `depth-curve-<game>.csv` and `.svg`; no summary. `progress` gets
/// a line per search.
pub fn depth_curve<G: EngineGame>(
    max_depth: u32,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let pos = G::start(&G::default_rules());
    let name = pos.game_name();
    let exact = Config {
        quiescence: false,
        lmr: false,
        mtdf: false,
        ..Config::default()
    };
    let curves: [(&str, Config, u32); 4] = [
        ("negamax", Config::negamax(), max_depth.min(5)),
        ("alpha-beta", Config::plain_alphabeta(), max_depth.min(8)),
        ("all exact enhancements", exact, max_depth),
        (
            "full engine (quiescence, LMR, MTD(f))",
            Config::default(),
            max_depth,
        ),
    ];
    let mut series = Vec::new();
    let mut csv = String::from("configuration,depth,nodes\n");
    for (cname, cfg, dmax) in curves {
        let mut pts = Vec::new();
        for d in 1..=dmax {
            let n = count(&pos, &cfg, experiment_eval::<G>(), d)?.nodes;
            progress(&format!("{cname} depth {d}: {n}"));
            let _ = writeln!(csv, "{},{d},{n}", crate::report::csv_field(cname));
            pts.push((d, n as f64));
        }
        series.push((cname.to_string(), pts));
    }
    let labels: Vec<String> = (0..=max_depth).map(|d| d.to_string()).collect();
    let svg = log_plot(
        &format!("{name} start: nodes against depth"),
        "depth",
        &labels,
        &series,
    )?;
    Ok(Report {
        files: vec![
            (format!("depth-curve-{name}.csv"), csv),
            (format!("depth-curve-{name}.svg"), svg),
        ],
        summary: None,
    })
}
