//! Classical (Portuguese/Spanish) and English checkers as one rules engine
//! with the variants as data ([`Variant`]): bitboards on the 32 dark
//! squares, precomputed diagonal tables, make/unmake with incremental
//! Zobrist keys, PDN FEN and PDN game files, evaluations, the census of
//! positions, and what endgame tables need from a game ([`tables`]).
//!
//! The rules are those of docs/rules/checkers.md; a position plays them
//! through [`zoo_core::Game`]:
//!
//! ```
//! use zoo_checkers::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
//! use zoo_core::{Game, MoveList, Side};
//!
//! // Classical checkers: White moves first from squares 1-12 (§1.6).
//! let mut pos = ClassicalPos::start(&&CLASSICAL);
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 7);
//!
//! let mv = pos.parse_move("9-13").unwrap();
//! let undo = pos.make(mv);
//! assert_eq!(pos.side_to_move(), Side::Black);
//! pos.unmake(mv, undo);
//! assert_eq!(pos.to_fen(), ClassicalPos::start(&&CLASSICAL).to_fen());
//!
//! // English checkers: Black moves first from squares 1-12 (§7.2).
//! let english = EnglishPos::start(&&ENGLISH);
//! assert_eq!(english.side_to_move(), Side::Black);
//! assert_eq!(english.count_moves(), 7);
//! ```

#![warn(missing_docs)]

pub mod census;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod pdn;
pub mod position;
pub mod tables;
pub mod tactics;
pub mod variant;
pub mod zobrist;

pub use position::{Move, Position, Undo};
pub use tactics::CheckersTactics;
pub use variant::{Classical, English, RuleSet, Variant, CLASSICAL, ENGLISH};

/// A Classical checkers position.
pub type ClassicalPos = Position<Classical>;
/// An English checkers position.
pub type EnglishPos = Position<English>;
