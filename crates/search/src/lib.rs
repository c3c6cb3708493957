//! The zoo search engine: one alpha-beta family search written once, generic
//! over [`zoo_core::Game`], an [`zoo_core::Evaluator`] and a
//! [`zoo_core::Tactics`] hook, monomorphised per game. Every enhancement is
//! a switch in [`Config`] so that experiments can compare them by node
//! counts. The search names no game: each game's evaluations and tactics
//! live with its rules ([`zoo_core::EngineGame`]).

mod config;
mod deepening;
mod engine;
mod ladder;
mod limits;
mod node;
mod oracle;
mod ordering;
mod quiescence;
mod report;
mod score;
mod threads;
pub mod tt;
mod worker;

pub use config::Config;
pub use engine::Engine;
pub use limits::Limits;
pub use report::{Iteration, SearchResult, Stats};
pub use score::{mate_distance, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY};
pub use tt::{Replacement, Table};
pub use zoo_core::{EngineGame, Oracle, Tactics};
