//! `cargo xtask docs`: every machine-independent figure of the README and
//! docs/*.md is listed in docs/checks.toml with the page, the figure as the
//! page writes it, the command that computes it and where in the command's
//! output it is. The check reruns the quick commands (those not marked
//! `slow`), formats each value as the page writes it, and fails when a
//! command gives another value or a page no longer shows the figure.

mod checks;
mod format;
#[cfg(test)]
mod tests;

pub use checks::{load, Check};

use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// A command that takes longer than this belongs in the file as `slow`.
const QUICK_SECONDS: f64 = 60.0;

/// Every figure still on its page (no command run): failures, one a line.
pub fn page_failures(root: &Path, checks: &[Check]) -> Result<Vec<String>> {
    let mut pages: HashMap<&str, String> = HashMap::new();
    let mut failures = Vec::new();
    for check in checks {
        if !pages.contains_key(check.page.as_str()) {
            let path = root.join(&check.page);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            pages.insert(&check.page, text);
        }
        if !pages[check.page.as_str()].contains(&check.text) {
            failures.push(format!(
                "{}: figure `{}` ({}): the page no longer shows `{}`",
                check.page, check.figure, check.command, check.text
            ));
        }
    }
    Ok(failures)
}

pub fn check_pages(root: &Path, checks: &[Check]) -> Result<()> {
    report(page_failures(root, checks)?)
}

fn report(failures: Vec<String>) -> Result<()> {
    if failures.is_empty() {
        return Ok(());
    }
    for f in &failures {
        eprintln!("    {f}");
    }
    bail!(
        "{} documented figure{} disagree{} (docs/checks.toml): first {}",
        failures.len(),
        if failures.len() == 1 { "" } else { "s" },
        if failures.len() == 1 { "s" } else { "" },
        failures[0]
    )
}

/// The command's value, formatted as the page writes it, against the
/// figure: `None` when they agree, else what is wrong.
pub fn value_failure(check: &Check, output: &str) -> Option<String> {
    match check.value(output) {
        Ok(v) if v == check.figure => None,
        Ok(v) => Some(format!(
            "{}: figure `{}`: `{}` now gives `{v}`",
            check.page, check.figure, check.command
        )),
        Err(e) => Some(format!("{}: figure `{}`: {e:#}", check.page, check.figure)),
    }
}

/// Runs one `zoo …` command line in the scratch directory: its stdout.
fn run_command(line: &str, zoo: &Path, scratch: &Path) -> Result<String> {
    let line = line.replace("{tmp}", &scratch.to_string_lossy());
    let words = shlex::split(&line).with_context(|| format!("cannot split `{line}`"))?;
    let Some((program, args)) = words.split_first() else {
        bail!("empty command")
    };
    if program != "zoo" {
        bail!("`{line}`: only `zoo …` commands are checked");
    }
    let out = Command::new(zoo)
        .args(args)
        .current_dir(scratch)
        .output()
        .with_context(|| format!("cannot start {}", zoo.display()))?;
    if !out.status.success() {
        bail!(
            "`{line}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The checks that must run in one line, in file order: those that share
/// a command or setup line (run once) or a scratch folder (`{tmp}/NAME`),
/// since one may read what another's command wrote. Groups are in the order of their first
/// check.
fn groups(checks: &[&Check]) -> Vec<Vec<usize>> {
    // Union-find over the checks, joined through the keys they mention.
    let mut parent: Vec<usize> = (0..checks.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: HashMap<String, usize> = HashMap::new();
    for (i, check) in checks.iter().enumerate() {
        // The command itself too: a line two checks share runs once.
        let mut keys: Vec<String> = check.setup.clone();
        keys.push(check.command.clone());
        for line in check.setup.iter().chain([&check.command]) {
            for word in line.split_whitespace() {
                if let Some(rest) = word.strip_prefix("{tmp}/") {
                    let folder = rest.split('/').next().unwrap_or(rest);
                    keys.push(format!("{{tmp}}/{folder}"));
                }
            }
        }
        for key in keys {
            let j = *owner.entry(key).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for i in 0..checks.len() {
        let r = root(&mut parent, i);
        let g = *index.entry(r).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[g].push(i);
    }
    out
}

/// Runs the checks of one group in order, each command line once: the
/// failures, and a line per command run.
fn run_group(checks: &[&Check], zoo: &Path, scratch: &Path) -> (Vec<String>, Vec<String>) {
    let mut outputs: HashMap<String, Result<String, String>> = HashMap::new();
    let (mut failures, mut log) = (Vec::new(), Vec::new());
    for check in checks {
        for line in check.setup.iter().chain([&check.command]) {
            if outputs.contains_key(line) {
                continue;
            }
            let t = Instant::now();
            let out = run_command(line, zoo, scratch).map_err(|e| format!("{e:#}"));
            let secs = t.elapsed().as_secs_f64();
            log.push(format!("    {secs:6.1} s  {line}"));
            if secs > QUICK_SECONDS {
                // Wall time: on a loaded machine quick commands pass a minute too.
                log.push("             (over a minute; if so on an idle machine, mark its figures `slow = true`)".into());
            }
            outputs.insert(line.clone(), out);
        }
        let setup_failed = check.setup.iter().find_map(|s| outputs[s].as_ref().err());
        match (setup_failed, &outputs[&check.command]) {
            (Some(e), _) | (None, Err(e)) => {
                failures.push(format!("{}: figure `{}`: {e}", check.page, check.figure))
            }
            (None, Ok(out)) => failures.extend(value_failure(check, out)),
        }
    }
    (failures, log)
}

/// How many groups of commands run at once: the machine's cores (most
/// commands run on one thread; the table builds on two).
fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The whole check: pages, then every quick command once, the groups of
/// checks that share no files side by side.
pub fn run(root: &Path, checks: &[Check], zoo: &Path) -> Result<()> {
    let mut failures = page_failures(root, checks)?;
    let scratch: PathBuf = crate::runner::profile_dir(root).join("xtask-docs");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let quick: Vec<&Check> = checks.iter().filter(|c| !c.slow).collect();
    let slow = checks.len() - quick.len();
    let mut groups = groups(&quick);
    // The longest chains of setup commands first (a proof made and then
    // checked, on tables built for it): started last, such a chain ran on
    // alone after every other group had finished.
    groups.sort_by_key(|g| std::cmp::Reverse(g.iter().map(|&i| quick[i].setup.len()).max()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers().min(groups.len()) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(group) = groups.get(g) else { break };
                let members: Vec<&Check> = group.iter().map(|&i| quick[i]).collect();
                let (f, log) = run_group(&members, zoo, &scratch);
                for line in log {
                    println!("{line}");
                }
                found.lock().expect("the failures").extend(f);
            });
        }
    });
    failures.extend(found.into_inner().expect("the failures"));
    report(failures)?;
    println!(
        "    docs: {} figures recomputed ({} groups of commands, {} at a time) and {slow} slow ones found on their pages",
        quick.len(),
        groups.len(),
        workers().min(groups.len())
    );
    Ok(())
}
