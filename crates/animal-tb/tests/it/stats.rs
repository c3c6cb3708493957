//! What the two-piece tables show beyond their counts (the counts are in
//! tests/data/known.txt).

use zoo_animal::JungleCheckers;
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;

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
