//! The animal games' tactics for the search: captures, den entries and den
//! threats are what quiescence follows; a piece next to our den is a danger
//! standing pat would ignore.

use crate::board::{bit, Board};
use crate::eval::AnimalEval;
use crate::Position;
use zoo_core::{EngineGame, Tactics};

/// The animal games: captures, entering the den, and den threats.
#[derive(Debug, Clone, Copy, Default)]
pub struct AnimalTactics;

/// The squares next to each den (Jungle: the three traps).
fn den_ring<B: Board>(side: usize) -> u64 {
    B::tables().steps[B::DEN[side] as usize] & !B::WATER
}

fn manhattan(a: u8, b: u8) -> i32 {
    let (fa, ra) = ((a % 7) as i32, (a / 7) as i32);
    let (fb, rb) = ((b % 7) as i32, (b / 7) as i32);
    (fa - fb).abs() + (ra - rb).abs()
}

impl<B: Board> Tactics<Position<B>> for AnimalTactics {
    #[inline]
    fn is_noisy(&self, pos: &Position<B>, mv: crate::Move, qply: u32) -> bool {
        let them = pos.stm().flip().index();
        let to = mv.to();
        // Captures and den entries always; at the first quiescence ply also
        // the moves that threaten to enter the den next turn.
        pos.piece_at(to).is_some()
            || to == B::DEN[them]
            || (qply == 0 && den_ring::<B>(them) & bit(to) != 0)
    }
    #[inline]
    fn in_danger(&self, pos: &Position<B>) -> bool {
        let us = pos.stm();
        pos.occupied(us.flip()) & den_ring::<B>(us.index()) != 0
    }
    #[inline]
    fn order_hint(&self, pos: &Position<B>, mv: crate::Move) -> i32 {
        let us = pos.stm();
        let den = B::DEN[us.flip().index()];
        let (from, to) = (mv.from(), mv.to());
        if to == den {
            return 100_000;
        }
        let victim = match pos.piece_at(to) {
            Some((_, k)) => {
                1000 + 100 * pos.rule_set().strength[k] as i32 + if k == 0 { 400 } else { 0 }
            }
            None => 0,
        };
        // Development gain: getting closer to the enemy den (literature A).
        victim + 4 * (manhattan(from, den) - manhattan(to, den))
    }
}

/// The animal games' engine: their evaluations by name and their tactics.
impl<B: Board> EngineGame for Position<B> {
    type Eval = AnimalEval;
    type Tactics = AnimalTactics;
    fn eval_names() -> &'static [&'static str] {
        // The strongest measured first (docs/search.md, self-play matches):
        // the learned `nnue` in Jungle (ahead of `strong` under both rule sets),
        // literature A's tables in Jungle Checkers (where the net lost).
        if B::KINDS == 4 {
            &["development", "strong", "simple", "nnue"]
        } else {
            &AnimalEval::NAMES
        }
    }
    fn eval_by_name(name: &str) -> Result<AnimalEval, String> {
        AnimalEval::for_board::<B>(name)
    }
}
