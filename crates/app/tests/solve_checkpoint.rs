//! A df-pn run stopped by its limits goes on from its checkpoint and
//! reaches the answer a run without stops gives; a checkpoint of another
//! question, or a damaged one, is refused.

use std::path::Path;
use std::time::Duration;
use zoo_app::solve::{solve, Algorithm, Ghi, Limits, Question, SolveRequest};
use zoo_app::GameKind;

/// A Jungle Checkers loss that takes both questions (win, then not-lose)
/// some thousands of MID calls each.
const FEN: &str = "7/3e3/7/7/7/3R3/2D4 b";

fn request(fen: &str, nodes: Option<u64>, checkpoint: Option<&Path>) -> SolveRequest {
    SolveRequest {
        game: GameKind::JungleCheckers,
        rules: None,
        fen: Some(fen.into()),
        moves: vec![],
        question: Question::Value,
        algorithm: Algorithm::Dfpn,
        ghi: Ghi::NoRepetitionStore,
        remedies: zoo_app::solve::Remedies::NONE,
        pn2_fraction: None,
        gc: false,
        tables: None,
        limits: Limits {
            nodes,
            ..Limits::default()
        },
        proof: false,
        checkpoint: checkpoint.map(Path::to_path_buf),
        checkpoint_every: Duration::from_secs(3600),
    }
}

#[test]
fn a_stopped_run_goes_on_to_the_same_answer() {
    let dir = std::env::temp_dir().join(format!("zoo-solve-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    let _ = std::fs::remove_file(&path);

    let whole = solve(&request(FEN, None, None)).unwrap();
    assert!(whole.value.is_some(), "{whole:?}");

    // Stopped every 2,000 calls (a question's count goes on across runs).
    let mut runs = 0;
    let mut last = None;
    for limit in (1..).map(|k| k * 2_000) {
        let r = solve(&request(FEN, Some(limit), Some(&path))).unwrap();
        runs += 1;
        assert!(path.exists(), "a checkpoint after every run");
        if r.value.is_some() {
            last = Some(r);
            break;
        }
        assert!(runs < 100, "no answer after {runs} runs");
    }
    let last = last.unwrap();
    assert!(runs > 2, "the run was stopped and resumed ({runs} runs)");
    assert_eq!(last.value, whole.value);
    let goals: Vec<(&str, &str)> = last.answers.iter().map(|a| (a.goal, a.answer)).collect();
    let want: Vec<(&str, &str)> = whole.answers.iter().map(|a| (a.goal, a.answer)).collect();
    assert_eq!(goals, want);

    // Finished: the same run answers from the checkpoint at once.
    let again = solve(&request(FEN, Some(1), Some(&path))).unwrap();
    assert_eq!(again.value, whole.value);

    // Another position's run does not read it.
    let err = solve(&request("7/3e3/7/7/7/3R3/2D4 w", None, Some(&path))).unwrap_err();
    assert!(
        err.to_string().contains("checkpoint of another question"),
        "{err}"
    );

    // A checkpoint cut short is refused with its size.
    let r = solve(&request(FEN, Some(1_000), Some(&dir.join("short.ckpt")))).unwrap();
    assert!(r.value.is_none());
    let short = dir.join("short.ckpt");
    let bytes = std::fs::read(&short).unwrap();
    std::fs::write(&short, &bytes[..bytes.len() - 10]).unwrap();
    let err = solve(&request(FEN, None, Some(&short))).unwrap_err();
    assert!(err.to_string().contains("where the header says"), "{err}");

    // A PNS run does not read df-pn's checkpoint.
    let mut pns = request(FEN, None, Some(&path));
    pns.algorithm = Algorithm::Pns;
    let err = solve(&pns).unwrap_err().to_string();
    assert!(err.contains("checkpoint of another question"), "{err}");
    assert!(
        err.contains("algo dfpn") && err.contains("algo pns"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under `--ghi path` the checkpoint keeps only the entries without a
/// chain (the file has no room for one): a stopped run still goes on to
/// the answer of a run without stops.
#[test]
fn a_stopped_path_run_goes_on_to_the_same_answer() {
    let dir = std::env::temp_dir().join(format!("zoo-solve-ckpt-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    let _ = std::fs::remove_file(&path);
    let with_path = |nodes, checkpoint| SolveRequest {
        ghi: Ghi::Path,
        remedies: zoo_app::solve::Remedies::NONE,
        ..request(FEN, nodes, checkpoint)
    };
    let whole = solve(&with_path(None, None)).unwrap();
    assert!(whole.value.is_some(), "{whole:?}");
    assert_eq!(whole.ghi, Some("path"));
    let mut runs = 0;
    let last = loop {
        runs += 1;
        let r = solve(&with_path(Some(runs * 1_000), Some(&path))).unwrap();
        if r.value.is_some() {
            break r;
        }
        assert!(runs < 100, "no answer after {runs} runs");
    };
    assert!(runs > 2, "the run was stopped and resumed ({runs} runs)");
    assert_eq!(last.value, whole.value);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// PNS and PN² stopped again and again by a node limit go on from their
/// checkpoint (the tree) to the answers of a run never stopped, with the
/// same node counts; a damaged tree, or another algorithm's checkpoint,
/// is refused with a message.
#[test]
fn stopped_pns_and_pn2_runs_go_on_to_the_same_answers_and_counts() {
    let dir = std::env::temp_dir().join(format!("zoo-solve-ckpt-pns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (algorithm, step, fraction) in [
        (Algorithm::Pns, 10_000, None),
        (Algorithm::Pn2, 800, None),
        (Algorithm::Pn2, 800, Some((2_000.0, 500.0))),
    ] {
        let path = dir.join("run.ckpt");
        let _ = std::fs::remove_file(&path);
        let with = |nodes, checkpoint| SolveRequest {
            algorithm,
            pn2_fraction: fraction,
            proof: true,
            ..request(FEN, nodes, checkpoint)
        };
        let whole = solve(&with(None, None)).unwrap();
        assert!(whole.value.is_some(), "{whole:?}");
        let mut runs = 0;
        let last = loop {
            runs += 1;
            let r = solve(&with(Some(runs * step), Some(&path))).unwrap();
            if r.value.is_some() {
                break r;
            }
            assert!(path.exists(), "a checkpoint after every run");
            assert!(runs < 200, "{algorithm:?}: no answer after {runs} runs");
        };
        assert!(runs > 3, "{algorithm:?}: stopped {} times only", runs - 1);
        assert_eq!(last.value, whole.value, "{algorithm:?}");
        let counts = |r: &zoo_app::solve::SolveReport| {
            r.answers
                .iter()
                .map(|a| (a.goal, a.answer, a.nodes, a.pn, a.dn))
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&last), counts(&whole), "{algorithm:?}");
        // The question decided last was decided by this run: its proof is
        // the uninterrupted run's.
        assert_eq!(
            last.answers.last().unwrap().proof,
            whole.answers.last().unwrap().proof,
            "{algorithm:?}"
        );
        assert!(last.answers.last().unwrap().proof.is_some());
        eprintln!(
            "{algorithm:?} {fraction:?}: {} runs, nodes {:?}",
            runs,
            counts(&whole)
        );
    }

    // A checkpoint part way through a PNS question.
    let path = dir.join("pns.ckpt");
    let _ = std::fs::remove_file(&path);
    let pns = |nodes| SolveRequest {
        algorithm: Algorithm::Pns,
        ..request(FEN, nodes, Some(&path))
    };
    assert!(solve(&pns(Some(20_000))).unwrap().value.is_none());
    let good = std::fs::read(&path).unwrap();
    // PN² does not read it.
    let pn2 = SolveRequest {
        algorithm: Algorithm::Pn2,
        ..request(FEN, None, Some(&path))
    };
    let err = solve(&pn2).unwrap_err().to_string();
    assert!(err.contains("checkpoint of another question"), "{err}");
    // A byte of the tree changed, or the tree cut short.
    let mut damaged = good.clone();
    let at = good.len() - 100;
    damaged[at] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(
        err.contains("cannot go on from checkpoint") && err.contains("damaged"),
        "{err}"
    );
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(err.contains("cut short"), "{err}");
    // A header that is not one.
    std::fs::write(&path, b"garbage\n").unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(err.contains("not a solve checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint written before PNS had checkpoints (no `algo` in its
/// question) is df-pn's: a df-pn run reads it, a PNS run refuses it.
#[test]
fn an_older_checkpoint_is_dfpn_s() {
    let dir = std::env::temp_dir().join(format!("zoo-solve-ckpt-old-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.ckpt");
    let header = serde_json::json!({
        "format": "zoo-dfpn-checkpoint",
        "version": 1,
        "question": {
            "game": "jungle-checkers",
            "rules": "leiden",
            "fen": FEN,
            "ghi": "no-repetition-store",
            "tables": false
        },
        "done": [{"goal": "win", "answer": "disproven", "pn": null, "dn": 0, "nodes": 5, "seconds": 0.1}],
        "goal": null,
        "calls": 0,
        "entries": 0
    });
    std::fs::write(&path, format!("{header}\n")).unwrap();
    let r = solve(&request(FEN, Some(1), Some(&path))).unwrap();
    assert_eq!(r.answers[0].goal, "win");
    assert_eq!(r.answers[0].answer, "disproven");
    assert_eq!(r.answers[0].nodes, 5, "read from the checkpoint");
    let pns = SolveRequest {
        algorithm: Algorithm::Pns,
        ..request(FEN, Some(1), Some(&path))
    };
    let err = solve(&pns).unwrap_err().to_string();
    assert!(err.contains("checkpoint of another question"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
