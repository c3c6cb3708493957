//! The steps of `cargo xtask test`, in order, each printed with its
//! command and timed; the first failure stops the run and names its step.

use crate::runner;
use crate::{docs, packages};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, ValueEnum)]
pub enum Step {
    /// Debian packages for the browser and MPI tests (apt-get, as root)
    Packages,
    /// `npm ci` of the browser test's driver (Playwright)
    Npm,
    /// Every test of the workspace but the browser's and the slow ones,
    /// the MPI tests among them (`cargo test --profile ci --workspace
    /// --features zoo/mpi`, each test timed)
    Workspace,
    /// The documented figures against their commands (docs/checks.toml)
    Docs,
    /// The web board in headless Chromium
    Browser,
    /// The slow tests (`#[ignore]`d, named `slow_…`): only with `--slow`
    Slow,
}

impl Step {
    /// The default run; `--slow` adds [`Step::Slow`].
    const ALL: [Step; 5] = [
        Step::Packages,
        Step::Npm,
        Step::Workspace,
        Step::Docs,
        Step::Browser,
    ];

    fn name(self) -> &'static str {
        match self {
            Step::Packages => "packages",
            Step::Npm => "npm",
            Step::Workspace => "workspace",
            Step::Docs => "docs",
            Step::Browser => "browser",
            Step::Slow => "slow",
        }
    }

    /// What a step cannot run without.
    fn needs(self) -> &'static [Step] {
        match self {
            // The workspace is built with the `mpi` feature (OpenMPI,
            // libclang) and its MPI tests run `mpirun`; the docs' zoo is
            // that build's.
            Step::Npm | Step::Workspace | Step::Slow | Step::Docs => &[Step::Packages],
            Step::Browser => &[Step::Packages, Step::Npm],
            _ => &[],
        }
    }
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
            let t = Instant::now();
            let bins = runner::build(root)?;
            println!(
                "    built {} test binaries in {:.1} s",
                bins.len(),
                t.elapsed().as_secs_f64()
            );
            let (timings, ran) = runner::run_all(&bins, &[]);
            // The times are written also when a test failed: they say
            // where a run's minutes went either way.
            let all = runner::profile_dir(root).join("test-times.txt");
            runner::write_times(&all, &timings)?;
            ran?;
            let mut c = runner::cargo_test(root);
            c.arg("--doc");
            sh(root, c)?;
            println!("    the ten slowest tests:");
            for (name, secs) in runner::slowest(&timings, 10) {
                println!("    {secs:>8.1} s  {name}");
            }
            println!("    every test's time: {}", all.display());
            Ok(())
        }
        Step::Docs => {
            if !built {
                // The workspace's build, whose features the zoo binary
                // then has: `cargo build -p zoo` would unify others and
                // build most of the tree again.
                runner::build(root)?;
            }
            let zoo = runner::profile_dir(root).join("zoo");
            docs::run(root, &docs::load(root)?, &zoo)
        }
        Step::Browser => {
            // The CLI crate's test binary, its ignored `browser` tests.
            let bins = runner::build(root)?;
            let cli: Vec<_> = bins.into_iter().filter(|b| b.label == "cli/it").collect();
            if cli.is_empty() {
                bail!("cargo built no cli/it test binary");
            }
            let (timings, ran) = runner::run_all(&cli, &["--ignored", "browser::"]);
            ran?;
            // A filter that matches nothing (a renamed test) must not pass.
            if timings.is_empty() {
                bail!("no browser test ran (cli/it, --ignored browser::)");
            }
            Ok(())
        }
        Step::Slow => {
            let bins = runner::build(root)?;
            let (timings, ran) = runner::run_all(&bins, &["--ignored", "slow_"]);
            ran?;
            if timings.is_empty() {
                bail!("no slow test ran (--ignored slow_)");
            }
            for (name, secs) in runner::slowest(&timings, 10) {
                println!("    {secs:>8.1} s  {name}");
            }
            Ok(())
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

pub fn run(root: &Path, only: &[Step], slow: bool) -> Result<()> {
    let mut steps = plan(only);
    if slow && !steps.contains(&Step::Slow) {
        steps = plan(&[steps, vec![Step::Slow]].concat());
    }
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
        assert_eq!(plan(&[Step::Docs]), vec![Step::Packages, Step::Docs]);
        assert_eq!(
            plan(&[Step::Browser]),
            vec![Step::Packages, Step::Npm, Step::Browser]
        );
        assert_eq!(
            plan(&[Step::Slow, Step::Docs]),
            vec![Step::Packages, Step::Docs, Step::Slow]
        );
    }
}

#[cfg(test)]
mod circles {
    /// Every import circle `scripts/import-circles.py` finds is one that
    /// docs/architecture.md names with its reason: a new one fails here
    /// until it is broken or explained.
    #[test]
    fn the_import_circles_left_are_the_ones_the_architecture_page_names() {
        let root = crate::root();
        let out = std::process::Command::new("python3")
            .arg(root.join("scripts/import-circles.py"))
            .output()
            .expect("python3 runs the circle finder");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
        let found = String::from_utf8_lossy(&out.stdout);
        let circles: Vec<&str> = found.lines().filter(|l| l.contains(" <-> ")).collect();
        for circle in &circles {
            let (krate, modules) = circle.split_once(": ").unwrap();
            let named = modules
                .split(" <-> ")
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(" ↔ ");
            assert!(
                page.contains(&format!("| {krate}: {named} |")),
                "docs/architecture.md does not name the circle {circle}"
            );
        }
        assert_eq!(circles.len(), 3, "{found}");
    }
}
