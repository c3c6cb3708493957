//! The tables against an independent exhaustive forward search.

use zoo_animal::{Jungle, JungleCheckers};
use zoo_tb::index::Material;
use zoo_tb::verify::verify;
use zoo_tb::Tablebase;

#[test]
fn jungle_checkers_up_to_three_pieces_all_positions() {
    let tb = Tablebase::<JungleCheckers>::open(
        crate::common::jc3(),
        &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN,
    );
    let r = verify(&tb, 3, &|_| true);
    assert_eq!(r.mismatch_count, 0, "{:#?}", r.mismatches);
    assert_eq!(r.materials, 16 + 48);
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
