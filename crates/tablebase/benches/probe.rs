//! Probing many positions of the 3-piece Jungle Checkers tables (built
//! once beforehand into a temporary directory), plain and compressed.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_core::Side;
use zoo_tb::file::Encoding;
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

/// Positions drawn evenly over the entries of every 3-piece table.
fn positions(tb: &Tablebase<JungleCheckers>, count: usize) -> Vec<JungleCheckersPos> {
    let mats = Material::all::<JungleCheckers>(3);
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let m = mats[(s % mats.len() as u64) as usize];
        let layout = tb.layout(m);
        let mut sqs = [0u8; 16];
        layout.unrank((s >> 8) % layout.size, &mut sqs);
        let stm = if s >> 63 == 0 {
            Side::White
        } else {
            Side::Black
        };
        out.push(layout.position(&sqs[..layout.n], stm, &JUNGLE_CHECKERS_LEIDEN));
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("probe");
    for (name, encoding) in [("plain", Encoding::Plain), ("zstd", Encoding::Zstd)] {
        let dir = common::tables(&format!("probe-{name}"), 3, encoding);
        let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
        let ps = positions(&tb, 100_000);
        // Opened and checked before the clock runs.
        for p in &ps {
            tb.try_probe(p).expect("every table is there");
        }
        g.throughput(Throughput::Elements(ps.len() as u64));
        g.bench_function(format!("jungle-checkers-3-{name}"), |b| {
            b.iter(|| ps.iter().filter_map(|p| tb.probe(p)).count())
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
