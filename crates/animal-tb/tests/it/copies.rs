//! Tables copied from a renamed configuration are the tables a solve
//! writes, byte for byte (values, distances, counts, checksum).

use crate::common::{build_with, options};
use std::path::Path;
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_COMMON, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::build::BuildOptions;
use zoo_tb::file::Encoding;

/// Builds up to `pieces` twice, with copies and solving everything, and
/// compares every file; returns how many tables were copies.
fn copies_match_solves<B: Board>(
    name: &str,
    rules: &'static RuleSet,
    pieces: u32,
    encoding: Option<Encoding>,
) -> usize {
    let opts = BuildOptions {
        encoding,
        ..options(pieces)
    };
    let (copied, report) = build_with::<B>(&format!("{name}-copied"), rules, &opts);
    let solve_all = BuildOptions {
        copies: false,
        ..opts
    };
    let (solved, all) = build_with::<B>(&format!("{name}-solved"), rules, &solve_all);
    assert!(all.built.iter().all(|b| b.copied_from.is_none()));
    assert_eq!(report.built.len(), all.built.len());
    let dir = |d: &Path| zoo_tb::file::table_dir(d, B::GAME, rules.name);
    for b in &all.built {
        let file = format!("{}.zootb", b.name);
        let a = std::fs::read(dir(&copied).join(&file)).expect("copied table");
        let s = std::fs::read(dir(&solved).join(&file)).expect("solved table");
        assert!(a == s, "{name}: {file} differs between copy and solve");
    }
    report
        .built
        .iter()
        .filter(|b| b.copied_from.is_some())
        .count()
}

/// 2 pieces: 10 configurations in 2 games; 3: 24 in 6. The build to 4
/// pieces, a minute of the default run's, is the slow step's.
#[test]
fn jungle_checkers_copies_are_the_solved_tables() {
    let copies = copies_match_solves::<JungleCheckers>("jc3", &JUNGLE_CHECKERS_LEIDEN, 3, None);
    assert_eq!(copies, 8 + 18);
}

/// 4 pieces: 37 configurations in 16 games besides.
#[test]
#[ignore = "slow: about a minute; run by `cargo xtask test --slow`"]
fn slow_jungle_checkers_copies_to_4_pieces_are_the_solved_tables() {
    let copies = copies_match_solves::<JungleCheckers>("jc4", &JUNGLE_CHECKERS_LEIDEN, 4, None);
    assert_eq!(copies, 8 + 18 + 21);
}

#[test]
fn zstd_copies_are_the_solved_tables() {
    let copies = copies_match_solves::<JungleCheckers>(
        "jc3-zstd",
        &JUNGLE_CHECKERS_LEIDEN,
        3,
        Some(Encoding::Zstd),
    );
    assert_eq!(copies, 8 + 18);
}

#[test]
fn jungle_copies_are_the_solved_tables() {
    let copies = copies_match_solves::<Jungle>("jungle3", &JUNGLE_LEIDEN, 3, None);
    assert!(copies > 0);
}

#[test]
fn jungle_common_copies_are_the_solved_tables() {
    // Other strengths (dog under wolf), no elephant taking the rat, no
    // capture across the water's edge, stalemate lost.
    let copies = copies_match_solves::<Jungle>("jungle3-common", &JUNGLE_COMMON, 3, None);
    assert!(copies > 0);
}

#[test]
fn jungle_checkers_plans_the_copies_per_size() {
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-no-tables");
    let zoo_animal_tb::plan::Plan {
        jobs: planned,
        present,
    } = zoo_animal_tb::plan::plan::<JungleCheckers>(&empty, &JUNGLE_CHECKERS_LEIDEN, &options(6))
        .unwrap();
    assert_eq!(present, 0);
    let count = |n: u32, copies: bool| {
        planned
            .iter()
            .filter(|p| p.pieces == n && p.source.is_some() == copies)
            .count()
    };
    // (solved, copied) for 2 to 6 pieces: docs/tablebase.md's table.
    let per_size: Vec<(usize, usize)> =
        (2..=6).map(|n| (count(n, false), count(n, true))).collect();
    assert_eq!(per_size, [(2, 8), (6, 18), (16, 21), (21, 7), (14, 2)]);
}
