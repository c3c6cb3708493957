//! The search commands end to end: analyse (JSON and mates), the protocol,
//! play on closed input, a tiny match, and clear errors.

use assert_cmd::Command;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn analyse_json_reports_iterations_and_the_mate() {
    // Black's tiger cannot stop White's: Black loses on ply 4.
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "jungle",
            "--fen",
            "7/7/3T3/7/7/7/7/7/t6 b",
            "--depth",
            "9",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "result");
    assert_eq!(last["mate"], -4);
    assert_eq!(last["pv"][1], "d7d8");
    assert!(lines.iter().filter(|l| l["type"] == "iteration").count() >= 1);
    assert!(last["stats"]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn analyse_text_and_switches() {
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "jungle-checkers",
            "--depth",
            "5",
            "--plain",
            "--tt",
            "--no-lmr",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("best "), "{text}");
    assert!(text.contains("tt probes"), "{text}");
}

#[test]
fn analyse_rejects_bad_input_clearly() {
    let out = zoo()
        .args([
            "analyse", "--game", "jungle", "--fen", "xyz", "--depth", "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad --fen"));
    let out = zoo()
        .args([
            "analyse", "--game", "jungle", "--eval", "nope", "--depth", "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown evaluation"));
}

#[test]
fn protocol_session() {
    let input = "uci\nisready\nposition startpos moves a3a4\ngo depth 3\nisready\nposition startpos moves zz\ngo depth 2\nsetoption name Game value jungle-checkers\nposition startpos\ngo nodes 2000\n";
    let out = zoo()
        .arg("uci")
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
    assert!(text.contains("info depth 3 score"), "{text}");
    let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
    // Three `go`: a move, an answer to the bad position, a Jungle Checkers move.
    assert_eq!(best.len(), 3, "{text}");
    assert_eq!(best[1], "bestmove (none)");
    assert!(text.contains("info string error: move \"zz\""), "{text}");
}

#[test]
fn play_ends_when_input_closes() {
    let out = zoo()
        .args(["play", "--game", "jungle", "--depth", "2"])
        .write_stdin("nonsense\nEa4\n")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Not a legal move"), "{text}");
    assert!(text.contains("engine plays"), "{text}");
    assert!(text.contains("Input closed"), "{text}");
}

#[test]
fn tiny_match_counts_games() {
    let dir = std::env::temp_dir().join(format!("zoo-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.jsonl");
    let out = zoo()
        .args([
            "match",
            "--game",
            "jungle-checkers",
            "--a",
            "--depth 2",
            "--b",
            "--depth 1 --eval simple",
            "--games",
            "2",
            "--json",
        ])
        .arg("--out")
        .arg(&games)
        .timeout(std::time::Duration::from_secs(120))
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
    let w =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(w, 2);
    let saved = std::fs::read_to_string(&games).unwrap();
    assert_eq!(saved.lines().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_games_have_an_engine_too() {
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "english-checkers",
            "--depth",
            "4",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert!(lines.last().unwrap()["bestmove"].is_string());
}

/// Every `go` of a protocol session searches as deep as the first: a `stop`
/// or `position` that arrives after a search ended must not leave the next
/// one stopped. Each command waits for the `bestmove` before it, as a GUI
/// does.
#[test]
fn protocol_searches_keep_their_depth() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(env!("CARGO_BIN_EXE_zoo"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut deepest = Vec::new();
    for moves in ["", " moves a3a4 g7g6", " moves a3a4 g7g6 a4a5"] {
        writeln!(stdin, "stop\nposition startpos{moves}\nstop\ngo depth 8").unwrap();
        let mut depth = 0;
        for line in lines.by_ref() {
            let line = line.unwrap();
            if let Some(rest) = line.strip_prefix("info depth ") {
                depth = rest.split_whitespace().next().unwrap().parse().unwrap();
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        deepest.push(depth);
    }
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(deepest, vec![8, 8, 8]);
}

#[test]
fn analyse_multipv_prints_the_best_lines_and_refuses_bad_counts() {
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "english-checkers",
            "--depth",
            "5",
            "--multipv",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    let iters: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["type"] == "iteration").collect();
    assert_eq!(iters.len(), 5);
    for it in iters {
        let ls = it["lines"].as_array().unwrap();
        assert_eq!(ls.len(), 3, "{it}");
        assert_eq!(ls[0]["pv"], it["pv"]);
        assert!(ls[0]["score"].as_i64() >= ls[2]["score"].as_i64(), "{it}");
    }
    // The text form: a line a move, numbered.
    let text = zoo()
        .args([
            "analyse",
            "--game",
            "jungle",
            "--depth",
            "3",
            "--multipv",
            "2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("1) ") && text.contains("2) "), "{text}");
    for bad in ["0", "17"] {
        let out = zoo()
            .args([
                "analyse",
                "--game",
                "jungle",
                "--depth",
                "3",
                "--multipv",
                bad,
            ])
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("multipv"),
            "{bad}"
        );
    }
}
