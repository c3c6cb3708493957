//! A proof manager for df-pn: one question run under several settings in
//! turn, in rounds of growing budgets, each setting going on from its own
//! table of the round before. (A value's two questions, in the order a
//! caller's guess suggests: [`crate::value::solve_value_from`].)
//!
//! Why (docs/solve.md, "The proof manager"): no single df-pn setting
//! decides every small endgame fast. Plain df-pn ([`Remedies::NONE`])
//! is quickest on most positions and derives proofs cheaply, but on some
//! losses its disproof number is overestimated through transpositions
//! and never reaches zero; with the remedies ([`Remedies::ALL`]) those
//! are decided in a few hundred thousand calls, while some wins cost
//! several times more and their proofs may not derive. Running both, a
//! doubling budget each, costs at most a small multiple of the better
//! one on every position, and a setting whose decided answer gave no
//! proof leaves the question to the others.
//!
//! Soundness is the settings' own: every run uses the caller's graph-
//! history mode, and a table handed from one round to the next keeps only
//! entries that hold on any path ([`crate::dfpn::TableView`]).
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::Game;
//! use zoo_solve::manager::{solve_goal, Plan};
//! use zoo_solve::{dfpn, Answer, Goal, Limits};
//!
//! // White's rat is next to Black's den: it walks in.
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let opts = dfpn::Options { proof: true, ..dfpn::Options::default() };
//! let m = solve_goal(&pos, Goal::Win, None, &Limits::nodes(10_000), &opts, &Plan::default()).unwrap();
//! assert_eq!(m.report.answer, Answer::Proven);
//! assert!(m.report.proof.is_some());
//! assert_eq!(m.decided_by, Some(dfpn::Remedies::NONE));
//! ```

use crate::dfpn::{self, Options, Remedies, Resume};
use crate::limits::{Limits, Report};
use crate::value::{Answer, Goal};
use std::io;
use std::time::{Duration, Instant};
use zoo_core::{Game, Oracle};

/// How the manager spends a question's budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The settings run in turn within each round.
    pub settings: Vec<Remedies>,
    /// MID calls of each setting's first round.
    pub first_round: u64,
    /// Each round's budget is the last one's times this (at least 2).
    pub growth: u64,
}

impl Default for Plan {
    /// Plain df-pn, then both remedies; 50,000 calls each at first,
    /// doubling: the budgets measured best on the samples of
    /// docs/solve.md, "The proof manager".
    fn default() -> Self {
        Plan {
            settings: vec![Remedies::NONE, Remedies::ALL],
            first_round: 50_000,
            growth: 2,
        }
    }
}

/// What the manager found for one question.
#[derive(Debug, Clone)]
pub struct Managed<M> {
    /// The deciding run's report (or the last run's when none decided),
    /// with `nodes`, `expansions` and `seconds` summed over every run of
    /// the question (derivations' calls are in `derivation`, summed too).
    pub report: Report<M>,
    /// The setting whose run decided it.
    pub decided_by: Option<Remedies>,
    /// Runs made (settings × rounds).
    pub runs: u32,
}

/// One setting's state between its rounds.
struct Track {
    remedies: Remedies,
    /// Its table as the last round left it (entries that hold on any
    /// path), and how many entries that is.
    saved: Vec<u8>,
    entries: u64,
    /// MID calls of all its rounds so far.
    calls: u64,
    /// Its run decided the question but derived no proof: not run again.
    spent: bool,
}

/// Solves `goal` at `root` under `plan`: each round runs every setting
/// with the round's budget of MID calls, going on from its own table,
/// until one decides (and, when `opts.proof` asks for one, derives its
/// proof) or `limits` (calls and time over all runs together, a stop
/// request) end it. An answer decided without a proof is still the
/// answer; the other settings then go on for a proof within the limits.
///
/// `opts.remedies` is ignored: the plan's settings replace it.
pub fn solve_goal<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    plan: &Plan,
) -> io::Result<Managed<G::Move>> {
    let start = Instant::now();
    let mut tracks: Vec<Track> = plan
        .settings
        .iter()
        .map(|&remedies| Track {
            remedies,
            saved: Vec::new(),
            entries: 0,
            calls: 0,
            spent: false,
        })
        .collect();
    let mut budget = plan.first_round.max(1);
    let (mut total_calls, mut derived_calls, mut expansions) = (0u64, 0u64, 0u64);
    let mut runs = 0u32;
    // The first decided answer that came without a proof, kept in case no
    // other setting gives one.
    let mut unproved: Option<(Report<G::Move>, Remedies)> = None;
    let mut last: Option<Report<G::Move>> = None;
    let finish = |mut r: Report<G::Move>, by, runs, calls, derived, expansions| {
        r.nodes = calls;
        r.expansions = expansions;
        r.seconds = start.elapsed().as_secs_f64();
        if let Some(d) = r.derivation.as_mut() {
            d.calls = derived;
        }
        Managed {
            report: r,
            decided_by: by,
            runs,
        }
    };
    loop {
        let mut ran = false;
        for t in tracks.iter_mut().filter(|t| !t.spent) {
            let calls_left = limits
                .nodes
                .map_or(u64::MAX, |n| n.saturating_sub(total_calls + derived_calls));
            let time_left = limits.time.map(|t| t.saturating_sub(start.elapsed()));
            if calls_left == 0
                || time_left.is_some_and(|t| t.is_zero())
                || limits.stop.is_some_and(|s| s())
            {
                break;
            }
            let this_round = budget.min(calls_left);
            let run_limits = Limits {
                nodes: Some(t.calls.saturating_add(this_round)),
                time: time_left,
                ..*limits
            };
            let run_opts = Options {
                remedies: t.remedies,
                ..*opts
            };
            let mut next: Option<(Vec<u8>, u64)> = None;
            let mut keep = |view: &dfpn::TableView<'_>| -> io::Result<()> {
                let mut bytes = Vec::new();
                view.write_to(&mut bytes)?;
                next = Some((bytes, view.len()));
                Ok(())
            };
            let mut from = io::Cursor::new(std::mem::take(&mut t.saved));
            let resume = Resume {
                from: (t.entries > 0).then_some((&mut from as &mut dyn io::Read, t.entries)),
                calls: t.calls,
                save: Some((&mut keep, Duration::MAX)),
            };
            let r = dfpn::solve_resumable(root, goal, oracle, &run_limits, &run_opts, resume)?;
            runs += 1;
            ran = true;
            total_calls += r.nodes.saturating_sub(t.calls);
            expansions += r.expansions.saturating_sub(t.calls);
            derived_calls += r.derivation.map_or(0, |d| d.calls);
            t.calls = r.nodes;
            if let Some((bytes, n)) = next {
                t.saved = bytes;
                t.entries = n;
            }
            if r.answer != Answer::Unknown {
                if !opts.proof || r.proof.is_some() {
                    return Ok(finish(
                        r,
                        Some(t.remedies),
                        runs,
                        total_calls,
                        derived_calls,
                        expansions,
                    ));
                }
                t.spent = true;
                if unproved.is_none() {
                    unproved = Some((r, t.remedies));
                }
            } else {
                last = Some(r);
            }
        }
        let open = tracks.iter().any(|t| !t.spent);
        if !ran || !open {
            break;
        }
        budget = budget.saturating_mul(plan.growth.max(2));
    }
    Ok(match (unproved, last) {
        (Some((r, by)), _) => finish(r, Some(by), runs, total_calls, derived_calls, expansions),
        (None, Some(r)) => finish(r, None, runs, total_calls, derived_calls, expansions),
        // No run at all: the limits were spent before the first.
        (None, None) => {
            let r = dfpn::solve_resumable(
                root,
                goal,
                oracle,
                &Limits {
                    nodes: Some(0),
                    ..*limits
                },
                opts,
                Resume::default(),
            )?;
            finish(r, None, runs, total_calls, derived_calls, expansions)
        }
    })
}
