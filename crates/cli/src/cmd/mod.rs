//! One module per subcommand; each has its clap `Args` and a `run`.
pub mod census;
pub mod perft;
pub mod progress;
pub mod serve;
pub mod show;
pub mod solve;
// Search engine commands (zoo-search).
pub mod analyse;
pub mod bench;
pub mod engine;
pub mod experiment;
pub mod input;
pub mod json;
pub mod matches;
pub mod play;
pub mod uci;
// Endgame tables (zoo-tb).
pub mod tb;
// Decision trees over the tables (zoo-learn).
pub mod tree;
// The learned evaluation (zoo-learn's trainer).
pub mod train;
