//! Issue 17's experiment 4: positions with more pieces than the tables
//! hold (Jungle, 5 and 6 pieces), solved with the tables as the oracle
//! (every capture that brings a line into them ends it with the table's
//! value). How many each solver decides within a node limit, with what
//! work, and whether the solvers agree where two of them answer; the
//! engine's alpha-beta with the same tables, deepening until its score is
//! a mate, is an independent check of the wins and losses.
//!
//! Positions are drawn as in [`crate::proving`] ([`crate::positions`]):
//! a random subset of the start position's pieces on random squares, a
//! random side to move, kept when the rules accept them and the game is
//! not over. No value is known in advance.

use crate::plot::log_plot;
use crate::positions::random_positions;
use crate::proving::{mate_search, Mate};
use crate::report::csv_field;
use crate::solvers::{limits, value_by, Method, Solved};
use crate::Report;
use anyhow::{anyhow, Result};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::sync::Arc;
use zoo_core::{Oracle, Outcome};
use zoo_search::EngineGame;
use zoo_solve::Ghi;

/// The solvers of the experiment: PNS, df-pn in the `no-repetition-store`
/// and `path` GHI modes, and `zoo solve`'s default (the proof manager,
/// `path` with and without the remedies).
pub const METHODS: [Method; 4] = [
    Method::Pns,
    Method::DfPn(Ghi::NoRepetitionStore),
    Method::DfPn(Ghi::Path),
    Method::Manager,
];

/// One position: what each solver and alpha-beta found.
#[derive(Clone, Debug)]
pub struct Row {
    /// The position.
    pub fen: String,
    /// Pieces on the board.
    pub pieces: u32,
    /// Each method with what it found.
    pub solved: Vec<(Method, Solved)>,
    /// Alpha-beta with the tables, when asked for.
    pub alpha_beta: Option<Mate>,
}

impl Row {
    /// Each method's value, then alpha-beta's (a mate: a win or a loss)
    /// when it was asked.
    pub fn values(&self) -> Vec<Option<Outcome>> {
        let mut v: Vec<Option<Outcome>> = self.solved.iter().map(|(_, s)| s.value).collect();
        if let Some(a) = self.alpha_beta {
            v.push(a.mate.map(mate_value));
        }
        v
    }

    /// Values that contradict each other: two solvers' values, or a
    /// solver's and alpha-beta's mate (a mate is a win or a loss), as
    /// `(who, value, who, value)`.
    pub fn disagreements(&self) -> Vec<String> {
        let mut said: Vec<(String, Outcome)> = self
            .solved
            .iter()
            .filter_map(|(m, s)| s.value.map(|v| (m.name(), v)))
            .collect();
        if let Some(m) = self.alpha_beta.and_then(|a| a.mate) {
            said.push(("alpha-beta".into(), mate_value(m)));
        }
        let mut out = Vec::new();
        for (i, (a, va)) in said.iter().enumerate() {
            for (b, vb) in &said[i + 1..] {
                if va != vb {
                    out.push(format!("{a} {} against {b} {}", va.name(), vb.name()));
                }
            }
        }
        out
    }
}

/// Solves every position with each of `methods` (each question within
/// `nodes` nodes and `seconds`) and, when `ab_nodes` is not 0, alpha-beta
/// within that many nodes, all with `oracle` if there is one (else play
/// goes to the end of the game); `progress` hears of each.
pub fn run<G: EngineGame>(
    positions: &[G],
    oracle: Option<&Arc<dyn Oracle<G>>>,
    methods: &[Method],
    nodes: u64,
    seconds: f64,
    ab_nodes: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>> {
    let lim = limits(nodes, seconds);
    let mut rows = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let solved: Vec<(Method, Solved)> = methods
            .iter()
            .map(|&m| (m, value_by(m, pos, oracle.map(|o| &**o), &lim)))
            .collect();
        let alpha_beta = if ab_nodes > 0 {
            Some(mate_search(pos, oracle.cloned(), ab_nodes)?)
        } else {
            None
        };
        let row = Row {
            fen: pos.to_fen(),
            pieces: pos.piece_count(),
            solved,
            alpha_beta,
        };
        let mut line = format!("{}/{} {}:", i + 1, positions.len(), row.fen);
        for (m, s) in &row.solved {
            let _ = write!(
                line,
                " {} {} {};",
                m.name(),
                s.value.map_or("unknown", Outcome::name),
                s.nodes
            );
        }
        if let Some(a) = row.alpha_beta {
            let _ = write!(line, " alpha-beta {} {}", mate_name(a.mate), a.nodes);
        }
        for d in row.disagreements() {
            let _ = write!(line, " DISAGREE: {d}");
        }
        progress(&line);
        rows.push(row);
    }
    Ok(rows)
}

/// The value a mate score proves for the side to move.
pub fn mate_value(m: i32) -> Outcome {
    if m > 0 {
        Outcome::Win
    } else {
        Outcome::Loss
    }
}

/// A mate score as the value it proves.
fn mate_name(m: Option<i32>) -> &'static str {
    match m {
        Some(m) if m > 0 => "win",
        Some(_) => "loss",
        None => "unknown",
    }
}

/// The median of `v` (sorted here), `–` when empty.
fn median(mut v: Vec<u64>) -> String {
    v.sort_unstable();
    v.get(v.len() / 2).map_or("–".into(), u64::to_string)
}

/// What a run was asked to do, for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Sizes {
    /// Piece counts.
    pub pieces: Vec<u32>,
    /// Positions per piece count.
    pub positions: usize,
    /// Nodes at most a question (PNS: held; df-pn: MID calls).
    pub nodes: u64,
    /// Seconds at most a question.
    pub seconds: f64,
    /// Alpha-beta's nodes at most a position (0: no alpha-beta).
    pub ab_nodes: u64,
}

/// The experiment's files, `<name>-<game>.{md,csv,svg}`: every position
/// (CSV), the summary by number of pieces and method with the agreement
/// counts (Markdown), and the nodes of each method, positions sorted by
/// them (SVG, log scale, titled `<game>: <title>`). `tables` says what
/// the oracle was.
pub fn report(
    name: &str,
    title: &str,
    game: &str,
    tables: &str,
    rows: &[Row],
    sizes: &Sizes,
) -> Result<Report> {
    let methods: Vec<Method> = rows
        .first()
        .map_or_else(Vec::new, |r| r.solved.iter().map(|s| s.0).collect());
    let mut csv = String::from("pieces,fen,method,result,answers,nodes,bytes_held,seconds\n");
    for r in rows {
        for (m, s) in &r.solved {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{:.4}",
                r.pieces,
                csv_field(&r.fen),
                m.name(),
                s.value.map_or("unknown", Outcome::name),
                s.answers_text(),
                s.nodes,
                s.held,
                s.seconds
            );
        }
        if let Some(a) = r.alpha_beta {
            let _ = writeln!(
                csv,
                "{},{},alpha-beta,{},,{},,{:.4}",
                r.pieces,
                csv_field(&r.fen),
                mate_name(a.mate),
                a.nodes,
                a.seconds
            );
        }
    }
    let mut md = String::from(
        "| pieces | positions | method | win | draw | loss | unknown | nodes: median of the decided | all | seconds |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut counts: Vec<u32> = rows.iter().map(|r| r.pieces).collect();
    counts.sort_unstable();
    counts.dedup();
    for &n in &counts {
        let of: Vec<&Row> = rows.iter().filter(|r| r.pieces == n).collect();
        let mut line = |name: String, vals: Vec<(Option<Outcome>, u64, f64)>| {
            let c = |o: Option<Outcome>| vals.iter().filter(|v| v.0 == o).count();
            let all: u64 = vals.iter().map(|v| v.1).sum();
            let secs: f64 = vals.iter().map(|v| v.2).sum();
            let _ = writeln!(
                md,
                "| {n} | {} | {name} | {} | {} | {} | {} | {} | {all} | {secs:.1} |",
                of.len(),
                c(Some(Outcome::Win)),
                c(Some(Outcome::Draw)),
                c(Some(Outcome::Loss)),
                c(None),
                median(vals.iter().filter(|v| v.0.is_some()).map(|v| v.1).collect()),
            );
        };
        for (k, m) in methods.iter().enumerate() {
            line(
                m.name(),
                of.iter()
                    .map(|r| {
                        let s = &r.solved[k].1;
                        (s.value, s.nodes, s.seconds)
                    })
                    .collect(),
            );
        }
        if sizes.ab_nodes > 0 {
            line(
                "alpha-beta (mate found)".into(),
                of.iter()
                    .filter_map(|r| r.alpha_beta)
                    .map(|a| (a.mate.map(mate_value), a.nodes, a.seconds))
                    .collect(),
            );
        }
    }
    // Agreement: for each pair of methods, the positions both decided and
    // how many of them they valued differently.
    let mut who: Vec<String> = methods.iter().map(|m| m.name()).collect();
    if sizes.ab_nodes > 0 {
        who.push("alpha-beta".into());
    }
    let values: Vec<Vec<Option<Outcome>>> = rows.iter().map(Row::values).collect();
    let _ = writeln!(md, "\n| methods | both decided | disagree |\n|---|---|---|");
    for (i, a) in who.iter().enumerate() {
        for (j, b) in who.iter().enumerate().skip(i + 1) {
            let both: Vec<(Outcome, Outcome)> = values
                .iter()
                .filter_map(|v| Some((v[i]?, v.get(j).copied().flatten()?)))
                .collect();
            let differ = both.iter().filter(|(x, y)| x != y).count();
            let _ = writeln!(md, "| {a} / {b} | {} | {differ} |", both.len());
        }
    }
    let bad: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            r.disagreements()
                .into_iter()
                .map(move |d| format!("`{}`: {d}", r.fen))
        })
        .collect();
    if !bad.is_empty() {
        let _ = writeln!(md, "\nDisagreements (bugs):\n");
        for b in &bad {
            let _ = writeln!(md, "- {b}");
        }
    }
    let _ = writeln!(
        md,
        "\nWith {tables}. Each solver question at most {} nodes (PNS: held; df-pn: MID calls) and {} s; {}\"all\" counts an undecided position's whole budget.",
        sizes.nodes,
        sizes.seconds,
        if sizes.ab_nodes > 0 {
            format!("alpha-beta at most {} nodes a position; ", sizes.ab_nodes)
        } else {
            String::new()
        }
    );
    let mut series: Vec<(String, Vec<(u32, f64)>)> = Vec::new();
    for (k, m) in methods.iter().enumerate() {
        let mut ns: Vec<u64> = rows.iter().map(|r| r.solved[k].1.nodes).collect();
        ns.sort_unstable();
        series.push((
            m.name(),
            ns.iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1, n.max(1) as f64))
                .collect(),
        ));
    }
    let labels: Vec<String> = (0..=rows.len()).map(|i| i.to_string()).collect();
    let svg = log_plot(
        &format!("{game}: {title}"),
        "positions, sorted by the method's nodes",
        &labels,
        &series,
    )?;
    Ok(Report {
        files: vec![
            (format!("{name}-{game}.md"), md.clone()),
            (format!("{name}-{game}.csv"), csv),
            (format!("{name}-{game}.svg"), svg),
        ],
        summary: Some(md),
    })
}

/// Draws `sizes.positions` positions of each piece count with `seed`
/// (more pieces than `oracle` holds), then solves them with it.
pub fn with_tables<G: EngineGame>(
    rules: &G::Rules,
    oracle: Arc<dyn Oracle<G>>,
    tables: &str,
    sizes: &Sizes,
    seed: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    if let Some(&n) = sizes
        .pieces
        .iter()
        .find(|&&n| n <= oracle.complete_pieces())
    {
        return Err(anyhow!(
            "positions of {n} pieces are in the tables already ({tables}): ask for more pieces"
        ));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for &n in &sizes.pieces {
        positions.extend(random_positions::<G>(rules, n, sizes.positions, &mut rng)?);
    }
    let rows = run(
        &positions,
        Some(&oracle),
        &METHODS,
        sizes.nodes,
        sizes.seconds,
        sizes.ab_nodes,
        progress,
    )?;
    report(
        "with-tables",
        "solving beyond the tables",
        G::start(rules).game_name(),
        &format!("{tables} as the oracle"),
        &rows,
        sizes,
    )
}
