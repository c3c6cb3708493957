//! Walking a table meets every entry with the value a probe gives.

use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

fn walk_agrees<B: Board>(dir: &std::path::Path, rules: &'static RuleSet, pieces: u32) {
    let tb = Tablebase::<B>::open(dir, rules);
    for m in Material::canonical::<B>(pieces) {
        for side in 0..m.stored_sides() {
            let mut next = 0u64;
            tb.walk(m, side, |x, pos, value| {
                assert_eq!(x, next, "{} in index order", m.name::<B>());
                next += 1;
                assert_eq!(pos.stm().index(), side);
                assert_eq!(tb.try_probe(pos).ok(), Some(value), "{}", pos.fen());
            })
            .expect("the table is there");
            assert_eq!(next, tb.layout(m).size, "{} every entry", m.name::<B>());
        }
    }
}

#[test]
fn walking_agrees_with_probing() {
    walk_agrees::<JungleCheckers>(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN, 3);
    walk_agrees::<Jungle>(crate::common::jungle3(), &JUNGLE_LEIDEN, 3);
}
