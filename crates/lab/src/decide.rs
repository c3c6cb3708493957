//! Issue 34's samples: does the default proof search (df-pn's proof
//! manager, [`zoo_solve::manager`]) decide every position the tables
//! know, the hardest included? Positions of one size, valued by its
//! tables: the longest wins and losses of the tables (the caller finds
//! them), random draws and random positions of any value. Each is solved
//! for its value with smaller tables as the oracle, or none; every answer
//! is compared with the table's, and the calls and seconds of each are
//! kept: the summary gives, per kind of position, how many were decided,
//! wrong or left unknown, and the median and largest calls and seconds.

use crate::plot::log_plot_of;
use crate::positions::{random_valued_from, Pool};
use crate::report::csv_field;
use crate::solvers::{by_manager, Manager};
use crate::Report;
use anyhow::Result;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use zoo_core::{Game, MaterialBuilder, Oracle, OracleValue, Outcome};
use zoo_solve::manager::GraphSlot;
use zoo_solve::{answers_for, solve_value_sharing, Answer, Goal, Limits};

/// One position of the sample and where it came from.
#[derive(Clone, Debug)]
pub struct Case<G> {
    /// The position.
    pub pos: G,
    /// `longest-win`, `longest-loss`, `draw` or `random`.
    pub kind: &'static str,
    /// Its value for the side to move, by the tables.
    pub value: Outcome,
    /// Its distance in plies when decisive (the tables' own).
    pub distance: Option<u16>,
}

/// What the solver made of one case.
#[derive(Clone, Debug)]
pub struct Row {
    /// The position's FEN.
    pub fen: String,
    /// Its kind ([`Case::kind`]).
    pub kind: &'static str,
    /// The tables' value.
    pub value: Outcome,
    /// The tables' distance.
    pub distance: Option<u16>,
    /// The value found, `None` when a limit left it open.
    pub found: Option<Outcome>,
    /// Whether an answer contradicted the tables.
    pub wrong: bool,
    /// The question that decided, when one did.
    pub decided_by: Option<Goal>,
    /// MID calls of both questions together, every run of the manager.
    pub calls: u64,
    /// Seconds of both questions together.
    pub seconds: f64,
}

/// Positions with their distances in plies.
pub type WithDistances<G> = Vec<(G, u16)>;

/// The sample: the longest `wins` and `losses` (found by the caller in
/// the tables), then `draws` random draws and `positions` random
/// positions of `pool` (checked) valued by `oracle`, drawn with `seed`.
pub fn sample<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    pool: &Pool,
    (wins, losses): (WithDistances<G>, WithDistances<G>),
    (draws, positions): (usize, usize),
    seed: u64,
) -> Result<Vec<Case<G>>> {
    let mut cases: Vec<Case<G>> = Vec::new();
    for (list, kind, value) in [
        (wins, "longest-win", Outcome::Win),
        (losses, "longest-loss", Outcome::Loss),
    ] {
        cases.extend(list.into_iter().map(|(pos, d)| Case {
            pos,
            kind,
            value,
            distance: Some(d),
        }));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    for (count, kind) in [(draws, "draw"), (positions, "random")] {
        let keep = |o: Outcome| kind == "random" || o == Outcome::Draw;
        for (pos, value) in random_valued_from::<G>(rules, oracle, pool, count, &keep, &mut rng)? {
            cases.push(Case {
                distance: oracle
                    .probe(&pos)
                    .and_then(|v| v.distance)
                    .filter(|_| value != Outcome::Draw),
                pos,
                kind,
                value,
            });
        }
    }
    Ok(cases)
}

/// The tables of at most `max` pieces: the oracle a solve of larger
/// positions is given (`max` 0: none at all, play to the end).
pub struct UpTo<'a, G> {
    /// The tables.
    pub inner: &'a dyn Oracle<G>,
    /// The most pieces probed.
    pub max: u32,
}

impl<G: Game> Oracle<G> for UpTo<'_, G> {
    fn max_pieces(&self) -> u32 {
        self.max.min(self.inner.max_pieces())
    }
    fn complete_pieces(&self) -> u32 {
        self.max.min(self.inner.complete_pieces())
    }
    fn probe(&self, pos: &G) -> Option<OracleValue> {
        if pos.piece_count() > self.max {
            return None;
        }
        self.inner.probe(pos)
    }
}

/// Solves every case for its value with the default proof manager, each
/// question within `limits`, with `oracle` (if any) as leaves and
/// `builder` (if any) to build a root's material table from it; `first`
/// says which question to ask first (the caller's engine guess, as
/// `zoo solve` does). `progress` hears of each case.
pub fn run<G: Game>(
    cases: &[Case<G>],
    oracle: Option<&dyn Oracle<G>>,
    builder: Option<&dyn MaterialBuilder<G>>,
    limits: &Limits,
    how: &Manager,
    first: &dyn Fn(&G) -> Goal,
    progress: &mut dyn FnMut(&str),
) -> Vec<Row> {
    let mut rows = Vec::with_capacity(cases.len());
    for (i, c) in cases.iter().enumerate() {
        let (mut calls, mut seconds) = (0u64, 0.0);
        let mut graph = GraphSlot::with_builder(builder);
        // A side's win found settles both questions: an open first one is
        // asked again for it.
        let settles_both = std::cell::Cell::new(false);
        let (found, asked) = solve_value_sharing(
            first(&c.pos),
            |goal| {
                let r = by_manager(&c.pos, goal, oracle, limits, &mut graph, how);
                settles_both.set(graph.settles_both());
                match r {
                    Some(r) => {
                        calls += r.nodes;
                        seconds += r.seconds;
                        r.answer
                    }
                    // The table did not fit: counted as open.
                    None => Answer::Unknown,
                }
            },
            || settles_both.get(),
        );
        let (want_win, want_not_lose) = answers_for(c.value);
        let wrong = asked.iter().any(|&(g, a)| {
            let want = match g {
                Goal::Win => want_win,
                Goal::NotLose => want_not_lose,
            };
            a != Answer::Unknown && a != want
        });
        let decided_by = found.and_then(|_| asked.last()).map(|&(g, _)| g);
        let row = Row {
            fen: c.pos.to_fen(),
            kind: c.kind,
            value: c.value,
            distance: c.distance,
            found,
            wrong,
            decided_by,
            calls,
            seconds,
        };
        progress(&format!(
            "{}/{} {} {} ({}{}): {} in {} calls, {:.2} s",
            i + 1,
            cases.len(),
            row.kind,
            row.fen,
            row.value.name(),
            row.distance.map_or(String::new(), |d| format!(" in {d}")),
            said(&row),
            row.calls,
            row.seconds
        ));
        rows.push(row);
    }
    rows
}

/// `win`/`draw`/`loss`, `unknown`, or `WRONG`.
fn said(r: &Row) -> &'static str {
    if r.wrong {
        "WRONG"
    } else {
        r.found.map_or("unknown", Outcome::name)
    }
}

/// The median and the largest of `v`.
fn median_max<T: PartialOrd + Copy + Default>(mut v: Vec<T>) -> (T, T) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    (
        v.get(v.len() / 2).copied().unwrap_or_default(),
        v.last().copied().unwrap_or_default(),
    )
}

/// The files: every case (`decide-<game>-<pieces>.csv`), the summary by
/// kind (`.md`) and the calls of each case, cases sorted by them (`.svg`,
/// log scale). `what` names the sample in the titles ("3-piece Jungle
/// without tables").
pub fn report(game: &str, pieces: u32, what: &str, rows: &[Row]) -> Result<Report> {
    let stem = format!("decide-{game}-{pieces}");
    let mut csv = String::from("fen,kind,value,distance,found,decided_by,calls,seconds\n");
    for r in rows {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{:.3}",
            csv_field(&r.fen),
            r.kind,
            r.value.name(),
            r.distance.map_or(String::new(), |d| d.to_string()),
            said(r),
            r.decided_by.map_or("", Goal::name),
            r.calls,
            r.seconds
        );
    }
    let mut md = format!(
        "{what}: {} positions, each solved for its value by the proof manager (by default df-pn, the ply-bounded df-pn and the strategy search; where their quick runs leave a question open, the reachable graph, or one piece past the tables the material's table built in memory; calls: df-pn's MID calls, the strategy search's positions expanded, and the graph's positions or the table's entries)\n\n\
         | kind | positions | decided | unknown | wrong | median calls | most calls | median s | most s |\n\
         |---|---|---|---|---|---|---|---|---|\n",
        rows.len()
    );
    // The kinds in the order they first appear, then all rows together.
    let mut kinds: Vec<&str> = Vec::new();
    for r in rows.iter() {
        if !kinds.contains(&r.kind) {
            kinds.push(r.kind);
        }
    }
    kinds.push("all");
    for kind in kinds {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| kind == "all" || r.kind == kind)
            .collect();
        let (mc, xc) = median_max(of.iter().map(|r| r.calls).collect());
        let (ms, xs) = median_max(of.iter().map(|r| r.seconds).collect());
        let _ = writeln!(
            md,
            "| {kind} | {} | {} | {} | {} | {mc} | {xc} | {ms:.3} | {xs:.3} |",
            of.len(),
            of.iter().filter(|r| r.found.is_some() && !r.wrong).count(),
            of.iter().filter(|r| r.found.is_none()).count(),
            of.iter().filter(|r| r.wrong).count(),
        );
    }
    let mut sorted: Vec<u64> = rows.iter().map(|r| r.calls.max(1)).collect();
    sorted.sort_unstable();
    let series = vec![(
        "df-pn, proof manager".to_string(),
        sorted
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 + 1, c as f64))
            .collect(),
    )];
    let labels: Vec<String> = (1..=sorted.len()).map(|i| i.to_string()).collect();
    let svg = log_plot_of(
        &format!("{what}: MID calls per position, sorted"),
        "position (sorted by calls)",
        "MID calls",
        &labels,
        &series,
    )?;
    Ok(Report {
        files: vec![
            (format!("{stem}.md"), md.clone()),
            (format!("{stem}.csv"), csv),
            (format!("{stem}.svg"), svg),
        ],
        summary: Some(md),
    })
}
