//! `cargo xtask`: the project's tasks that are more than one cargo command.
//!
//! - `cargo xtask test` installs what the tests need where it is missing
//!   (Debian packages, the browser test's npm packages) and runs every
//!   test: the workspace's, the browser test, the MPI tests and the docs
//!   check, each step named and timed, stopping at the first failure.
//! - `cargo xtask docs` reruns the commands behind the documented figures
//!   (docs/checks.toml) and fails when a page no longer says what they
//!   compute.

mod docs;
mod packages;
mod runner;
mod steps;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use steps::Step;

#[derive(Parser)]
#[command(about = "zoo's own tasks (run as `cargo xtask …`)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Install what the tests need where it is missing, then run every test:
    /// the workspace's, the docs check, the browser test and the MPI tests
    Test {
        /// Run only these steps (repeatable), in the usual order
        #[arg(long, value_enum)]
        only: Vec<Step>,
        /// Also run the slow tests (`#[ignore]`d, named `slow_…`), as
        /// before a release
        #[arg(long)]
        slow: bool,
    },
    /// Check every documented figure of docs/checks.toml: rerun the commands
    /// that take less than a minute, and check that each page still shows
    /// every figure (the same as `test --only docs`)
    Docs {
        /// Only check that the pages still show the figures; run no command
        #[arg(long)]
        pages_only: bool,
    },
}

/// The workspace root: this crate lives in crates/xtask.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(cli: Cli) -> Result<()> {
    let root = root();
    match cli.command {
        Command::Test { only, slow } => steps::run(&root, &only, slow),
        Command::Docs { pages_only: false } => steps::run(&root, &[Step::Docs], false),
        Command::Docs { pages_only: true } => {
            let checks = docs::load(&root)?;
            docs::check_pages(&root, &checks)?;
            println!("docs: all {} figures are on their pages", checks.len());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
