//! `zoo match` against JCEI engines (docs/protocol.md, "JCEI"). The stand-in
//! engine is zoo itself: `zoo uci` answers JCEI's `jcei` and `perft n`, so
//! the client is tested end to end with no external program.

use crate::common::{match_summary, TempDir};
use assert_cmd::Command;

/// A two-game Jungle match under `rules` of zoo at depth 1 (A) against the
/// JCEI engine `b`, with `extra` arguments.
fn jcei_match(rules: &str, b: &str, dir: &TempDir, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "jungle", "--rules", rules])
        .args(["--a", "--depth 1", "--b", b, "--games", "2"])
        .args(["--max-plies", "40", "--json", "--out"])
        .arg(dir.0.join("games.jsonl"))
        .args(extra)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

fn zoo() -> String {
    assert_cmd::cargo::cargo_bin("zoo").display().to_string()
}

#[test]
fn a_jcei_engine_plays_a_match_after_the_rules_check() {
    let dir = TempDir::new("jcei-play");
    let out = jcei_match(
        "common",
        &format!("--depth 1 jcei:{} uci --rules common", zoo()),
        &dir,
        &[],
    );
    let (stdout, summary) = match_summary(&out);
    assert_eq!(summary["games"], 2, "{stdout}");
    assert!(summary["ms_per_move"]["b"].as_f64().is_some(), "{stdout}");
    let saved = std::fs::read_to_string(dir.0.join("games.jsonl")).unwrap();
    for line in saved.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        // No forfeit: every move of the JCEI side was legal and on time.
        assert!(!g["reason"].as_str().unwrap().contains("forfeit"), "{g}");
        assert_eq!(
            g["moves"].as_array().unwrap().len(),
            g["move_ms"].as_array().unwrap().len(),
            "{g}"
        );
    }
}

#[test]
fn an_engine_of_other_rules_is_refused_and_told_where() {
    let dir = TempDir::new("jcei-rules");
    let out = jcei_match(
        "common",
        &format!("jcei:{} uci --rules leiden", zoo()),
        &dir,
        &[],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("play different rules") && err.contains("perft(") && err.contains("--rules"),
        "{err}"
    );
    // No game was played.
    let saved = std::fs::read_to_string(dir.0.join("games.jsonl")).unwrap_or_default();
    assert_eq!(saved, "", "{saved}");
}

#[test]
fn jcei_is_jungle_only() {
    let dir = TempDir::new("jcei-game");
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["match", "--game", "jungle-checkers", "--a", "--depth 1"])
        .arg("--b")
        .arg(format!("jcei:{} uci", zoo()))
        .args(["--games", "2", "--out"])
        .arg(dir.0.join("games.jsonl"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("JCEI engines play Jungle"), "{err}");
}

/// jungine's failure (issue #55): `bestmove` with no move. The stand-in
/// passes the rules check, then answers every `go` so: each game is its
/// forfeit, reported with the position it failed in.
#[cfg(unix)]
#[test]
fn an_empty_bestmove_is_the_engines_forfeit_with_the_position() {
    let dir = TempDir::new("jcei-empty");
    let script = dir.0.join("empty.sh");
    std::fs::write(
        &script,
        format!(
            "{} uci --rules common | sed -u 's/^bestmove .*/bestmove/'\n",
            zoo()
        ),
    )
    .unwrap();
    let out = jcei_match(
        "common",
        &format!("--depth 1 jcei:/bin/sh {}", script.display()),
        &dir,
        &[],
    );
    let (stdout, summary) = match_summary(&out);
    assert_eq!(summary["wins"], 2, "{stdout}");
    assert_eq!(summary["forfeits"]["b"], 2, "{stdout}");
    assert_eq!(summary["forfeits"]["a"], 0, "{stdout}");
    let saved = std::fs::read_to_string(dir.0.join("games.jsonl")).unwrap();
    for line in saved.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let why = g["reason"].as_str().unwrap();
        assert!(
            why.contains("(B): external engine answered `bestmove` without a move; position "),
            "{why}"
        );
        assert!(why.ends_with(g["final"].as_str().unwrap()), "{why} / {g}");
    }
}

/// `zoo analyse --engine`: the JCEI stand-in's lines and a legal move, in
/// JSON; an engine of other rules refused before it searches; zoo's own
/// protocol through `cmd:`.
#[test]
fn analysis_through_an_external_engine() {
    let analyse = |rules: &str, engine: String| {
        Command::cargo_bin("zoo")
            .unwrap()
            .args(["analyse", "--game", "jungle", "--rules", rules])
            .args(["--moves", "a3a4", "--depth", "4", "--json", "--engine"])
            .arg(engine)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap()
    };
    let out = analyse("common", format!("jcei:{} uci --rules common", zoo()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let iters = lines.iter().filter(|l| l["type"] == "iteration").count();
    assert_eq!(iters, 4, "{lines:?}");
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["last"]["depth"], 4);
    assert!(
        result["best"]["coord"].as_str().unwrap().len() == 4,
        "{result}"
    );
    // After a3a4 it is Black's move: the FEN searched says so.
    assert!(result["fen"].as_str().unwrap().contains(" b"), "{result}");

    let out = analyse("common", format!("jcei:{} uci --rules leiden", zoo()));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("play different rules") && err.contains("perft("),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "searched before the check: {}",
        String::from_utf8_lossy(&out.stdout)
    );

    let out = analyse("common", format!("cmd:{} uci", zoo()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = analyse("common", "nonsense".into());
    assert!(String::from_utf8_lossy(&out.stderr).contains("jcei:PROGRAM or cmd:PROGRAM"));
}
