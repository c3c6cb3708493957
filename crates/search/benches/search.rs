//! Search speed: fixed-depth searches from the start positions. The headline
//! figures (time to depth 14, depth in one second) come from `zoo bench`.

use criterion::{criterion_group, criterion_main, Criterion};
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::History;
use zoo_search::{Config, Engine, EngineGame, Limits};

fn search<G: EngineGame>(depth: u32, threads: usize) -> u64 {
    let p = G::start(&G::default_rules());
    let h = History::starting_at(p.default_repetition(), p.key(), p.piece_count());
    let e: Engine<G, G::Eval, G::Tactics> = Engine::new(
        Config {
            threads,
            hash_mb: 32,
            ..Config::default()
        },
        G::default_eval(),
        Default::default(),
    );
    e.search(&p, &h, &Limits::depth(depth), &mut |_| {})
        .stats
        .nodes
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("jungle start depth 10", |b| {
        b.iter(|| search::<JunglePos>(10, 1))
    });
    g.bench_function("jungle start depth 10, 2 threads", |b| {
        b.iter(|| search::<JunglePos>(10, 2))
    });
    g.bench_function("jungle-checkers start depth 12", |b| {
        b.iter(|| search::<JungleCheckersPos>(12, 1))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
