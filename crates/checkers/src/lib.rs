//! Classical (Portuguese/Spanish) and English checkers as one rules engine
//! with the variants as data ([`Variant`]): bitboards on the 32 dark
//! squares, precomputed diagonal tables, make/unmake with incremental
//! Zobrist keys, PDN FEN and PDN game files, evaluations and the census of
//! positions.

pub mod census;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod pdn;
pub mod position;
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
