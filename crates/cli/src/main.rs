//! The `zoo` command line.

mod cmd;
mod games;
#[cfg(test)]
mod help_lines;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "zoo",
    version,
    about = "Play, analyse and solve Jungle, Jungle Checkers and checkers"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths (leaves of the game tree) to a depth.
    Perft(cmd::perft::PerftArgs),
    /// Draw a position and list its legal moves.
    Show(cmd::show::ShowArgs),
    /// Count positions per number of pieces: by kind and reachability for the animal games (docs/census.md).
    Census(cmd::census::CensusArgs),
    /// Search a position: each iteration's score, principal variation and nodes.
    Analyse(cmd::analyse::AnalyseArgs),
    /// Play against the engine in the terminal.
    Play(cmd::play::PlayArgs),
    /// Speak the UCI-like engine protocol on stdin/stdout (docs/protocol.md).
    Uci(cmd::uci::UciArgs),
    /// Engine against engine: W/D/L, score and Elo difference.
    Match(cmd::matches::MatchArgs),
    /// Search speed: time to depth 14 from the Jungle start, depth reached in a second.
    Bench(cmd::bench::BenchArgs),
    /// Reproduce the published search experiments: tables and SVG plots.
    Experiment(cmd::experiment::ExperimentArgs),
    /// Endgame tables: build, stats, probe, verify.
    Tb(cmd::tb::TbArgs),
    /// Decision trees (C4.5) learned from the 2-piece Jungle table (docs/trees.md).
    Tree(cmd::tree::TreeArgs),
    /// The learned evaluation of the animal games, from self-play (docs/search.md).
    Train(cmd::train::TrainArgs),
    /// Prove a position by proof-number search; write or re-check proofs.
    Solve(cmd::solve::SolveArgs),
    /// The web board and its JSON API (docs/web.md).
    Serve(cmd::serve::ServeArgs),
}

/// Output piped into `head` and the like ends the process quietly, as any
/// Unix tool does, instead of panicking in `println!`.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called in main before any other thread exists; setting a
    // signal's disposition to SIG_DFL installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() {
    let cli = Cli::parse();
    // `match` writes to external engines' pipes: one that exits mid-game
    // must give a write error, which loses it the game, not a SIGPIPE that
    // ends zoo. `serve` writes to clients' sockets, some by `writev`, which
    // raises SIGPIPE on a connection the client has reset: a client that
    // goes away must end its connection, not the server. So both keep
    // Rust's default (SIGPIPE ignored); the server's log lines ignore a
    // closed standard error.
    if !matches!(cli.command, Command::Match(_) | Command::Serve(_)) {
        restore_default_sigpipe();
    }
    let result: Result<()> = match &cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Census(a) => cmd::census::run(a),
        Command::Analyse(a) => cmd::analyse::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Uci(a) => cmd::uci::run(a),
        Command::Match(a) => cmd::matches::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Experiment(a) => cmd::experiment::run(a),
        Command::Tb(a) => cmd::tb::run(a),
        Command::Tree(a) => cmd::tree::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Serve(a) => cmd::serve::run(a),
    };
    if let Err(e) = result {
        eprintln!("zoo: error: {e:#}");
        std::process::exit(2);
    }
}
