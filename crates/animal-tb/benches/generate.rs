//! Solving one 4-piece Jungle Checkers configuration, its 2- and 3-piece
//! sub-tables built once beforehand into a temporary directory.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::atomic::AtomicBool;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckers;
use zoo_animal_tb::generate::{generate, Solve};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::file::Encoding;

fn bench(c: &mut Criterion) {
    let dir = common::tables("generate", 3, Encoding::Plain);
    let stop = AtomicBool::new(false);
    let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
    // Rat and dog against rat and dog: captures into both 3-piece tables
    // and both sides to move stored.
    let m = Material::parse::<JungleCheckers>("RDvrd").expect("a material");
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    g.throughput(Throughput::Elements(tb.scheme().layout(m).size));
    g.bench_function("jungle-checkers-RDvrd", |b| {
        b.iter(|| {
            generate::<JungleCheckers>(&tb, m, &Solve::default(), &|_| {}, &stop)
                .expect("the table solves")
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
