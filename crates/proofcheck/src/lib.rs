//! An independent checker of proof files (docs/solve.md, "Proof files"):
//! it reads the text, replays every move with the rules of the game and
//! checks that the tree proves what its header says. It shares no code
//! with the solver that wrote the file (`zoo-solve`), so a bug there cannot
//! hide itself here.
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_proofcheck::{check, header};
//!
//! // White's rat walks into Black's den.
//! let text = "zoo-proof 1\ngame jungle-checkers\nrules leiden\nfen 7/3R3/7/7/7/7/e6 w\n\
//!             goal win\nanswer proven\nnodes 2\n0 - - -\n1 0 d6d7 terminal loss\n";
//! assert_eq!(header(text).unwrap().game, "jungle-checkers");
//! let ok = check::<JungleCheckersPos>(text, &&JUNGLE_CHECKERS_LEIDEN, None).unwrap();
//! assert_eq!((ok.nodes, ok.leaves), (2, 1));
//! // One byte changed: the rat does not reach the den.
//! let bad = text.replace("d6d7", "d6c6");
//! let e = check::<JungleCheckersPos>(&bad, &&JUNGLE_CHECKERS_LEIDEN, None).unwrap_err();
//! assert_eq!(e.line, 9);
//! ```
//!
//! What is checked, each failure naming the line of the file:
//! - the header: format, game, rules, root position, goal, answer, the
//!   number of node lines;
//! - the tree: ids in order from 0, each parent an earlier inner node;
//! - each move legal where it is played; at the nodes where the side the
//!   answer favours chooses, at least one move; where the other side
//!   chooses, every legal move, once;
//! - each leaf what it says: a finished game with that result, no legal
//!   move with that result, a position that repeats one earlier on its
//!   path (a draw), or the table's value (when tables are given);
//! - each leaf's result the one the answer needs for the side that asked
//!   (the root's side to move); an inner node has moves to check;
//! - a `same J` leaf (play goes on from node J, an inner node): the same
//!   position as node J; where a draw meets the claim, a line that goes
//!   on through such leaves forever repeats a position, a draw; where a
//!   draw misses it, no line may come back to a node it passed, so that
//!   every line ends at a leaf.
#![warn(missing_docs)]

mod read;
mod replay;

pub use read::{header, Goal, Header};
pub use replay::{check, Checked, Probe};

/// Why a proof file is refused: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CheckError {
    /// The line of the file (from 1; 0 for the file as a whole).
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

pub(crate) fn err<T>(line: usize, message: impl Into<String>) -> Result<T, CheckError> {
    Err(CheckError {
        line,
        message: message.into(),
    })
}
