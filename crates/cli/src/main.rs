//! The `zoo` command line.

mod cmd;
mod games;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "zoo", version, about = "Play, analyse and solve Jungle, Jungle Checkers and checkers")]
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
}

fn main() {
    let cli = Cli::parse();
    let result: Result<()> = match &cli.command {
        Command::Perft(a) => cmd::perft::run(a),
        Command::Show(a) => cmd::show::run(a),
    };
    if let Err(e) = result {
        eprintln!("zoo: error: {e:#}");
        std::process::exit(2);
    }
}
