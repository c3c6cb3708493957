//! `zoo solve --store` and `--positions` end to end: a batch of positions
//! is solved and kept; the same batch again is read from the store
//! without a search; a damaged store is refused with its name and left
//! as it was; a front (`--front`) is printed as such a batch.

use crate::common::{zoo_err, zoo_ok, TempDir};

#[test]
fn a_batch_is_kept_and_read_back_and_a_damaged_store_refused() {
    let dir = TempDir::new("solve-store");
    let list = dir.0.join("positions.txt");
    let store = dir.0.join("proven.store");
    std::fs::write(
        &list,
        "# three Jungle Checkers positions\n7/3e3/7/7/7/3R3/2D4 b\n\n7/7/d6/7/5T1/1D5/7 w  # a win\nr6/7/7/7/7/7/6R w\n",
    )
    .unwrap();
    let run = || -> Vec<serde_json::Value> {
        let out = zoo_ok([
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
        ]);
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let first = run();
    assert_eq!(first.len(), 3);
    let values: Vec<&str> = first.iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["loss", "win", "loss"]);
    let again = run();
    for (a, b) in first.iter().zip(&again) {
        assert_eq!(a["value"], b["value"]);
        for x in b["answers"].as_array().unwrap() {
            assert_eq!(x["method"], "store", "{b}");
            assert_eq!(x["nodes"], 0);
        }
    }
    // Damaged: refused, named, not replaced.
    let mut bytes = std::fs::read(&store).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x20;
    std::fs::write(&store, &bytes).unwrap();
    let out = assert_cmd::Command::cargo_bin("zoo")
        .unwrap()
        .args([
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            "r6/7/7/7/7/7/6R w",
            "--store",
            store.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("proven.store") && err.contains("checksum"),
        "{err}"
    );
    assert_eq!(std::fs::read(&store).unwrap(), bytes);
}

/// `--front` prints a batch file: one ply down with every move, the
/// root's children the game goes on in; asked as a batch, each is
/// answered; bad depths, a front with a store and the solver's options
/// with a front are refused.
#[test]
fn a_front_is_printed_as_a_batch_of_positions() {
    let dir = TempDir::new("solve-front");
    let fen = "7/3e3/7/7/7/3R3/2D4 b";
    let front_args = |extra: &[&'static str]| -> Vec<&str> {
        let mut args = vec![
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            fen,
            "--front",
        ];
        args.extend_from_slice(extra);
        args
    };
    let front = |extra: &[&'static str]| -> String {
        String::from_utf8(zoo_ok(front_args(extra)).stdout).unwrap()
    };
    let text = front(&["1", "--front-prover", "neither"]);
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert!(text.starts_with("# the front 1 plies below"), "{text}");
    assert!(!fens.is_empty());
    assert!(fens.iter().all(|f| f.contains(" w")), "{text}");
    let list = dir.0.join("front.txt");
    std::fs::write(&list, &text).unwrap();
    let out = zoo_ok([
        "solve",
        "--game",
        "jungle-checkers",
        "--positions",
        list.to_str().unwrap(),
        "--search-only",
        "--time",
        "30",
        "--json",
    ]);
    let reports = String::from_utf8(out.stdout).unwrap();
    assert_eq!(reports.lines().count(), fens.len());
    // The engine's guess: Black is lost here, so White proves: one
    // position per Black move at most, two plies down.
    let guessed = front(&["2"]);
    assert!(guessed.contains("prover: the root's opponent"), "{guessed}");
    assert!(guessed.lines().count() <= fens.len() + 1);
    for bad in ["0", "9"] {
        let err = zoo_err(&[
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            fen,
            "--front",
            bad,
        ]);
        assert!(err.contains("--front"), "{err}");
    }
    let err = zoo_err(&[
        "solve",
        "--game",
        "jungle-checkers",
        "--fen",
        fen,
        "--front",
        "1",
        "--store",
        "x.store",
    ]);
    assert!(err.contains("--store"), "{err}");
    // The front is the engine's, not a proof: a question, a limit or a
    // solver setting given with it is refused, not ignored.
    for extra in [
        &["--time", "5"][..],
        &["--goal", "win"],
        &["--threads", "2"],
        &["--search-only"],
    ] {
        let err = zoo_err(&front_args(&[&["1"][..], extra].concat()));
        assert!(err.contains(extra[0]), "{extra:?}: {err}");
    }
}
