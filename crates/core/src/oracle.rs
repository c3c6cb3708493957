//! An endgame oracle: exact values for positions with few pieces (endgame
//! tables), consulted by the search and the proof solver instead of
//! searching below them.

use crate::Outcome;

/// What an oracle knows of a position: always its value, and its distance
/// when the tables hold distances (a set of WDL-only files knows the value
/// alone, in the manner of Syzygy's WDL tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OracleValue {
    /// Win, draw or loss for the side to move (repetition ignored).
    pub outcome: Outcome,
    /// Plies to the end of the game counting the final winning move, or
    /// `None` when the oracle does not know it. A draw has 0 when known.
    pub distance: Option<u16>,
}

impl OracleValue {
    /// A value with its distance.
    pub fn exact(outcome: Outcome, distance: u16) -> OracleValue {
        OracleValue {
            outcome,
            distance: Some(distance),
        }
    }

    /// A value whose distance is unknown.
    pub fn wdl(outcome: Outcome) -> OracleValue {
        OracleValue {
            outcome,
            distance: None,
        }
    }
}

/// Exact game-theoretic values (repetition ignored) for small positions.
pub trait Oracle<G>: Send + Sync {
    /// Positions with at most this many pieces are worth a probe.
    fn max_pieces(&self) -> u32;
    /// The value for the side to move, with its distance when known, or
    /// `None` when the value itself is unknown (no table, damaged table).
    fn probe(&self, pos: &G) -> Option<OracleValue>;
    /// Why [`Oracle::probe`] has no value for `pos` (which file, and what
    /// is wrong with it), for messages; `None` when it does not know.
    fn why_unknown(&self, pos: &G) -> Option<String> {
        let _ = pos;
        None
    }
}
