//! `zoo solve --store` and `--positions` end to end: a batch of positions
//! is solved and kept; the same batch again is read from the store
//! without a search; a damaged store is refused with its name and left
//! as it was.

use crate::common::{zoo_ok, TempDir};

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
