//! The engine and the solver on WDL-only files: Jungle Checkers tables up
//! to 3 pieces are built, their WDL files made and copied alone into a
//! directory of their own; `zoo analyse` there reports a table win and
//! plays a move the full tables say keeps it, the protocol says `table
//! win`, and a proof whose leaves are WDL table positions passes
//! `zoo solve --check` against the WDL files.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

/// Elephant and rat against dog: White wins in 17 plies, too long for the
/// shallow searches below to see the mate.
const WON: &str = "7/7/3d3/7/7/7/E5R w";

fn stdout(c: &mut Command) -> Vec<u8> {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The last JSON line: the result object (docs/json.md).
fn result(out: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(out);
    serde_json::from_str(text.lines().last().expect("a line")).expect("a JSON object")
}

/// Full tables up to 3 pieces with their WDL files in `<name>-full`, and
/// the WDL files alone in `<name>-wdl`.
fn sets(name: &str) -> (PathBuf, PathBuf) {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (full, alone) = (
        base.join(format!("zoo-wdl-engine-{name}-full")),
        base.join(format!("zoo-wdl-engine-{name}-wdl")),
    );
    for d in [&full, &alone] {
        let _ = std::fs::remove_dir_all(d);
    }
    let tb = |args: &[&str], dir: &Path| {
        stdout(
            zoo()
                .arg("tb")
                .args(args)
                .args(["--game", "jungle-checkers", "--pieces", "3", "--dir"])
                .arg(dir),
        )
    };
    tb(&["build"], &full);
    tb(&["wdl"], &full);
    let (from, to) = (
        full.join("jungle-checkers/leiden"),
        alone.join("jungle-checkers/leiden"),
    );
    std::fs::create_dir_all(&to).unwrap();
    let mut copied = 0;
    for e in std::fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        if p.extension() == Some("zoowdl".as_ref()) {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
            copied += 1;
        }
    }
    assert_eq!(copied, 34, "every material of 2 and 3 pieces");
    (full, alone)
}

/// The full tables' value of `fen` for its side to move.
fn full_value(fen: &str, full: &Path) -> serde_json::Value {
    result(&stdout(
        zoo()
            .args(["tb", "probe", "--game", "jungle-checkers", "--fen", fen])
            .args(["--json", "--dir"])
            .arg(full),
    ))
}

#[test]
fn analyse_and_the_protocol_play_from_wdl_files() {
    let (full, alone) = sets("analyse");
    let out = stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", WON])
            .args(["--depth", "4", "--tb"])
            .arg(&alone),
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("up to 3 pieces (WDL-only files: values, no distances)")
            && text.contains("root position: win (distance unknown: WDL-only files)"),
        "{text}"
    );
    assert!(text.contains("score table win"), "{text}");
    assert!(!text.contains("mate"), "{text}");

    let r = result(&stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", WON])
            .args(["--depth", "4", "--json", "--tb"])
            .arg(&alone),
    ));
    assert_eq!(r["table"], "win", "{r}");
    assert!(r["mate"].is_null(), "{r}");
    let score = r["score"].as_i64().unwrap();
    assert!(score > 30_000 && score < 31_000 - 128, "{r}");
    assert!(r["tb_hits"].as_u64().unwrap() > 0, "{r}");
    // The move keeps the win: the full tables say the opponent is lost after it.
    let pv: Vec<String> = r["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(r["bestmove"].as_str(), Some(pv[0].as_str()));
    let probe = full_value(WON, &full);
    let after = probe["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["coord"] == r["bestmove"])
        .unwrap_or_else(|| panic!("{probe}"));
    // `tb probe` gives each move's value for the side that plays it.
    assert_eq!(after["value"], "win", "{probe}");

    // With the full tables the same search reports the mate.
    let r = result(&stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", WON])
            .args(["--depth", "4", "--json", "--tb"])
            .arg(&full),
    ));
    assert_eq!(r["mate"], 17);
    assert!(r["table"].is_null());

    let input = format!(
        "setoption name Game value jungle-checkers\nsetoption name TB value {}\nposition fen {WON}\ngo depth 3\nisready\nquit\n",
        alone.display()
    );
    let out = zoo().arg("uci").write_stdin(input).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("info string table win"), "{text}");
    assert!(!text.contains("score mate"), "{text}");
}

/// The engine with WDL files alone converts won positions against the
/// full tables' best defence: each game from a won position ends in a
/// win, never a draw by repetition.
#[test]
fn the_engine_converts_wins_from_wdl_files() {
    let (full, alone) = sets("match");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let openings = dir.join("zoo-wdl-engine-openings.txt");
    // Three pieces, won for White in 11 to 19 plies (the full tables'
    // distances).
    std::fs::write(
        &openings,
        "7/7/3d3/7/7/7/E5R w\n7/7/3d3/7/7/1T3R1/7 w\n7/7/6e/7/7/7/2D3R w\n7/7/7/7/1E5/2T3d/7 w\n7/d6/7/E6/7/4R2/7 w\n",
    )
    .unwrap();
    for fen in std::fs::read_to_string(&openings).unwrap().lines() {
        assert_eq!(full_value(fen, &full)["value"], "win", "{fen}");
    }
    let out = dir.join("zoo-wdl-engine-games.jsonl");
    let r = result(&stdout(
        zoo()
            .args(["match", "--game", "jungle-checkers", "--games", "10"])
            .arg("--a")
            .arg(format!("--depth 6 --tb {}", alone.display()))
            .arg("--b")
            .arg(format!("--depth 6 --tb {}", full.display()))
            .arg("--openings")
            .arg(&openings)
            .arg("--out")
            .arg(&out)
            .args(["--force", "--json"]),
    ));
    // Each opening once with each engine as White (the winner): every game
    // is won by White, so A and B win five each.
    let games = std::fs::read_to_string(&out).unwrap();
    for g in games.lines() {
        let g: serde_json::Value = serde_json::from_str(g).unwrap();
        assert_eq!(g["result"], "1-0", "{g}");
    }
    assert_eq!(games.lines().count(), 10, "{r}");
}

#[test]
fn a_proof_with_wdl_table_leaves_passes_the_checker() {
    let (_, alone) = sets("solve");
    let proof = alone.join("won.proof");
    let tb = alone.to_str().unwrap();
    // Four pieces, won in 11 plies: every capture leads into the 3-piece
    // WDL files.
    let out = stdout(
        zoo()
            .args(["solve", "--game", "jungle-checkers"])
            .args(["--fen", "r6/7/d6/7/5T1/1D5/7 w", "--goal", "win"])
            .args(["--algo", "pns", "--nodes", "2000000", "--proof"])
            .arg(&proof)
            .args(["--tb", tb]),
    );
    let said = String::from_utf8_lossy(&out);
    assert!(said.contains("WDL-only files"), "{said}");
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(text.contains(" table "), "no table leaf:\n{text}");
    let ok = stdout(
        zoo()
            .args(["solve", "--check"])
            .arg(&proof)
            .args(["--tb", tb]),
    );
    let said = String::from_utf8_lossy(&ok);
    assert!(
        said.contains("of them table positions") && !said.contains(" 0 of them"),
        "{said}"
    );
}
