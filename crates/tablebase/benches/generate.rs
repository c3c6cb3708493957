//! Solving one 4-piece Jungle Checkers configuration, its 2- and 3-piece
//! sub-tables built once beforehand into a temporary directory.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::atomic::AtomicBool;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckers;
use zoo_tb::build::{build, BuildOptions};
use zoo_tb::generate::{generate, Solve};
use zoo_tb::index::Material;
use zoo_tb::plan::plan;
use zoo_tb::Tablebase;

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("zoo-tb-bench-generate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stop = AtomicBool::new(false);
    let opts = BuildOptions {
        pieces: 3,
        threads: 1,
        memory_bytes: None,
        encoding: None,
        copies: true,
    };
    build::<JungleCheckers>(
        &dir,
        &JUNGLE_CHECKERS_LEIDEN,
        &opts,
        &plan::<JungleCheckers>(&dir, &JUNGLE_CHECKERS_LEIDEN, &opts).expect("a plan"),
        &|_| {},
        &|_| {},
        &stop,
    )
    .expect("the sub-tables build");
    let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
    // Rat and dog against rat and dog: captures into both 3-piece tables
    // and both sides to move stored.
    let m = Material::parse::<JungleCheckers>("RDvrd").expect("a material");
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    g.throughput(Throughput::Elements(tb.layout(m).size));
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
