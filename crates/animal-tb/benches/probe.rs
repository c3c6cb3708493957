//! Probing many positions of the 3-piece Jungle Checkers tables (built
//! once beforehand into a temporary directory): plain, in zstd blocks (the
//! builder's default), and the WDL-only files alone; each over positions
//! in random order (a search's probes) and over the same positions sorted
//! by table and index (the order the next size's generator probes in).

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::Side;
use zoo_tb::file::Encoding;

/// Positions drawn evenly over the entries of every 3-piece table, with
/// the material and index they were drawn at.
fn positions(tb: &Tablebase<JungleCheckers>, count: usize) -> Vec<(usize, u64, JungleCheckersPos)> {
    let mats = Material::all::<JungleCheckers>(3);
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let mi = (s % mats.len() as u64) as usize;
        let layout = tb.scheme().layout(mats[mi]);
        let mut sqs = [0u8; 16];
        let idx = (s >> 8) % layout.size;
        layout.unrank(idx, &mut sqs);
        let stm = if s >> 63 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let p = layout.position(&sqs[..layout.n], stm, &JUNGLE_CHECKERS_LEIDEN);
        out.push((mi, idx, p));
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("probe");
    // A zstd probe in random order decompresses a block nearly every time.
    g.sample_size(10);
    for (name, encoding) in [
        ("plain", Encoding::Plain),
        ("zstd", Encoding::Zstd),
        ("wdl", Encoding::Wdl),
    ] {
        let dir = common::tables(
            &format!("probe-{name}"),
            3,
            if encoding == Encoding::Plain {
                Encoding::Plain
            } else {
                Encoding::Zstd
            },
        );
        let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
        if encoding == Encoding::Wdl {
            // The WDL files alone.
            for n in 2..=3 {
                for m in Material::canonical::<JungleCheckers>(n) {
                    zoo_animal_tb::wdl::make(&tb, m).expect("a WDL file");
                    std::fs::remove_file(tb.path_of(m)).expect("the table");
                }
            }
        }
        let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
        let mut ps = positions(&tb, 100_000);
        // Opened and checked before the clock runs.
        for (_, _, p) in &ps {
            tb.probe_wdl(p).expect("every table is there");
        }
        g.throughput(Throughput::Elements(ps.len() as u64));
        for order in ["random", "sorted"] {
            if order == "sorted" {
                ps.sort_by_key(|&(m, i, _)| (m, i));
            }
            g.bench_function(format!("jungle-checkers-3-{name}-{order}"), |b| {
                if encoding == Encoding::Wdl {
                    b.iter(|| {
                        ps.iter()
                            .filter_map(|(_, _, p)| tb.probe_wdl(p).ok())
                            .count()
                    })
                } else {
                    b.iter(|| ps.iter().filter_map(|(_, _, p)| tb.probe(p)).count())
                }
            });
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
