//! Issue 34's property, end to end: the default proof search (df-pn's
//! proof manager) decides the longest wins and losses of the 3-piece
//! tables of both animal games, random draws and random positions, with
//! no table as its oracle, every value equal to the table's, none left
//! unknown within 60 s a question (`zoo experiment decide`; the full
//! samples are in docs/solve.md).
//!
//! A test that could not fail would be one whose positions are all
//! trivial: the longest wins and losses here are 65–67 plies long in
//! Jungle, and plain df-pn alone left such positions open after 600 s
//! (issue 34).

use crate::common;

use common::zoo_ok;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-decide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `least`: the shortest of the longest distances the tables give (the
/// tables' longest are 65–67 plies in Jungle, 31–32 in Jungle Checkers).
fn decided_by_default(game: &str, least: u32) {
    let d = temp(game);
    let tb = d.join("tb");
    let tb = tb.to_str().expect("a UTF-8 path");
    zoo_ok(["tb", "build", "--game", game, "--pieces", "3", "--dir", tb]);
    let out = zoo_ok([
        "experiment",
        "decide",
        "--game",
        game,
        "--pieces",
        "3",
        "--longest",
        "4",
        "--draws",
        "4",
        "--positions",
        "24",
        "--seed",
        "7",
        "--seconds",
        "60",
        "--tb",
        tb,
        "--out-dir",
        d.to_str().expect("a UTF-8 path"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let csv = std::fs::read_to_string(d.join(format!("decide-{game}-3.csv"))).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 4 + 4 + 4 + 24, "{csv}");
    let longest: Vec<u32> = rows
        .iter()
        .filter(|r| r[1].starts_with("longest"))
        .map(|r| r[3].parse().unwrap())
        .collect();
    assert!(
        longest.iter().all(|&d| d >= least),
        "not the long ones: {longest:?}"
    );
    for r in &rows {
        // fen, kind, value, distance, found, decided_by, calls, seconds
        assert_eq!(r[4], r[2], "{game}: {r:?}\n{err}");
        assert!(!r[5].is_empty(), "{r:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_default_decides_the_longest_jungle_3_piece_positions() {
    decided_by_default("jungle", 60);
}

#[test]
fn the_default_decides_the_longest_jungle_checkers_3_piece_positions() {
    decided_by_default("jungle-checkers", 30);
}
