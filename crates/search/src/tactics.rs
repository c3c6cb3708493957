//! What a game tells the search beyond its rules: which moves quiescence
//! search must follow, when standing pat is unsafe, and a cheap static
//! ordering hint. Kept apart from the evaluation so that every evaluator of
//! a game shares the same tactics.

use zoo_animal::board::{bit, Board};
use zoo_animal::Position;
use zoo_core::Game;

pub trait Tactics<G: Game>: Send + Sync + Clone + Default + 'static {
    /// Moves quiescence search follows at `qply` plies below the horizon.
    fn is_noisy(&self, pos: &G, mv: G::Move, _qply: u32) -> bool {
        pos.is_capture(mv)
    }
    /// The side to move faces a threat that standing pat would ignore;
    /// quiescence then searches every move (as chess engines do in check).
    fn in_danger(&self, _pos: &G) -> bool {
        false
    }
    /// A static ordering score: higher is tried first.
    fn order_hint(&self, pos: &G, mv: G::Move) -> i32 {
        if pos.is_capture(mv) {
            100
        } else {
            0
        }
    }
}

/// Captures only, for games without special tactics.
#[derive(Debug, Clone, Copy, Default)]
pub struct CapturesOnly;
impl<G: Game> Tactics<G> for CapturesOnly {}

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
    fn is_noisy(&self, pos: &Position<B>, mv: zoo_animal::Move, qply: u32) -> bool {
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
    fn order_hint(&self, pos: &Position<B>, mv: zoo_animal::Move) -> i32 {
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
