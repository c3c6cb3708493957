//! The application layer of zoo, between the engines and the front ends:
//! the registry of games and rule sets with one typed dispatch
//! ([`GameKind::visit`]), engine options as plain data, and the
//! `Session` facade that `uci`, `play`, `analyse`,
//! `match` and the web server all drive.

pub mod error;
pub mod games;

pub use error::AppError;
pub use games::{AppGame, GameKind, GameVisitor, OpenedTables};
