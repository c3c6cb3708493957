//! The zoo search engine: one alpha-beta family search written once, generic
//! over [`zoo_core::Game`], an [`zoo_core::Evaluator`] and a
//! [`zoo_core::Tactics`] hook, monomorphised per game. Every enhancement is
//! a switch in [`Config`] so that experiments can compare them by node
//! counts. The search names no game: each game's evaluations and tactics
//! live with its rules ([`zoo_core::EngineGame`]).

pub mod search;
pub mod tt;

pub use search::{
    mate_distance, Config, Engine, Iteration, Limits, SearchResult, Stats, INF, MATE, MATE_BOUND,
    MAX_DEPTH,
};
pub use tt::{Replacement, Table};
pub use zoo_core::{EngineGame, Oracle, Tactics};
