//! What the tests of the zoo crates share, so that a rules crate's tests
//! hold only what is particular to its games.
//!
//! - [`cases`]: the line format of the test-case data files
//!   (`game rules position | expectation`), read into cases that know
//!   their line numbers;
//! - [`perft`] and [`moves`]: the two expectations the rules crates check
//!   (move-path counts and legal-move lists), each checked on any
//!   [`zoo_core::Game`];
//! - [`Rng`]: a fixed, seeded random sequence for sampled tests.
//!
//! ```
//! use zoo_testkit::{cases, perft};
//!
//! let text = "# game rules position | depth count\nfox std start | 2 9\n";
//! let cs = cases::read(text, perft::Expect::parse).unwrap();
//! assert_eq!((cs[0].line, cs[0].game, cs[0].position), (2, "fox", "start"));
//! assert_eq!(cs[0].expect, perft::Expect { depth: 2, count: 9 });
//! ```
#![warn(missing_docs)]

pub mod cases;
pub mod moves;
pub mod perft;
mod rng;

pub use rng::Rng;
