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

/// The rows of a decide run's CSV, a vector of fields each (fen, kind,
/// value, distance, found, decided_by, calls, seconds).
fn rows_of(csv: &str) -> Vec<Vec<&str>> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect()
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
    let rows = rows_of(&csv);
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

/// A size whose tables are built only in part (`zoo tb build
/// --material`): `--materials` draws the sample from the named tables
/// alone, a material named with its colours swapped is found in its
/// stored table, and one not built, of another size or misspelt is a
/// clear error.
#[test]
fn a_sample_of_named_materials_comes_from_their_tables_alone() {
    let game = "jungle-checkers";
    let d = temp("materials");
    let tb = d.join("tb");
    let tb = tb.to_str().expect("a UTF-8 path");
    let out_dir = d.to_str().expect("a UTF-8 path");
    // The oracle's sizes whole, the sample's size in part.
    zoo_ok(["tb", "build", "--game", game, "--pieces", "2", "--dir", tb]);
    zoo_ok([
        "tb",
        "build",
        "--game",
        game,
        "--material",
        "DEvt",
        "--dir",
        tb,
    ]);
    let args = |materials: &'static str| {
        [
            "experiment",
            "decide",
            "--game",
            game,
            "--pieces",
            "3",
            "--materials",
            materials,
            "--oracle-pieces",
            "2",
            "--longest",
            "2",
            "--draws",
            "2",
            "--positions",
            "6",
            "--seconds",
            "30",
            "--bounded",
            "0",
            "--tb",
            tb,
            "--out-dir",
            out_dir,
        ]
    };
    // Black's tiger against White's dog and elephant, named from Black's side.
    let out = zoo_ok(args("Tvde"));
    let err = String::from_utf8_lossy(&out.stderr);
    let csv = std::fs::read_to_string(d.join(format!("decide-{game}-3.csv"))).unwrap();
    let rows = rows_of(&csv);
    assert_eq!(rows.len(), 2 + 2 + 2 + 6, "{csv}");
    for r in &rows {
        let mut pieces: Vec<char> = r[0]
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(char::is_ascii_alphabetic)
            .collect();
        pieces.sort_unstable();
        let mine = pieces == ['D', 'E', 't'] || pieces == ['T', 'd', 'e'];
        assert!(mine, "not of the material: {r:?}");
        assert_eq!(r[4], r[2], "{r:?}\n{err}");
    }
    assert!(rows.iter().any(|r| r[1] == "longest-win"), "{csv}");
    // The report's title names the sample and the settings that differ
    // from the manager's defaults, as given on the command line.
    let md = std::fs::read_to_string(d.join(format!("decide-{game}-3.md"))).unwrap();
    let title = md.lines().next().unwrap_or_default();
    assert!(
        title.contains("(Tvde)") && title.contains("`--seconds 30 --bounded 0`"),
        "{title}"
    );
    for (materials, says) in [
        ("RDvt", "RDvt"),
        ("RDEvt", "4 pieces"),
        ("DEt", "DEt"),
        ("DXvt", "DXvt"),
    ] {
        let err = common::zoo_err(&args(materials));
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{materials}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
