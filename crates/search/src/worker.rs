//! One search thread's state: its counters, killers, history and PV, and
//! the limit check.

use crate::config::Config;
use crate::engine::Engine;
use crate::limits::Limits;
use crate::report::Stats;
use crate::score::MAX_PLY;
use crate::tt::{Table, NO_MOVE};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use zoo_core::{Evaluator, Game, History, Oracle, Repetition, Tactics, EVAL_LIMIT};

/// History table entries: 2^15 move-code slots per side (codes are folded
/// in, so unrelated moves may share a slot: ordering only, never values).
pub(crate) const HISTORY_SIZE: usize = 1 << 16;

/// State shared by the threads of one search.
pub(crate) struct Shared {
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) nodes: AtomicU64,
    pub(crate) start: Instant,
    pub(crate) limits: Limits,
}

/// What a node is expected to be (Knuth and Moore): on the principal
/// variation, refuted by one move (cut) or with every move refuted (all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of child `i` (in search order) of a node of this kind:
    /// the first child of a PV node is on the PV, of a cut node an all
    /// node, of an all node a cut node; every later child is expected to
    /// be refuted, a cut node.
    #[inline(always)]
    pub(crate) fn child(self, i: usize) -> NodeKind {
        match (self, i) {
            (NodeKind::Pv, 0) => NodeKind::Pv,
            (NodeKind::Cut, 0) => NodeKind::All,
            _ => NodeKind::Cut,
        }
    }
}

/// The state of one search thread. Thread 0 is the main thread (it reports
/// iterations and decides the result); helpers only fill the shared table.
pub(crate) struct Worker<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> {
    pub(crate) cfg: &'a Config,
    pub(crate) eval: &'a E,
    pub(crate) tactics: &'a T,
    pub(crate) tt: Option<&'a Table>,
    pub(crate) shared: &'a Shared,
    pub(crate) hist: History,
    pub(crate) repetition: bool,
    pub(crate) id: usize,
    pub(crate) stats: Stats,
    pub(crate) unreported: u64,
    pub(crate) aborted: bool,
    /// The first iteration must finish so that there is a move to play.
    pub(crate) may_abort: bool,
    pub(crate) killers: Vec<[u32; 2]>,
    pub(crate) history: Vec<i32>,
    pub(crate) pv: Vec<Vec<G::Move>>,
    /// Whether the move into each ply was a capture: kept only under
    /// [`Config::quiescence_after_capture`], which reads it.
    pub(crate) by_capture: Vec<bool>,
    /// The expected kind of the node at each ply (Knuth and Moore's
    /// types), set by its parent: read by Multi-Cut, which acts at
    /// expected cut nodes only.
    pub(crate) kind: Vec<NodeKind>,
    pub(crate) root_best: Option<G::Move>,
    /// Root moves left out (multi-PV: the earlier lines' first moves).
    pub(crate) excluded: Vec<G::Move>,
    pub(crate) oracle: Option<&'a dyn Oracle<G>>,
    /// The oracle's `max_pieces()` (0 without one), read once.
    pub(crate) oracle_max: u32,
}

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// Thread `id`'s state for one search by `engine`.
    pub(crate) fn new(
        engine: &'a Engine<G, E, T>,
        shared: &'a Shared,
        hist: History,
        id: usize,
    ) -> Self {
        let cfg = &engine.cfg;
        Worker {
            cfg,
            eval: &engine.eval,
            tactics: &engine.tactics,
            tt: (cfg.tt && cfg.alphabeta).then_some(&*engine.tt),
            shared,
            repetition: hist.policy() != Repetition::None,
            hist,
            id,
            stats: Stats::default(),
            unreported: 0,
            aborted: false,
            may_abort: id != 0,
            killers: vec![[NO_MOVE; 2]; MAX_PLY + 1],
            history: if cfg.history {
                vec![0; HISTORY_SIZE]
            } else {
                Vec::new()
            },
            pv: vec![Vec::new(); MAX_PLY + 1],
            by_capture: vec![false; MAX_PLY + 1],
            kind: vec![NodeKind::Pv; MAX_PLY + 1],
            root_best: None,
            excluded: Vec::new(),
            oracle: engine.oracle.as_deref(),
            oracle_max: engine.oracle.as_ref().map_or(0, |o| o.max_pieces()),
        }
    }

    /// Checks the limits every 1024 nodes.
    #[inline(always)]
    pub(crate) fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.unreported += 1;
        if self.unreported >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unreported, Ordering::Relaxed)
                + self.unreported;
            self.unreported = 0;
            if self.may_abort {
                let l = &self.shared.limits;
                let over = self.shared.stop.load(Ordering::Relaxed)
                    || l.nodes.is_some_and(|n| total >= n)
                    || l.movetime.is_some_and(|t| self.shared.start.elapsed() >= t);
                if over {
                    self.aborted = true;
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.aborted
    }

    /// The static evaluation of a leaf, kept strictly inside the
    /// evaluation range so that it never reads as a mate score.
    #[inline(always)]
    pub(crate) fn evaluate(&mut self, pos: &G) -> i32 {
        self.stats.leaves += 1;
        self.eval
            .evaluate(pos)
            .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }

    /// The evaluation's own score of a finished game, if it has one
    /// (literature D's exact evaluation; see [`Evaluator::finished`]).
    pub(crate) fn finished(&self, pos: &G) -> Option<i32> {
        self.eval
            .finished(pos)
            .map(|s| s.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1))
    }

    /// `f` run on the position after `mv`, with the history holding it;
    /// the move is undone afterwards. Every child of a node is searched
    /// through here so that make, history and unmake stay paired.
    #[inline(always)]
    pub(crate) fn after<R>(
        &mut self,
        pos: &mut G,
        mv: G::Move,
        f: impl FnOnce(&mut Self, &mut G) -> R,
    ) -> R {
        let undo = pos.make(mv);
        self.hist.push(pos.key(), pos.piece_count());
        let r = f(self, pos);
        self.hist.pop();
        pos.unmake(mv, undo);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::NodeKind::{self, *};

    #[test]
    fn node_kinds_follow_knuth_and_moore() {
        let first: Vec<NodeKind> = [Pv, Cut, All].iter().map(|k| k.child(0)).collect();
        assert_eq!(first, [Pv, All, Cut]);
        for k in [Pv, Cut, All] {
            assert_eq!(k.child(1), Cut);
            assert_eq!(k.child(7), Cut);
        }
    }
}
