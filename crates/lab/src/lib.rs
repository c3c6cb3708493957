//! The zoo research lab: the published search experiments, their test sets,
//! tables (Markdown, CSV) and plots (SVG). Experiments compute and hand back
//! a [`Report`]; the `zoo experiment` command parses arguments, writes the
//! files and prints.
//!
//! The enhancement ladder over the first three built-in Jungle Checkers
//! positions, at depth 2:
//!
//! ```
//! use zoo_animal::JungleCheckersPos;
//!
//! let set = zoo_lab::testset::built_in::<JungleCheckersPos>()?;
//! let report = zoo_lab::enhancements(&set[..3], &[2], &mut |line| eprintln!("{line}"))?;
//! let names: Vec<&str> = report.files.iter().map(|(n, _)| n.as_str()).collect();
//! assert_eq!(
//!     names,
//!     [
//!         "enhancements-jungle-checkers.md",
//!         "enhancements-jungle-checkers.csv",
//!         "enhancements-jungle-checkers.svg",
//!     ]
//! );
//! assert!(report.summary.unwrap().contains("| +TT |"));
//! # Ok::<(), anyhow::Error>(())
//! ```
//!
//! Modules: [`testset`] (the built-in sets and their format), [`selfplay`]
//! (making a set by play), [`measure`] (one counted search), the
//! experiments [`negamax`](negamax()), [`enhancements`](enhancements()),
//! [`depth_curve`](depth_curve()), [`proving`] (df-pn against
//! alpha-beta, literature A), [`decide`] (the default proof search on the
//! tables' hardest positions), [`solvers`] (PNS, PN² and df-pn's GHI
//! modes against the tables) and [`with_tables`] (positions beyond the
//! tables, solved with them as the oracle), [`observations`] (literature
//! A's observations with its tables: the equal-material starts, the
//! parity of equal-strength pairs), their random positions
//! ([`positions`]), [`plot`] and [`report`].

#![warn(missing_docs)]

pub mod decide;
pub mod depth_curve;
pub mod endgames;
pub mod enhancements;
pub mod measure;
pub mod negamax;
pub mod observations;
pub mod plot;
pub mod positions;
pub mod probcut_fit;
pub mod proving;
pub mod report;
pub mod selfplay;
pub mod solvers;
pub mod testset;
pub mod with_tables;

pub use depth_curve::depth_curve;
pub use enhancements::{default_depths, enhancements};
pub use negamax::negamax;
pub use report::Report;
pub use selfplay::{make_testset, MadeTestset};
