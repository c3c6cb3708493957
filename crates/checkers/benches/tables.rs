//! Building one 4-piece checkers table with the generic generator
//! (`zoo_tb::retro::solve`), in each game: a king and a man a side
//! (`KMvKM`: captures, promotions and the men's steps), the tables it
//! leads to solved once beforehand in memory. Throughput is positions
//! (entries of both sides to move, each a position) per second.
//!
//! Before the clock runs it also writes the table with `zoo_tb::file`'s
//! writers — plain (2 bits of win/draw/loss and a distance byte per
//! entry), in zstd blocks (the builder's default) and WDL only — and
//! prints bytes × 8 over its positions: the bits per position on disk.
//!
//! ```text
//! cargo bench -p zoo-checkers --bench tables
//! ```

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::collections::HashMap;
use zoo_checkers::tables::{CheckersScheme, Part};
use zoo_checkers::{Position, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Outcome, TableIndex, TableScheme};
use zoo_tb::file::{write_table_with, Encoding, Header};
use zoo_tb::retro::{solve, Solved};
use zoo_tb::TbError;

/// A value code of the generator: 0 a draw, else the distance + 1 (even
/// codes win).
fn decode(code: u8) -> (Outcome, u16) {
    match code as u16 {
        0 => (Outcome::Draw, 0),
        c if c % 2 == 0 => (Outcome::Win, c - 1),
        c => (Outcome::Loss, c - 1),
    }
}

/// The tables solved so far, by material.
type Solved2 = HashMap<Part, [Vec<u8>; 2]>;

/// Solves material `m` of `scheme` against the tables in `solved`.
fn solve_one<V: Variant>(
    scheme: &CheckersScheme<V>,
    solved: &Solved2,
    m: Part,
) -> Result<Solved, TbError> {
    let outside = |c: &Position<V>| {
        let at = scheme.locate(c);
        let values = solved.get(&at.material).ok_or_else(|| TbError::Missing {
            material: scheme.name(at.material),
            dir: std::path::PathBuf::new(),
        })?;
        Ok(decode(values[at.side][at.entry as usize]))
    };
    solve(&scheme.part_index(m), &scheme.name(m), &outside)
}

/// Writes `s` (material `m`) in `encoding` under the system's temporary
/// directory and returns the file's length in bytes.
fn bytes_on_disk<V: Variant>(
    scheme: &CheckersScheme<V>,
    m: Part,
    s: &Solved,
    encoding: Encoding,
) -> u64 {
    let size = scheme.part_index(m).size();
    let header = Header {
        counts: s.counts,
        ..Header::new(
            scheme.game(),
            scheme.rules_name(),
            CheckersScheme::<V>::key(m),
            2,
            size,
        )
    };
    let path = std::env::temp_dir().join(format!(
        "zoo-checkers-bench-{}-{}-{}.zootb",
        std::process::id(),
        scheme.rules_name(),
        encoding.name()
    ));
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        let a = start as usize;
        out.copy_from_slice(&s.values[side][a..a + out.len()]);
    };
    let len = write_table_with(&path, &header, encoding, &fill).expect("the table is written");
    let _ = std::fs::remove_file(&path);
    len
}

fn bench_game<V: Variant>(c: &mut Criterion, rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    let m = scheme.parse("KMvKM").expect("a material");
    let mut solved = Solved2::new();
    for n in CheckersScheme::<V>::needed(m.material) {
        let n = Part::whole(n);
        if n != m {
            let s = solve_one(&scheme, &solved, n).expect("a table it needs");
            solved.insert(n, s.values);
        }
    }
    let positions = 2 * scheme.part_index(m).size();
    let s = solve_one(&scheme, &solved, m).expect("the table");
    for encoding in [Encoding::Plain, Encoding::Zstd, Encoding::Wdl] {
        let bytes = bytes_on_disk(&scheme, m, &s, encoding);
        println!(
            "{} {}: {positions} positions, {:>5}: {bytes} bytes, {:.3} bits per position",
            V::GAME,
            scheme.name(m),
            encoding.name(),
            bytes as f64 * 8.0 / positions as f64
        );
    }
    let mut g = c.benchmark_group("retro-solve");
    g.sample_size(10);
    g.throughput(Throughput::Elements(positions));
    g.bench_function(format!("{}-{}", V::GAME, scheme.name(m)), |b| {
        b.iter(|| solve_one(&scheme, &solved, m).expect("the table"))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_game::<zoo_checkers::English>(c, &ENGLISH);
    bench_game::<zoo_checkers::Classical>(c, &CLASSICAL);
}

criterion_group!(benches, bench);
criterion_main!(benches);
