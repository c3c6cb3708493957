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

/// `body` with the checkpoint's trailer: `CRC:` and its CRC-32, as an
/// editor who knows the format would make it right again.
fn resummed(mut body: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&body);
    body.extend_from_slice(b"CRC:");
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

fn request(fen: &str, nodes: Option<u64>, checkpoint: Option<&Path>) -> SolveRequest {
    SolveRequest {
        game: GameKind::JungleCheckers,
        rules: None,
        fen: Some(fen.into()),
        moves: vec![],
        question: Question::Value,
        algorithm: Algorithm::Dfpn,
        ghi: Ghi::NoRepetitionStore,
        remedies: Some(zoo_app::solve::Remedies::NONE),
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
        threads: 1,
        workers: 1,
        search_only: false,
        tuning: Default::default(),
        store: None,
        store_writes: Default::default(),
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

    // A checkpoint cut short, or with a byte of its table changed, is
    // refused by its checksum, with its name.
    let r = solve(&request(FEN, Some(1_000), Some(&dir.join("short.ckpt")))).unwrap();
    assert!(r.value.is_none());
    let short = dir.join("short.ckpt");
    let bytes = std::fs::read(&short).unwrap();
    std::fs::write(&short, &bytes[..bytes.len() - 10]).unwrap();
    let err = solve(&request(FEN, None, Some(&short))).unwrap_err();
    assert!(
        err.to_string().contains("checksum") && err.to_string().contains("short.ckpt"),
        "{err}"
    );
    let mut flipped = bytes.clone();
    flipped[bytes.len() - 30] ^= 4;
    std::fs::write(&short, &flipped).unwrap();
    let err = solve(&request(FEN, None, Some(&short))).unwrap_err();
    assert!(err.to_string().contains("checksum"), "{err}");
    // The header's entry count changed and the checksum made right again:
    // the length no longer fits it.
    let text = String::from_utf8_lossy(&bytes[..bytes.iter().position(|&b| b == b'\n').unwrap()])
        .to_string();
    let n: u64 = text
        .split("\"entries\":")
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let edited = text.replace(
        &format!("\"entries\":{n}"),
        &format!("\"entries\":{}", n + 1),
    );
    let mut body = edited.into_bytes();
    body.extend_from_slice(&bytes[text.len()..bytes.len() - 8]);
    std::fs::write(&short, resummed(body)).unwrap();
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
        remedies: Some(zoo_app::solve::Remedies::NONE),
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
        err.contains("checksum") && err.contains("pns.ckpt"),
        "{err}"
    );
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(err.contains("checksum"), "{err}");
    // A byte of the tree changed and the file's checksum made right again:
    // the tree's own hash still finds it.
    let mut edited = good[..good.len() - 8].to_vec();
    edited[at] ^= 1;
    std::fs::write(&path, resummed(edited)).unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(
        err.contains("cannot go on from checkpoint") && err.contains("damaged"),
        "{err}"
    );
    // A header that is not one.
    std::fs::write(&path, resummed(b"garbage\n".to_vec())).unwrap();
    let err = solve(&pns(None)).unwrap_err().to_string();
    assert!(err.contains("not a usable solve checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint whose answers were edited with the checksum made right
/// again is refused where the answer no longer fits its numbers, and one
/// written before checkpoints had a checksum (version 1) is refused:
/// resuming never changes an answer.
#[test]
fn edited_and_older_checkpoints_are_refused() {
    let dir = std::env::temp_dir().join(format!("zoo-solve-ckpt-old-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.ckpt");
    let header = |version: u32, answer: &str| {
        serde_json::json!({
            "format": "zoo-dfpn-checkpoint",
            "version": version,
            "question": {
                "game": "jungle-checkers",
                "rules": "leiden",
                "fen": FEN,
                "ghi": "no-repetition-store",
                "tables": false,
                "algo": "dfpn"
            },
            "done": [{"goal": "win", "answer": answer, "pn": null, "dn": 0, "nodes": 5, "seconds": 0.1}],
            "goal": null,
            "calls": 0,
            "entries": 0
        })
    };
    // Written as this zoo writes it: read.
    std::fs::write(
        &path,
        resummed(format!("{}\n", header(2, "disproven")).into_bytes()),
    )
    .unwrap();
    let r = solve(&request(FEN, Some(1), Some(&path))).unwrap();
    assert_eq!(
        (r.answers[0].goal, r.answers[0].answer),
        ("win", "disproven")
    );
    assert_eq!(r.answers[0].nodes, 5, "read from the checkpoint");
    // `disproven` edited to `proven`, checksum made right: refused.
    std::fs::write(
        &path,
        resummed(format!("{}\n", header(2, "proven")).into_bytes()),
    )
    .unwrap();
    let err = solve(&request(FEN, Some(1), Some(&path)))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("old.ckpt") && err.contains("answer `proven`"),
        "{err}"
    );
    // Version 1, without a checksum.
    std::fs::write(&path, format!("{}\n", header(1, "disproven"))).unwrap();
    let err = solve(&request(FEN, Some(1), Some(&path)))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("old.ckpt") && err.contains("checksum"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
