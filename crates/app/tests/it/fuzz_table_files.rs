//! A short property-based fuzz of table files as a probe reads them, run
//! with the tests; the long coverage-guided run is the `table_file`
//! target in `fuzz/` (docs/fuzzing.md). A real table (Jungle's `Evl`,
//! plain and zstd, in tests/data/tables) is changed at random and put in
//! a table directory, then opened, walked and probed through
//! `zoo_animal_tb::Tablebase`: never a panic; a changed file whose checksum was
//! not made right again is refused, never read as values.

use proptest::prelude::*;
use std::path::PathBuf;
use zoo_animal::rules::JUNGLE_LEIDEN;
use zoo_animal::{Jungle, Position};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::file::{file_name, table_dir};

const TABLES: [&[u8]; 2] = [
    include_bytes!("../data/tables/Evl-plain.zootb"),
    include_bytes!("../data/tables/Evl-zstd.zootb"),
];

/// A table with bytes changed, cut or added.
#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Cut(usize),
    Add(usize, u8),
}

fn edited(table: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = table.to_vec();
    for e in edits {
        match *e {
            Edit::Set(at, v) => {
                let n = b.len();
                if n > 0 {
                    b[at % n] = v;
                }
            }
            Edit::Cut(at) => b.truncate(at % (b.len() + 1)),
            Edit::Add(at, v) => b.insert(at % (b.len() + 1), v),
        }
    }
    b
}

fn edit() -> impl Strategy<Value = Edit> {
    // Most edits in the header (256 bytes), where the fields are.
    let at = prop_oneof![0..300usize, any::<usize>()];
    prop_oneof![
        6 => (at.clone(), any::<u8>()).prop_map(|(a, v)| Edit::Set(a, v)),
        1 => at.clone().prop_map(Edit::Cut),
        1 => (at, any::<u8>()).prop_map(|(a, v)| Edit::Add(a, v)),
    ]
}

/// Every entry's value when the file reads, or the error.
fn read(bytes: &[u8], case: &str) -> Result<Vec<(u64, u16)>, String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-fuzz-tables-{case}"));
    let tdir = table_dir(&dir, "jungle", "leiden");
    std::fs::create_dir_all(&tdir).unwrap();
    let m = Material::new(1 << 7, 1 << 6);
    std::fs::write(tdir.join(file_name(&m.name::<Jungle>())), bytes).unwrap();
    let tb = Tablebase::<Jungle>::open(&dir, &JUNGLE_LEIDEN);
    let mut values = Vec::new();
    for side in 0..2 {
        tb.walk(m, side, |i, _, (o, d)| {
            values.push((i, d + 1000 * o as u16))
        })
        .map_err(|e| e.to_string())?;
    }
    for fen in ["7/7/7/7/7/7/E6/7/6l w", "e6/7/7/7/7/7/7/7/6L b"] {
        let p = Position::<Jungle>::from_fen_str(fen, &JUNGLE_LEIDEN).unwrap();
        tb.try_probe(&p).map_err(|e| e.to_string())?;
    }
    Ok(values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn changed_tables_are_refused_or_read_without_panic(
        which in 0..2usize,
        edits in prop::collection::vec(edit(), 1..4),
        fix_checksum in any::<bool>(),
    ) {
        let table = TABLES[which];
        let mut b = edited(table, &edits);
        if fix_checksum && b.len() >= 4 {
            let n = b.len() - 4;
            let crc = crc32fast::hash(&b[..n]);
            b[n..].copy_from_slice(&crc.to_le_bytes());
        }
        let got = read(&b, &format!("{}-{which}", std::process::id()));
        if b == table {
            prop_assert!(got.is_ok(), "{:?}", got);
        } else if !fix_checksum {
            prop_assert!(got.is_err(), "a changed file read as values");
        }
    }
}

#[test]
fn the_intact_tables_read_alike() {
    let plain = read(TABLES[0], "intact-plain").unwrap();
    let zstd = read(TABLES[1], "intact-zstd").unwrap();
    assert!(!plain.is_empty());
    assert_eq!(plain, zstd);
}
