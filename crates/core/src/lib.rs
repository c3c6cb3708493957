//! The contract between the rules of each game and every algorithm of zoo.
//!
//! Rules crates (`zoo-animal`, `zoo-checkers`) implement [`Game`] (and the
//! animal games also [`Retro`]); perft, search, tablebases and the CLI are
//! written once, generic over these traits and monomorphised per game.
//!
//! Repetition is not part of a position: a [`History`] records the keys of
//! the positions of a game and applies a [`Repetition`] policy
//! (docs/rules/jungle.md §5.4, docs/rules/checkers.md §4.2). Two kings
//! shuffling back and forth repeat the start after four plies:
//!
//! ```
//! use zoo_core::{History, Repetition};
//!
//! // Keys of a cycle A B C D A B C D A; the piece count stays 2.
//! let cycle = [1u64, 2, 3, 4];
//! let mut first = History::starting_at(Repetition::First, cycle[0], 2);
//! let mut threefold = History::starting_at(Repetition::Threefold, cycle[0], 2);
//! for ply in 1..=8 {
//!     let key = cycle[ply % 4];
//!     first.push(key, 2);
//!     threefold.push(key, 2);
//!     // `first` draws at the first repeat, `threefold` at the third occurrence.
//!     assert_eq!(first.is_draw(), ply >= 4, "ply {ply}");
//!     assert_eq!(threefold.is_draw(), ply == 8, "ply {ply}");
//! }
//! assert_eq!("threefold".parse::<Repetition>().unwrap(), Repetition::Threefold);
//! ```

#![warn(missing_docs)]

pub mod engine;
pub mod error;
pub mod eval;
pub mod files;
pub mod game;
pub mod memory;
pub mod nnue;
pub mod oracle;
pub mod perft;
pub mod repetition;
pub mod rng;
pub mod table_index;
pub mod tactics;
pub mod zobrist;

pub use engine::EngineGame;
pub use error::ParseError;
pub use eval::{Evaluator, EVAL_LIMIT};
pub use game::{Game, MoveList, Outcome, Retro, Side, MAX_MOVES};
pub use memory::OutOfMemory;
pub use oracle::{BuildCost, MaterialBuilder, Oracle, OracleValue};
pub use perft::{
    perft, perft_counting, perft_divide, perft_divide_counting, perft_divide_with_progress,
    perft_parallel, Counting,
};
pub use repetition::{History, Repetition};
pub use table_index::{Stored, TableIndex, TableScheme};
pub use tactics::{CapturesOnly, Tactics};
