//! Literature A's observations with its tables, on Jungle Checkers: the
//! six 4-piece equal-material starts (five Black wins in 24–38 plies,
//! tiger and elephant a draw) and the equal-strength pairs by the parity
//! of their distance (never drawn). Only the tables the starts need are
//! built. The expected reports are data: tests/data/*.csv. Release mode:
//! `cargo test --release -p zoo-lab --test it observations::`.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::TbOracle;
use zoo_core::{Oracle, OracleValue};
use zoo_lab::observations::{self, Budget};

/// The tables of these materials and those they need, in a fresh directory.
fn tables(name: &str, materials: &[&str]) -> TbOracle<JungleCheckers> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    let stop = AtomicBool::new(false);
    for m in materials {
        let target = Material::parse::<JungleCheckers>(m).expect("a material");
        let opts = zoo_animal_tb::build::BuildOptions {
            pieces: target.pieces(),
            threads: 2,
            memory_bytes: None,
            encoding: None,
            copies: true,
            checkpoint_from: None,
        };
        let plan = zoo_animal_tb::plan::plan_for::<JungleCheckers>(&dir, rules, &opts, target)
            .expect("a plan");
        zoo_animal_tb::build::build::<JungleCheckers>(
            &dir,
            rules,
            &opts,
            &plan,
            &|_| {},
            &|_| {},
            &stop,
        )
        .expect("tables build");
    }
    TbOracle::open(&dir, rules).expect("tables open")
}

/// The tables' values up to 4 pieces, though only some 4-piece tables
/// are there (a probe of another is `None`, an error of the experiment).
struct Some4(TbOracle<JungleCheckers>);

impl Oracle<JungleCheckersPos> for Some4 {
    fn max_pieces(&self) -> u32 {
        4
    }
    fn probe(&self, pos: &JungleCheckersPos) -> Option<OracleValue> {
        self.0.probe(pos)
    }
}

/// The report's CSV file.
fn csv(report: &zoo_lab::Report) -> &str {
    report
        .files
        .iter()
        .find(|(name, _)| name.ends_with(".csv"))
        .map(|(_, text)| text.as_str())
        .expect("a CSV file")
}

#[test]
fn the_six_4_piece_starts_are_the_theses() {
    let oracle = Some4(tables(
        "zoo-lab-starts-jc4",
        &["RDvrd", "RTvrt", "REvre", "DTvdt", "DEvde", "TEvte"],
    ));
    let budget = Budget {
        nodes: 1,
        seconds: 1.0,
    };
    let rules = &&JUNGLE_CHECKERS_LEIDEN;
    let rows = observations::starts::<JungleCheckersPos>(rules, &oracle, 4, &budget, &mut |_| {})
        .expect("the starts");
    let report = observations::starts_report("jungle-checkers", 4, &rows);
    assert_eq!(
        csv(&report),
        include_str!("../data/starts-jungle-checkers-4.csv")
    );
    // An odd count is no equal-material start.
    assert!(
        observations::starts::<JungleCheckersPos>(rules, &oracle, 3, &budget, &mut |_| {}).is_err()
    );
}

#[test]
fn equal_strength_pairs_are_never_drawn() {
    // Every 2-piece table: the oracle opens complete sizes only.
    let all: Vec<String> = "RDTE"
        .chars()
        .flat_map(|w| "rdte".chars().map(move |b| format!("{w}v{b}")))
        .collect();
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let oracle = tables("zoo-lab-parity-jc2", &all);
    let rules = &&JUNGLE_CHECKERS_LEIDEN;
    let rows = observations::parity::<JungleCheckersPos>(rules, &oracle).expect("the pairs");
    assert!(rows.iter().all(|r| r.draws == 0));
    let report = observations::parity_report("jungle-checkers", &rows);
    assert_eq!(
        csv(&report),
        include_str!("../data/parity-jungle-checkers.csv")
    );
}
