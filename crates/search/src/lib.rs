//! The zoo search engine: one alpha-beta family search written once, generic
//! over [`zoo_core::Game`], an [`zoo_core::Evaluator`] and a
//! [`zoo_core::Tactics`] hook, monomorphised per game.
//!
//! Searching the Jungle Checkers start position to depth 4:
//!
//! ```
//! use zoo_animal::JungleCheckersPos;
//! use zoo_core::{Game, History};
//! use zoo_search::{Config, Engine, EngineGame, Limits};
//!
//! type G = JungleCheckersPos;
//! let pos = G::start(&G::default_rules());
//! // The game so far (here just the start), for the repetition rule.
//! let hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
//! let cfg = Config { hash_mb: 1, ..Config::default() };
//! let engine = Engine::new(cfg, G::default_eval(), <G as EngineGame>::Tactics::default());
//! let result = engine.search(&pos, &hist, &Limits::depth(4), &mut |it| {
//!     println!("depth {} score {} nodes {}", it.depth, it.score, it.stats.nodes);
//! });
//! assert_eq!(result.depth, 4);
//! assert_eq!(result.pv.first(), result.best.as_ref());
//! ```
//!
//! Every enhancement is a switch in [`Config`] so that experiments can
//! compare them by node counts; [`Config::ladder`] lists them added in turn.
//! The search names no game: each game's evaluations and tactics live with
//! its rules ([`zoo_core::EngineGame`]).
//!
//! The modules, by job: `config` and `ladder` (the switches), `limits` and
//! `report` (what a search is asked and answers), `score` (the mate scale
//! and the table wins below it),
//! `engine` and `threads` (the engine and its Lazy SMP driver), `worker`
//! (one thread's state), `deepening` (iterative deepening and the root),
//! `node` (the alpha-beta node), `ordering`, `quiescence`, `oracle` (the
//! endgame tables' glue) and [`tt`] (the transposition table).

#![warn(missing_docs)]

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

pub use config::{
    Config, MULTICUT_CUTS, MULTICUT_MOVES, MULTICUT_REDUCTION, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION,
};
pub use engine::Engine;
pub use limits::Limits;
pub use report::{Iteration, Line, SearchResult, Stats};
pub use score::{
    mate_distance, table_result, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, TB_WIN, TB_WIN_BOUND,
};
pub use tt::{Replacement, Table};
pub use zoo_core::{EngineGame, Oracle, Tactics};
