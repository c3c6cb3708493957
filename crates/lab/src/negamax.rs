//! Negamax against alpha-beta from the Jungle start (literature D): nodes,
//! leaves and per-ply effective branching factors.

use crate::measure::count;
use crate::plot::log_plot;
use crate::report::Report;
use anyhow::Result;
use std::fmt::Write as _;
use zoo_core::Game;
use zoo_search::{Config, Stats};

/// The nodes of the minimal alpha-beta tree (perfect move order) of each
/// depth 1..=n, by Knuth and Moore: with `b[i]` the branching factor at ply
/// i + 1, a depth-d tree has Π b over the odd plies + Π b over the even
/// plies − 1 leaves, and its nodes are the leaves of depths 0 to d.
fn minimal_nodes(b: &[f64]) -> Vec<f64> {
    let leaves = |d: usize| -> f64 {
        let odd: f64 = b[..d].iter().step_by(2).product();
        let even: f64 = b[..d].iter().skip(1).step_by(2).product();
        odd + even - 1.0
    };
    (1..=b.len()).map(|d| (0..=d).map(leaves).sum()).collect()
}

fn geometric_mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

/// Depths 1 to `max_depth` from the Jungle start with evaluation `eval`
/// (`simple`: zoo's reading of literature D's; `literature-d`: its code's),
/// for negamax, plain alpha-beta and alpha-beta with static ordering.
/// Files: `negamax.md`, `negamax.csv`, `negamax.svg` (with `-EVAL` before
/// the dot for another evaluation than `simple`); the summary is the
/// Markdown table. `progress` gets a line per search.
pub fn negamax(max_depth: u32, eval: &str, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    type G = zoo_animal::JunglePos;
    let pos = G::start(&G::default_rules());
    let algos = [
        ("negamax", Config::negamax()),
        ("alpha-beta", Config::plain_alphabeta()),
        // Literature D's framework ordered moves; this column shows what
        // static ordering alone (captures first, development) does.
        (
            "alpha-beta + static ordering",
            Config {
                ordering: true,
                ..Config::plain_alphabeta()
            },
        ),
    ];
    let which = match eval {
        "simple" => "`simple` (zoo's reading of literature D)",
        "literature-d" => "`literature-d` (literature D's, as its code computes it)",
        _ => eval,
    };
    let mut md = format!(
        "# Negamax against alpha-beta from the Jungle start\n\n\
         Evaluation {which}, no repetition rule, no table; plain alpha-beta \
         searches moves in generation order. b(d) = leaves(d) / leaves(d−1), the per-ply \
         effective branching factor; ratio = negamax nodes / alpha-beta nodes; minimal = the \
         nodes of the minimal alpha-beta tree (perfect move order, Knuth and Moore) with \
         negamax's b(d).\n\n| depth |",
    );
    for (name, _) in &algos {
        let _ = write!(md, " {name} nodes | leaves | b |");
    }
    md.push_str(" ratio | ratio (ordered) | minimal |\n|---:|");
    for _ in 0..algos.len() * 3 + 3 {
        md.push_str("---:|");
    }
    md.push('\n');
    let mut csv = String::from("algorithm,depth,nodes,leaves\n");
    let mut per: Vec<Vec<Stats>> = vec![Vec::new(); algos.len()];
    for d in 1..=max_depth {
        for (i, (name, cfg)) in algos.iter().enumerate() {
            let s = count(&pos, cfg, eval, d)?;
            progress(&format!(
                "{name} depth {d}: {} nodes, {} leaves",
                s.nodes, s.leaves
            ));
            let _ = writeln!(
                csv,
                "{},{d},{},{}",
                crate::report::csv_field(name),
                s.nodes,
                s.leaves
            );
            per[i].push(s);
        }
    }
    let negamax_b: Vec<f64> = (0..per[0].len())
        .map(|d| {
            let prev = if d == 0 { 1 } else { per[0][d - 1].leaves };
            per[0][d].leaves as f64 / prev.max(1) as f64
        })
        .collect();
    let minimal = minimal_nodes(&negamax_b);
    let mut bf: Vec<Vec<f64>> = vec![Vec::new(); algos.len()];
    for d in 0..max_depth as usize {
        let _ = write!(md, "| {} |", d + 1);
        for i in 0..algos.len() {
            let s = &per[i][d];
            let prev = if d == 0 { 1 } else { per[i][d - 1].leaves };
            let b = s.leaves as f64 / prev.max(1) as f64;
            bf[i].push(b);
            let _ = write!(md, " {} | {} | {:.2} |", s.nodes, s.leaves, b);
        }
        let r1 = per[0][d].nodes as f64 / per[1][d].nodes.max(1) as f64;
        let r2 = per[0][d].nodes as f64 / per[2][d].nodes.max(1) as f64;
        let _ = writeln!(md, " {r1:.1} | {r2:.1} | {:.0} |", minimal[d]);
    }
    let g: Vec<f64> = bf.iter().map(|b| geometric_mean(b)).collect();
    let _ = writeln!(
        md,
        "\nGeometric mean of b over depths 1–{max_depth}: negamax {:.2}, alpha-beta {:.2}, \
         alpha-beta with static ordering {:.2} (ideal for alpha-beta: √{:.2} = {:.2}).",
        g[0],
        g[1],
        g[2],
        g[0],
        g[0].sqrt()
    );
    let labels: Vec<String> = (0..=max_depth).map(|d| d.to_string()).collect();
    let series: Vec<(String, Vec<(u32, f64)>)> = algos
        .iter()
        .zip(&per)
        .map(|((name, _), p)| {
            (
                name.to_string(),
                p.iter()
                    .enumerate()
                    .map(|(d, s)| (d as u32 + 1, s.nodes as f64))
                    .collect(),
            )
        })
        .collect();
    let svg = log_plot(
        "Jungle start: negamax vs alpha-beta",
        "depth",
        &labels,
        &series,
    )?;
    let stem = match eval {
        "simple" => "negamax".to_string(),
        _ => format!("negamax-{eval}"),
    };
    Ok(Report {
        files: vec![
            (format!("{stem}.md"), md.clone()),
            (format!("{stem}.csv"), csv),
            (format!("{stem}.svg"), svg),
        ],
        summary: Some(md),
    })
}

#[cfg(test)]
mod tests {
    use super::minimal_nodes;

    #[test]
    fn minimal_tree_by_knuth_and_moore() {
        // b = 2 everywhere: depth 1 has 1 + 2 nodes; depth 2, 1 + 2 + 3
        // (2 + 2 − 1 leaves); depth 3, 1 + 2 + 3 + 5 (4 + 2 − 1).
        assert_eq!(minimal_nodes(&[2.0, 2.0, 2.0]), [3.0, 6.0, 11.0]);
    }
}
