//! The manager's rounds: every unit of a question (a df-pn setting's run,
//! a ply-bounded search for one side's win, the strategy search) gets its
//! share of a growing budget, round after round, each going on where its
//! last round stopped.
//!
//! With [`Plan::workers`] above 1 the units are split among that many
//! workers, one thread each (the ply-bounded searches on workers of their
//! own, then by their shares: [`deal`]). Each worker runs its own units' rounds as
//! the single worker would run them all; they share the question's calls
//! and time, and the first to decide it (with its proof where one is
//! asked for) stops the others at their next look at the clock. Why: one
//! question's units are independent searches, so on a machine with
//! several cores each gets a core's time instead of its share of one
//! (docs/solve.md, "The manager's workers").

use super::{bounded_report, calls_left, time_left, Method, Plan, Setting, TABLE_MB};
use crate::dfpn::{Options, Remedies, Resume, Run};
use crate::limits::{CancelScope, Limits, Report};
use crate::value::{Answer, Goal};
use crate::{bounded, fortress};
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;
use zoo_core::{Game, Oracle};

/// A worker thread's stack: df-pn recurses as deep as its lines go, as on
/// a process's main thread (reserved, not used, until needed).
const WORKER_STACK: usize = 64 << 20;

/// The question the rounds search, and what bounds them.
pub(super) struct Question<'q, 'a, G: Game> {
    pub root: &'q G,
    pub goal: Goal,
    pub oracle: Option<&'a dyn Oracle<G>>,
    pub limits: &'q Limits,
    pub opts: &'q Options,
    pub plan: &'q Plan,
    pub start: Instant,
    /// The df-pn settings in the order they run, each with its weight.
    pub settings: Vec<(Setting, u64)>,
    /// The strategy search's weight in this question.
    pub fortress_share: u64,
}

/// An answer one unit decided.
pub(super) struct Decided<M> {
    pub report: Report<M>,
    /// The df-pn setting that decided it (`None`: another search).
    pub by: Option<Setting>,
    pub method: Method,
    /// The ply-bounded search's bound, when it decided.
    pub bound: Option<u16>,
}

/// What the rounds found.
pub(super) struct Outcome<M> {
    /// The answer, with its proof where one was asked for.
    pub decided: Option<Decided<M>>,
    /// The first answer decided without the proof asked for.
    pub unproved: Option<Decided<M>>,
    /// When nothing was decided: the report of the df-pn run that made
    /// the most calls.
    pub last: Option<(u64, Report<M>)>,
    /// Runs made (units × rounds).
    pub rounds: u32,
    /// Calls of the searches, and of the proofs' derivations.
    pub calls: u64,
    pub derived: u64,
}

/// Where one setting's run stands.
enum Slot<'a, G: Game> {
    /// Its first round has not come yet: no table made.
    Waiting,
    Running(Box<Run<'a, G>>),
    /// Decided (without the proof asked for) and finished, or left out
    /// because its table did not fit beside the others.
    Done,
}

/// What the workers share.
struct Shared {
    /// Calls of every unit so far (the question's `--nodes` counts them all).
    spent: AtomicU64,
    /// Tables made: a later unit whose table does not fit sits out rather
    /// than throw away the work of those made before it.
    made: AtomicU32,
    /// Set by the worker that decides the question.
    cancel: Arc<AtomicBool>,
}

impl Shared {
    fn calls_left(&self, limits: &Limits, start: Instant) -> Option<u64> {
        if self.cancel.load(Relaxed) {
            return None;
        }
        calls_left(limits, start, self.spent.load(Relaxed))
    }

    fn spend(&self, calls: u64) {
        self.spent.fetch_add(calls, Relaxed);
    }
}

/// One worker's units: its df-pn settings (each with its weight), the
/// ply-bounded searches it runs (`None`: another worker's, or not run),
/// the strategy search if it runs it.
struct Worker<'g, 'a, G: Game> {
    /// Its settings' runs are made on its own thread (a run's table
    /// saver need not be `Send`).
    runs: Vec<(Setting, u64)>,
    bounded: [Option<&'g mut Option<bounded::Search<'a, G>>>; 2],
    fortress: Option<&'g mut Option<fortress::Search<'a, G>>>,
    /// An answer decided before the rounds, without its proof.
    unproved: Option<Decided<G::Move>>,
}

/// A unit, to be given to a worker.
#[derive(Clone, Copy)]
enum Unit {
    Run(usize),
    Bounded(usize),
    Fortress,
}

/// Runs the question's rounds: the settings of `q`, the ply-bounded
/// searches of `bounded` whose side is not `bounded_done` (made here when
/// first needed, kept there for the value's other question), and the
/// strategy search of `fortress` unless `fortress_done`. `unproved`: an
/// answer decided before, without its proof.
pub(super) fn run<'a, G: Game>(
    q: &Question<'_, 'a, G>,
    bounded: &mut [Option<bounded::Search<'a, G>>; 2],
    bounded_done: [bool; 2],
    fortress: &mut Option<fortress::Search<'a, G>>,
    fortress_done: bool,
    unproved: Option<Decided<G::Move>>,
) -> io::Result<Outcome<G::Move>> {
    let mut units: Vec<(Unit, u64)> = q
        .settings
        .iter()
        .enumerate()
        .map(|(i, &(_, w))| (Unit::Run(i), w))
        .collect();
    for (side, &done) in bounded_done.iter().enumerate() {
        if !done {
            units.push((Unit::Bounded(side), q.plan.bounded));
        }
    }
    if !fortress_done {
        units.push((Unit::Fortress, q.fortress_share));
    }
    let n = q.plan.workers.clamp(1, units.len().max(1));
    let owner = deal(&units, n);
    let mut workers: Vec<Worker<'_, 'a, G>> = (0..n)
        .map(|_| Worker {
            runs: Vec::new(),
            bounded: [None, None],
            fortress: None,
            unproved: None,
        })
        .collect();
    workers[0].unproved = unproved;
    let [b0, b1] = bounded;
    let (mut b0, mut b1, mut f) = (Some(b0), Some(b1), Some(fortress));
    for (i, &(unit, weight)) in units.iter().enumerate() {
        let w = &mut workers[owner[i]];
        match unit {
            Unit::Run(j) => w.runs.push((q.settings[j].0, weight)),
            Unit::Bounded(0) => w.bounded[0] = b0.take(),
            Unit::Bounded(_) => w.bounded[1] = b1.take(),
            Unit::Fortress => w.fortress = f.take(),
        }
    }
    let shared = Shared {
        spent: AtomicU64::new(0),
        made: AtomicU32::new(0),
        cancel: Arc::new(AtomicBool::new(false)),
    };
    if n == 1 {
        let w = workers.pop().expect("one worker");
        return work(q, &shared, w);
    }
    let shared = &shared;
    let results: Vec<io::Result<Outcome<G::Move>>> = std::thread::scope(|s| {
        let handles = workers
            .into_iter()
            .map(|w| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(s, move || {
                        let _scope = CancelScope::new(shared.cancel.clone());
                        let got = work(q, shared, w);
                        // An error ends the question: the others stop too.
                        if got.is_err() {
                            shared.cancel.store(true, Relaxed);
                        }
                        got
                    })
            })
            .collect::<Vec<_>>();
        // A worker the system will not start ends the question with its
        // error: the others stop now rather than run on for nothing.
        if handles.iter().any(|h| h.is_err()) {
            shared.cancel.store(true, Relaxed);
        }
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(e) => {
                    shared.cancel.store(true, Relaxed);
                    Err(e)
                }
            })
            .collect()
    });
    combine(results)
}

/// Which worker runs each unit, of `n`. The ply-bounded searches get
/// workers of their own (their part of the workers by count of units, at
/// least one): their calls cost a fifth of `tca,wpn`'s and a third of
/// the strategy search's, so dealt by calls beside them they would get a
/// seventh of a core, where the longest wins need about 1.6·10⁸ of their
/// calls (docs/solve.md, "The manager's workers"). Within each part, the
/// largest share first, each to the least loaded worker. One worker:
/// every unit in the single-threaded order.
fn deal(units: &[(Unit, u64)], n: usize) -> Vec<usize> {
    let mut owner = vec![0usize; units.len()];
    if n <= 1 {
        return owner;
    }
    let is_bounded = |u: &Unit| matches!(u, Unit::Bounded(_));
    let nb = units.iter().filter(|(u, _)| is_bounded(u)).count();
    let rest = units.len() - nb;
    // Workers for the bounded searches: at least one, and one left for
    // the rest (when there is a rest).
    let kb = match (nb, rest) {
        (0, _) => 0,
        (_, 0) => n,
        _ => (n * nb / units.len()).clamp(1, n - 1),
    };
    let mut load = vec![0u64; n];
    for (bounded, range) in [(false, kb..n), (true, 0..kb)] {
        let mut order: Vec<usize> = (0..units.len())
            .filter(|&i| is_bounded(&units[i].0) == bounded)
            .collect();
        order.sort_by_key(|&i| std::cmp::Reverse(units[i].1));
        for i in order {
            let k = range
                .clone()
                .min_by_key(|&k| (load[k], k))
                .unwrap_or(range.start);
            load[k] += units[i].1.max(1);
            owner[i] = k;
        }
    }
    owner
}

/// The workers' outcomes as one: the first decided answer (by the
/// workers' order), else the first unproved one, else the report of the
/// run that made the most calls; the calls and runs summed.
fn combine<M>(results: Vec<io::Result<Outcome<M>>>) -> io::Result<Outcome<M>> {
    let mut all = Outcome {
        decided: None,
        unproved: None,
        last: None,
        rounds: 0,
        calls: 0,
        derived: 0,
    };
    for r in results {
        let o = r?;
        all.rounds += o.rounds;
        all.calls += o.calls;
        all.derived += o.derived;
        if all.decided.is_none() {
            all.decided = o.decided;
        }
        if all.unproved.is_none() {
            all.unproved = o.unproved;
        }
        if let Some((c, r)) = o.last {
            if all.last.as_ref().is_none_or(|(best, _)| c > *best) {
                all.last = Some((c, r));
            }
        }
    }
    Ok(all)
}

/// A setting's run, made when its first round comes: most questions are
/// decided in the first setting's first round, and clearing a second
/// table of 128 MB would cost more than deciding them (docs/log/solve.md).
/// A run made later gets what is left of the question's time.
pub(super) fn new_run<'a, G: Game>(
    q: &Question<'_, 'a, G>,
    (ghi, remedies): Setting,
) -> io::Result<Run<'a, G>> {
    let run_opts = Options {
        ghi,
        remedies,
        ..*q.opts
    };
    let memory_mb = match q.plan.plain_mb {
        Some(cap) if remedies == Remedies::NONE => q.limits.memory_mb.map(|m| m.min(cap)),
        _ => q.limits.memory_mb,
    };
    let left = Limits {
        memory_mb,
        ..time_left(q.limits, q.start)
    };
    Run::new(
        q.root,
        q.goal,
        q.oracle,
        &left,
        &run_opts,
        Resume::default(),
    )
}

/// One worker's rounds, until one of its units decides (it then stops
/// the others), every unit is done, or the limits end them.
fn work<'a, G: Game>(
    q: &Question<'_, 'a, G>,
    shared: &Shared,
    mut w: Worker<'_, 'a, G>,
) -> io::Result<Outcome<G::Move>> {
    let (limits, start, plan, opts) = (q.limits, q.start, q.plan, q.opts);
    let mut out = Outcome {
        decided: None,
        unproved: w.unproved.take(),
        last: None,
        rounds: 0,
        calls: 0,
        derived: 0,
    };
    let mut bounded_done = [w.bounded[0].is_none(), w.bounded[1].is_none()];
    let mut fortress_done = w.fortress.is_none();
    let mut runs: Vec<(Setting, u64, Slot<'a, G>)> = w
        .runs
        .iter()
        .map(|&(setting, weight)| (setting, weight, Slot::Waiting))
        .collect();
    let mut budget = plan.first_round.max(1);
    // Runs whose numbers stopped growing ([`Run::stuck`]).
    let mut stuck: Vec<Run<'_, G>> = Vec::new();
    let decide = |mut out: Outcome<G::Move>, d: Decided<G::Move>| {
        shared.cancel.store(true, Relaxed);
        out.decided = Some(d);
        Ok(out)
    };
    'rounds: loop {
        for (setting, weight, slot) in runs.iter_mut() {
            let Some(calls_left) = shared.calls_left(limits, start) else {
                break 'rounds;
            };
            if matches!(slot, Slot::Waiting) {
                match new_run(q, *setting) {
                    Ok(run) => {
                        *slot = Slot::Running(Box::new(run));
                        shared.made.fetch_add(1, Relaxed);
                    }
                    Err(_) if shared.made.load(Relaxed) > 0 => {
                        *slot = Slot::Done;
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            let Slot::Running(run) = slot else {
                continue;
            };
            let before = run.calls();
            let answer = run
                .go(before.saturating_add(budget.saturating_mul((*weight).max(1)).min(calls_left)));
            out.rounds += 1;
            out.calls += run.calls() - before;
            shared.spend(run.calls() - before);
            if answer == Answer::Unknown {
                if run.out_of_time() {
                    break 'rounds;
                }
                if run.stuck() {
                    // Its numbers can no longer grow: its budget goes to
                    // the others. Its report stays for when none decides.
                    let Slot::Running(run) = std::mem::replace(slot, Slot::Done) else {
                        unreachable!("the slot was running")
                    };
                    stuck.push(*run);
                }
                continue;
            }
            let Slot::Running(run) = std::mem::replace(slot, Slot::Done) else {
                unreachable!("the slot was running")
            };
            let r = run.finish();
            let derived = r.derivation.map_or(0, |d| d.calls);
            out.derived += derived;
            shared.spend(derived);
            let d = Decided {
                report: r,
                by: Some(*setting),
                method: Method::Dfpn,
                bound: None,
            };
            if !opts.proof || d.report.proof.is_some() {
                return decide(out, d);
            }
            out.unproved.get_or_insert(d);
        }
        // A side whose search another worker holds is done from the start.
        let held = w.bounded.iter_mut().map(|b| b.as_deref_mut());
        for (side, (done, slot)) in bounded_done.iter_mut().zip(held).enumerate() {
            let (false, Some(slot)) = (*done, slot) else {
                continue;
            };
            let Some(calls_left) = shared.calls_left(limits, start) else {
                break 'rounds;
            };
            if slot.is_none() {
                let prover = if side == 0 {
                    q.root.side_to_move()
                } else {
                    q.root.side_to_move().flip()
                };
                let left = time_left(limits, start);
                // The two searches share one setting's memory.
                let bopts = bounded::Options {
                    table_mb: (limits.memory_mb.unwrap_or(TABLE_MB) / 2).max(1),
                    epsilon: opts.epsilon,
                    ..bounded::Options::default()
                };
                match bounded::Search::new(q.root, prover, q.oracle, &left, &bopts) {
                    Ok(b) => {
                        *slot = Some(b);
                        shared.made.fetch_add(1, Relaxed);
                    }
                    Err(_) if shared.made.load(Relaxed) > 0 => {
                        *done = true;
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            let Some(b) = slot.as_mut() else { continue };
            // Searched in an earlier question: its clock starts again.
            b.restart_clock(&time_left(limits, start));
            let before = b.calls();
            let won =
                b.go(before.saturating_add(budget.saturating_mul(plan.bounded).min(calls_left)));
            out.rounds += 1;
            out.calls += b.calls() - before;
            shared.spend(b.calls() - before);
            if won.is_some() {
                let r = bounded_report(b, q.goal, opts.proof, limits, start);
                let derived = r.derivation.map_or(0, |d| d.calls);
                out.derived += derived;
                shared.spend(derived);
                let d = Decided {
                    report: r,
                    by: None,
                    method: Method::Dfpn,
                    bound: Some(b.bound()),
                };
                if !opts.proof || d.report.proof.is_some() {
                    return decide(out, d);
                }
                *done = true;
                out.unproved.get_or_insert(d);
            } else if b.out_of_time() {
                break 'rounds;
            } else if b.exhausted() {
                *done = true;
            }
        }
        if let (false, Some(slot)) = (fortress_done, w.fortress.as_deref_mut()) {
            let Some(calls_left) = shared.calls_left(limits, start) else {
                break 'rounds;
            };
            if slot.is_none() {
                // In `win` the other side keeps: its not losing disproves.
                let side = match q.goal {
                    Goal::Win => q.root.side_to_move().flip(),
                    _ => q.root.side_to_move(),
                };
                let left = Limits {
                    memory_mb: Some(
                        plan.fortress_mb
                            .unwrap_or(limits.memory_mb.unwrap_or(TABLE_MB)),
                    ),
                    ..time_left(limits, start)
                };
                *slot = fortress::Search::new(q.root, side, q.oracle, &left).ok();
            }
            match slot.as_mut() {
                None => fortress_done = true,
                Some(f) => {
                    f.restart_clock(&time_left(limits, start));
                    let before = f.calls();
                    let got = f.go(before
                        .saturating_add(budget.saturating_mul(q.fortress_share).min(calls_left)));
                    out.rounds += 1;
                    out.calls += f.calls() - before;
                    shared.spend(f.calls() - before);
                    if got.is_some() {
                        if let Some(r) = f.report(q.goal, opts.proof) {
                            let d = Decided {
                                report: r,
                                by: None,
                                method: Method::Strategy,
                                bound: None,
                            };
                            if !opts.proof || d.report.proof.is_some() {
                                return decide(out, d);
                            }
                            // Decided, its proof too large to write: the
                            // answer stands if no other run brings one.
                            out.unproved.get_or_insert(d);
                        }
                        fortress_done = true;
                    } else if f.out_of_time() {
                        break 'rounds;
                    } else if f.full() {
                        // Its memory goes back: no call can go on.
                        *slot = None;
                        fortress_done = true;
                    }
                }
            }
        }
        let runs_done = runs.iter().all(|(_, _, slot)| matches!(slot, Slot::Done));
        if let (true, Some(d)) = (runs_done, &out.unproved) {
            // Every setting is done, one with an answer but no proof: only
            // the side whose win gives that answer may still bring one
            // (proven: the root's side; disproven: the other).
            bounded_done[(d.report.answer == Answer::Proven) as usize] = true;
        }
        if bounded_done.iter().all(|&d| d) && runs_done && fortress_done {
            break;
        }
        budget = budget.saturating_mul(plan.growth.max(2));
    }
    // Nothing decided here: the report of the setting that worked most.
    out.last = runs
        .into_iter()
        .filter_map(|(_, _, slot)| match slot {
            Slot::Running(run) => Some(*run),
            _ => None,
        })
        .chain(stuck)
        .max_by_key(|r| r.calls())
        .map(|run| (run.calls(), run.finish()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default plan's units: plain df-pn, `tca,wpn`, the two
    /// ply-bounded searches, the strategy search.
    fn units() -> Vec<(Unit, u64)> {
        vec![
            (Unit::Run(0), 1),
            (Unit::Run(1), 3),
            (Unit::Bounded(0), 3),
            (Unit::Bounded(1), 3),
            (Unit::Fortress, 8),
        ]
    }

    #[test]
    fn the_bounded_searches_get_workers_of_their_own() {
        assert_eq!(deal(&units(), 1), [0; 5]);
        // Two: the bounded searches on one, the rest on the other.
        assert_eq!(deal(&units(), 2), [1, 1, 0, 0, 1]);
        // Three: the strategy search alone, df-pn's two settings together.
        assert_eq!(deal(&units(), 3), [2, 2, 0, 0, 1]);
        // Five: one each.
        let mut five = deal(&units(), 5);
        five.sort_unstable();
        assert_eq!(five, [0, 1, 2, 3, 4]);
        // No bounded search: the rest on every worker.
        let rest: Vec<_> = units()
            .into_iter()
            .filter(|(u, _)| !matches!(u, Unit::Bounded(_)))
            .collect();
        assert_eq!(deal(&rest, 2), [1, 1, 0]);
    }
}
