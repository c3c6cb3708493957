//! perft speed: nodes per second single-threaded and with 2 threads.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_animal::{rules, JungleCheckersPos, JunglePos};
use zoo_core::{perft_parallel, Game, History, Repetition};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let jungle = JunglePos::start(&&rules::JUNGLE_LEIDEN);
    let jc = JungleCheckersPos::start(&&rules::JUNGLE_CHECKERS_LEIDEN);
    for threads in [1, 2] {
        let h = History::starting_at(Repetition::None, jungle.key(), jungle.piece_count());
        let n = perft_parallel(&jungle, 5, &h, threads);
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("jungle-5-threads-{threads}"), |b| {
            b.iter(|| perft_parallel(&jungle, 5, &h, threads))
        });
        let h = History::starting_at(Repetition::None, jc.key(), jc.piece_count());
        let n = perft_parallel(&jc, 6, &h, threads);
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("jungle-checkers-6-threads-{threads}"), |b| {
            b.iter(|| perft_parallel(&jc, 6, &h, threads))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
