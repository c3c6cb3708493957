//! `zoo match --b cb:LIBRARY`: zoo hosting a CheckerBoard-API engine, and
//! the engine being zoo's own library (`libzoo_cb.so`, built as a
//! dependency of these tests): host and library tested both ways with no
//! external engine.

use crate::common::match_summary;
use assert_cmd::Command;
use std::path::PathBuf;

/// zoo's CheckerBoard-API library, beside the test binary in `deps/`.
fn library() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let name = format!(
        "{}zoo_cb{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let p = deps.join(&name);
    assert!(p.exists(), "{} is not built", p.display());
    p
}

fn games_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zoo-cb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.jsonl")
}

#[test]
fn zoo_plays_its_own_checkerboard_library_to_the_end() {
    let games = games_file("self");
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "english-checkers", "--a", "--depth 3"])
        .arg("--b")
        .arg(format!("--movetime 20 cb:{}", library().display()))
        .args(["--games", "2", "--json", "--out"])
        .arg(&games)
        .timeout(std::time::Duration::from_secs(240))
        .output()
        .unwrap();
    let (stdout, summary) = match_summary(&out);
    assert_eq!(summary["games"], 2, "{stdout}");
    let saved = std::fs::read_to_string(&games).unwrap();
    for line in saved.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let reason = g["reason"].as_str().unwrap();
        // Every move of the library was found among the legal ones.
        assert!(!reason.contains("forfeit"), "{g}");
        assert!(g["moves"].as_array().unwrap().len() > 10, "{g}");
    }
    let _ = std::fs::remove_dir_all(games.parent().unwrap());
}

#[test]
fn a_checkerboard_engine_plays_english_checkers_only() {
    let games = games_file("game");
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "jungle", "--a", "--depth 1"])
        .arg("--b")
        .arg(format!("cb:{}", library().display()))
        .args(["--games", "2", "--out"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("english-checkers only"), "{err}");
    let _ = std::fs::remove_dir_all(games.parent().unwrap());
}

#[test]
fn a_library_that_is_not_there_or_no_engine_is_a_clear_error() {
    let games = games_file("bad");
    for (path, says) in [
        (
            "/no/such/engine.so".to_string(),
            "cannot load the engine library",
        ),
        // A file that is no shared library at all.
        (
            std::env::current_exe()
                .unwrap()
                .with_extension("d")
                .display()
                .to_string(),
            "cannot load the engine library",
        ),
    ] {
        let out = Command::cargo_bin("zoo")
            .unwrap()
            .args(["match", "--game", "english-checkers", "--a", "--depth 1"])
            .arg("--b")
            .arg(format!("cb:{path}"))
            .args(["--games", "2", "--force", "--out"])
            .arg(&games)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{path}: {err}");
    }
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "english-checkers", "--a", "--depth 1"])
        .arg("--b")
        .arg(format!("cb:{}", library().display()))
        .args(["--games", "2", "--concurrency", "2", "--force", "--out"])
        .arg(&games)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("one game at a time"), "{err}");
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "english-checkers", "--a", "--depth 1"])
        .args(["--b", "--depth 3 cb:x.so", "--games", "2", "--out"])
        .arg(&games)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("before `cb:` only --movetime"), "{err}");
    let _ = std::fs::remove_dir_all(games.parent().unwrap());
}
