//! What a game tells the search beyond its rules: which moves quiescence
//! search must follow, when standing pat is unsafe, and a cheap static
//! ordering hint. Kept apart from the evaluation so that every evaluator of
//! a game shares the same tactics.

use crate::Game;

/// What quiescence search and move ordering need to know about a game's
/// tactics; the defaults treat captures as the only noisy moves.
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
