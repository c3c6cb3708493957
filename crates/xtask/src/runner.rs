//! Builds the workspace's test binaries once and runs them, timing every
//! test: cargo test prints no test's time on stable Rust, and the ten
//! slowest are what tells where the test command's minutes go.
//!
//! The binaries come from `cargo test --no-run --message-format=json`
//! (cargo's own list of what it built); each is then run in its package's
//! directory, as cargo runs it, with libtest's JSON events, and the
//! doctests by `cargo test --doc`.

use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The profile the tests are built with (Cargo.toml: release code, no
/// debug info).
pub const PROFILE: &str = "ci";

/// The features every build of the test command turns on, so that the
/// workspace, docs and browser steps share one build: `mpi` brings the
/// table builds under `mpirun` into the workspace's tests.
pub const FEATURES: &str = "zoo/mpi";

/// One test binary cargo built.
#[derive(Debug, Clone)]
pub struct Binary {
    /// `folder/target` (`cli/it`, `animal/lib`).
    pub label: String,
    pub executable: PathBuf,
    /// The package's directory: cargo runs its tests there.
    pub dir: PathBuf,
}

/// A test's name (with its binary) and seconds.
pub type Timing = (String, f64);

/// Where cargo puts the binaries of the tests' profile.
pub fn profile_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join(PROFILE)
}

/// The cargo that runs this task (or the one on the path).
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Whether pkg-config finds the system's zstd library (Debian:
/// libzstd-dev, which the packages step installs).
pub fn system_zstd() -> bool {
    Command::new("pkg-config")
        .args(["--exists", "libzstd"])
        .status()
        .is_ok_and(|s| s.success())
}

/// The common start of every cargo command here: the profile and
/// features, and the system's zstd where it is installed: building the
/// zstd library from its C sources was 50 of the build's CPU-seconds
/// (docs/log/architecture.md); every command here agrees, so none
/// rebuilds what another built.
pub fn cargo_test(root: &Path) -> Command {
    let mut c = cargo();
    if system_zstd() {
        c.env("ZSTD_SYS_USE_PKG_CONFIG", "1");
    }
    c.current_dir(root).args([
        "test",
        "--profile",
        PROFILE,
        "--workspace",
        "--features",
        FEATURES,
    ]);
    c
}

/// Builds every test binary of the workspace (and the `zoo` binary the
/// CLI tests run) and lists them.
pub fn build(root: &Path) -> Result<Vec<Binary>> {
    let mut c = cargo_test(root);
    c.args(["--no-run", "--message-format=json-render-diagnostics"])
        .stdout(Stdio::piped());
    println!("    $ cargo test --profile {PROFILE} --workspace --features {FEATURES} --no-run");
    let mut child = c.spawn().context("cannot start cargo")?;
    let out = child.stdout.take().context("cargo's stdout")?;
    let mut bins = Vec::new();
    for line in BufReader::new(out).lines() {
        let line = line.context("reading cargo's messages")?;
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if let Some(b) = binary_of(&v) {
            bins.push(b);
        }
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("the test build failed ({status})");
    }
    if bins.is_empty() {
        bail!("cargo built no test binary");
    }
    // The integration-test binaries first: they hold the long tests, and
    // the unit tests' short binaries fill in beside the last of them.
    bins.sort_by_key(|b| (!b.label.ends_with("/it"), b.label.clone()));
    Ok(bins)
}

/// The test binary a `compiler-artifact` message names, if it is one.
fn binary_of(v: &Value) -> Option<Binary> {
    if v["reason"] != "compiler-artifact" || v["profile"]["test"] != true {
        return None;
    }
    let executable = PathBuf::from(v["executable"].as_str()?);
    let manifest = PathBuf::from(v["manifest_path"].as_str()?);
    let dir = manifest.parent()?.to_path_buf();
    // The package's folder names it (package ids spell the name only where
    // it differs from the folder's).
    let package = dir.file_name()?.to_string_lossy().into_owned();
    let target = v["target"]["name"].as_str()?;
    let kind = v["target"]["kind"][0].as_str().unwrap_or("?");
    let label = match kind {
        "test" => format!("{package}/{target}"),
        "lib" => format!("{package}/lib"),
        _ => format!("{package}/{kind} {target}"),
    };
    Some(Binary {
        label,
        executable,
        dir,
    })
}

/// What a run of one binary found.
pub struct Outcome {
    pub passed: usize,
    pub ignored: usize,
    pub failed: Vec<String>,
    pub timings: Vec<Timing>,
    pub secs: f64,
}

/// Runs one binary with `args` (filters, `--ignored`) after libtest's own.
pub fn run(bin: &Binary, args: &[&str]) -> Result<Outcome> {
    let t = Instant::now();
    let mut c = Command::new(&bin.executable);
    // Per-test times and JSON events are libtest's unstable options, which
    // a test binary of stable Rust accepts when RUSTC_BOOTSTRAP is set in
    // its own environment. Only the test process sees it: nothing is
    // compiled differently.
    c.current_dir(&bin.dir)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_MANIFEST_DIR", &bin.dir)
        .args([
            "-Z",
            "unstable-options",
            "--format",
            "json",
            "--report-time",
        ])
        .args(args)
        .stdout(Stdio::piped());
    let mut child = c
        .spawn()
        .with_context(|| format!("cannot start {}", bin.executable.display()))?;
    let out = child.stdout.take().context("the test's stdout")?;
    let mut o = Outcome {
        passed: 0,
        ignored: 0,
        failed: Vec::new(),
        timings: Vec::new(),
        secs: 0.0,
    };
    for line in BufReader::new(out).lines() {
        let line = line?;
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            // A test's own print that escaped the capture.
            println!("{line}");
            continue;
        };
        if v["type"] != "test" {
            continue;
        }
        let name = v["name"].as_str().unwrap_or("?").to_string();
        match v["event"].as_str() {
            Some("ok") => {
                o.passed += 1;
                let secs = v["exec_time"].as_f64().unwrap_or(0.0);
                o.timings.push((format!("{} {name}", bin.label), secs));
            }
            Some("ignored") => o.ignored += 1,
            // ("timeout" is libtest's note that a test has run past a
            // minute, not a failure.)
            Some("failed") => {
                // One print: another binary's lines may run beside it.
                println!(
                    "---- {} {name} ----\n{}",
                    bin.label,
                    v["stdout"].as_str().unwrap_or("")
                );
                o.failed.push(name);
            }
            _ => {}
        }
    }
    let status = child.wait()?;
    o.secs = t.elapsed().as_secs_f64();
    if !status.success() && o.failed.is_empty() {
        // Killed or aborted outside any test (a crash takes the whole binary).
        o.failed.push(format!("the binary itself ({status})"));
    }
    Ok(o)
}

/// How many test binaries run at once: two, so that one binary's last
/// long test does not leave a core idle (each binary also runs its tests
/// on every core, as cargo test does).
pub const AT_ONCE: usize = 2;

/// The binaries that run with nothing beside them, after the others: the
/// web server's tests hold it to its time caps (a search abandoned past
/// 400 ms and a second) and its memory under a flood, which a second
/// binary's load on the same two cores would break.
pub const ALONE: &[&str] = &["web/it"];

/// The binaries that start first, longest first (their minutes in the
/// last measured run, docs/log/architecture.md): started in cargo's
/// order, the longest came last and ran on alone while a core was idle.
/// The rest follow in cargo's order.
pub const LONGEST_FIRST: &[&str] = &["solve/it", "animal-tb/it", "cli/it", "animal/it"];

/// `bins` with those of [`LONGEST_FIRST`] at the front, in its order.
fn longest_first(mut bins: Vec<Binary>) -> Vec<Binary> {
    bins.sort_by_key(|b| {
        LONGEST_FIRST
            .iter()
            .position(|l| *l == b.label)
            .unwrap_or(LONGEST_FIRST.len())
    });
    bins
}

/// Runs `bins`, [`AT_ONCE`] at a time, [`LONGEST_FIRST`] first, and then those
/// of [`ALONE`] one by one, each printed with its counts and time when it
/// ends; every test's time, and the failed tests named after all have run.
pub fn run_all(bins: &[Binary], args: &[&str]) -> (Vec<Timing>, Result<()>) {
    let (alone, shared): (Vec<Binary>, Vec<Binary>) = bins
        .iter()
        .cloned()
        .partition(|b| ALONE.contains(&b.label.as_str()));
    let shared = longest_first(shared);
    let mut timings = Vec::new();
    let mut failed = Vec::new();
    for (group, at_once) in [(shared, AT_ONCE), (alone, 1)] {
        match run_group(&group, args, at_once) {
            Ok((t, f)) => {
                timings.extend(t);
                failed.extend(f);
            }
            Err(e) => return (timings, Err(e)),
        }
    }
    if !failed.is_empty() {
        let e = anyhow::anyhow!("{} tests failed:\n  {}", failed.len(), failed.join("\n  "));
        return (timings, Err(e));
    }
    (timings, Ok(()))
}

/// Runs `bins`, `at_once` at a time: the timings and the failed tests.
fn run_group(bins: &[Binary], args: &[&str], at_once: usize) -> Result<(Vec<Timing>, Vec<String>)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..at_once.min(bins.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(bin) = bins.get(i) else { break };
                let o = run(bin, args);
                if let Ok(o) = &o {
                    println!(
                        "    {:<28} {:>4} passed {:>3} ignored {:>3} failed  {:>7.1} s",
                        bin.label,
                        o.passed,
                        o.ignored,
                        o.failed.len(),
                        o.secs
                    );
                }
                results
                    .lock()
                    .expect("the results")
                    .push((bin.label.clone(), o));
            });
        }
    });
    let mut timings = Vec::new();
    let mut failed = Vec::new();
    for (label, o) in results.into_inner().expect("the results") {
        match o {
            Ok(o) => {
                failed.extend(o.failed.iter().map(|n| format!("{label} {n}")));
                timings.extend(o.timings);
            }
            // A binary that could not start is a failure like the others.
            Err(e) => failed.push(format!("{label}: {e:#}")),
        }
    }
    Ok((timings, failed))
}

/// The `n` slowest of `timings`, slowest first.
pub fn slowest(timings: &[Timing], n: usize) -> Vec<Timing> {
    let mut t = timings.to_vec();
    t.sort_by(|a, b| b.1.total_cmp(&a.1));
    t.truncate(n);
    t
}

/// Writes every test's time, slowest first, a line each.
pub fn write_times(path: &Path, timings: &[Timing]) -> Result<()> {
    let text: String = slowest(timings, timings.len())
        .iter()
        .map(|(name, secs)| format!("{secs:.3}\t{name}\n"))
        .collect();
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_artifact_is_read_from_cargos_message() {
        let v: Value = serde_json::from_str(
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/cli#zoo@0.1.0",
               "manifest_path":"/w/crates/cli/Cargo.toml","target":{"kind":["test"],"name":"it"},
               "profile":{"test":true},"executable":"/w/target/ci/deps/it-1"}"#,
        )
        .unwrap();
        let b = binary_of(&v).unwrap();
        assert_eq!(b.label, "cli/it");
        assert_eq!(b.dir, PathBuf::from("/w/crates/cli"));
        let lib: Value = serde_json::from_str(
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/animal#zoo-animal@0.1.0",
               "manifest_path":"/w/crates/animal/Cargo.toml","target":{"kind":["lib"],"name":"zoo_animal"},
               "profile":{"test":true},"executable":"/w/target/ci/deps/zoo_animal-2"}"#,
        )
        .unwrap();
        assert_eq!(binary_of(&lib).unwrap().label, "animal/lib");
        let not_test: Value = serde_json::from_str(
            r#"{"reason":"compiler-artifact","package_id":"x","manifest_path":"/w/Cargo.toml",
               "target":{"kind":["lib"],"name":"x"},"profile":{"test":false},"executable":null}"#,
        )
        .unwrap();
        assert!(binary_of(&not_test).is_none());
    }

    #[test]
    fn the_longest_binaries_start_first() {
        let bin = |label: &str| Binary {
            label: label.into(),
            executable: PathBuf::new(),
            dir: PathBuf::new(),
        };
        let order = longest_first(
            ["app/it", "cli/it", "core/lib", "animal-tb/it", "search/it"]
                .map(bin)
                .to_vec(),
        );
        let labels: Vec<&str> = order.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(
            labels,
            ["animal-tb/it", "cli/it", "app/it", "core/lib", "search/it"]
        );
    }

    #[test]
    fn the_slowest_come_first() {
        let t = vec![("a".to_string(), 1.0), ("b".into(), 3.0), ("c".into(), 2.0)];
        let s = slowest(&t, 2);
        assert_eq!(s, vec![("b".to_string(), 3.0), ("c".to_string(), 2.0)]);
    }
}
