//! The `zoo` binary end to end: perft output, show, and clear errors.

use assert_cmd::Command;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

#[test]
fn perft_json_has_the_fields() {
    let out = zoo()
        .args([
            "perft",
            "--game",
            "jungle",
            "--depth",
            "4",
            "--json",
            "--threads",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 260_100);
    assert_eq!(v["depth"], 4);
    assert!(v["seconds"].is_number());
}

#[test]
fn perft_divide_sums_to_the_total() {
    let out = zoo()
        .args([
            "perft",
            "--game",
            "jungle-checkers",
            "--depth",
            "5",
            "--divide",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sum: u64 = v["divide"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(sum, v["nodes"].as_u64().unwrap());
    assert_eq!(v["divide"].as_object().unwrap().len(), 14);
}

#[test]
fn perft_with_rules_and_repetition() {
    let out = zoo()
        .args([
            "perft",
            "--game",
            "jungle",
            "--depth",
            "5",
            "--rules",
            "common",
            "--repetition",
            "first",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rules"], "common");
    assert_eq!(v["repetition"], "first");
}

#[test]
fn show_draws_the_board() {
    let out = zoo().args(["show", "--game", "jungle"]).output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("a b c d e f g"));
    assert!(s.contains('~') && s.contains('#') && s.contains('@'));
    assert!(s.contains("24 legal moves"));
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for args in [
        vec![
            "perft",
            "--game",
            "jungle",
            "--depth",
            "2",
            "--fen",
            "l5t/1d3c1 w",
        ],
        vec![
            "perft", "--game", "jungle", "--depth", "2", "--rules", "nonsense",
        ],
        vec![
            "show",
            "--game",
            "jungle-checkers",
            "--fen",
            "1r3e1/2t1d2/7/7/7/2D1T2/1E3L1 w",
        ],
        vec![
            "perft",
            "--game",
            "jungle",
            "--depth",
            "2",
            "--repetition",
            "sometimes",
        ],
    ] {
        let out = zoo().args(&args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}
