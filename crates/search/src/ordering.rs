//! Move ordering: the table's move, captures by the tactics hint, killers
//! and the history heuristic.

use crate::tt::NO_MOVE;
use crate::worker::Worker;
use zoo_core::{Evaluator, Game, MoveList, Tactics};

/// The history slot of move `code` for `side`.
#[inline(always)]
pub(crate) fn history_index(side: zoo_core::Side, code: u32) -> usize {
    (side.index() << 15) | ((code ^ (code >> 15)) as usize & 0x7FFF)
}

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    /// Credits a quiet move that caused a cutoff (with the switches on): it
    /// becomes the first killer of its ply and gains depth² in the history
    /// table.
    pub(crate) fn reward(&mut self, pos: &G, mv: G::Move, depth: i32, ply: usize) {
        let code = pos.move_code(mv);
        if self.cfg.killers {
            let k = &mut self.killers[ply];
            if k[0] != code {
                k[1] = k[0];
                k[0] = code;
            }
        }
        if self.cfg.history {
            let h = &mut self.history[history_index(pos.side_to_move(), code)];
            *h += depth * depth;
            if *h > 1 << 20 {
                // Keep history scores below the killers' and captures' bands.
                for v in self.history.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    /// Sorts `moves` best first: the table's move, then captures (by the
    /// tactics hint), killers, and the rest by history and hint.
    pub(crate) fn order(&self, pos: &G, moves: &mut MoveList<G::Move>, tt_move: u32, ply: usize) {
        let cfg = self.cfg;
        if !cfg.ordering && !cfg.killers && !cfg.history && tt_move == NO_MOVE {
            return;
        }
        let killers = if cfg.killers {
            self.killers[ply]
        } else {
            [NO_MOVE; 2]
        };
        let mut scored: MoveList<(i32, G::Move)> = moves
            .iter()
            .map(|&m| {
                let code = pos.move_code(m);
                let mut s = 0;
                if code == tt_move {
                    s = 1 << 30;
                } else {
                    let hint = if cfg.ordering {
                        self.tactics.order_hint(pos, m)
                    } else {
                        0
                    };
                    if cfg.ordering && pos.is_capture(m) {
                        s = (1 << 24) + hint;
                    } else if code == killers[0] {
                        s = (1 << 23) + 1;
                    } else if code == killers[1] {
                        s = 1 << 23;
                    } else {
                        if cfg.history {
                            s = self.history[history_index(pos.side_to_move(), code)];
                        }
                        s += hint;
                    }
                }
                (s, m)
            })
            .collect();
        // Stable: equal scores keep generation order.
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        for (slot, (_, m)) in moves.iter_mut().zip(scored) {
            *slot = m;
        }
    }
}
