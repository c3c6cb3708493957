//! Parallel df-pn ([`super::Options::threads`]): threads search the same
//! root on one shared table, Lazy-SMP-like. The run's own thread searches
//! as one thread does; each helper chooses, at every node, among the
//! children it may search within its thresholds, by δ made up to a
//! quarter larger by a hash of its seed and the position, ties broken the
//! same way. The helpers thus go first into other subtrees than the own
//! thread, and what they solve is in the table when it gets there.
//!
//! The first thread to solve the root ends the run for all. Every value a
//! thread reads from the table is one some thread stored whole
//! ([`super::table`]) and holds on the path it is used on, so the answer
//! is the one thread's answer (docs/solve.md, "Parallel df-pn"); the
//! calls and the time it takes are not the same from run to run.

use super::table::mix;
use super::{open_below_saturation, Child, Leaves, Options, Remedies, Run, Search};
use crate::limits::{Limits, INF};
use crate::value::Answer;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use zoo_core::Game;

/// What the threads of a parallel run share besides the table.
pub(super) struct Shared {
    /// Set when a thread has solved the root or the run's own thread has
    /// stopped: every thread returns.
    stop: AtomicBool,
    /// The helpers' MID calls, added every `flush` calls.
    calls: AtomicU64,
    /// The own thread's calls since the threads started, as often.
    own: AtomicU64,
    /// The own thread's calls when the threads started.
    own_base: u64,
    /// The calls all threads together may still make: a helper that
    /// finds them made stops every thread, so that a starved own thread
    /// (many threads on few cores) does not let the helpers run on.
    budget: u64,
    /// How often a thread adds its calls (at most [`FLUSH`], fewer for a
    /// small budget, so that the threads overshoot it by a few percent).
    flush: u64,
    /// The run's time limit and Ctrl-C request, which helpers check too.
    deadline: Option<Instant>,
    stop_request: Option<fn() -> bool>,
    /// The root's numbers and reach as the helper that solved it found
    /// them.
    solved: Mutex<Option<(u32, u32, usize)>>,
}

/// At most this many times a parallel run forgets its open numbers and
/// goes on ([`Run::go_parallel`]).
pub(super) const MAX_RESTARTS: u32 = 64;

/// Every this many restarts a parallel run forgets its solved values too
/// ([`Run::go_parallel`]).
pub(super) const FORGET_ALL_EVERY: u32 = 3;

/// The stack of a helper thread, in bytes.
const HELPER_STACK: usize = 64 << 20;

/// A helper adds its calls to the shared count this often, and the run's
/// own thread reads it as often (for the call limit and the progress).
const FLUSH: u64 = 256;

/// A helper's child: among those whose δ is below `th_phi` (the ones a
/// call can search), the least δ made up to a quarter larger by a hash of
/// `seed` and the child, with the second least so made. The second is at
/// least the chosen child's δ, so the child's δ threshold, grown from it,
/// is above the child's δ, and the call searches: the node's loop goes on
/// as with the best child.
pub(super) fn choose<M>(kids: &[Child<M>], th_phi: u32, seed: u64) -> (usize, u32) {
    let rank = |i: usize, k: &Child<M>| -> (u64, u64) {
        let h = mix(seed.wrapping_add(i as u64));
        let d = k.delta as u64;
        if k.delta >= th_phi {
            // After every child that can be searched.
            (d + (1 << 34), h)
        } else {
            (d + ((d * (h & 0xff)) >> 10), h >> 8)
        }
    };
    let (mut best, mut first, mut second) = (0, (u64::MAX, 0), u64::MAX);
    for (i, k) in kids.iter().enumerate() {
        let r = rank(i, k);
        if r < first {
            second = second.min(first.0);
            (best, first) = (i, r);
        } else {
            second = second.min(r.0);
        }
    }
    (best, second.min(INF as u64) as u32)
}

impl<G: Game> Search<'_, G> {
    /// Between threads: a helper adds its calls to the shared count, the
    /// own thread reads it; whether the run is to stop.
    #[inline]
    pub(super) fn poll_shared(&mut self) -> bool {
        let Some(sh) = &self.shared else {
            return false;
        };
        if self.jitter != 0 {
            let new = self.calls - self.flushed;
            if new >= sh.flush {
                let helpers = sh.calls.fetch_add(new, Relaxed) + new;
                self.flushed = self.calls;
                if helpers.saturating_add(sh.own.load(Relaxed)) >= sh.budget
                    || sh.deadline.is_some_and(|d| Instant::now() >= d)
                    || sh.stop_request.is_some_and(|f| f())
                {
                    sh.stop.store(true, Relaxed);
                }
            }
        } else if self.calls.is_multiple_of(sh.flush) {
            self.others = sh.calls.load(Relaxed);
            sh.own.store(self.calls - sh.own_base, Relaxed);
        }
        sh.stop.load(Relaxed)
    }
}

impl<G: Game> Run<'_, G> {
    /// [`Run::go`] on [`super::Options::threads`] threads. Open numbers
    /// that one thread stores from another's, round a cycle the two paths
    /// close between them, can feed each other until they saturate (on a
    /// single thread a node being searched is a repetition below itself,
    /// never read back from the table). When that leaves the root stuck,
    /// the threads are stopped, the open numbers forgotten (the solved
    /// values stay), and the search goes on, at most [`MAX_RESTARTS`]
    /// times. Some tables, once they hold the solved values they do, send
    /// the search round such a cycle again a few thousand calls after
    /// every restart (one thread alone from there too): every
    /// [`FORGET_ALL_EVERY`]th restart forgets the solved values as well,
    /// and the run starts from nothing (docs/solve.md, "Parallel df-pn").
    pub(super) fn go_parallel(&mut self, call_limit: u64) -> Answer {
        if !open_below_saturation(self.phi, self.delta) {
            return self.answer();
        }
        for restart in 1..=MAX_RESTARTS {
            self.go_together(call_limit);
            if !self.stuck() || self.s.stopped {
                break;
            }
            if restart % FORGET_ALL_EVERY == 0 {
                self.s.table.forget_all();
            } else {
                self.s.table.forget_open();
            }
            (self.phi, self.delta) = (1, 1);
        }
        self.answer()
    }

    /// One search of every thread, until the root is solved or stuck, or
    /// a limit stops the own thread.
    fn go_together(&mut self, call_limit: u64) {
        let budget = call_limit.saturating_sub(self.s.calls);
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            calls: AtomicU64::new(0),
            own: AtomicU64::new(0),
            own_base: self.s.calls,
            budget,
            flush: (budget / (8 * self.opts.threads as u64)).clamp(1, FLUSH),
            deadline: self.s.clock.deadline(),
            stop_request: self.s.clock.stop_request(),
            solved: Mutex::new(None),
        });
        let Run {
            s,
            root,
            goal,
            oracle,
            opts,
            phi,
            delta,
            reach,
            ..
        } = self;
        s.call_limit = call_limit;
        s.stopped = false;
        s.others = 0;
        s.shared = Some(shared.clone());
        let (root, goal, oracle, opts) = (&*root, *goal, *oracle, *opts);
        std::thread::scope(|scope| {
            for id in 1..opts.threads {
                let (table, shared) = (s.table.clone(), shared.clone());
                // A helper recurses as deep as its paths go, and it strays
                // from the lines the own thread keeps to: a stack as large
                // as a process's main one (reserved, not used, until
                // needed). A helper the system will not start is left out.
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        let start = std::time::Instant::now();
                        let leaves = Leaves::new(root, goal, oracle);
                        // Helpers search plainly, whatever the run's remedies
                        // (docs/solve.md, "Parallel df-pn": on 2 threads with
                        // `tca,wpn` everywhere, the drawn sample took longer
                        // than on one).
                        let plain = Options {
                            remedies: Remedies::NONE,
                            ..opts
                        };
                        let mut h =
                            Search::new(root, leaves, &plain, table, &Limits::default(), start);
                        h.jitter = mix(id as u64) | 1;
                        h.shared = Some(shared.clone());
                        let (mut phi, mut delta) = (1, 1);
                        while !h.stopped && open_below_saturation(phi, delta) {
                            let f = h.mid(INF - 1, INF - 1, false);
                            (phi, delta) = (f.phi, f.delta);
                            if phi == 0 || delta == 0 {
                                let mut solved =
                                    shared.solved.lock().unwrap_or_else(|p| p.into_inner());
                                solved.get_or_insert((phi, delta, f.reach));
                                shared.stop.store(true, Relaxed);
                            }
                        }
                        shared.calls.fetch_add(h.calls - h.flushed, Relaxed);
                    });
                if spawned.is_err() {
                    break;
                }
            }
            while !s.stopped && open_below_saturation(*phi, *delta) {
                let f = s.mid(INF - 1, INF - 1, false);
                (*phi, *delta, *reach) = (f.phi, f.delta, f.reach);
            }
            shared.stop.store(true, Relaxed);
        });
        s.shared = None;
        s.others = 0;
        s.calls += shared.calls.load(Relaxed);
        let solved = *shared.solved.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((p, d, r)) = solved {
            if *phi != 0 && *delta != 0 {
                (*phi, *delta, *reach) = (p, d, r);
            }
            // Both threads' answers hold (docs/solve.md).
            debug_assert!(p == 0 && *phi == 0 || d == 0 && *delta == 0);
        }
        if *phi == 0 || *delta == 0 {
            // A helper's answer, not a limit, stopped the own thread.
            s.stopped = false;
        }
    }
}
