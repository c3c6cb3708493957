//! Limits and guarantees (docs/limits.md): running out of memory under a
//! ulimit is a clear error and a non-zero exit, never an abort (SIGABRT,
//! exit 134); options are checked when set.

use assert_cmd::cargo::cargo_bin;
use std::process::{Command, Output, Stdio};

/// About 1.9 GiB of address space: the issue's reproduction.
const ULIMIT_KB: &str = "2000000";

/// `zoo args…` under `ulimit -v`, with `stdin` as input.
fn zoo_under_ulimit(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ULIMIT_KB} && exec \"$0\" \"$@\""))
        .arg(cargo_bin("zoo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Exited by itself with a non-zero code (not killed by a signal) and
/// said why on stderr.
fn refused_cleanly(out: &Output, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.code().is_some_and(|c| c != 0 && c != 134),
        "{:?}: {err}",
        out.status
    );
    assert!(err.contains(why), "{err}");
}

#[test]
fn analyse_with_a_table_over_the_ulimit_is_an_error() {
    let out = zoo_under_ulimit(
        &[
            "analyse", "--game", "jungle", "--depth", "3", "--hash", "4000",
        ],
        "",
    );
    refused_cleanly(&out, "ulimit");
}

#[test]
fn serve_checks_every_search_table_against_the_ulimit() {
    // Refused at the start, before listening: nothing to kill.
    let out = zoo_under_ulimit(&["serve", "--port", "0", "--hash", "4000"], "");
    refused_cleanly(&out, "hash 4000 MiB");
    let out = zoo_under_ulimit(
        &[
            "serve",
            "--port",
            "0",
            "--hash",
            "200",
            "--max-searches",
            "50",
        ],
        "",
    );
    refused_cleanly(&out, "50 searches × hash 200 MiB");
}

#[test]
fn uci_refuses_a_hash_over_the_ulimit_and_keeps_the_old_one() {
    let out = zoo_under_ulimit(
        &["uci", "--game", "jungle"],
        "setoption name Hash value 4000\ngo depth 2\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?} {text}", out.status);
    assert!(
        text.contains("info string error: hash 4000 MiB is more than this process can give"),
        "{text}"
    );
    // The search runs with the table it had.
    assert!(
        text.lines()
            .any(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
        "{text}"
    );
}

#[test]
fn solve_without_hash_stops_within_the_memory_it_may_use() {
    // PNS with no --hash: its tree gets half the memory the process may
    // use and stops there ("unknown"), within the ulimit, not by an abort.
    let out = zoo_under_ulimit(
        &[
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            "1r3e1/7/7/7/7/2D1T2/1E5 w",
            "--algo",
            "pns",
            "--goal",
            "win",
            "--time",
            "20",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{:?} {text} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("unknown"), "{text}");
}

#[test]
fn tb_build_over_the_ulimit_is_an_error() {
    // `--memory 20` lets the builder hold a 5-piece configuration's state
    // (2 GiB a side) in memory; the ulimit does not: an error, not an abort.
    let dir = std::env::temp_dir().join(format!("zoo-limits-tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let out = zoo_under_ulimit(
        &[
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            "5",
            "--dir",
            d,
            "--memory",
            "20",
        ],
        "",
    );
    refused_cleanly(&out, "cannot allocate");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `zoo args…` (no ulimit).
fn zoo(args: &[&str], stdin: &str) -> Output {
    assert_cmd::Command::cargo_bin("zoo")
        .unwrap()
        .args(args)
        .write_stdin(stdin)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap()
}

#[test]
fn caps_are_refused_without_no_cap() {
    let out = zoo(&["perft", "--game", "jungle", "--depth", "1000"], "");
    refused_cleanly(&out, "cap of 12 plies");
    let out = zoo(
        &["play", "--game", "jungle", "--movetime", "100000000"],
        "quit\n",
    );
    refused_cleanly(&out, "give --no-cap");
    let out = zoo(&["analyse", "--game", "jungle", "--nodes", "0"], "");
    refused_cleanly(&out, "nodes must be at least 1");
    // Under the cap, and with --no-cap, the command runs.
    let out = zoo(
        &["perft", "--game", "jungle", "--depth", "2", "--no-cap"],
        "",
    );
    assert!(out.status.success());
}

#[test]
fn a_save_of_another_game_is_refused() {
    let dir = std::env::temp_dir().join(format!("zoo-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jungle = dir.join("jungle.json");
    std::fs::write(
        &jungle,
        r#"{"game":"jungle","rules":"leiden","opening":"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w","moves":["a3a4"],"result":"*"}"#,
    )
    .unwrap();
    let out = zoo(
        &[
            "play",
            "--game",
            "classical-checkers",
            "--load",
            jungle.to_str().unwrap(),
        ],
        "quit\n",
    );
    refused_cleanly(&out, "the saved game is jungle, not classical-checkers");
    let two = dir.join("two.pdn");
    std::fs::write(&two, "1. 9-14 22-18 *\n\n1. 10-14 22-17 *\n").unwrap();
    let out = zoo(
        &[
            "play",
            "--game",
            "english-checkers",
            "--load",
            two.to_str().unwrap(),
        ],
        "quit\n",
    );
    refused_cleanly(&out, "holds 2 games");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_far_out_of_reach_is_refused_before_it_starts() {
    let dir = std::env::temp_dir().join(format!("zoo-limits-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Refused from a count of the positions missing, before the build
    // plan (whose search for copies took over a minute at 9 pieces): a
    // tenth of a second, so a minute is a hang guard, not a timing.
    let out = assert_cmd::Command::cargo_bin("zoo")
        .unwrap()
        .args(["tb", "build", "--game", "jungle", "--pieces", "9", "--dir"])
        .arg(&dir)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    refused_cleanly(&out, "cannot finish on this machine");
    refused_cleanly(&out, "--force");
    // Nothing was started: no table, no state file.
    let left: Vec<_> = walk(&dir);
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files.extend(walk(&p));
        } else {
            files.push(p);
        }
    }
    files
}
