//! `zoo solve --positions` under `mpirun -np 3`: rank 0 gives the
//! positions out to two workers and keeps the store. Every position is
//! reported once, with the answers of one process; the store holds every
//! answer, saved by rank 0 alone, so a run on one process then reads them
//! all back without a search; a position that fails stops the batch with
//! its name. Needs a zoo built with `--features mpi` and OpenMPI's
//! `mpirun`, as `mpi_cli.rs` does.
#![cfg(feature = "mpi")]

use crate::common::{zoo_ok, TempDir};
use crate::mpi_cli::mpirun;
use std::collections::BTreeMap;
use std::path::Path;

/// Six Jungle Checkers positions of 3 and 4 pieces with quick answers of
/// every kind: wins, losses and a draw.
const BATCH: &str =
    "# a front of six\n7/3e3/7/7/7/3R3/2D4 b\n7/7/d6/7/5T1/1D5/7 w\nr6/7/7/7/7/7/6R w\n\
7/7/7/7/5ER/2d2t1/7 b\n7/3t1E1/7/6D/r6/7/7 b\n6R/7/4d2/7/7/6r/2D4 b\n";

fn args<'a>(list: &'a Path, store: &'a Path) -> Vec<&'a str> {
    vec![
        "solve",
        "--game",
        "jungle-checkers",
        "--positions",
        list.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
        "--search-only",
        "--time",
        "60",
        "--json",
    ]
}

/// Each report's FEN with its value and the methods of its answers.
fn reports(stdout: &[u8]) -> BTreeMap<String, (String, Vec<String>)> {
    let mut out = BTreeMap::new();
    for line in String::from_utf8_lossy(stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let methods = r["answers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["method"].as_str().unwrap_or("-").to_string())
            .collect();
        let value = r["value"].as_str().unwrap_or("unknown").to_string();
        let fen = r["fen"].as_str().unwrap().to_string();
        assert!(
            out.insert(fen.clone(), (value, methods)).is_none(),
            "{fen} reported twice"
        );
    }
    out
}

#[test]
fn a_batch_shared_out_over_three_ranks_gives_the_answers_of_one_and_one_store() {
    let dir = TempDir::new("mpi-solve");
    let list = dir.0.join("front.txt");
    std::fs::write(&list, BATCH).unwrap();
    let (one, three) = (dir.0.join("one.store"), dir.0.join("three.store"));
    let alone = reports(&zoo_ok(args(&list, &one)).stdout);
    let o = mpirun(&args(&list, &three)).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shared = reports(&o.stdout);
    assert_eq!(shared.len(), 6);
    let values = |r: &BTreeMap<String, (String, Vec<String>)>| -> Vec<(String, String)> {
        r.iter().map(|(f, (v, _))| (f.clone(), v.clone())).collect()
    };
    assert_eq!(values(&shared), values(&alone));
    assert!(shared.values().all(|(v, _)| v != "unknown"), "{shared:?}");
    // The store rank 0 kept: every answer, read back by one process with
    // no search.
    let again = reports(&zoo_ok(args(&list, &three)).stdout);
    assert_eq!(values(&again), values(&alone));
    for (fen, (_, methods)) in &again {
        assert!(methods.iter().all(|m| m == "store"), "{fen}: {methods:?}");
    }
    // A position that does not parse stops the batch, named; the store
    // stays readable.
    std::fs::write(&list, format!("{BATCH}7/7/7/nonsense w\n")).unwrap();
    let o = mpirun(&args(&list, &three)).output().unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("7/7/7/nonsense w"), "{err}");
    std::fs::write(&list, BATCH).unwrap();
    let again = reports(&zoo_ok(args(&list, &three)).stdout);
    assert_eq!(values(&again), values(&alone));
}

/// Fewer positions than workers, and none at all: every worker is told to
/// end, the job ends, and each position is reported once.
#[test]
fn a_batch_smaller_than_the_ranks_ends() {
    let dir = TempDir::new("mpi-solve-small");
    let list = dir.0.join("front.txt");
    let store = dir.0.join("s.store");
    for (text, n) in [("7/3e3/7/7/7/3R3/2D4 b\n", 1), ("# nothing\n", 0)] {
        std::fs::write(&list, text).unwrap();
        let o = mpirun(&args(&list, &store)).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(reports(&o.stdout).len(), n);
    }
    // `--front` and a single position are refused under mpirun.
    let fen = "7/3e3/7/7/7/3R3/2D4 b";
    for (extra, says) in [
        (&["--front", "1"][..], "without mpirun"),
        (&[][..], "--positions"),
    ] {
        let mut a = vec!["solve", "--game", "jungle-checkers", "--fen", fen];
        a.extend_from_slice(extra);
        let o = mpirun(&a).output().unwrap();
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains(says));
    }
}

/// A position that fails stops the positions under way on the other
/// workers at once (rank 0 tells them), instead of leaving them to search
/// to their time limit; the stopped position is reported as far as it
/// got, and the failure is named.
#[test]
fn a_failure_stops_the_other_workers_at_once() {
    let dir = TempDir::new("mpi-solve-stop");
    let list = dir.0.join("front.txt");
    let store = dir.0.join("s.store");
    // The first, a longest win two pieces past no tables at all, is open
    // long after 600 s; the second does not parse.
    let long = "t6/5e1/5T1/7/2D4/7/E6 w";
    std::fs::write(&list, format!("{long}\n7/7/7/nonsense w\n")).unwrap();
    let mut a = args(&list, &store);
    let at = a.iter().position(|x| *x == "--time").unwrap();
    a[at + 1] = "600";
    let t = std::time::Instant::now();
    let o = mpirun(&a).output().unwrap();
    let took = t.elapsed();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("7/7/7/nonsense w"), "{err}");
    assert!(
        took < std::time::Duration::from_secs(300),
        "the job ran {took:?}: the busy worker was not stopped"
    );
    let shown = reports(&o.stdout);
    assert_eq!(
        shown.get(long).map(|(v, _)| v.as_str()),
        Some("unknown"),
        "{shown:?}"
    );
}
