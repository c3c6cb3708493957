//! Published figures: the two-piece tables.

use zoo_animal::{Jungle, JungleCheckers};
use zoo_tb::build::stats;
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

#[test]
fn jungle_two_pieces_match_the_published_table() {
    let tb = Tablebase::<Jungle>::open(crate::common::jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN);
    let s = stats(&tb, 2).unwrap();
    assert_eq!(
        (s.positions, s.wins, s.losses, s.draws, s.longest),
        (160_068, 82_852, 64_501, 12_715, 34),
        "{s:?}"
    );
}

#[test]
fn jungle_checkers_two_pieces_count() {
    let tb = Tablebase::<JungleCheckers>::open(
        crate::common::jc3(),
        &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
    );
    let s = stats(&tb, 2).unwrap();
    // Every placement off the dens (no stalemate exists with two pieces).
    assert_eq!(s.positions, 34_592, "{s:?}");
}

#[test]
fn jungle_checkers_equal_strength_pairs_never_draw() {
    let tb = Tablebase::<JungleCheckers>::open(
        crate::common::jc3(),
        &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
    );
    for k in 0..4u8 {
        let t = tb.table(Material::new(1 << k, 1 << k)).unwrap();
        let c = t.header.counts[0];
        assert_eq!(
            c.draws,
            0,
            "{}",
            Material::new(1 << k, 1 << k).name::<JungleCheckers>()
        );
        assert!(c.wins > 0 && c.losses > 0);
    }
}
