//! Proof search for every zoo game: does the side to move win (or at least
//! not lose) this position?
//!
//! ```
//! use zoo_core::Outcome;
//! use zoo_solve::{value_of, Answer};
//!
//! // Not-lose proven and win disproven: a draw.
//! assert_eq!(value_of(Answer::Disproven, Answer::Proven), Some(Outcome::Draw));
//! ```
//!
//! The questions are binary ([`Goal`], literature B's "advantage"); a
//! position that repeats one on the current path is a draw (policy
//! `first`); finished games, repetitions and, with an oracle (the endgame
//! tables), the positions it covers are the leaves ([`leaf`]). Without an
//! oracle play goes to the end of the game. See `docs/solve.md`.
#![warn(missing_docs)]

pub mod leaf;
pub mod value;

pub use leaf::{End, Leaves};
pub use value::{answers_for, value_of, Answer, Goal};
