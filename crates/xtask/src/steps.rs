//! The steps of `cargo xtask test`, in order, each printed with its
//! command and timed; the first failure stops the run and names its step.

use crate::{docs, packages};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, ValueEnum)]
pub enum Step {
    /// Debian packages for the browser and MPI tests (apt-get, as root)
    Packages,
    /// `npm ci` of the browser test's driver (Playwright)
    Npm,
    /// `cargo test --release --workspace`
    Workspace,
    /// The documented figures against their commands (docs/checks.toml)
    Docs,
    /// The web board in headless Chromium
    Browser,
    /// The table builds under `mpirun` (the `mpi` feature)
    Mpi,
}

impl Step {
    const ALL: [Step; 6] = [
        Step::Packages,
        Step::Npm,
        Step::Workspace,
        Step::Docs,
        Step::Browser,
        Step::Mpi,
    ];

    fn name(self) -> &'static str {
        match self {
            Step::Packages => "packages",
            Step::Npm => "npm",
            Step::Workspace => "workspace",
            Step::Docs => "docs",
            Step::Browser => "browser",
            Step::Mpi => "mpi",
        }
    }

    /// What a step cannot run without.
    fn needs(self) -> &'static [Step] {
        match self {
            Step::Npm | Step::Mpi => &[Step::Packages],
            Step::Browser => &[Step::Packages, Step::Npm],
            _ => &[],
        }
    }
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs a command in the workspace root; fails with the command's status.
fn sh(root: &Path, mut command: Command) -> Result<()> {
    command.current_dir(root);
    let shown = format!(
        "{} {}",
        command.get_program().to_string_lossy(),
        command
            .get_args()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("    $ {shown}");
    let status = command
        .status()
        .with_context(|| format!("cannot start {shown}"))?;
    if !status.success() {
        bail!("`{shown}` failed ({status})");
    }
    Ok(())
}

/// Where cargo puts the release binaries.
pub fn release_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("release")
}

/// `built`: the workspace step has just built the zoo binary (with the
/// features the tests unify; `cargo build -p zoo` would build it again).
fn run_step(root: &Path, step: Step, built: bool) -> Result<()> {
    match step {
        Step::Packages => packages::install(),
        Step::Npm => {
            let mut c = Command::new("npm");
            c.args([
                "ci",
                "--prefix",
                "crates/web/tests/browser",
                "--no-audit",
                "--no-fund",
            ]);
            sh(root, c)
        }
        Step::Workspace => {
            let mut c = cargo();
            c.args(["test", "--release", "--workspace"]);
            sh(root, c)
        }
        Step::Docs => {
            if !built {
                let mut c = cargo();
                c.args(["build", "--release", "-p", "zoo"]);
                sh(root, c)?;
            }
            let zoo = release_dir(root).join("zoo");
            docs::run(root, &docs::load(root)?, &zoo)
        }
        Step::Browser => {
            let mut c = cargo();
            c.args([
                "test",
                "--release",
                // --workspace, not -p zoo: the same feature unification as
                // the workspace step, so nothing is built again.
                "--workspace",
                "--test",
                "browser",
                "--",
                "--include-ignored",
            ]);
            sh(root, c)
        }
        Step::Mpi => {
            let mut c = cargo();
            c.args([
                "test",
                "--release",
                "--workspace",
                "--features",
                "zoo/mpi",
                "--test",
                "mpi_cli",
            ]);
            sh(root, c)
        }
    }
}

/// The steps to run: all, or those asked for and what they need.
fn plan(only: &[Step]) -> Vec<Step> {
    if only.is_empty() {
        return Step::ALL.to_vec();
    }
    let mut steps: Vec<Step> = only.to_vec();
    for step in only {
        for need in step.needs() {
            if !steps.contains(need) {
                println!(
                    "xtask: `{}` needs `{}`: running it too",
                    step.name(),
                    need.name()
                );
                steps.push(*need);
            }
        }
    }
    steps.sort();
    steps.dedup();
    steps
}

pub fn run(root: &Path, only: &[Step]) -> Result<()> {
    let steps = plan(only);
    let start = Instant::now();
    let mut times = Vec::new();
    for (i, &step) in steps.iter().enumerate() {
        println!("==> [{}/{}] {}", i + 1, steps.len(), step.name());
        let t = Instant::now();
        let result = run_step(root, step, steps.contains(&Step::Workspace));
        let secs = t.elapsed().as_secs_f64();
        if let Err(e) = result {
            bail!("step `{}` failed after {secs:.1} s: {e:#}", step.name());
        }
        println!("<== {}: ok in {secs:.1} s", step.name());
        times.push((step, secs));
    }
    println!(
        "xtask test: all {} steps passed in {:.1} s",
        steps.len(),
        start.elapsed().as_secs_f64()
    );
    for (step, secs) in times {
        println!("    {:<10} {secs:>8.1} s", step.name());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_run_alone_brings_what_it_needs_in_order() {
        assert_eq!(plan(&[]), Step::ALL.to_vec());
        assert_eq!(plan(&[Step::Docs]), vec![Step::Docs]);
        assert_eq!(
            plan(&[Step::Browser]),
            vec![Step::Packages, Step::Npm, Step::Browser]
        );
        assert_eq!(
            plan(&[Step::Mpi, Step::Workspace]),
            vec![Step::Packages, Step::Workspace, Step::Mpi]
        );
    }
}
