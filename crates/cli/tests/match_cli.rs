//! `zoo match` and what can go wrong around it: a games file that exists.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A directory of its own for each test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("zoo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A two-game Jungle Checkers match at depth 1 saving to `out`, with
/// `extra` arguments.
fn tiny_match(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("zoo")
        .unwrap()
        .args([
            "match",
            "--game",
            "jungle-checkers",
            "--a",
            "--depth 1",
            "--b",
            "--depth 1",
            "--games",
            "2",
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

#[test]
fn an_existing_games_file_is_kept_unless_append_or_force() {
    let dir = TempDir::new("match-out");
    let games = dir.0.join("games.jsonl");
    std::fs::write(&games, "earlier games\n").unwrap();

    let out = tiny_match(&games, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exists") && err.contains("--append") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&games).unwrap(), "earlier games\n");

    let out = tiny_match(&games, &["--append"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved = std::fs::read_to_string(&games).unwrap();
    assert!(saved.starts_with("earlier games\n"), "{saved}");
    assert_eq!(saved.lines().count(), 3, "{saved}");

    let out = tiny_match(&games, &["--force"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved = std::fs::read_to_string(&games).unwrap();
    assert_eq!(saved.lines().count(), 2, "{saved}");
    assert!(saved.lines().all(|l| l.starts_with('{')), "{saved}");
}
