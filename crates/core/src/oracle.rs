//! An endgame oracle: exact values for positions with few pieces (endgame
//! tables), consulted by the search and the proof solver instead of
//! searching below them.

use crate::Outcome;

/// Exact game-theoretic values (repetition ignored) for small positions.
pub trait Oracle<G>: Send + Sync {
    /// Positions with at most this many pieces are worth a probe.
    fn max_pieces(&self) -> u32;
    /// Value for the side to move and distance in plies counting the final
    /// winning move, or `None` when unknown (no table, damaged table).
    fn probe(&self, pos: &G) -> Option<(Outcome, u16)>;
}
