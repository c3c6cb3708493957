//! Table files read as probing reads them: the bytes become the file of
//! one material, then `zoo_tb::file::Table::open` checks it (the header
//! against the material's, the length, the offsets, the checksum) and
//! every entry of each side is read as a probe reads it (`Table::get`)
//! and as whole-table work does (`Table::read_codes`). Never a panic: a
//! damaged file is an error, a damaged block reads as the invalid code.
//!
//! `Table::open` rather than a whole `Tablebase`: the tablebase makes a
//! slot for each of 65,536 materials when it is opened, which was two
//! thirds of a run's time (240 inputs a second).
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
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_tb::file::{file_name, Table, WDL_INVALID};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Layouts;

/// A directory of this process's own, made once: in memory where the
/// machine has `/dev/shm`, since writing each input to a disk was most of
/// a run's time.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let base = if shm.is_dir() { shm } else { std::env::temp_dir() };
        let d = base.join(format!("zoo-fuzz-table-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

fn read<B: Board>(bytes: &[u8], m: Material, rules: &RuleSet, layouts: &Layouts<B>) {
    let path = dir().join(file_name(&m.name::<B>()));
    std::fs::write(&path, bytes).unwrap();
    let size = layouts.get(m).size;
    let Ok(t) = Table::open(&path, B::GAME, rules.name, m.key() as u16, m.stored_sides(), size) else {
        return;
    };
    let mut codes = vec![0u8; size as usize];
    for side in 0..m.stored_sides() {
        for i in 0..size {
            let (wdl, _) = t.get(side, i);
            assert!(wdl <= WDL_INVALID);
        }
        let _ = t.read_codes(side, 0, &mut codes);
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
        static LAYOUTS: OnceLock<Layouts<Jungle>> = OnceLock::new();
        let layouts = LAYOUTS.get_or_init(Layouts::default);
        read(
            &bytes,
            Material::new(1 << 7, 1 << 6),
            &JUNGLE_LEIDEN,
            layouts,
        );
    } else {
        static LAYOUTS: OnceLock<Layouts<JungleCheckers>> = OnceLock::new();
        let layouts = LAYOUTS.get_or_init(Layouts::default);
        read(
            &bytes,
            Material::new(1, 1),
            &JUNGLE_CHECKERS_LEIDEN,
            layouts,
        );
    }
});
