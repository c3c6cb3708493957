//! The tables against an independent exhaustive forward search.

use std::sync::Mutex;
use zoo_animal::{Jungle, JungleCheckers};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::verify::{verify, verify_with_progress, PROGRESS_UNITS};
use zoo_animal_tb::Tablebase;

#[test]
fn jungle_checkers_up_to_three_pieces_all_positions() {
    let tb = Tablebase::<JungleCheckers>::open(
        crate::common::jc3(),
        &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
    );
    let calls = Mutex::new(Vec::new());
    let r = verify_with_progress(&tb, 3, &|_| true, &|done, total| {
        calls.lock().unwrap().push((done, total))
    });
    assert_eq!(r.mismatch_count, 0, "{:#?}", r.mismatches);
    assert_eq!(r.materials, 16 + 48);
    // One call per material, the share done (in millionths, materials
    // weighted by their size) growing to the whole.
    let mut calls = calls.into_inner().unwrap();
    assert_eq!(calls.len(), r.materials);
    assert!(calls.iter().all(|&(_, total)| total == PROGRESS_UNITS));
    calls.sort();
    assert!(calls.windows(2).all(|w| w[0].0 < w[1].0), "{calls:?}");
    assert!(calls.last().unwrap().0 >= PROGRESS_UNITS - 1, "{calls:?}");
}

#[test]
fn jungle_up_to_three_pieces_all_positions() {
    let tb = Tablebase::<Jungle>::open(crate::common::jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN);
    let r = verify(&tb, 3, &|_| true);
    assert_eq!(r.mismatch_count, 0, "{:#?}", r.mismatches);
    assert_eq!(
        r.materials,
        Material::all::<Jungle>(2).len() + Material::all::<Jungle>(3).len()
    );
}

#[test]
fn jungle_common_rules_two_pieces() {
    // Under `common` a side without a move loses, the elephant does not take
    // the rat and rats do not capture across the water's edge.
    let rules = &zoo_animal::rules::JUNGLE_COMMON;
    let dir = crate::common::build_into::<Jungle>("jungle-common", rules, 2);
    let tb = Tablebase::<Jungle>::open(&dir, rules);
    let r = verify(&tb, 2, &|_| true);
    assert_eq!(r.mismatch_count, 0, "{:#?}", r.mismatches);
    let t = tb.table(Material::new(1 << 7, 1)).unwrap();
    assert_eq!(t.header.rules, "common");
    let leiden = zoo_animal_tb::build::stats(
        &Tablebase::<Jungle>::open(crate::common::jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN),
        2,
    )
    .unwrap();
    let common = zoo_animal_tb::build::stats(&tb, 2).unwrap();
    assert_eq!(common.positions, leiden.positions);
    assert_ne!(common, leiden);
}

/// zoo-tb's verifier for any game (forward iteration over the entries of
/// a `TableScheme`, with the other tables read) agrees with every table
/// of up to three pieces of Jungle Checkers and up to two of Jungle: so
/// `AnimalScheme` places positions where the generator put them. Jungle's
/// 3-piece tables, the bulk of the time, are the slow step's.
#[test]
fn the_generic_verifier_passes_every_three_piece_table() {
    generic_verifier::<JungleCheckers>(
        crate::common::jc3(),
        &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
        2..=3,
    );
    generic_verifier::<Jungle>(
        crate::common::jungle3(),
        &zoo_animal::rules::JUNGLE_LEIDEN,
        2..=2,
    );
}

#[test]
#[ignore = "slow: about half a minute; run by `cargo xtask test --slow`"]
fn slow_the_generic_verifier_passes_every_three_piece_jungle_table() {
    generic_verifier::<Jungle>(
        crate::common::jungle3(),
        &zoo_animal::rules::JUNGLE_LEIDEN,
        3..=3,
    );
}

fn generic_verifier<B: zoo_animal::Board>(
    dir: &std::path::Path,
    rules: &'static zoo_animal::RuleSet,
    sizes: std::ops::RangeInclusive<u32>,
) {
    let tb = Tablebase::<B>::open(dir, rules);
    for n in sizes {
        for m in Material::canonical::<B>(n) {
            let r = zoo_tb::verify::verify_table(&tb, m).expect("the tables are there");
            assert_eq!(r.wrong, 0, "{}: {:?}", m.name::<B>(), r.examples);
            assert_eq!(
                r.entries,
                tb.scheme().layout(m).size * m.stored_sides() as u64
            );
        }
    }
}
