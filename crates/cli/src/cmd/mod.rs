//! One module per subcommand; each has its clap `Args` and a `run`.
pub mod perft;
pub mod show;
