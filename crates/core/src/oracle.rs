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
    /// Every position with at most this many pieces has a value here (the
    /// probe fails only on a damaged file); at most [`Oracle::max_pieces`],
    /// below it when the next size is built only in part.
    fn complete_pieces(&self) -> u32 {
        self.max_pieces()
    }
    /// The value for the side to move, with its distance when known, or
    /// `None` when the value itself is unknown (no table, damaged table).
    fn probe(&self, pos: &G) -> Option<OracleValue>;
    /// Why [`Oracle::probe`] has no value for `pos` (which file, and what
    /// is wrong with it), for messages; `None` when it does not know.
    fn why_unknown(&self, pos: &G) -> Option<String> {
        let _ = pos;
        None
    }
    /// How many probes found a table file damaged or unreadable so far,
    /// and the first such reason: the search goes on below those
    /// positions (its answer stands), and the user is told. `None` when
    /// none was, or the oracle does not count.
    fn refused(&self) -> Option<(u64, String)> {
        None
    }
    /// Bounds `(lowest, highest)` on the value for the side to move of a
    /// position the tables do not cover, as a root with no history (a
    /// cycle a draw), from elsewhere: a store of answers proved earlier.
    /// The proof search treats a position as a leaf where the bounds
    /// decide its question. `None`: nothing known (the default).
    fn bounds(&self, pos: &G) -> Option<(Outcome, Outcome)> {
        let _ = pos;
        None
    }
}

/// What building one material's whole table in memory would take
/// ([`MaterialBuilder::cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildCost {
    /// Bytes held while it is built and afterwards.
    pub bytes: u64,
    /// Entries valued (both sides to move).
    pub entries: u64,
    /// Units of work [`MaterialBuilder::build`] reports as it goes (its
    /// `tick`'s argument sums to this).
    pub work: u64,
}

/// Builds the whole table of the material one piece past an oracle's, in
/// memory, from the oracle's tables: how the proof solver values a root
/// the oracle does not know without searching it (`zoo-solve`'s
/// `material` module). A game's table crate implements it.
pub trait MaterialBuilder<G>: Send + Sync {
    /// What the table of `pos`'s material would take, or `None` when this
    /// builder cannot make it (not one piece past the tables it has).
    fn cost(&self, pos: &G) -> Option<BuildCost>;
    /// The table of `pos`'s material, as an oracle that knows every
    /// position of that material with its distance. `tick(work)` is
    /// called now and then with the work done since its last call; when
    /// it returns `true` the build stops, with `Err`. `Err` says why no
    /// table was made.
    fn build(
        &self,
        pos: &G,
        tick: &(dyn Fn(u64) -> bool + Sync),
    ) -> Result<Box<dyn Oracle<G>>, String>;
}
