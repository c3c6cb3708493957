//! The figures of docs/checkers.md, "Endgame tables": every table of up
//! to `ZOO_CHECKERS_TB_PIECES` pieces (default 4) of both games built with
//! the generic generator, timed, counted per size, and what they take on
//! disk per size (bits per position, plain, zstd blocks, WDL only). Ignored in CI (it is a
//! measurement); run it with
//!
//! ```text
//! cargo test --release -p zoo-checkers --test it -- --ignored --nocapture figures
//! ```

use super::build::{built, pieces_or, up_to, Built};
use std::time::Duration;
use zoo_checkers::tables::scheme::MAX_PIECES;
use zoo_checkers::tables::CheckersScheme;
use zoo_checkers::{Classical, English, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::TableScheme;
use zoo_tb::file::{write_table_with, Encoding};

/// Bytes on disk of the tables of `pieces` pieces: as built (plain), and
/// rewritten by `zoo_tb::file`'s writer in zstd blocks and WDL only.
fn bytes<V: Variant>(b: &Built<V>, pieces: u32) -> [u64; 3] {
    let mut out = [0u64; 3];
    let tmp =
        std::env::temp_dir().join(format!("zoo-checkers-figures-{}.zootb", std::process::id()));
    for r in b.rows.iter().filter(|r| r.material.pieces() == pieces) {
        let table = b.tb.table(r.material).expect("table opens");
        out[0] += table.file_len();
        let fill = |side: usize, start: u64, buf: &mut [u8]| {
            table.read_codes(side, start, buf).expect("codes read")
        };
        for (i, encoding) in [(1, Encoding::Zstd), (2, Encoding::Wdl)] {
            out[i] += write_table_with(&tmp, &table.header, encoding, &fill).expect("written");
        }
    }
    let _ = std::fs::remove_file(&tmp);
    out
}

fn report<V: Variant>(rules: &'static RuleSet, max: u32) {
    let b = built::<V>(rules, &up_to::<V>(max), "figures");
    println!("{} (rules {}):", V::GAME, rules.name);
    println!("pieces tables    positions         wins        draws       losses longest-win(plies, table)    seconds   positions/s");
    let mut total = (0u64, Duration::ZERO);
    for pieces in 2..=max {
        let s = b.size(pieces);
        let longest = s
            .longest
            .map(|r| format!("{} {}", r.longest_win, r.name))
            .unwrap_or_default();
        let (positions, time) = (s.entries, s.time);
        total = (total.0 + positions, total.1 + time);
        println!(
            "{pieces:>6} {:>6} {positions:>12} {:>12} {:>12} {:>12} {longest:>26} {:>10.2} {:>13.0}",
            s.tables,
            s.wins,
            s.draws,
            s.losses,
            time.as_secs_f64(),
            positions as f64 / time.as_secs_f64().max(1e-9),
        );
    }
    println!(
        "all    {:>6} {:>12} {:>77.2} {:>13.0}",
        b.rows.len(),
        total.0,
        total.1.as_secs_f64(),
        total.0 as f64 / total.1.as_secs_f64().max(1e-9)
    );
    println!(
        "pieces    positions   plain bytes bits/pos    zstd bytes bits/pos     wdl bytes bits/pos"
    );
    for pieces in 2..=max {
        let positions = b.size(pieces).entries;
        let [plain, zstd, wdl] = bytes(&b, pieces);
        let bits = |n: u64| n as f64 * 8.0 / positions as f64;
        println!(
            "{pieces:>6} {positions:>12} {plain:>13} {:>8.3} {zstd:>13} {:>8.3} {wdl:>13} {:>8.3}",
            bits(plain),
            bits(zstd),
            bits(wdl)
        );
    }
}

/// The sizes of every table up to `MAX_PIECES` by the index alone, built
/// or not: positions are entries of both sides to move.
fn sizes<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    println!("{} sizes by the index:", V::GAME);
    for pieces in 2..=MAX_PIECES {
        let tables = scheme.stored(pieces);
        let largest = tables
            .iter()
            .max_by_key(|&&m| scheme.size(m))
            .expect("tables");
        println!(
            "{pieces} pieces: {} tables, {} positions, largest {} ({} entries a side)",
            tables.len(),
            2 * tables.iter().map(|&m| scheme.size(m)).sum::<u64>(),
            scheme.name(*largest),
            scheme.size(*largest)
        );
    }
}

#[test]
#[ignore = "a measurement: the figures of docs/checkers.md"]
fn figures() {
    sizes::<English>(&ENGLISH);
    report::<English>(&ENGLISH, pieces_or(4));
    report::<Classical>(&CLASSICAL, pieces_or(4));
}
