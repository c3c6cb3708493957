//! The census of an animal game's positions (literature A's chapter):
//! how many positions of each kind there are per number of pieces.
//!
//! What is counted (docs/census.md says it at length): each of the game's
//! pieces is on the board or not, on a square it may stand on (not its own
//! den; only rats in the water), with a side to move.
//!
//! - *unfinished*: both sides have pieces and none stands on a den; counted
//!   once per side to move. With all eight Jungle Checkers pieces on the
//!   board only the side the parity rule allows is counted (White to move
//!   exactly when an even number of pieces stand on squares of a1's colour).
//! - *won by material*: one side has no pieces; counted with the loser to
//!   move.
//! - *won by the den*: a piece stands on the enemy den and the enemy still
//!   has pieces; counted with the loser to move.
//!
//! Left out as no position of the game: two pieces on the two dens, and a
//! piece on the enemy den when the enemy has no pieces (entering a den never
//! captures, so no move ends a game both ways at once).
//!
//! A position is *reachable* under a [`Reading`]; unreachable unfinished
//! positions and stalemates (reachable, no legal move) are counted apart.
//!
//! ```
//! use zoo_animal::census::{enumerate, Reading};
//! use zoo_animal::{rules, JungleCheckers};
//!
//! // Literature A's 2-piece row: 69,184 unfinished, 25,944 won by
//! // material, 1,504 den wins.
//! let row = enumerate::row::<JungleCheckers>(&rules::JUNGLE_CHECKERS_LEIDEN, 2, Reading::Thesis);
//! assert_eq!((row.unfinished, row.won_material, row.won_den), (69_184, 25_944, 1_504));
//! assert_eq!(row.reachable, 96_632);
//! ```

pub mod count;
pub mod enumerate;
pub mod sample;

use crate::board::Board;
use std::fmt;
use std::str::FromStr;

/// Which predecessors make a position reachable. Literature A mixes two
/// readings; each is named so that a count says which it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Some unfinished predecessor leads here by one legal move (a step, or
    /// a capture of a piece now missing).
    One,
    /// Some predecessor that is itself `One`-reachable.
    Two,
    /// `One` for unfinished positions and material wins, `Two` for den wins:
    /// the reading of literature A's published table.
    Thesis,
    /// No dead end backwards at any depth: some chain of predecessors goes
    /// back for ever. Decided by enumeration only, each position by a
    /// certificate (docs/census.md, "The fixpoint reading").
    Fixpoint,
}

impl Reading {
    /// Every reading, in the order of the command line's help.
    pub const ALL: [Reading; 4] = [
        Reading::One,
        Reading::Thesis,
        Reading::Two,
        Reading::Fixpoint,
    ];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Reading::One => "one",
            Reading::Two => "two",
            Reading::Thesis => "thesis",
            Reading::Fixpoint => "fixpoint",
        }
    }

    /// How many moves back a position of this kind must be traced; `None`
    /// for as many as it takes.
    pub(crate) fn depth(self, den_win: bool) -> Option<u32> {
        match self {
            Reading::One => Some(1),
            Reading::Two => Some(2),
            Reading::Thesis => Some(1 + den_win as u32),
            Reading::Fixpoint => None,
        }
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A reading name that is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownReading(pub String);

impl fmt::Display for UnknownReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown reading `{}`: one of one, thesis, two, fixpoint",
            self.0
        )
    }
}

impl std::error::Error for UnknownReading {}

impl FromStr for Reading {
    type Err = UnknownReading;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reading::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownReading(s.to_string()))
    }
}

/// What a count needs besides the rules (both methods and the sampling).
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// How reachability is read.
    pub reading: Reading,
    /// The number of pieces at which the side to move follows from the
    /// square colours ([`parity_pieces`]); tests move it lower to check the
    /// rule's code on rows enumeration reaches.
    pub parity_pieces: Option<u32>,
    /// Set to stop early.
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Options<'_> {
    /// The game's own parity rule, nothing to stop.
    pub fn new<B: Board>(reading: Reading) -> Options<'static> {
        Options {
            reading,
            parity_pieces: parity_pieces::<B>(),
            stop: None,
        }
    }
}

/// One row of the census: the positions with one number of pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// Pieces on the board, both sides.
    pub pieces: u32,
    /// Reachable unfinished positions with a legal move.
    pub unfinished: u128,
    /// Unfinished positions no legal move can have produced.
    pub unreachable_unfinished: u128,
    /// Reachable unfinished positions whose side to move has no move.
    pub stalemates: u128,
    /// One side has no pieces (the loser to move).
    pub won_material: u128,
    /// A piece on the enemy den (the loser to move), reachable.
    pub won_den: u128,
    /// Den wins that cannot have arisen.
    pub unreachable_won: u128,
    /// `unfinished + stalemates + won_material + won_den`.
    pub reachable: u128,
}

impl Row {
    /// Adds `o`'s counts to these (the same number of pieces).
    pub fn add(&mut self, o: &Row) {
        self.unfinished += o.unfinished;
        self.unreachable_unfinished += o.unreachable_unfinished;
        self.stalemates += o.stalemates;
        self.won_material += o.won_material;
        self.won_den += o.won_den;
        self.unreachable_won += o.unreachable_won;
        self.reachable += o.reachable;
    }

    /// Sets `reachable` from the reachable counts.
    pub(crate) fn close(mut self) -> Row {
        self.reachable = self.unfinished + self.stalemates + self.won_material + self.won_den;
        self
    }
}

/// The number of pieces with which the side to move follows from the
/// position (docs/rules/jungle-checkers.md, "Facts"): every piece on the
/// board, in Jungle Checkers only. Jungle's leaps break the invariant.
pub fn parity_pieces<B: Board>() -> Option<u32> {
    (B::WATER == 0 && B::LEAPERS == 0).then_some(2 * B::KINDS as u32)
}

/// Whether a square has a1's colour.
#[inline]
pub(crate) fn light(sq: u8) -> bool {
    let (f, r) = (crate::board::file_of(sq), crate::board::rank_of(sq));
    (f + r) % 2 == 0
}
