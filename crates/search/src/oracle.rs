//! The glue to the endgame oracle (tables): exact values below the root and
//! the tables' best line at the end of the PV.

use crate::score::MATE;
use crate::worker::Worker;
use zoo_core::{Evaluator, Game, MoveList, Outcome, Tactics};

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// The best move by the oracle's values of the children (the shortest
    /// win, else the longest loss), when `pos` is won or lost in its tables.
    pub(crate) fn oracle_best(&self, pos: &mut G) -> Option<G::Move> {
        let here = self.oracle_value(pos, 0)?;
        if here == 0 {
            return None;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut best: Option<(i32, G::Move)> = None;
        for m in moves {
            let u = pos.make(m);
            let v = self.oracle_value(pos, 1).map(|s| -s);
            pos.unmake(m, u);
            let v = v?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// The oracle's exact score of `pos` at `ply`, when it has one.
    #[inline(always)]
    pub(crate) fn oracle_value(&self, pos: &G, ply: usize) -> Option<i32> {
        if self.oracle_max == 0 || pos.piece_count() > self.oracle_max {
            return None;
        }
        let (o, d) = self.oracle?.probe(pos)?;
        Some(match o {
            // The final winning move is d plies below this node.
            Outcome::Win => MATE - (ply as i32 + d as i32),
            Outcome::Loss => -(MATE - (ply as i32 + d as i32)),
            Outcome::Draw => 0,
        })
    }

    /// Ends a node with the oracle's value (repetition ignored: the tables
    /// hold game-theoretic values, and the shortest win never repeats).
    #[inline(always)]
    pub(crate) fn oracle_cut(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let s = self.oracle_value(pos, ply)?;
        self.pv[ply].clear();
        self.stats.nodes += 1;
        self.unreported += 1;
        self.stats.leaves += 1;
        self.stats.tb_hits += 1;
        Some(s)
    }
}
