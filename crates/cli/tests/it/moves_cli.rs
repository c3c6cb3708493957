//! `--moves` on `show` and `analyse` (as on `solve`): the moves are played
//! from the start or from --fen before the command works.

use assert_cmd::Command;
use serde_json::Value;

fn zoo(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("zoo")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// The `--json` result (the last line) of a successful run.
fn result(args: &[&str]) -> Value {
    let out = zoo(args);
    assert!(
        out.status.success(),
        "zoo {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

#[test]
fn show_plays_the_moves_first() {
    let start = result(&["show", "--game", "jungle", "--json"]);
    let after = result(&[
        "show", "--game", "jungle", "--moves", "a3a4", "a7a6", "--json",
    ]);
    assert_ne!(after["fen"], start["fen"]);
    assert_eq!(after["side"], "white");
    // Several moves in one argument are the same moves.
    let one_word = result(&["show", "--game", "jungle", "--moves", "a3a4 a7a6", "--json"]);
    assert_eq!(one_word["fen"], after["fen"]);
    // The position reached is the one --fen gives.
    let fen = after["fen"].as_str().unwrap();
    let by_fen = result(&["show", "--game", "jungle", "--fen", fen, "--json"]);
    assert_eq!(by_fen["legal"], after["legal"]);
    // From --fen, then the moves: one move from the reached position.
    let further = result(&[
        "show", "--game", "jungle", "--fen", fen, "--moves", "a4a5", "--json",
    ]);
    assert_eq!(further["side"], "black");
    assert_ne!(further["fen"], after["fen"]);
}

#[test]
fn analyse_searches_the_position_after_the_moves() {
    let shown = result(&[
        "show",
        "--game",
        "jungle-checkers",
        "--moves",
        "c2c3",
        "--json",
    ]);
    let analysed = result(&[
        "analyse",
        "--game",
        "jungle-checkers",
        "--moves",
        "c2c3",
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(analysed["fen"], shown["fen"]);
    assert_eq!(shown["side"], "black");
}

#[test]
fn an_illegal_move_is_a_clear_error() {
    // a3a4 twice: the second is Black's, and Black has no piece on a3.
    let cases: [&[&str]; 2] = [
        &["show", "--game", "jungle", "--moves", "a3a4", "a3a4"],
        &[
            "analyse", "--game", "jungle", "--moves", "a3a4", "a3a4", "--depth", "1",
        ],
    ];
    for args in cases {
        let out = zoo(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad --moves"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
