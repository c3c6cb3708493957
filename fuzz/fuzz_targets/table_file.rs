//! Table files read as a probe reads them: the bytes become the file of
//! one material in a table directory, then `zoo_tb::Tablebase` opens it
//! (the header, length, offsets and checksum checked), walks every entry
//! and probes positions. Never a panic: a damaged file is an error.
//!
//! The first byte chooses what the rest is: bit 0 set, the rest is the
//! whole file; clear, the rest is the file without its CRC-32, which is
//! appended, so that the fuzzer gets past the checksum to the fields and
//! blocks behind it (a random change almost never keeps a CRC right).
//! Bit 1 chooses the table: Jungle's `Evl` (two sides stored) or Jungle
//! Checkers' `Rvr` (colour-symmetric, one side).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, Position, RuleSet};
use zoo_tb::file::{file_name, table_dir};
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

/// A directory of this process's own, made once.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("zoo-fuzz-table-{}", std::process::id()));
        for (game, rules) in [("jungle", "leiden"), ("jungle-checkers", "leiden")] {
            std::fs::create_dir_all(table_dir(&d, game, rules)).unwrap();
        }
        d
    })
}

fn read<B: Board>(bytes: &[u8], m: Material, rules: &'static RuleSet, fens: &[&str]) {
    let path = table_dir(dir(), B::GAME, rules.name).join(file_name::<B>(m));
    std::fs::write(&path, bytes).unwrap();
    let tb = Tablebase::<B>::open(dir(), rules);
    for side in 0..2 {
        let mut n = 0u64;
        if tb.walk(m, side, |_, _, _| n += 1).is_ok() {
            assert_eq!(n, tb.layout(m).size, "a walk visits every entry");
        }
    }
    for fen in fens {
        let p = Position::<B>::from_fen_str(fen, rules).unwrap();
        let _ = tb.try_probe(&p);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 0 {
        bytes.extend_from_slice(&crc32fast::hash(rest).to_le_bytes());
    }
    if mode & 2 == 0 {
        read::<Jungle>(
            &bytes,
            Material::new(1 << 7, 1 << 6),
            &JUNGLE_LEIDEN,
            &[
                "7/7/7/7/7/7/E6/7/6l w",
                "7/7/7/7/7/7/E6/7/6l b",
                "e6/7/7/7/7/7/7/7/6L w",
            ],
        );
    } else {
        read::<JungleCheckers>(
            &bytes,
            Material::new(1, 1),
            &JUNGLE_CHECKERS_LEIDEN,
            &[
                "7/7/7/3r3/7/3R3/7 w",
                "7/7/7/3r3/7/3R3/7 b",
                "r6/7/7/7/7/7/6R w",
            ],
        );
    }
});
