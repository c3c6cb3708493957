//! The Lazy SMP driver: one search runs on `Config::threads` threads that
//! share the table and nothing else; the main thread reports, helpers only
//! fill the table.

use crate::engine::Engine;
use crate::limits::Limits;
use crate::report::{Iteration, SearchResult, Stats};
use crate::score::{mate_distance, outcome_score, MAX_DEPTH};
use crate::worker::{Shared, Worker};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zoo_core::{Evaluator, Game, History, Tactics};

impl<G: Game, E: Evaluator<G>, T: Tactics<G>> Engine<G, E, T> {
    /// Searches `pos`, whose game so far is `hist` (ending with `pos`),
    /// calling `on_iter` after each completed iteration.
    pub fn search(
        &self,
        pos: &G,
        hist: &History,
        limits: &Limits,
        on_iter: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        // The stop flag is cleared when a search ends, not when it starts, so
        // that a stop sent just before the search thread began is obeyed.
        self.tt.new_search();
        let shared = Shared {
            stop: self.stop.clone(),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            limits: limits.clone(),
        };
        let target = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(o) = pos.outcome() {
            let score = outcome_score(o, 0);
            self.stop.store(false, Ordering::Relaxed);
            return SearchResult {
                best: None,
                score,
                mate: mate_distance(score),
                table: None,
                depth: 0,
                pv: Vec::new(),
                stats: Stats::default(),
                elapsed: shared.start.elapsed(),
                iterations: Vec::new(),
            };
        }
        let threads = if self.cfg.alphabeta {
            self.cfg.threads.max(1)
        } else {
            1
        };
        let (mut result, helper_stats) = std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads)
                .map(|id| {
                    let shared = &shared;
                    let pos = pos.clone();
                    let hist = hist.clone();
                    s.spawn(move || {
                        let mut w = Worker::new(self, shared, hist, id);
                        let mut p = pos;
                        w.iterate(&mut p, target, &mut |_| {});
                        w.stats
                    })
                })
                .collect();
            let mut w = Worker::new(self, &shared, hist.clone(), 0);
            let mut p = pos.clone();
            let r = w.iterate(&mut p, target, on_iter);
            shared.stop.store(true, Ordering::Relaxed);
            let hs: Vec<Stats> = handles
                .into_iter()
                .map(|h| h.join().expect("search thread panicked"))
                .collect();
            (r, hs)
        });
        self.stop.store(false, Ordering::Relaxed);
        for h in &helper_stats {
            result.stats.add(h);
        }
        result.elapsed = shared.start.elapsed();
        result
    }
}
