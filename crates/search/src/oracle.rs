//! The glue to the endgame oracle (tables): values below the root and the
//! tables' best line at the end of the PV.
//!
//! A table with distances gives an exact mate score and ends the node. A
//! WDL-only table gives the value alone: a draw still ends the node, a win
//! is a table win ([`crate::score::table_win`]), which ends the node only
//! at the horizon: above it the search looks for the mate and for
//! repetition draws the tables know nothing of (see [`Worker::oracle_cut`]).

use crate::score::{table_win, MATE, MAX_PLY};
use crate::worker::Worker;
use zoo_core::{Evaluator, Game, MoveList, OracleValue, Outcome, Tactics};

/// What the oracle says of a node, as a score at its ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableScore {
    /// The exact score (a distance known, or a draw).
    Exact(i32),
    /// A table win or loss (no distance): the true score is a mate, or a
    /// draw by repetition, that only a search can tell.
    Table(i32),
}

impl TableScore {
    /// The score itself, exact or not.
    pub(crate) fn score(self) -> i32 {
        match self {
            TableScore::Exact(s) | TableScore::Table(s) => s,
        }
    }
}

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// The best move by the oracle's values of the children (the shortest
    /// win, else the longest loss), when `pos` is won or lost at a known
    /// distance in its tables. Each step shortens that distance, so the
    /// line ends; it stops at a position whose distance is unknown.
    pub(crate) fn oracle_best(&self, pos: &mut G) -> Option<G::Move> {
        match self.oracle_score(pos, 0)? {
            TableScore::Exact(s) if s != 0 => {}
            _ => return None,
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut best: Option<(i32, G::Move)> = None;
        for m in moves {
            let u = pos.make(m);
            let v = self.oracle_score(pos, 1).map(|s| -s.score());
            pos.unmake(m, u);
            let v = v?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// The oracle's exact score of `pos` at `ply`, when it has one (a
    /// table win is not exact).
    pub(crate) fn oracle_value(&self, pos: &G, ply: usize) -> Option<i32> {
        match self.oracle_score(pos, ply)? {
            TableScore::Exact(s) => Some(s),
            _ => None,
        }
    }

    /// The oracle's score of `pos` at `ply`, when it knows the position.
    #[inline(always)]
    pub(crate) fn oracle_score(&self, pos: &G, ply: usize) -> Option<TableScore> {
        Some(self.table_score(pos, ply, self.oracle_probe(pos)?))
    }

    /// The oracle's value of `pos`, when it has one and the position has
    /// few enough pieces to ask.
    #[inline(always)]
    fn oracle_probe(&self, pos: &G) -> Option<OracleValue> {
        if self.oracle_max == 0 || pos.piece_count() > self.oracle_max {
            return None;
        }
        self.oracle?.probe(pos)
    }

    /// The oracle's value `v` of `pos` as a score at `ply`.
    #[inline(always)]
    fn table_score(&self, pos: &G, ply: usize, v: OracleValue) -> TableScore {
        match (v.outcome, v.distance) {
            // The final winning move is d plies below this node.
            (Outcome::Win, Some(d)) => TableScore::Exact(MATE - (ply as i32 + d as i32)),
            (Outcome::Loss, Some(d)) => TableScore::Exact(-(MATE - (ply as i32 + d as i32))),
            (Outcome::Draw, _) => TableScore::Exact(0),
            // The evaluation is only a tie-break between table wins: a
            // clamped static score, not counted as a leaf.
            (Outcome::Win, None) => TableScore::Table(table_win(ply, self.eval.evaluate(pos))),
            (Outcome::Loss, None) => TableScore::Table(-table_win(ply, -self.eval.evaluate(pos))),
        }
    }

    /// The score that ends a node `depth` plies above the horizon at
    /// `ply`, when the oracle gives one: an exact value always (repetition
    /// ignored: the tables hold game-theoretic values, and the shortest
    /// win never repeats), a table win only at the horizon. Above it the
    /// node is searched like any other, its leaves table wins at the
    /// horizon: a WDL value ignores repetition, and a loser who can force
    /// a repetition draw (or a winner who allows one) is seen only by
    /// searching; mates within the horizon are found that way too. A node
    /// that repeats an earlier position (`may_repeat`: the node is the last
    /// entry of the history) is left to the search's repetition rule.
    #[inline(always)]
    pub(crate) fn oracle_cut(
        &mut self,
        pos: &G,
        ply: usize,
        depth: i32,
        may_repeat: bool,
    ) -> Option<i32> {
        let v = self.oracle_probe(pos)?;
        if v.distance.is_none()
            && v.outcome != Outcome::Draw
            && ((depth > 0 && ply < MAX_PLY - 1)
                || (may_repeat && self.repetition && self.hist.is_repeat()))
        {
            return None;
        }
        let s = self.table_score(pos, ply, v).score();
        self.pv[ply].clear();
        self.stats.nodes += 1;
        self.unreported += 1;
        self.stats.leaves += 1;
        self.stats.tb_hits += 1;
        Some(s)
    }
}
