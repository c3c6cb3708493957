//! The search commands on the two checkers games: analyse (a chase won by
//! a king, evaluations by name), play with moves piped in, the protocol, a
//! tiny match, and clear errors.

use assert_cmd::Command;
use std::time::Duration;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `zoo ARGS`, which must succeed and end with a JSON line: that line,
/// and the whole output.
fn json_run<I, S>(args: I) -> (serde_json::Value, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = zoo()
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let last = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    (last, text)
}

/// `zoo analyse --game classical-checkers ARGS --json`, which must
/// succeed: its last line as JSON, and the whole output.
fn analyse(args: &[&str]) -> (serde_json::Value, String) {
    let mut all = vec!["analyse", "--game", "classical-checkers"];
    all.extend_from_slice(args);
    all.push("--json");
    json_run(all)
}

#[test]
fn analyse_finds_the_kings_chase() {
    // A White king in the corner against a Black man off its diagonal.
    let (last, text) = analyse(&["--fen", "W:WK1:B26", "--depth", "12"]);
    assert_eq!(last["type"], "result");
    assert_eq!(last["game"], "classical-checkers");
    let mate = last["mate"]
        .as_i64()
        .expect("a won position has a mate distance");
    assert!(mate > 0, "{text}");
    // The principal variation of a mate plays it out to the end.
    assert_eq!(last["pv"].as_array().unwrap().len() as i64, mate, "{text}");
}

#[test]
fn analyse_both_games_and_both_evaluations() {
    for game in ["classical-checkers", "english-checkers"] {
        for eval in ["turska", "material"] {
            let out = zoo()
                .args(["analyse", "--game", game, "--depth", "6", "--eval", eval])
                .timeout(Duration::from_secs(60))
                .output()
                .unwrap();
            assert!(out.status.success(), "{game} {eval}");
            let text = stdout(&out);
            assert!(text.contains(&format!("eval {eval}")), "{text}");
            assert!(text.contains("best "), "{text}");
        }
    }
}

#[test]
fn bad_evaluation_and_position_are_clear_errors() {
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "classical-checkers",
            "--eval",
            "strong",
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("turska, material"), "{err}");
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "english-checkers",
            "--fen",
            "W:W33:B1",
            "--depth",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad --fen"));
}

#[test]
fn play_with_piped_moves() {
    let out = zoo()
        .args(["play", "--game", "classical-checkers", "--depth", "4"])
        .write_stdin("12-17\n12-16\n")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Not a legal move"), "{text}");
    assert!(text.contains("engine plays"), "{text}");
    assert!(text.contains("Input closed"), "{text}");
}

#[test]
fn protocol_session_switches_to_checkers() {
    let input = "uci\nsetoption name Game value classical-checkers\nisready\nposition startpos moves 12-16\ngo depth 5\nposition startpos moves 12-17\ngo depth 2\nsetoption name Game value english-checkers\nposition startpos\ngo nodes 3000\nquit\n";
    let out = zoo()
        .arg("uci")
        .write_stdin(input)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert!(text.contains("info depth 5 score"), "{text}");
    let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 3, "{text}");
    // Black answers 12-16 with a checkers move in checkers notation.
    assert!(best[0].contains('-') || best[0].contains('x'), "{text}");
    assert_eq!(best[1], "bestmove (none)");
    assert!(text.contains("info string error: move \"12-17\""), "{text}");
    assert_ne!(best[2], "bestmove (none)", "{text}");
}

#[test]
fn tiny_match_of_checkers_engines() {
    let dir = std::env::temp_dir().join(format!("zoo-checkers-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.jsonl");
    let out = zoo()
        .args([
            "match",
            "--game",
            "classical-checkers",
            "--a",
            "--depth 3",
            "--b",
            "--depth 1 --eval material --plain",
            "--games",
            "2",
            "--max-plies",
            "120",
            "--json",
        ])
        .arg("--out")
        .arg(&games)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Game lines first, the summary last (docs/json.md).
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["type"], "result");
    assert_eq!(v["games"], 2);
    let total =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(total, 2);
    assert_eq!(std::fs::read_to_string(&games).unwrap().lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selective_switches_are_read_and_checked() {
    let (last, _) = analyse(&[
        "--depth",
        "10",
        "--probcut",
        "50",
        "--multicut",
        "--single-reply",
    ]);
    assert_eq!(last["config"]["probcut"], 50);
    assert_eq!(last["config"]["multicut"], true);
    assert_eq!(last["config"]["single_reply"], true);
    for counter in ["probcut_cuts", "multicut_cuts", "extensions"] {
        assert!(last["stats"][counter].as_u64().unwrap() > 0, "{counter}");
    }
    // A negative margin is refused, with the option named.
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "classical-checkers",
            "--depth",
            "4",
            "--probcut=-1",
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("probcut"));
    // The fitted line is read and reported; a line without ProbCut, a
    // slope out of range and a malformed pair are refused.
    let (last, _) = analyse(&[
        "--depth",
        "8",
        "--probcut",
        "70",
        "--probcut-fit",
        "1.27,4",
        "--multicut-all-nodes",
    ]);
    assert_eq!(last["config"]["probcut_slope"], 1.27);
    assert_eq!(last["config"]["probcut_offset"], 4);
    assert_eq!(last["config"]["multicut"], true);
    assert_eq!(last["config"]["multicut_all_nodes"], true);
    for (bad, says) in [
        (&["--probcut-fit", "1.2,3"][..], "--probcut MARGIN"),
        (&["--probcut", "50", "--probcut-fit", "9,0"][..], "slope"),
        (
            &["--probcut", "50", "--probcut-fit", "1.2"][..],
            "SLOPE,OFFSET",
        ),
        (
            &["--probcut", "50", "--probcut-fit", "x,1"][..],
            "not a number",
        ),
        (
            &["--probcut", "50", "--probcut-fit", "1,-2147483648"][..],
            "offset",
        ),
    ] {
        let out = zoo()
            .args(["analyse", "--game", "classical-checkers", "--depth", "4"])
            .args(bad)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{bad:?}: {err}");
    }
}

#[test]
fn probcut_fit_regresses_deep_values_on_shallow_ones() {
    let dir = std::env::temp_dir().join(format!("zoo-pcfit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.display().to_string();
    let (v, text) = json_run([
        "experiment",
        "--json",
        "probcut-fit",
        "--game",
        "classical-checkers",
        "--depths",
        "5,6",
        "--per-phase",
        "6",
        "--out-dir",
        &out_dir,
    ]);
    assert_eq!(v["experiment"], "probcut_fit");
    // A row a depth pair, 4 plies apart, fitted on every quiet position
    // short of a mate (each a row of the values file).
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{text}");
    let values =
        std::fs::read_to_string(dir.join("probcut-fit-classical-checkers-values.csv")).unwrap();
    for (r, deep) in rows.iter().zip([5, 6]) {
        assert_eq!(r["deep"], deep);
        assert_eq!(r["shallow"], deep - 4);
        let n = r["positions"].as_u64().unwrap();
        assert!(n >= 3, "{text}");
        let prefix = format!("{},{deep},\"", deep - 4);
        let listed = values.lines().filter(|l| l.starts_with(&prefix)).count();
        assert_eq!(listed as u64, n);
        let (a, sigma) = (r["a"].as_f64().unwrap(), r["sigma"].as_f64().unwrap());
        assert!(a > 0.0 && sigma >= 0.0, "{text}");
    }
    for svg in [
        "probcut-fit-classical-checkers-1-5.svg",
        "probcut-fit-classical-checkers-2-6.svg",
    ] {
        let s = std::fs::read_to_string(dir.join(svg)).unwrap();
        assert!(s.contains("<svg"), "{svg}");
    }
    // A deep depth with no room for the shallow search, and one given
    // twice, are refused.
    let out = zoo()
        .args([
            "experiment",
            "probcut-fit",
            "--game",
            "classical-checkers",
            "--depths",
            "4",
        ])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--depths"));
    let out = zoo()
        .args(["experiment", "probcut-fit", "--game", "classical-checkers"])
        .args(["--depths", "6,6"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("twice"));
    let _ = std::fs::remove_dir_all(&dir);
}
