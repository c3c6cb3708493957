//! Evaluation speed: the hand-written `strong` against the learned `nnue`
//! (with its per-thread accumulator cache, and summed from scratch) over
//! the positions of random Jungle games, each position after the one
//! before as a search meets them.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_animal::nnue::NetEval;
use zoo_animal::{Jungle, JunglePos, Strong};
use zoo_core::{Evaluator, Game, MoveList};

fn positions() -> Vec<JunglePos> {
    let rules = JunglePos::default_rules();
    let mut out = Vec::new();
    let mut rng = 99u64;
    let mut moves = MoveList::new();
    while out.len() < 10_000 {
        let mut p = JunglePos::start(&rules);
        for _ in 0..150 {
            moves.clear();
            p.legal_moves(&mut moves);
            if p.outcome().is_some() || moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            p.make(moves[(rng % moves.len() as u64) as usize]);
            out.push(p.clone());
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let ps = positions();
    let net = NetEval::embedded::<Jungle>().expect("the embedded net");
    let strong = Strong::default();
    let mut g = c.benchmark_group("eval");
    g.throughput(Throughput::Elements(ps.len() as u64));
    g.bench_function("strong", |b| {
        b.iter(|| ps.iter().map(|p| strong.evaluate(p) as i64).sum::<i64>())
    });
    g.bench_function("nnue-cached", |b| {
        b.iter(|| ps.iter().map(|p| net.evaluate(p) as i64).sum::<i64>())
    });
    g.bench_function("nnue-from-scratch", |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| net.evaluate_from_scratch(p) as i64)
                .sum::<i64>()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
