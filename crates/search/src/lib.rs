//! The zoo search engine: one alpha-beta family search written once, generic
//! over [`zoo_core::Game`], an [`zoo_core::Evaluator`] and a [`Tactics`]
//! hook, monomorphised per game. Every enhancement is a switch in
//! [`Config`] so that experiments can compare them by node counts.

pub mod checkers;
pub mod eval;
pub mod games;
pub mod oracle;
pub mod search;
pub mod tactics;
pub mod tt;

pub use checkers::CheckersTactics;
pub use eval::{AnimalEval, Development, Simple, Strong, WEIGHTS};
pub use games::EngineGame;
pub use oracle::{Oracle, OracleInfo, TbOracle};
pub use search::{
    mate_distance, Config, Engine, Iteration, Limits, SearchResult, Stats, INF, MATE, MATE_BOUND,
    MAX_DEPTH,
};
pub use tactics::{AnimalTactics, CapturesOnly, Tactics};
pub use tt::{Replacement, Table};
