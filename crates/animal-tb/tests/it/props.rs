//! Property tests: index round trips, symmetries, one-ply consistency.

use proptest::prelude::*;
use std::sync::OnceLock;
use zoo_animal::{Board, Jungle, JungleCheckers, Position, RuleSet};
use zoo_animal_tb::index::{Layout, Material};
use zoo_animal_tb::Tablebase;
use zoo_core::Side;

/// A random legal position of `n` pieces from a material index, a rank and a side.
fn position<B: Board>(
    rules: &'static RuleSet,
    n: u32,
    mi: usize,
    r: u64,
    black: bool,
) -> Position<B> {
    let mats = Material::all::<B>(n);
    let l = Layout::new::<B>(mats[mi % mats.len()]);
    let mut sqs = [0u8; 16];
    l.unrank(r % l.size, &mut sqs);
    l.position(
        &sqs[..l.n],
        if black { Side::Black } else { Side::White },
        rules,
    )
}

fn round_trip<B: Board>(n: u32, mi: usize, r: u64) -> Result<(), TestCaseError> {
    let mats = Material::all::<B>(n);
    let l = Layout::new::<B>(mats[mi % mats.len()]);
    let idx = r % l.size;
    let mut sqs = [0u8; 16];
    l.unrank(idx, &mut sqs);
    let p: Position<B> = l.position(&sqs[..l.n], Side::White, B::rule_sets()[0]);
    // A legal placement: no den, only rats in water, distinct squares.
    for &s in &sqs[..l.n] {
        prop_assert!(s != B::DEN[0] && s != B::DEN[1]);
        let (_, kind) = p.piece_at(s).unwrap();
        prop_assert!(kind == 0 || B::WATER & (1u64 << s) == 0);
    }
    prop_assert_eq!(p.piece_count() as usize, l.n);
    prop_assert_eq!(l.rank(&sqs[..l.n]), idx);
    // The mirror image has the same index.
    let mut m = [0u8; 16];
    for i in 0..l.n {
        m[i] = zoo_animal_tb::index::mirror_sq(sqs[i]);
    }
    if zoo_animal::board::file_of(sqs[0]) != 3 {
        prop_assert_eq!(l.rank(&m[..l.n]), idx);
    }
    Ok(())
}

// Opened once per run, not once per case: every opening reads its
// tables again on first probe, which was most of these tests' time.
fn jungle() -> &'static Tablebase<Jungle> {
    static T: OnceLock<Tablebase<Jungle>> = OnceLock::new();
    T.get_or_init(|| Tablebase::open(crate::common::jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN))
}
fn jc() -> &'static Tablebase<JungleCheckers> {
    static T: OnceLock<Tablebase<JungleCheckers>> = OnceLock::new();
    T.get_or_init(|| {
        Tablebase::open(
            crate::common::jc3(),
            &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn index_round_trips_jungle(n in 2u32..=6, mi in any::<usize>(), r in any::<u64>()) {
        round_trip::<Jungle>(n, mi, r)?;
    }

    #[test]
    fn index_round_trips_jungle_checkers(n in 2u32..=8, mi in any::<usize>(), r in any::<u64>()) {
        round_trip::<JungleCheckers>(n, mi, r)?;
    }

    #[test]
    fn symmetric_positions_probe_alike(n in 2u32..=3, mi in any::<usize>(), r in any::<u64>(), black in any::<bool>()) {
        let tb = jungle();
        let p = position::<Jungle>(&zoo_animal::rules::JUNGLE_LEIDEN, n, mi, r, black);
        let v = tb.try_probe(&p).unwrap();
        prop_assert_eq!(tb.try_probe(&p.mirror()).unwrap(), v);
        prop_assert_eq!(tb.try_probe(&p.colour_swap()).unwrap(), v);
        prop_assert_eq!(tb.try_probe(&p.colour_swap().mirror()).unwrap(), v);
        let tb = jc();
        let p = position::<JungleCheckers>(&zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, n, mi, r, black);
        let v = tb.try_probe(&p).unwrap();
        prop_assert_eq!(tb.try_probe(&p.mirror()).unwrap(), v);
        prop_assert_eq!(tb.try_probe(&p.colour_swap()).unwrap(), v);
    }

    #[test]
    fn values_agree_with_children(n in 2u32..=3, mi in any::<usize>(), r in any::<u64>(), black in any::<bool>()) {
        let tb = jungle();
        let p = position::<Jungle>(&zoo_animal::rules::JUNGLE_LEIDEN, n, mi, r, black);
        prop_assert_eq!(tb.try_probe(&p).unwrap(), tb.value_from_children(&p).unwrap(), "{}", p.fen());
        let tb = jc();
        let p = position::<JungleCheckers>(&zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, n, mi, r, black);
        prop_assert_eq!(tb.try_probe(&p).unwrap(), tb.value_from_children(&p).unwrap(), "{}", p.fen());
    }
}
