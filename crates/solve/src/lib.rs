//! Proof search for every zoo game: does the side to move win (or at least
//! not lose) this position, with a proof to show for it?
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::{Game, Outcome};
//! use zoo_solve::{pns, value_of, Answer, Goal, Limits};
//!
//! // White's rat is next to Black's den: it walks in.
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let win = pns::solve(&pos, Goal::Win, None, &Limits::nodes(10_000));
//! assert_eq!(win.answer, Answer::Proven);
//! let not_lose = pns::solve(&pos, Goal::NotLose, None, &Limits::nodes(10_000));
//! assert_eq!(value_of(win.answer, not_lose.answer), Some(Outcome::Win));
//! // The proof: at the root, one move (into the den).
//! let proof = win.proof.unwrap();
//! assert_eq!(proof.children(0).len(), 1);
//! ```
//!
//! The questions are binary ([`Goal`], literature B's "advantage"); a
//! position that repeats one on the current path is a draw (policy
//! `first`); finished games, repetitions and, with an oracle (the endgame
//! tables), the positions it covers are the leaves ([`leaf`]). Without an
//! oracle play goes to the end of the game.
//!
//! Three algorithms, with one signature: [`pns::solve`] (Allis's
//! proof-number search, the tree in memory, gives proofs), [`pn2::solve`]
//! (Breuker's PN²: each expansion a second-level search whose tree is
//! thrown away, gives proofs) and [`dfpn::solve`] (Nagai's df-pn with a
//! transposition table and a choice of [`Ghi`] mode). All return a
//! [`Report`]. Beside them, [`graph`] values a root's whole reachable
//! graph backwards where it fits in memory, as a table build does, and
//! [`material`] the root's whole material, built in memory from tables
//! of one piece fewer, [`bounded`] searches (position, plies left)
//! for one side's win, the graph acyclic by construction, and
//! [`fortress`] grows the graph of one side's strategy to show that it
//! does not lose (a draw's proof, cycles and all); the proof
//! manager ([`manager`], `zoo solve`'s default) asks df-pn (the bounded
//! search and the strategy search beside it) first and the graph or the
//! material's table where
//! df-pn's quick runs leave a question open. See `docs/solve.md`.
#![warn(missing_docs)]

pub mod bounded;
pub mod dfpn;
pub mod fortress;
pub mod gc;
pub mod graph;
mod known;
pub mod leaf;
pub mod limits;
pub mod manager;
pub mod material;
mod mirror;
mod pages;
pub mod pn2;
pub mod pns;
mod prefetch;
pub mod proof;
pub mod tree_file;
pub mod value;

pub use dfpn::Ghi;
pub use leaf::{End, Leaves};
pub use limits::{Limits, Progress, Report, INF};
pub use proof::{Proof, ProofNode};
pub use value::{
    answers_for, solve_value, solve_value_from, solve_value_sharing, value_of, Answer, Goal,
};
