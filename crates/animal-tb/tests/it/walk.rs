//! Walking a table meets every entry with the value a probe gives, and
//! the animal games' fast walk meets the same positions as zoo-tb's
//! generic one, which decodes each entry.

use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;

fn walk_agrees<B: Board>(dir: &std::path::Path, rules: &'static RuleSet, pieces: u32) {
    let tb = Tablebase::<B>::open(dir, rules);
    for m in Material::canonical::<B>(pieces) {
        for side in 0..m.stored_sides() {
            let mut next = 0u64;
            let mut fast = Vec::new();
            zoo_animal_tb::walk(&tb, m, side, |x, pos, value| {
                assert_eq!(x, next, "{} in index order", m.name::<B>());
                next += 1;
                assert_eq!(pos.stm().index(), side);
                assert_eq!(tb.try_probe(pos).ok(), Some(value), "{}", pos.fen());
                fast.push((pos.fen(), value));
            })
            .expect("the table is there");
            assert_eq!(
                next,
                tb.scheme().layout(m).size,
                "{} every entry",
                m.name::<B>()
            );
            let mut generic = Vec::new();
            tb.walk(m, side, |_, pos, value| generic.push((pos.fen(), value)))
                .expect("the table is there");
            assert!(fast == generic, "{}: the two walks differ", m.name::<B>());
        }
    }
}

#[test]
fn walking_agrees_with_probing() {
    walk_agrees::<JungleCheckers>(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN, 3);
    // Jungle's 2-piece tables hold the water and the leaps the walk must
    // skip and decode; its 3-piece ones, the bulk of this test's time,
    // are the slow step's.
    walk_agrees::<Jungle>(crate::common::jungle3(), &JUNGLE_LEIDEN, 2);
}

#[test]
#[ignore = "slow: about half a minute; run by `cargo xtask test --slow`"]
fn slow_walking_agrees_with_probing_on_jungle_3_pieces() {
    walk_agrees::<Jungle>(crate::common::jungle3(), &JUNGLE_LEIDEN, 3);
}
