//! `--eval literature-d`: literature D's evaluation as its code computes
//! it. Its node counts from the Jungle start are those of the committed
//! experiment (crates/search/experiments/negamax-literature-d.csv, from
//! `zoo experiment negamax --full --eval literature-d`), and a winning
//! move looks like the worst to it, as in its code.

use assert_cmd::Command;

#[test]
fn node_counts_are_the_committed_experiments() {
    let dir = std::env::temp_dir().join(format!("zoo-litd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args([
            "experiment",
            "negamax",
            "--max-depth",
            "5",
            "--eval",
            "literature-d",
            "--out-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ran = std::fs::read_to_string(dir.join("negamax-literature-d.csv")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let committed = include_str!("../../../search/experiments/negamax-literature-d.csv");
    // The header and depths 1–5 (three algorithms a depth).
    let want: Vec<&str> = committed.lines().take(1 + 5 * 3).collect();
    assert_eq!(ran.lines().collect::<Vec<_>>(), want);
}

#[test]
fn a_winning_move_looks_worst_to_it() {
    // White's rat on d8 takes Black's den (d9) in one move.
    let best = |eval: &str| -> String {
        let out = Command::cargo_bin("zoo")
            .unwrap()
            .args([
                "analyse",
                "--game",
                "jungle",
                "--fen",
                "7/3R3/7/7/7/7/7/7/r6 w",
            ])
            .args(["--eval", eval, "--depth", "2", "--plain", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        let v: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        v["bestmove"].as_str().unwrap().to_string()
    };
    assert_eq!(best("simple"), "d8d9");
    assert_ne!(best("literature-d"), "d8d9");
}
