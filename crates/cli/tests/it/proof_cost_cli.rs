//! df-pn's proofs cost about what their answers cost (issue 34, "Proofs
//! as fast as answers"): each proof written is re-checked by the
//! independent checker, and on a fixed case the derivation's MID calls
//! (deterministic: one thread) stay within the answer's.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-proof-cost-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The number before `word` on the line starting with `start`.
fn figure(text: &str, start: &str, word: &str) -> u64 {
    let line = text
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line `{start}` in {text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == word).unwrap();
    words[i - 1].parse().unwrap()
}

/// Solves `fen` (Jungle Checkers) for `goal` by df-pn with a proof, and
/// checks the proof: (answer's calls, derivation's calls).
fn prove_and_check(fen: &str, goal: &str, tb: Option<&Path>, proof: &Path) -> (u64, u64) {
    let mut cmd = zoo();
    cmd.args(["solve", "--game", "jungle-checkers", "--fen", fen])
        .args(["--goal", goal, "--nodes", "20000000", "--proof"])
        .arg(proof);
    if let Some(tb) = tb {
        cmd.arg("--tb").arg(tb);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && text.contains("proof written to"),
        "{fen}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut check = zoo();
    check.args(["solve", "--check"]).arg(proof);
    if let Some(tb) = tb {
        check.arg("--tb").arg(tb);
    }
    let ok = check.output().unwrap();
    assert!(
        ok.status.success(),
        "{fen}: {}",
        String::from_utf8_lossy(&ok.stderr)
    );
    (
        figure(&text, goal, "nodes"),
        figure(&text, "proof", "calls"),
    )
}

#[test]
fn proofs_cost_no_more_than_their_answers_and_pass_the_checker() {
    let dir = temp("tb");
    let tb = dir.join("tb");
    zoo()
        .args(["tb", "build", "--game", "jungle-checkers", "--pieces", "4"])
        .arg("--dir")
        .arg(&tb)
        .assert()
        .success();
    // The example (5 pieces, the ≤ 4-piece tables as leaves): its
    // derivation took more than 54 M calls after a 209,838-call answer.
    let (answer, derived) = prove_and_check(
        "1r3e1/7/7/7/7/2D1T2/1E5 w",
        "win",
        Some(&tb),
        &dir.join("example.proof"),
    );
    assert!(answer > 100_000, "{answer}");
    assert!(
        derived <= answer,
        "derivation {derived} calls, answer {answer}"
    );
    // Black to move: Black's win disproven in about as many calls; its
    // disproof as a tree held every line Black can walk before a
    // position repeats (past 17 M nodes and 11 M calls); with `same`
    // leaves it is a small graph.
    let disproof = dir.join("example-b.proof");
    let (answer, derived) =
        prove_and_check("1r3e1/7/7/7/7/2D1T2/1E5 b", "win", Some(&tb), &disproof);
    assert!(answer > 100_000, "{answer}");
    assert!(
        derived <= answer,
        "derivation {derived} calls, answer {answer}"
    );
    let text = std::fs::read_to_string(&disproof).unwrap();
    let same = text
        .lines()
        .find(|l| l.contains(" same "))
        .expect("the disproof goes on from positions it already holds");
    // Pointed at another position (the root), the leaf is refused.
    let moved = same.rsplit_once(' ').unwrap().0.to_string() + " 0";
    let bad = dir.join("bad-same.proof");
    std::fs::write(&bad, text.replacen(same, &moved, 1)).unwrap();
    let refused = zoo()
        .args(["solve", "--check"])
        .arg(&bad)
        .arg("--tb")
        .arg(&tb)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr).to_string()
        + &String::from_utf8_lossy(&refused.stdout);
    assert!(said.contains("node 0 is not the same position"), "{said}");
    // More proofs, checked: a win and a disproof without tables.
    for (i, fen) in ["7/7/d6/7/5T1/1D5/7 w", "7/7/d6/7/5T1/1D5/7 b"]
        .iter()
        .enumerate()
    {
        let (answer, derived) = prove_and_check(fen, "win", None, &dir.join(format!("{i}.proof")));
        assert!(derived <= 4 * answer.max(1), "{fen}: {derived} vs {answer}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
