//! The generator gives the same tables whether a configuration is solved by
//! one thread (plain state updates) or by several at once (atomic ones).

use crate::common::{jc3, jungle3};
use std::sync::atomic::AtomicBool;
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_tb::generate::generate;
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

fn same_both_ways<B: Board>(dir: &std::path::Path, rules: &'static RuleSet, every: usize) {
    let tb = Tablebase::<B>::open(dir, rules);
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    for m in Material::canonical::<B>(3).into_iter().step_by(every) {
        let one = generate(&tb, m, false, &|_| {}, &stop).expect("one thread");
        let many = pool
            .install(|| generate(&tb, m, true, &|_| {}, &stop))
            .expect("two threads");
        assert_eq!(one.header, many.header, "{}", m.name::<B>());
        for side in 0..2 {
            assert!(
                one.values(side) == many.values(side),
                "{} side {side}",
                m.name::<B>()
            );
        }
    }
}

#[test]
fn parallel_generation_equals_sequential() {
    same_both_ways::<JungleCheckers>(jc3(), &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 1);
    same_both_ways::<Jungle>(jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN, 7);
}
