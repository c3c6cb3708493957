//! `zoo solve` end to end: proofs written by every algorithm pass the
//! independent checker, with and without table leaves; damaged or wrong proofs (cases
//! in tests/data/damaged-proofs.txt) are refused with the line at fault.

use crate::common;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

/// A fresh directory of this test process.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-solve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const WON: &str = "7/7/d6/7/5T1/1D5/7 w";

/// Solves `fen` (Jungle Checkers) under `goal` with PNS, writing the proof.
fn prove(fen: &str, goal: &str, proof: &Path, extra: &[&str]) -> String {
    let out = zoo()
        .args([
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            fen,
            "--goal",
            goal,
        ])
        .args(["--algo", "pns", "--nodes", "2000000", "--proof"])
        .arg(proof)
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn check(proof: &Path, extra: &[&str]) -> std::process::Output {
    zoo()
        .args(["solve", "--check"])
        .arg(proof)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_proof_passes_the_checker_and_damaged_ones_are_refused() {
    let dir = temp("damaged");
    let proof = dir.join("won.proof");
    let out = prove(WON, "win", &proof, &[]);
    assert!(out.contains("win      proven"), "{out}");
    let ok = check(&proof, &["--json"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&ok.stdout).trim()).unwrap();
    assert_eq!(
        (v["type"].as_str(), v["answer"].as_str()),
        (Some("result"), Some("proven"))
    );
    let good = std::fs::read_to_string(&proof).unwrap();
    let mut cases = 0;
    for line in include_str!("../data/damaged-proofs.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (change, want) = line.rsplit_once(" | ").expect("`change | message`");
        let damaged = if let Some(sub) = change.strip_prefix("sub ") {
            let (old, new) = sub.split_once(" => ").expect("sub OLD => NEW");
            assert!(good.contains(old), "{line}: {old:?} is not in the proof");
            good.replacen(old, new, 1)
        } else if let Some(n) = change.strip_prefix("truncate ") {
            let n: usize = n.parse().unwrap();
            good.lines().take(n).map(|l| format!("{l}\n")).collect()
        } else if change == "drop-a-reply" {
            drop_a_reply(&good)
        } else {
            panic!("{line}: unknown change");
        };
        let path = dir.join(format!("damaged-{cases}.proof"));
        std::fs::write(&path, damaged).unwrap();
        let out = check(&path, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{line}: accepted");
        assert!(err.contains(want) && err.contains("line "), "{line}: {err}");
        assert!(!err.contains("panicked"), "{line}: {err}");
        cases += 1;
    }
    assert!(cases >= 8, "{cases} cases");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `proof` without the last node that is one of several moves below its
/// parent (in a proven win, a reply of the defender) and the lines below
/// it, the ids renumbered and the node count lowered.
fn drop_a_reply(proof: &str) -> String {
    let lines: Vec<&str> = proof.lines().collect();
    let (head, body) = lines.split_at(7);
    let nodes: Vec<Vec<&str>> = body
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let parent = |i: usize| nodes[i][1].parse::<usize>().ok();
    let siblings = |i: usize| (0..nodes.len()).filter(|&j| parent(j) == parent(i)).count();
    let k = (1..nodes.len())
        .rev()
        .find(|&k| siblings(k) >= 2)
        .expect("a node among several replies");
    // Parents come before their children: one pass marks the subtree.
    let mut gone = vec![false; nodes.len()];
    gone[k] = true;
    for i in k + 1..nodes.len() {
        gone[i] = parent(i).is_some_and(|p| gone[p]);
    }
    let mut new_id = vec![usize::MAX; nodes.len()];
    let kept: Vec<usize> = (0..nodes.len()).filter(|&i| !gone[i]).collect();
    for (n, &i) in kept.iter().enumerate() {
        new_id[i] = n;
    }
    let mut out: String = head
        .iter()
        .map(|l| match l.strip_prefix("nodes ") {
            Some(_) => format!("nodes {}\n", kept.len()),
            None => format!("{l}\n"),
        })
        .collect();
    for &i in &kept {
        let mut w: Vec<String> = nodes[i].iter().map(|s| s.to_string()).collect();
        w[0] = new_id[i].to_string();
        if let Some(p) = parent(i) {
            w[1] = new_id[p].to_string();
        }
        out.push_str(&w.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn table_leaves_are_checked_against_the_tables() {
    let dir = temp("tables");
    let tb = dir.join("tb");
    zoo()
        .args([
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            "2",
            "--dir",
        ])
        .arg(&tb)
        .assert()
        .success();
    // Three pieces: every capture leads into the 2-piece tables.
    let proof = dir.join("tb.proof");
    let out = prove(
        "7/7/d6/7/5T1/1D5/7 w",
        "win",
        &proof,
        &["--tb", tb.to_str().unwrap()],
    );
    assert!(
        out.contains("(tables: jungle-checkers leiden tables in"),
        "{out}"
    );
    let text = std::fs::read_to_string(&proof).unwrap();
    assert!(text.contains(" table "), "no table leaf:\n{text}");
    let ok = check(&proof, &["--tb", tb.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(
        said.contains("of them table positions") && !said.contains(" 0 of them"),
        "{said}"
    );
    // Without the tables its table leaves cannot be checked.
    let out = check(&proof, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("give the tables"));
    // A table leaf that claims another value is refused.
    let wrong = dir.join("wrong.proof");
    let flipped = text.replacen(" table win", " table draw", 1);
    assert_ne!(flipped, text);
    std::fs::write(&wrong, flipped).unwrap();
    let out = check(&wrong, &["--tb", tb.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("the tables say win"),
        "{err}"
    );
    // Damaged tables: the check names the damage, not a gap in the
    // tables; a solve says it searched below them, and its answer stands.
    for e in std::fs::read_dir(tb.join("jungle-checkers/leiden")).unwrap() {
        let p = e.unwrap().path();
        if p.extension() == Some("zootb".as_ref()) {
            let mut bytes = std::fs::read(&p).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
            std::fs::write(&p, bytes).unwrap();
        }
    }
    let out = check(&proof, &["--tb", tb.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("checksum"), "{err}");
    let out = zoo()
        .args(["solve", "--game", "jungle-checkers", "--fen", WON, "--tb"])
        .arg(&tb)
        .output()
        .unwrap();
    let (said, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(said.contains("value: win"), "{said}");
    assert!(
        err.contains("table probes refused") && err.contains("checksum"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn values_and_bad_options() {
    let out = zoo()
        .args([
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            WON,
            "--nodes",
            "2000000",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["algorithm"], "dfpn");
    for (args, want) in [
        (&["--hash", "100000000"][..], "is not between 1 and"),
        (&["--time", "0"][..], "a positive number of seconds"),
        (&["--moves", "a1a1"][..], "a1a1"),
        (&["--remedies", "tca,snda"][..], "unknown remedy `snda`"),
        (&["--pn2-fraction", "1000"][..], "two numbers A,B"),
        (&["--pn2-fraction", "1000,x"][..], "`x` in `1000,x`"),
        (&["--pn2-fraction", "1000,500"][..], "for --algo pn2"),
        (
            &["--algo", "pn2", "--pn2-fraction", "1000,0"][..],
            "b finite and positive",
        ),
        (&["--gc"][..], "garbage collection is for PNS's and PN²'s"),
        (&["--threads", "0"][..], "threads 0 is not between 1 and"),
        (&["--threads", "x"][..], "invalid digit"),
        (
            &["--algo", "pns", "--threads", "2"][..],
            "more than one thread is for df-pn",
        ),
        (
            &["--ghi", "closure", "--threads", "2"][..],
            "--ghi closure searches on one thread",
        ),
        (
            &[
                "--checkpoint",
                "/nonexistent/c",
                "--proof",
                "/nonexistent/p",
            ][..],
            "--proof with --checkpoint is for --algo pns or pn2",
        ),
    ] {
        let out = zoo()
            .args(["solve", "--game", "jungle-checkers", "--fen", WON])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
    }
    // Two outputs that are one file: refused before the run, nothing
    // written.
    let dir = temp("same-outputs");
    let same = dir.join("out");
    for other in ["--plot", "--checkpoint"] {
        let out = zoo()
            .args(["solve", "--game", "jungle-checkers", "--fen", WON])
            .args(["--algo", "pns", "--proof"])
            .arg(&same)
            .arg(other)
            .arg(dir.join(".").join("out"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("are the same file"),
            "{other}: {err}"
        );
        assert!(!same.exists());
    }
}

/// Runs `zoo` with `args` and sends it SIGINT (Ctrl-C) after 2.5 s.
#[cfg(unix)]
fn interrupted_after<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("zoo"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    crate::common::signal(child.id(), "INT");
    child.wait_with_output().unwrap()
}

/// Ctrl-C stops the question as a limit would: the report is printed,
/// the answer unknown, the exit clean; progress lines come meanwhile.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_with_a_report() {
    let out = interrupted_after(&["solve", "--game", "jungle-checkers", "--goal", "win"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(stderr.contains(" nodes/s"), "no progress line: {stderr}");
    assert!(stdout.contains("win      unknown"), "{stdout}");
}

/// A PN² run stopped by Ctrl-C keeps its tree in the checkpoint, and the
/// same command goes on from it: its nodes count on from the first run's.
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_tree_and_the_run_goes_on() {
    let dir = temp("ckpt");
    let ckpt = dir.join("run.ckpt");
    let args = |extra: &[&str]| {
        let mut a: Vec<String> = [
            "solve",
            "--game",
            "jungle-checkers",
            "--goal",
            "win",
            "--algo",
            "pn2",
            "--hash",
            "64",
            "--json",
            "--checkpoint",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(ckpt.display().to_string());
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let nodes = |stdout: &[u8]| {
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(stdout).trim()).unwrap();
        assert_eq!(v["answers"][0]["answer"], "unknown", "{v}");
        v["answers"][0]["nodes"].as_u64().unwrap()
    };
    let out = interrupted_after(&args(&[]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("the run is kept in"), "{stderr}");
    let first = nodes(&out.stdout);
    assert!(ckpt.exists() && !dir.join("run.ckpt.tmp").exists());
    let out = zoo().args(args(&["--time", "1"])).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = nodes(&out.stdout);
    assert!(second > first, "{second} nodes after {first}");
    // Another algorithm's run does not take it.
    let out = zoo()
        .args(["solve", "--game", "jungle-checkers", "--goal", "win"])
        .args(["--algo", "pns", "--checkpoint"])
        .arg(&ckpt)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("checkpoint of another question"),
        "{err}"
    );
    // Nor does another goal: the search it holds is not thrown away.
    let kept = std::fs::read(&ckpt).unwrap();
    let mut other = args(&["--time", "1"]);
    other[4] = "not-lose".into();
    let out = zoo().args(&other).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("holds the search of goal `win`"),
        "{err}"
    );
    assert!(std::fs::read(&ckpt).unwrap() == kept);
}

/// Every algorithm writes proofs the checker accepts: PN² as PNS does,
/// and df-pn, which derives its proof again after the run, under the
/// modes whose stored values hold on the path, the default (`path`, also
/// named `sound`) among them (`no-repetition-store`'s hold where endless
/// play draws, and its derivation may fail: see docs/solve.md); a proof of the goal (White to move wins) and a
/// disproof (Black to move, the same pieces, does not).
#[test]
fn proofs_of_every_algorithm_pass_the_checker() {
    let dir = temp("algos");
    let lost = WON.replace(" w", " b");
    // With `--remedies` the derivation often runs out of calls here
    // (docs/solve.md, "df-pn's remedies"): not in this list yet.
    let runs: [&[&str]; 8] = [
        &["--algo", "pn2"],
        &["--algo", "pn2", "--pn2-fraction", "1000,500"],
        // In 1 MiB (about 30,000 nodes), which the proof and the disproof
        // need several times over: collected and resumed.
        &["--algo", "pns", "--gc", "--hash", "1"],
        &["--algo", "dfpn"],
        &["--algo", "dfpn", "--ghi", "sound"],
        &["--algo", "dfpn", "--ghi", "local-repetition"],
        &["--algo", "dfpn", "--ghi", "path"],
        &["--algo", "dfpn", "--ghi", "path", "--hash", "1"],
    ];
    for (i, args) in runs.iter().enumerate() {
        for (fen, answer) in [
            (WON, "win      proven"),
            (lost.as_str(), "win      disproven"),
        ] {
            let proof = dir.join(format!("{i}-{}.proof", answer.len()));
            let out = zoo()
                .args(["solve", "--game", "jungle-checkers", "--fen", fen])
                .args(["--goal", "win", "--nodes", "2000000"])
                .args(*args)
                .arg("--proof")
                .arg(&proof)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && text.contains(answer),
                "{args:?} {fen}: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let ok = check(&proof, &[]);
            assert!(
                ok.status.success(),
                "{args:?} {fen}: {}",
                String::from_utf8_lossy(&ok.stderr)
            );
        }
    }
}

/// `--ghi path` (literature B's chain check) answers the JSON way the
/// other modes do, and names itself.
#[test]
fn the_path_mode_solves_and_says_so() {
    let out = zoo()
        .args(["solve", "--game", "jungle-checkers", "--fen", WON])
        .args(["--ghi", "path", "--nodes", "2000000", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["ghi"], "path", "{v}");
    assert_eq!(v["remedies"], "auto", "{v}");
    assert_eq!(v["decided_by"], "win", "{v}");
    assert_eq!(v["answers"][0]["remedies"], "none", "{v}");
    assert!(
        v["answers"][0]["runs"].as_u64().is_some_and(|r| r >= 1),
        "{v}"
    );
    let out = zoo()
        .args(["solve", "--game", "jungle-checkers", "--fen", WON])
        .args(["--ghi", "path", "--nodes", "2000000", "--json"])
        .args(["--remedies", "wpn,tca"])
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["remedies"], "tca,wpn", "{v}");
}

/// `--threads 2`: parallel df-pn gives the one thread's value, under the
/// proof manager and under plain df-pn, and its proofs pass the checker.
/// The position is a 3-piece Jungle Checkers loss whose repetitions catch
/// a draw reused off its path (tests/ghi.rs in zoo-solve).
#[test]
fn two_threads_answer_as_one_and_their_proofs_check() {
    let dir = temp("threads");
    let fen = "1d2r2/7/7/7/7/5T1/7 b";
    let value = |extra: &[&str]| {
        let out = zoo()
            .args(["solve", "--game", "jungle-checkers", "--fen", fen])
            .args(["--goal", "value", "--nodes", "4000000", "--json"])
            .args(extra)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{extra:?}: {text}");
        let v: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON object");
        v["value"].as_str().unwrap_or("none").to_string()
    };
    let one = value(&[]);
    assert_eq!(one, "loss");
    for round in 0..3 {
        assert_eq!(value(&["--threads", "2"]), one, "round {round}");
        let proof = dir.join(format!("loss{round}.proof"));
        let p = proof.to_str().unwrap();
        let plain = ["--threads", "2", "--remedies", "none", "--proof", p];
        assert_eq!(value(&plain), one, "round {round}, plain df-pn");
        let out = check(&proof, &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `--plot FILE.svg` writes the root's proof and disproof numbers over the
/// run: an SVG document with both series named in its legend.
#[test]
fn the_root_numbers_are_plotted() {
    let dir = temp("plot");
    for algo in ["pns", "dfpn"] {
        let plot = dir.join(format!("{algo}.svg"));
        let out = zoo()
            .args(["solve", "--game", "jungle-checkers", "--fen", WON])
            .args(["--goal", "win", "--algo", algo, "--nodes", "2000000"])
            .arg("--plot")
            .arg(&plot)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        // Every element opened is closed: no truncated document.
        assert_eq!(
            svg.matches("<text").count(),
            svg.matches("</text>").count(),
            "{algo}"
        );
        for series in ["win pn", "win dn"] {
            assert!(svg.contains(&format!("\n{series}\n")), "{algo}: {series}");
        }
        assert!(svg.contains("<circle"), "{algo}: no point drawn");
    }
    // A bad path is an error, not a panic.
    let out = zoo()
        .args(["solve", "--game", "jungle-checkers", "--fen", WON])
        .args(["--goal", "win", "--plot", "/nonexistent-dir/x.svg"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One piece past the tables, with a `--hash` too small for the graph:
/// the root's material table is built in memory, decides what df-pn's
/// quick runs leave open (`not-lose` of a draw kept by repetition), says
/// so (`method: table`), and its proof passes the checker with the
/// tables it was built from.
#[test]
fn one_piece_past_the_tables_the_material_is_built() {
    let dir = temp("material");
    let tb = dir.join("tb");
    zoo()
        .args([
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            "3",
            "--dir",
        ])
        .arg(&tb)
        .assert()
        .success();
    let proof = dir.join("draw.proof");
    let out = zoo()
        .args([
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            "7/7/6e/7/r6/5T1/4E2 b",
        ])
        .args(["--goal", "value", "--hash", "64", "--json", "--tb"])
        .arg(&tb)
        .arg("--proof")
        .arg(&proof)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON object");
    assert_eq!(v["value"], "draw", "{text}");
    let answers = v["answers"].as_array().expect("answers");
    assert!(
        answers.iter().any(|a| a["method"] == "table"),
        "no question decided by the table: {text}"
    );
    let ok = check(&proof, &["--tb", tb.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value search given the checkpoint of a `not-lose` search goes on
/// with it first (asking `win` first would write its table over it).
#[test]
fn a_value_search_goes_on_with_the_goal_the_checkpoint_holds() {
    let dir = temp("held-goal");
    let ckpt = dir.join("c");
    let ckpt = ckpt.to_str().unwrap();
    let run = |goal: &str, more: &[&str]| {
        let fen = "7/3e3/7/7/7/3R3/2D4 b";
        let args = [
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            fen,
            "--goal",
            goal,
        ];
        let args = args.iter().chain(&["--json", "--remedies", "none"]);
        let out = common::zoo_ok(args.chain(&["--checkpoint", ckpt]).chain(more));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = run("not-lose", &["--nodes", "300"]);
    assert_eq!(first["answers"][0]["answer"], "unknown", "{first}");
    let v = run("value", &[]);
    assert_eq!(v["answers"][0]["goal"], "not-lose", "{v}");
    assert!(v["answers"][0]["nodes"].as_u64().unwrap() > 300, "{v}");
    assert_eq!(v["value"], "loss", "{v}");
    // Now it holds the answer of `not-lose` and, stopped, the search of
    // `win`: `not-lose` is read, not refused, and so is the value.
    let w = run("win", &["--nodes", "300"]);
    assert_eq!(w["answers"][0]["answer"], "unknown", "{w}");
    let n = run("not-lose", &[]);
    assert_eq!(n["answers"][0]["answer"], "disproven", "{n}");
    let v = run("value", &["--nodes", "300"]);
    assert_eq!(v["value"], "loss", "{v}");
    assert_eq!(v["answers"].as_array().unwrap().len(), 1, "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--search-only` (issue #52): the proof manager builds no reachable graph
/// and no material table, so proof search answers alone. The two rats of
/// this position chase each other: on one worker the quick runs leave it
/// open and the reachable graph decides it; with the switch, proof search
/// does (on the machine's workers), to the same value.
#[test]
fn search_only_turns_the_graph_and_table_builds_off() {
    let answer = |extra: &[&str]| -> serde_json::Value {
        let fen = "r6/7/7/7/7/7/6R w";
        let args = [
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            fen,
            "--time",
            "60",
            "--json",
        ];
        let out = common::zoo_ok(args.iter().chain(extra));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let methods = |v: &serde_json::Value| -> Vec<String> {
        v["answers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["method"].as_str().unwrap().to_string())
            .collect()
    };
    let default = answer(&["--workers", "1"]);
    assert!(
        methods(&default).contains(&"graph".to_string()),
        "{default}"
    );
    let searched = answer(&["--search-only"]);
    // Proof search only: df-pn or the strategy search, never a build.
    assert!(
        methods(&searched)
            .iter()
            .all(|m| m == "dfpn" || m == "strategy"),
        "{searched}"
    );
    assert_eq!(searched["value"], default["value"]);
    assert_eq!(searched["value"], "loss");
}

/// df-pn's tuning knobs for ablations (docs/solve.md, "Two pieces past
/// the tables"): `--guide` and `--epsilon` search the same answer with
/// other calls, and a bad ε is refused with its name.
#[test]
fn guide_and_epsilon_change_the_search_not_the_answer() {
    let run = |extra: &[&str]| -> serde_json::Value {
        let args = [
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            "1e5/1d5/7/5t1/7/7/6E w",
            "--search-only",
            "--remedies",
            "none",
            "--nodes",
            "5000000",
            "--json",
        ];
        let out = common::zoo_ok(args.iter().chain(extra));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let calls = |v: &serde_json::Value| v["answers"][0]["nodes"].as_u64().unwrap();
    let plain = run(&[]);
    assert_eq!(plain["value"], "loss", "{plain}");
    for extra in [&["--guide", "25"][..], &["--epsilon", "1"][..]] {
        let tuned = run(extra);
        assert_eq!(tuned["value"], "loss", "{extra:?}: {tuned}");
        assert_ne!(calls(&tuned), calls(&plain), "{extra:?} changed nothing");
    }
    for bad in ["--epsilon=-1", "--epsilon=nan"] {
        let err = common::zoo_err(&["solve", "--game", "jungle-checkers", bad]);
        assert!(
            err.contains("--epsilon") && err.contains("at least 0"),
            "{err}"
        );
    }
}

/// The ply-bounded df-pn (docs/solve.md, "Ply-bounded df-pn"): with
/// table builds off, a 3-piece loss with the ≤ 2-piece tables is decided
/// by it (`ply_bound` in the JSON) in fewer calls than without it
/// (`--bounded 0`), to the same value, and its proof, a graph whose
/// lines never repeat a position, passes the checker.
#[test]
fn the_bounded_search_decides_a_long_loss_and_its_proof_checks() {
    let dir = temp("bounded");
    let (tb, proof) = (dir.join("tb"), dir.join("loss.proof"));
    let (tb, proof) = (tb.to_str().unwrap(), proof.to_str().unwrap());
    let build = ["tb", "build", "--game", "jungle-checkers", "--pieces", "2"];
    common::zoo_ok(build.iter().chain(&["--dir", tb]));
    let run = |extra: &[&str]| -> serde_json::Value {
        let args = [
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            "1e5/1d5/7/5t1/7/7/6E w",
            "--search-only",
            "--goal",
            "value",
            "--nodes",
            "3000000",
            "--json",
            "--tb",
            tb,
        ];
        let out = common::zoo_ok(args.iter().chain(extra));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let with = run(&["--proof", proof]);
    let without = run(&["--bounded", "0"]);
    assert_eq!(with["value"], "loss", "{with}");
    assert_eq!(without["value"], "loss", "{without}");
    let deciding = |v: &serde_json::Value| v["answers"].as_array().unwrap().last().unwrap().clone();
    let (a, b) = (deciding(&with), deciding(&without));
    assert_eq!(a["method"], "dfpn", "{with}");
    assert!(a["ply_bound"].as_u64().is_some(), "{with}");
    assert!(b.get("ply_bound").is_none(), "{without}");
    assert!(
        a["nodes"].as_u64().unwrap() < b["nodes"].as_u64().unwrap(),
        "{with} {without}"
    );
    let checked = common::zoo_ok(["solve", "--check", proof, "--tb", tb]);
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(said.contains("a valid proof"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}
