//! Long commands tell how far they are on standard error when it is not a
//! terminal (a log file, a pipe): plain lines, the first as soon as some
//! work is done, then every ten seconds, and the last when all is done.

use assert_cmd::Command;

/// Standard error of a successful run (piped, so not a terminal).
fn stderr_of(args: &[&str]) -> String {
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "zoo {}: {err}", args.join(" "));
    err
}

/// The progress lines of `err`: those saying how long it has run.
fn progress_lines(err: &str) -> Vec<&str> {
    err.lines()
        .filter(|l| l.contains(" after ") && l.contains(" s"))
        .collect()
}

#[test]
fn perft_counts_its_root_moves() {
    let err = stderr_of(&["perft", "--game", "jungle", "--depth", "4"]);
    let lines = progress_lines(&err);
    assert!(!lines.is_empty(), "no progress lines: {err}");
    assert!(
        lines.iter().all(|l| l.contains(" root moves after ")),
        "{err}"
    );
    assert!(
        lines.last().unwrap().starts_with("24/24 root moves after "),
        "{err}"
    );
    assert!(lines.last().unwrap().ends_with(", done"), "{err}");
}

#[test]
fn census_tells_its_share_of_the_work() {
    let err = stderr_of(&[
        "census",
        "--game",
        "jungle-checkers",
        "--pieces",
        "3",
        "--method",
        "enumerate",
    ]);
    let lines = progress_lines(&err);
    assert!(!lines.is_empty(), "no progress lines: {err}");
    assert!(lines.last().unwrap().starts_with("100.0% after "), "{err}");
}

#[test]
fn tb_verify_tells_its_share_of_the_work() {
    let dir = std::env::temp_dir().join(format!("zoo-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    stderr_of(&[
        "tb",
        "build",
        "--game",
        "jungle-checkers",
        "--pieces",
        "2",
        "--dir",
        d,
    ]);
    let err = stderr_of(&[
        "tb",
        "verify",
        "--game",
        "jungle-checkers",
        "--pieces",
        "2",
        "--dir",
        d,
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    let lines = progress_lines(&err);
    assert!(!lines.is_empty(), "no progress lines: {err}");
    assert!(lines.last().unwrap().starts_with("100.0% after "), "{err}");
}

#[test]
fn json_output_stays_clean() {
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["perft", "--game", "jungle", "--depth", "3", "--json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("root moves after"));
}
