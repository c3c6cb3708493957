//! The contract between the rules of each game and every algorithm of zoo.
//!
//! Rules crates (`zoo-animal`, `zoo-checkers`) implement [`Game`] (and the
//! animal games also [`Retro`]); perft, search, tablebases and the CLI are
//! written once, generic over these traits and monomorphised per game.

pub mod engine;
pub mod error;
pub mod eval;
pub mod game;
pub mod oracle;
pub mod perft;
pub mod repetition;
pub mod tactics;
pub mod zobrist;

pub use engine::EngineGame;
pub use error::ParseError;
pub use eval::{Evaluator, EVAL_LIMIT};
pub use game::{Game, MoveList, Outcome, Retro, Side, MAX_MOVES};
pub use oracle::Oracle;
pub use perft::{perft, perft_divide, perft_parallel};
pub use repetition::{History, Repetition};
pub use tactics::{CapturesOnly, Tactics};
