//! The application layer of zoo, between the engines and the front ends:
//! the registry of games and rule sets with one typed dispatch
//! ([`GameKind::visit`]), engine options as plain data
//! ([`EngineOptions`], [`SearchLimits`]), and the [`Session`] facade that
//! `uci`, `play`, `analyse`, `match` and the web server all drive, and
//! the endgame tables' commands and policy ([`TableSet`]).
//!
//! ```
//! use zoo_app::{EngineOptions, GameKind, SearchLimits, Session, Status};
//! let game: GameKind = "jungle".parse()?;
//! let mut s = Session::new(game, None, EngineOptions::default())?;
//! assert_eq!(s.legal_moves().len(), 24);
//! s.play("a3a4")?;
//! assert_eq!(s.status(), Status::Playing);
//! let best = s.search(SearchLimits { depth: Some(3), ..Default::default() }, &mut |_| {})?;
//! println!("best {} score {}", best.best.unwrap().coord, best.score);
//! # Ok::<(), zoo_app::AppError>(())
//! ```

#![warn(missing_docs)]

pub mod cbapi;
pub mod census;
pub mod error;
pub mod external_analysis;
pub mod games;
pub mod machine;
pub mod matches;
pub mod mpi_world;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod report;
pub mod saved;
pub mod session;
pub mod solve;
pub mod tables;
pub mod train;
pub mod trees;

pub use error::AppError;
pub use games::{AppGame, GameKind, GameVisitor, OpenedTables};
pub use options::{movetime_by_clock, EngineOptions, SearchLimits, MAX_MULTIPV};
pub use report::{
    EndReason, EngineInfo, IterationReport, LineReport, MoveInfo, SearchReport, Status, TableValue,
    TablesStatus,
};
pub use saved::SavedGame;
pub use session::Session;
pub use tables::{BuildOutcome, BuildPlan, BuildRequest, TableSet, TableVisitor};
pub use trees::{TreeLimit, TreeReport, TreeRequest, TreeSummary};
/// How a table is stored, what a build reports per table, and sizes in
/// words: the tables' own types, as the front ends show them.
pub use zoo_animal_tb::{build::human_bytes, build::Built};
/// Saving and reading files: one helper for every command.
pub use zoo_core::files;
pub use zoo_tb::file::Encoding;
