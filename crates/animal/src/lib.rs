//! Jungle (7×9, rivers and traps) and Jungle Checkers (7×7, four animals)
//! as one rules engine over two board descriptions ([`Board`]).
//!
//! Squares are numbered `(rank-1)*7 + file` (a1 = 0); every bitboard is a
//! `u64`. Each side has at most one piece of each kind, so a position keeps
//! a piece list (`square of kind k`) beside the bitboards and a mailbox.

pub mod board;
pub mod eval;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod render;
pub mod retro;
pub mod rules;
pub mod tactics;
pub mod zobrist;

pub use board::{Board, Jungle, JungleCheckers};
pub use eval::{AnimalEval, Development, Simple, Strong, WEIGHTS};
pub use position::{Move, Position, Undo};
pub use retro::Unmove;
pub use rules::RuleSet;
pub use tactics::AnimalTactics;

/// A Jungle position.
pub type JunglePos = Position<Jungle>;
/// A Jungle Checkers position.
pub type JungleCheckersPos = Position<JungleCheckers>;
