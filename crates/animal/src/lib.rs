//! Jungle (7×9, rivers and traps) and Jungle Checkers (7×7, four animals)
//! as one rules engine over two board descriptions ([`Board`]).
//!
//! Squares are numbered `(rank-1)*7 + file` (a1 = 0); every bitboard is a
//! `u64`. Each side has at most one piece of each kind, so a position keeps
//! a piece list (`square of kind k`) beside the bitboards and a mailbox.
//!
//! The rules are those of docs/rules/jungle.md and
//! docs/rules/jungle-checkers.md; a position plays them through
//! [`zoo_core::Game`]:
//!
//! ```
//! use zoo_animal::{rules, JungleCheckersPos, JunglePos};
//! use zoo_core::{Game, MoveList, Side};
//!
//! // Jungle under `leiden`, the default rule set (docs/rules/jungle.md §9.2).
//! let mut pos = JunglePos::start(&&rules::JUNGLE_LEIDEN);
//! assert_eq!(pos.to_fen(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 24);
//!
//! // The elephant steps from a3 to a4 (short form `Ea4`, coordinates `a3a4`).
//! let mv = pos.parse_move("Ea4").unwrap();
//! assert_eq!(pos.move_to_coord(mv), "a3a4");
//! let undo = pos.make(mv);
//! assert_eq!(pos.side_to_move(), Side::Black);
//! pos.unmake(mv, undo);
//! assert_eq!(pos, JunglePos::start(&&rules::JUNGLE_LEIDEN));
//!
//! // Jungle Checkers: 14 moves from the start (docs/rules/jungle-checkers.md §2.3).
//! let jc = JungleCheckersPos::start(&&rules::JUNGLE_CHECKERS_LEIDEN);
//! assert_eq!(jc.count_moves(), 14);
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod census;
pub mod eval;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod position;
pub mod render;
pub mod retro;
pub mod rules;
pub mod tables;
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
