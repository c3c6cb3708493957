//! Iterative deepening and the root: MTD(f), aspiration windows, and the
//! principal variation reported after each iteration.

use crate::report::{Iteration, Line, SearchResult, Stats};
use crate::score::{mate_distance, table_result, INF, MAX_PLY, TB_WIN_BOUND};
use crate::worker::Worker;
use std::sync::atomic::Ordering;
use std::time::Duration;
use zoo_core::{Evaluator, Game, MoveList, Tactics};

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// The depths of the iterations to run, shallowest first.
    fn depths(&self, target: u32) -> Vec<u32> {
        // Without a depth limit only iterative deepening can honour a time
        // or node limit, so it is used whatever the switch says.
        if !self.cfg.iterative && self.shared.limits.depth.is_some() {
            return vec![target];
        }
        if self.id > 0 {
            // Lazy SMP: helpers run one ply apart from each other so that
            // they fill the table with different subtrees.
            return ((1 + (self.id as u32 % 2))..=target).collect();
        }
        let step = self.cfg.id_step.max(1);
        let mut v: Vec<u32> = (0..)
            .map(|i| target as i64 - (i * step) as i64)
            .take_while(|&d| d >= 1)
            .map(|d| d as u32)
            .collect();
        v.reverse();
        v
    }

    /// Runs the iterations up to `target` (or until a limit or an exact
    /// value ends them), calling `on_iter` after each on the main thread.
    pub(crate) fn iterate(
        &mut self,
        pos: &mut G,
        target: u32,
        on_iter: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best: None,
            score: 0,
            mate: None,
            table: None,
            depth: 0,
            pv: Vec::new(),
            stats: Stats::default(),
            elapsed: Duration::ZERO,
            iterations: Vec::new(),
        };
        let mut prev: Option<i32> = None;
        let mut prev_nodes: Option<u64> = None;
        // Multi-PV: each line's last value, its next search's first guess.
        let mut prev_lines: Vec<i32> = Vec::new();
        // A root in the tables with a distance: its children are exact
        // (probed at ply 1), so the first iteration that reaches the table's
        // value is final. A table win is not exact: deeper iterations look
        // for the mate.
        let root_exact = self.oracle_value(pos, 0);
        for depth in self.depths(target) {
            // Every iteration is started while time is left, even one that
            // cannot finish: the moves it proves better on the way are
            // played (below), so the whole movetime is spent, not the
            // 0.65-0.75 of it that stopping after half the time left used.
            let before = self.stats.nodes;
            self.root_best = None;
            let Some(score) = self.root(pos, depth, prev) else {
                if self.id == 0 {
                    self.keep_proven_move(&mut result);
                }
                break;
            };
            self.may_abort = true;
            prev = Some(score);
            if self.id != 0 {
                continue;
            }
            let mut pv = self.principal_variation(pos, depth);
            let lines = self.more_lines(pos, depth, score, &pv, &mut prev_lines);
            // A later line searched higher than the first (the selective
            // search's values differ a little from search to search): the
            // lines are ranked by score, and the best is played.
            let score = match lines.first() {
                Some(top) => {
                    pv = top.pv.clone();
                    top.score
                }
                None => score,
            };
            let nodes = self.stats.nodes - before;
            let it = Iteration {
                depth,
                score,
                mate: mate_distance(score),
                table: table_result(score),
                pv: pv.clone(),
                stats: self.stats,
                total_nodes: self.shared.nodes.load(Ordering::Relaxed) + self.unreported,
                elapsed: self.shared.start.elapsed(),
                ebf: prev_nodes
                    .filter(|&p| p > 0)
                    .map(|p| nodes as f64 / p as f64),
                lines,
            };
            prev_nodes = Some(nodes);
            // A mate no longer than the draft is exact: deeper search cannot
            // change it. With several lines, every line must be: a mate in
            // one found at depth 1 leaves the other lines' values shallow.
            let exact = |s: i32| mate_distance(s).is_some_and(|m| m.unsigned_abs() <= depth);
            let mated = exact(score) && it.lines.iter().all(|l| exact(l.score));
            on_iter(&it);
            result.best = pv.first().copied();
            result.score = score;
            result.mate = it.mate;
            result.table = it.table;
            result.depth = depth;
            result.pv = pv;
            result.iterations.push(it);
            if mated {
                break;
            }
            if root_exact == Some(score) {
                break;
            }
        }
        result.stats = self.stats;
        result
    }

    /// Multi-PV ([`crate::Limits::multipv`]): after the iteration's best
    /// line (`score`, `pv`), the best line of the moves left with the
    /// earlier lines' first moves left out, at the same depth, until there
    /// are `multipv` lines or no move is left; all the lines, ranked by
    /// score (empty with one line). A limit that stops a later line ends the
    /// list there: the first line stands.
    fn more_lines(
        &mut self,
        pos: &mut G,
        depth: u32,
        score: i32,
        pv: &[G::Move],
        prev_lines: &mut Vec<i32>,
    ) -> Vec<Line<G::Move>> {
        let wanted = self.shared.limits.multipv as usize;
        if wanted <= 1 || pv.is_empty() {
            return Vec::new();
        }
        let line = |score: i32, pv: Vec<G::Move>| Line {
            score,
            mate: mate_distance(score),
            table: table_result(score),
            pv,
        };
        let mut lines = vec![line(score, pv.to_vec())];
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let best_root = self.root_best;
        self.excluded = vec![pv[0]];
        while lines.len() < wanted && self.excluded.len() < legal.len() {
            let k = lines.len();
            self.root_best = None;
            let guess = prev_lines.get(k).copied().unwrap_or(score);
            let Some(s) = self.root(pos, depth, Some(guess)) else {
                break;
            };
            let pv = self.principal_variation(pos, depth);
            let Some(&first) = pv.first().filter(|m| !self.excluded.contains(m)) else {
                break;
            };
            self.excluded.push(first);
            lines.push(line(s, pv));
        }
        self.excluded.clear();
        self.root_best = best_root;
        // Stable: equal scores keep the order they were found in.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        // A line a limit stopped leaves the abort set: the iteration is
        // reported with the lines before it, and no deeper one starts.
        *prev_lines = lines.iter().map(|l| l.score).collect();
        lines
    }

    /// An iteration stopped by a limit: a root move it searched to the end
    /// and found above its window (`root_best` is set only for moves
    /// searched in full) is what the deeper draft prefers so far: most
    /// often the move that took over after the last iteration's move failed
    /// low. It is played instead; the score and depth stay those of the
    /// last whole iteration.
    fn keep_proven_move(&mut self, result: &mut SearchResult<G::Move>) {
        let Some(m) = self.root_best else { return };
        if result.best.is_some() && result.best != Some(m) {
            result.best = Some(m);
            result.pv = vec![m];
        }
    }

    /// One iteration at the root; `None` when aborted.
    fn root(&mut self, pos: &mut G, depth: u32, prev: Option<i32>) -> Option<i32> {
        let d = depth as i32;
        let score = if self.cfg.alphabeta && self.cfg.mtdf {
            // MTD(f): null-window passes converge on the value from the guess.
            let mut g = prev.unwrap_or(0);
            let (mut lower, mut upper) = (-INF, INF);
            let mut passes = 0;
            while lower < upper {
                let beta = if g == lower { g + 1 } else { g };
                g = self.search(pos, d, beta - 1, beta, 0);
                if self.aborted {
                    return None;
                }
                passes += 1;
                if g < beta {
                    upper = g;
                } else {
                    lower = g;
                }
            }
            self.stats.re_searches += passes - 1;
            g
        } else if self.cfg.alphabeta
            && self.cfg.aspiration > 0
            && prev.is_some_and(|p| p.abs() < TB_WIN_BOUND)
        {
            let p = prev.unwrap_or(0);
            let (mut lo, mut hi) = (p - self.cfg.aspiration, p + self.cfg.aspiration);
            loop {
                let s = self.search(pos, d, lo, hi, 0);
                if self.aborted {
                    return None;
                }
                if s <= lo {
                    lo = -INF;
                } else if s >= hi {
                    hi = INF;
                } else {
                    break s;
                }
                self.stats.re_searches += 1;
            }
        } else {
            self.search(pos, d, -INF, INF, 0)
        };
        (!self.aborted).then_some(score)
    }

    /// The triangular PV when it starts with the root's best move, extended
    /// (or replaced) by following the table's moves.
    fn principal_variation(&mut self, pos: &mut G, depth: u32) -> Vec<G::Move> {
        let mut pv = self.pv[0].clone();
        match self.root_best {
            Some(b) if pv.first() != Some(&b) => pv = vec![b],
            None if pv.is_empty() => {
                let mut l = MoveList::new();
                pos.legal_moves(&mut l);
                if let Some(&m) = l.first() {
                    pv.push(m);
                }
            }
            _ => {}
        }
        let mut undo = Vec::new();
        let mut seen = vec![pos.key()];
        let mut ok = true;
        for &m in &pv {
            undo.push((m, pos.make(m)));
            seen.push(pos.key());
        }
        if let Some(tt) = self.tt {
            while ok && (pv.len() as u32) < depth && pos.terminal().is_none() {
                ok = false;
                if let Some(e) = tt.probe(pos.key()) {
                    if let Some(m) = pos.move_from_code(e.mv) {
                        pv.push(m);
                        undo.push((m, pos.make(m)));
                        ok = !seen.contains(&pos.key());
                        seen.push(pos.key());
                    }
                }
            }
        }
        // Below the table's line, positions in the oracle's tables continue
        // with their best move to the end of a won or lost game (a drawn
        // line has no end, so it stops there).
        while ok && pv.len() < MAX_PLY && pos.terminal().is_none() {
            match self.oracle_best(pos) {
                Some(m) => {
                    pv.push(m);
                    undo.push((m, pos.make(m)));
                }
                None => break,
            }
        }
        for (m, u) in undo.into_iter().rev() {
            pos.unmake(m, u);
        }
        pv
    }
}
