//! perft speed from the start position, single-threaded and with 2 threads.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_checkers::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
use zoo_core::{perft_parallel, Game, History, Repetition};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let classical = ClassicalPos::start(&&CLASSICAL);
    let english = EnglishPos::start(&&ENGLISH);
    for threads in [1, 2] {
        let h = History::starting_at(Repetition::None, classical.key(), classical.piece_count());
        let n = perft_parallel(&classical, 9, &h, threads);
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("classical-9-threads-{threads}"), |b| {
            b.iter(|| perft_parallel(&classical, 9, &h, threads))
        });
        let h = History::starting_at(Repetition::None, english.key(), english.piece_count());
        let n = perft_parallel(&english, 9, &h, threads);
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("english-9-threads-{threads}"), |b| {
            b.iter(|| perft_parallel(&english, 9, &h, threads))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
