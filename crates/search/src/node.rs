//! The alpha-beta node: table probe and store, enhanced transposition
//! cutoffs, PVS, late move reductions and negamax (alpha-beta off).

use crate::config::{
    Config, MULTICUT_CUTS, MULTICUT_MOVES, MULTICUT_REDUCTION, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION,
};
use crate::score::{from_tt, outcome_score, to_tt, INF, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use crate::tt::{Bound, Replacement, Table, NO_LOWER, NO_MOVE, NO_UPPER};
use crate::worker::{NodeKind, Worker};
use zoo_core::{Evaluator, Game, MoveList, Tactics};

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// The value of `pos` searched `depth` plies deep within (`alpha`,
    /// `beta`) (fail-soft: the bound found when outside), `ply` plies below
    /// the root; its line is left in `pv[ply]`. Returns 0 once aborted.
    pub(crate) fn search(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if ply > 0 {
            if let Some(s) = self.oracle_cut(pos, ply, depth, true) {
                return s;
            }
        }
        if depth <= 0 && self.cfg.quiescence && ply > 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.stats.nodes += 1;
        if ply > 0 {
            if let Some(o) = pos.terminal() {
                self.stats.leaves += 1;
                return self.finished(pos).unwrap_or_else(|| outcome_score(o, ply));
            }
            if self.repetition && self.hist.is_repeat() {
                // Any repetition inside the search is scored as a draw.
                self.stats.leaves += 1;
                return 0;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        if depth <= 0 {
            return self.evaluate(pos);
        }
        let alpha_orig = alpha;
        let nodes_before = self.stats.nodes;
        let answered_before = self.stats.tt_cutoffs + self.stats.etc_cutoffs;
        let key = pos.key();
        let mut tt_move = NO_MOVE;
        let strict = self.cfg.strict_draft;
        let draft_ok = |d: u8| {
            if strict {
                d as i32 == depth
            } else {
                d as i32 >= depth.min(255)
            }
        };
        if let Some(tt) = self.tt {
            self.stats.tt_probes += 1;
            if let Some(e) = tt.probe(key) {
                self.stats.tt_hits += 1;
                tt_move = e.mv;
                if ply > 0 {
                    let lower_ok = e.lower != NO_LOWER && draft_ok(e.lower_depth);
                    let upper_ok = e.upper != NO_UPPER && draft_ok(e.upper_depth);
                    if lower_ok {
                        let s = from_tt(e.lower, ply);
                        if s >= beta || (upper_ok && e.lower == e.upper) {
                            self.stats.tt_cutoffs += 1;
                            return s;
                        }
                    }
                    if upper_ok {
                        let s = from_tt(e.upper, ply);
                        if s <= alpha {
                            self.stats.tt_cutoffs += 1;
                            return s;
                        }
                    }
                }
            }
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        if ply == 0 && !self.excluded.is_empty() {
            // Multi-PV: the earlier lines' moves are left out (the caller
            // never leaves out them all).
            let excluded = &self.excluded;
            moves.retain(|m| !excluded.contains(m));
        }
        if moves.is_empty() {
            self.stats.leaves += 1;
            return outcome_score(pos.no_moves_outcome(), ply);
        }
        let full = !self.cfg.alphabeta;
        if let (Some(tt), false) = (self.tt, full) {
            if self.cfg.etc_min_depth > 0 && depth >= self.cfg.etc_min_depth as i32 && ply > 0 {
                if let Some(s) = self.etc(tt, pos, &moves, depth, beta, ply) {
                    self.stats.etc_cutoffs += 1;
                    return s;
                }
            }
        }
        // Selective cuts leave the root, mate scores and positions in
        // danger alone, so that the move played and a mate's length stay
        // those of the full search.
        let selective = !full
            && ply > 0
            && alpha.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
            && (self.cfg.probcut > 0 || self.cfg.multicut)
            && !self.tactics.in_danger(pos);
        // ProbCut needs no moves, but runs after the (cheaper) enhanced
        // transposition cutoffs, which do.
        if selective && self.cfg.probcut > 0 && depth >= PROBCUT_MIN_DEPTH {
            if let Some(s) = self.probcut(pos, depth, alpha, beta, ply) {
                return s;
            }
        }
        self.order(pos, &mut moves, tt_move, ply);
        let kind = self.kind[ply];
        if selective
            && self.cfg.multicut
            && beta - alpha == 1
            && (kind == NodeKind::Cut || self.cfg.multicut_all_nodes)
            && depth >= MULTICUT_REDUCTION + 2
        {
            if let Some(s) = self.multicut(pos, &moves, depth, beta, ply) {
                return s;
            }
        }
        // A single reply (most often a forced capture) costs no ply; the
        // ply bound keeps a line of single replies finite without the
        // repetition rule.
        let extend = self.cfg.single_reply && !full && moves.len() == 1 && ply < MAX_PLY / 2;
        if extend {
            self.stats.extensions += 1;
        }
        let next = depth - 1 + extend as i32;
        // Late move reductions: quiet moves late in the order are searched
        // one or two plies shallower first, and again at full depth only if
        // they beat alpha. Never near mate scores (so mate distances stay
        // exact) nor when the side to move is in danger.
        let lmr_here = self.cfg.lmr
            && !full
            && depth >= 3
            && alpha.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
            && !self.tactics.in_danger(pos);
        // Futility: at the frontier, a quiet move cannot lift a position
        // whose evaluation is a margin below alpha (never in danger, near
        // mate scores, or at the root).
        let futile = self.cfg.futility > 0
            && !full
            && depth == 1
            && ply > 0
            && alpha.abs() < MATE_BOUND
            && !self.tactics.in_danger(pos)
            && self.evaluate(pos) + self.cfg.futility <= alpha;
        let mut quiet_guard: arrayvec::ArrayVec<usize, 64> = arrayvec::ArrayVec::new();
        if lmr_here {
            let killers = self.killers[ply];
            for (i, &m) in moves.iter().enumerate() {
                let code = pos.move_code(m);
                if (pos.is_capture(m)
                    || self.tactics.is_noisy(pos, m, 1)
                    || killers.contains(&code))
                    && !quiet_guard.is_full()
                {
                    quiet_guard.push(i);
                }
            }
        }
        let mut best = -INF;
        let mut best_move: Option<G::Move> = None;
        for (i, &mv) in moves.iter().enumerate() {
            if futile && i > 0 && !pos.is_capture(mv) && !self.tactics.is_noisy(pos, mv, 1) {
                self.stats.futility_prunes += 1;
                continue;
            }
            if self.cfg.quiescence_after_capture {
                self.by_capture[ply + 1] = pos.is_capture(mv);
            }
            self.kind[ply + 1] = kind.child(i);
            let score = self.after(pos, mv, |w, pos| {
                if full {
                    -w.search(pos, next, -INF, INF, ply + 1)
                } else if i == 0 || !w.cfg.pvs {
                    -w.search(pos, next, -beta, -alpha, ply + 1)
                } else {
                    let r = if lmr_here && i >= 3 && !quiet_guard.contains(&i) {
                        1 + (i >= 8 && depth >= 5) as i32
                    } else {
                        0
                    };
                    let mut s = -w.search(pos, next - r, -alpha - 1, -alpha, ply + 1);
                    if r > 0 && s > alpha && !w.aborted {
                        w.stats.re_searches += 1;
                        s = -w.search(pos, next, -alpha - 1, -alpha, ply + 1);
                    }
                    if s > alpha && s < beta && !w.aborted {
                        w.stats.re_searches += 1;
                        // It beat alpha inside the window: a new PV node.
                        w.kind[ply + 1] = NodeKind::Pv;
                        -w.search(pos, next, -beta, -alpha, ply + 1)
                    } else {
                        s
                    }
                }
            });
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_best = Some(mv);
                    }
                    if score >= beta && !full {
                        if !pos.is_capture(mv) {
                            self.reward(pos, mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let best_code = best_move.map(|m| pos.move_code(m)).unwrap_or(NO_MOVE);
        if best_code == tt_move && tt_move != NO_MOVE {
            self.stats.tt_move_hits += 1;
        }
        // A root searched with moves left out has no value of its own to keep.
        if let Some(tt) = self.tt.filter(|_| ply > 0 || self.excluded.is_empty()) {
            let (bound, code) = if best >= beta {
                (Bound::Lower, best_code)
            } else if best <= alpha_orig {
                // Every move failed low: no move is known to be best.
                (Bound::Upper, NO_MOVE)
            } else {
                (Bound::Exact, best_code)
            };
            tt.store(
                key,
                bound,
                to_tt(best, ply),
                depth as u32,
                code,
                self.subtree(tt, nodes_before, answered_before),
            );
        }
        best
    }

    /// ProbCut: null-window searches [`PROBCUT_REDUCTION`] plies shallower
    /// around beta plus the margin and alpha minus it; a value past either
    /// is taken for the deep search's (beta or alpha, fail-hard).
    fn probcut(
        &mut self,
        pos: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        // Table wins rank among themselves by distance: no line or margin
        // applies to them.
        if alpha.abs() >= TB_WIN_BOUND || beta.abs() >= TB_WIN_BOUND {
            return None;
        }
        let shallow = depth - PROBCUT_REDUCTION;
        let (high, low) = probcut_bounds(alpha, beta, self.cfg);
        let mut cut = None;
        if high < MATE_BOUND && self.search(pos, shallow, high - 1, high, ply) >= high {
            cut = Some(beta);
        } else if !self.aborted
            && low > -MATE_BOUND
            && self.search(pos, shallow, low, low + 1, ply) <= low
        {
            cut = Some(alpha);
        }
        // The shallow searches' lines are not this node's.
        self.pv[ply].clear();
        if self.aborted {
            return Some(0);
        }
        if cut.is_some() {
            self.stats.probcut_cuts += 1;
        }
        cut
    }

    /// Multi-Cut (at expected cut nodes, or every null-window node under
    /// [`crate::Config::multicut_all_nodes`]): the first [`MULTICUT_MOVES`] moves searched
    /// [`MULTICUT_REDUCTION`] plies shallower with beta's null window;
    /// [`MULTICUT_CUTS`] fail-highs end the node at beta.
    fn multicut(
        &mut self,
        pos: &mut G,
        moves: &MoveList<G::Move>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if moves.len() < MULTICUT_CUTS {
            return None;
        }
        let mut highs = 0;
        // The tries are the children of an expected cut node.
        self.kind[ply + 1] = NodeKind::All;
        for &mv in moves.iter().take(MULTICUT_MOVES) {
            let shallow = depth - 1 - MULTICUT_REDUCTION;
            let s = self.after(pos, mv, |w, pos| {
                -w.search(pos, shallow, -beta, -beta + 1, ply + 1)
            });
            if self.aborted {
                return Some(0);
            }
            if s >= beta {
                highs += 1;
                if highs >= MULTICUT_CUTS {
                    self.stats.multicut_cuts += 1;
                    return Some(beta);
                }
            }
        }
        None
    }

    /// The size of the subtree just searched, as the table's replacement
    /// scheme measures it: every node visited, or (Big-1) only the nodes
    /// the table did not answer, so that a position met again counts once.
    fn subtree(&self, tt: &Table, nodes_before: u64, answered_before: u64) -> u64 {
        let visited = self.stats.nodes - nodes_before;
        if tt.replacement == Replacement::Big1 {
            let answered = self.stats.tt_cutoffs + self.stats.etc_cutoffs - answered_before;
            visited.saturating_sub(answered)
        } else {
            visited
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound
    /// already refutes beta ends this node without searching.
    fn etc(
        &mut self,
        tt: &Table,
        pos: &mut G,
        moves: &MoveList<G::Move>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let strict = self.cfg.strict_draft;
        for &mv in moves {
            let cut = self.after(pos, mv, |w, pos| {
                if pos.terminal().is_some() || (w.repetition && w.hist.is_repeat()) {
                    return None;
                }
                w.stats.tt_probes += 1;
                let e = tt.probe(pos.key())?;
                let d = e.upper_depth as i32;
                let ok = if strict {
                    d == depth - 1
                } else {
                    d >= depth - 1
                };
                if e.upper == NO_UPPER || !ok {
                    return None;
                }
                let s = -from_tt(e.upper, ply + 1);
                (s >= beta).then_some(s)
            });
            if let Some(s) = cut {
                tt.store(
                    pos.key(),
                    Bound::Lower,
                    to_tt(s, ply),
                    depth as u32,
                    pos.move_code(mv),
                    1,
                );
                return Some(s);
            }
        }
        None
    }
}

/// ProbCut's bounds on the shallow value (`high`, `low`): the values `v`
/// whose expected deep value `slope·v + offset` clears beta plus the
/// margin, or falls below alpha minus it; kept inside the evaluation's
/// range (a bound at its edge is cleared only by a win or loss the
/// shallow search proves).
pub(crate) fn probcut_bounds(alpha: i32, beta: i32, cfg: &Config) -> (i32, i32) {
    let (slope, offset) = (cfg.probcut_slope, cfg.probcut_offset as f64);
    let through = |bound: i32| (bound as f64 - offset) / slope;
    let limit = TB_WIN_BOUND as f64;
    let clamp = |v: f64| v.clamp(-limit, limit) as i32;
    let high = clamp(through(beta.saturating_add(cfg.probcut)).ceil());
    let low = clamp(through(alpha.saturating_sub(cfg.probcut)).floor());
    (high, low)
}

#[cfg(test)]
mod tests {
    use super::probcut_bounds;
    use crate::score::TB_WIN_BOUND;
    use crate::Config;

    #[test]
    fn probcut_bounds_go_through_the_fitted_line() {
        let cfg = |margin, slope, offset| Config {
            probcut: margin,
            probcut_slope: slope,
            probcut_offset: offset,
            ..Config::default()
        };
        // The line 1·v + 0: the margin alone.
        assert_eq!(probcut_bounds(-10, 20, &cfg(50, 1.0, 0)), (70, -60));
        // deep = 1.25·v + 5: v ≥ (20 + 50 − 5) / 1.25 = 52, v ≤ (−10 − 50 − 5) / 1.25 = −52.
        assert_eq!(probcut_bounds(-10, 20, &cfg(50, 1.25, 5)), (52, -52));
        // Rounded outwards: 65.5 → 66 up, −65.5 → −66 down.
        assert_eq!(probcut_bounds(-1, 1, &cfg(130, 2.0, 0)), (66, -66));
        assert_eq!(probcut_bounds(0, 1, &cfg(130, 2.0, 0)), (66, -65));
        // A bound out of the evaluation's range stays at its edge.
        let (high, low) = probcut_bounds(-29_990, 29_990, &cfg(50, 0.5, 0));
        assert_eq!((high, low), (TB_WIN_BOUND, -TB_WIN_BOUND));
        let (high, low) = probcut_bounds(i32::MIN + 1, i32::MAX - 1, &cfg(i32::MAX, 1.0, 0));
        assert_eq!((high, low), (TB_WIN_BOUND, -TB_WIN_BOUND));
    }
}
