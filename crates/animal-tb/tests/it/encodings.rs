//! The encodings a table is written in: every one reads back what was
//! written, the builder's choice (the smaller of zstd and plain) is a
//! function of the values, and files of the earlier default (plain,
//! version 1) still read after the default changed.

use proptest::prelude::*;
use std::path::PathBuf;
use zoo_animal::rules::JUNGLE_LEIDEN;
use zoo_animal::Jungle;
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::file::{
    file_name, table_dir, write_table_smallest, write_table_with, Encoding, Header, Table,
    BLOCK_ENTRIES,
};

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-enc-{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Value codes from a seed: runs of one code (`run` long at most; 1: no
/// runs at all), as real tables have, or not.
fn codes(size: usize, run: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut v = Vec::with_capacity(size);
    while v.len() < size {
        let x = next();
        let c = (x % 256) as u8;
        let n = 1 + (x >> 32) as usize % run;
        v.extend(std::iter::repeat_n(c, n.min(size - v.len())));
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every encoding and the builder's choice read back every code; the
    /// choice is the smaller file, and the same values give the same bytes.
    #[test]
    fn every_encoding_round_trips(
        size in 1u64..(3 * BLOCK_ENTRIES as u64),
        run in 1usize..60,
        symmetric in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let m = if symmetric { Material::new(5, 5) } else { Material::new(3, 4) };
        let h = Header::new("jungle-checkers", "leiden", m.key() as u16, m.stored_sides(), size);
        let vals: Vec<Vec<u8>> =
            (0..h.sides).map(|s| codes(size as usize, run, seed + s as u64)).collect();
        let fill = |s: usize, start: u64, out: &mut [u8]| {
            out.copy_from_slice(&vals[s][start as usize..start as usize + out.len()])
        };
        let d = scratch(&format!("prop-{}", std::process::id()));
        let mut lens = Vec::new();
        for (name, enc) in [("plain", Some(Encoding::Plain)), ("zstd", Some(Encoding::Zstd)), ("smallest", None)] {
            let p = d.join(format!("{name}.zootb"));
            let (len, chosen) = match enc {
                Some(e) => (write_table_with(&p, &h, e, &fill).unwrap(), e),
                None => write_table_smallest(&p, &h, &fill).unwrap(),
            };
            prop_assert_eq!(len, std::fs::metadata(&p).unwrap().len());
            let t = Table::open(&p, &h.game, &h.rules, m.key() as u16, m.stored_sides(), size).unwrap();
            prop_assert_eq!(t.encoding(), chosen);
            for (s, v) in vals.iter().enumerate() {
                let mut out = vec![0u8; size as usize];
                t.read_codes(s, 0, &mut out).unwrap();
                prop_assert!(out == *v);
                for i in (0..size).step_by(97) {
                    prop_assert_eq!(t.get(s, i), zoo_tb::file::split_code(v[i as usize]));
                }
            }
            lens.push((len, chosen));
        }
        // The WDL-only file reads back the win/draw/loss of every entry.
        let p = d.join("wdl.zoowdl");
        write_table_with(&p, &h, Encoding::Wdl, &fill).unwrap();
        let t = Table::open(&p, &h.game, &h.rules, m.key() as u16, m.stored_sides(), size).unwrap();
        prop_assert_eq!(t.encoding(), Encoding::Wdl);
        prop_assert!(t.read_codes(0, 0, &mut [0u8; 1]).is_err(), "no distances to read");
        for (s, v) in vals.iter().enumerate() {
            let mut out = vec![0u8; size as usize];
            t.read_wdl(s, 0, &mut out).unwrap();
            prop_assert!(out.iter().zip(v).all(|(&w, &c)| w == zoo_tb::file::split_code(c).0));
            for i in (0..size).step_by(97) {
                prop_assert_eq!(t.get(s, i), (zoo_tb::file::split_code(v[i as usize]).0, 0));
            }
        }
        let (plain, zstd, smallest) = (lens[0].0, lens[1].0, lens[2]);
        let expected = if zstd < plain { (zstd, Encoding::Zstd) } else { (plain, Encoding::Plain) };
        prop_assert_eq!(smallest, expected);
        let again = d.join("again.zootb");
        write_table_smallest(&again, &h, &fill).unwrap();
        prop_assert!(std::fs::read(&again).unwrap() == std::fs::read(d.join("smallest.zootb")).unwrap());
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// `Evl` as the builder wrote it before zstd became the default at every
/// size (version 1, plain; `tests/data/Evl-v1.zootb`) reads, entry for
/// entry, as the table built now, which is in zstd blocks.
#[test]
fn a_table_of_the_old_default_still_reads() {
    let m = Material::new(1 << 7, 1 << 6);
    let old_dir = scratch("v1");
    let tdir = table_dir(&old_dir, "jungle", "leiden");
    std::fs::create_dir_all(&tdir).unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/Evl-v1.zootb");
    std::fs::copy(data, tdir.join(file_name(&m.name::<Jungle>()))).unwrap();
    let old = Tablebase::<Jungle>::open(&old_dir, &JUNGLE_LEIDEN);
    let new = Tablebase::<Jungle>::open(crate::common::jungle3(), &JUNGLE_LEIDEN);
    let (a, b) = (old.table(m).unwrap(), new.table(m).unwrap());
    assert_eq!(a.encoding(), Encoding::Plain);
    assert_eq!(b.encoding(), Encoding::Zstd);
    assert!(b.file_len() < a.file_len());
    assert_eq!(a.header, b.header);
    for s in 0..a.header.sides {
        for i in 0..a.header.size {
            assert_eq!(a.get(s, i), b.get(s, i), "side {s} entry {i}");
        }
    }
}
