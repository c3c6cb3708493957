//! Quiescence: below the horizon, only moves that change material or
//! threaten, and every move while the side to move is in danger.

use crate::score::{outcome_score, INF, MAX_PLY};
use crate::worker::Worker;
use zoo_core::{Evaluator, Game, MoveList, Tactics};

/// Quiescence searches every move when in danger only this many plies deep.
const QUIESCENCE_DANGER_PLIES: u32 = 6;

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// The quiescence value of `pos` within (`alpha`, `beta`), `qply` plies
    /// below the horizon: stand pat on the evaluation unless in danger,
    /// then the noisy moves.
    pub(crate) fn qsearch(
        &mut self,
        pos: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        // The horizon node (qply 0) was probed by `search` already.
        if qply > 0 {
            if let Some(s) = self.oracle_cut(pos, ply, 0, false) {
                return s;
            }
        }
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        if let Some(o) = pos.terminal() {
            self.stats.leaves += 1;
            return self.finished(pos).unwrap_or_else(|| outcome_score(o, ply));
        }
        // Quiescence moves change material or threaten the den: only the
        // horizon node itself can repeat an earlier position.
        if qply == 0 && self.repetition && self.hist.is_repeat() {
            self.stats.leaves += 1;
            return 0;
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
            return outcome_score(pos.no_moves_outcome(), ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let danger = qply < QUIESCENCE_DANGER_PLIES
            && (self.tactics.in_danger(pos)
                || (self.cfg.quiescence_after_capture && self.by_capture[ply]));
        let mut best = -INF;
        if !danger {
            best = self.evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            moves.retain(|m| self.tactics.is_noisy(pos, *m, qply));
        }
        let mut scored: MoveList<(i32, G::Move)> = moves
            .iter()
            .map(|&m| (self.tactics.order_hint(pos, m), m))
            .collect();
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        for (_, mv) in scored {
            if self.cfg.quiescence_after_capture {
                self.by_capture[ply + 1] = pos.is_capture(mv);
            }
            let undo = pos.make(mv);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
