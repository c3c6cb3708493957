//! Static evaluation, shared by every game so that rules crates can provide
//! their evaluations without depending on the search crate.

use crate::Game;

/// Scores of evaluations stay strictly inside ±`EVAL_LIMIT`; the search
/// keeps the range above it for won and lost positions (distance to mate).
pub const EVAL_LIMIT: i32 = 30_000;

/// A static evaluation from the side to move's point of view.
pub trait Evaluator<G: Game>: Send + Sync {
    /// Stable name (`--eval NAME` on the command line, match logs).
    fn name(&self) -> &'static str;
    /// The static score of `pos` for the side to move (higher is better),
    /// strictly inside ±[`EVAL_LIMIT`].
    fn evaluate(&self, pos: &G) -> i32;
    /// The score of a finished game `pos` (won, lost or drawn) for the side
    /// to move when this evaluation scores finished games itself, as
    /// literature D's program does; `None` (the default): the search scores
    /// it as won or lost at its distance from the root.
    fn finished(&self, _pos: &G) -> Option<i32> {
        None
    }
}
