//! Damaged, truncated and foreign files are refused, never read as values.

use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Jungle, JungleCheckers, Position};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::file::{
    file_name, split_code, table_dir, write_table, write_table_smallest, write_table_with,
    Encoding, Header, Table, BLOCK_ENTRIES, HEADER, WDL_INVALID,
};
use zoo_tb::TbError;

/// A copy of the Jungle 2-piece table `Evl` in a directory of its own,
/// plain.
fn copy(name: &str) -> (PathBuf, PathBuf) {
    let m = Material::new(1 << 7, 1 << 6);
    let src = table_dir(crate::common::jungle3(), "jungle", "leiden")
        .join(file_name(&m.name::<Jungle>()));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-files-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let tdir = table_dir(&dir, "jungle", "leiden");
    std::fs::create_dir_all(&tdir).unwrap();
    let dst = tdir.join(file_name(&m.name::<Jungle>()));
    std::fs::copy(src, &dst).unwrap();
    // Plain, as the builder wrote it before zstd at every size
    // (`zstd_copy` for the other encoding).
    let t = open_any(&dst);
    convert(&t, &dst, Encoding::Plain);
    (dir, dst)
}

fn probe_err(dir: &std::path::Path) -> String {
    let tb = Tablebase::<Jungle>::open(dir, &JUNGLE_LEIDEN);
    let p = Position::<Jungle>::from_fen_str("7/7/7/7/7/7/E6/7/6l w", &JUNGLE_LEIDEN).unwrap();
    match tb.try_probe(&p) {
        Err(e) => e.to_string(),
        Ok(v) => panic!("read {v:?} from a bad file"),
    }
}

#[test]
fn intact_copy_reads() {
    let (dir, _) = copy("intact");
    let tb = Tablebase::<Jungle>::open(&dir, &JUNGLE_LEIDEN);
    let p = Position::<Jungle>::from_fen_str("7/7/7/7/7/7/E6/7/6l w", &JUNGLE_LEIDEN).unwrap();
    assert!(tb.try_probe(&p).is_ok());
}

#[test]
fn flipped_byte_is_refused() {
    let (dir, f) = copy("flip");
    let mut b = std::fs::read(&f).unwrap();
    let i = b.len() / 2;
    b[i] ^= 0x10;
    std::fs::write(&f, b).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("checksum"), "{e}");
}

#[test]
fn truncated_file_is_refused() {
    let (dir, f) = copy("trunc");
    let b = std::fs::read(&f).unwrap();
    std::fs::write(&f, &b[..b.len() - 100]).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("truncated"), "{e}");
}

#[test]
fn foreign_file_is_refused() {
    let (dir, f) = copy("foreign");
    std::fs::write(
        &f,
        b"this is not a table, just some text long enough to be read".repeat(10),
    )
    .unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("magic"), "{e}");
}

#[test]
fn table_of_another_game_is_refused() {
    // A Jungle file under the name of a Jungle Checkers table.
    let (dir, f) = copy("game");
    let m = Material::new(1 << 3, 1 << 3);
    let jdir = table_dir(&dir, "jungle-checkers", "leiden");
    std::fs::create_dir_all(&jdir).unwrap();
    std::fs::rename(&f, jdir.join(file_name(&m.name::<JungleCheckers>()))).unwrap();
    let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
    let p = Position::<JungleCheckers>::from_fen_str("7/7/7/7/7/E6/6e w", &JUNGLE_CHECKERS_LEIDEN)
        .unwrap();
    let e = tb.try_probe(&p).unwrap_err().to_string();
    assert!(e.contains("a table of jungle"), "{e}");
    assert!(tb.probe(&p).is_none());
}

#[test]
fn missing_table_says_so() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-files-none");
    let tb = Tablebase::<Jungle>::open(&dir, &JUNGLE_LEIDEN);
    let p = Position::<Jungle>::from_fen_str("7/7/7/7/7/7/E6/7/6l w", &JUNGLE_LEIDEN).unwrap();
    assert!(matches!(tb.try_probe(&p), Err(TbError::Missing { .. })));
}

/// Opens a table file with what its own header says.
fn open_any(p: &Path) -> Table {
    let b = std::fs::read(p).unwrap();
    let m = Material::new(b[64], b[65]);
    let size = u64::from_le_bytes(b[72..80].try_into().unwrap());
    let text = |r: std::ops::Range<usize>| {
        String::from_utf8(b[r].iter().copied().take_while(|&c| c != 0).collect()).unwrap()
    };
    Table::open(
        p,
        &text(16..48),
        &text(48..64),
        m.key() as u16,
        m.stored_sides(),
        size,
    )
    .unwrap()
}

/// Rewrites a table in another encoding.
fn convert(t: &Table, dst: &Path, encoding: Encoding) -> u64 {
    let fill = |s: usize, start: u64, out: &mut [u8]| t.read_codes(s, start, out).unwrap();
    write_table_with(dst, &t.header, encoding, &fill).unwrap()
}

fn header(m: Material, size: u64) -> Header {
    Header::new(
        "jungle-checkers",
        "leiden",
        m.key() as u16,
        m.stored_sides(),
        size,
    )
}

fn random_values(size: u64, seed: u64) -> Vec<u8> {
    let mut r = rand::rngs::StdRng::seed_from_u64(seed);
    let mut v = Vec::with_capacity(size as usize);
    while (v.len() as u64) < size {
        let c = if r.gen_bool(0.4) {
            0
        } else {
            r.gen_range(1..=255u8)
        };
        let run = r.gen_range(1..30usize).min(size as usize - v.len());
        v.extend(std::iter::repeat_n(c, run));
    }
    v
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-files-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn both_encodings_round_trip() {
    let d = scratch("roundtrip");
    let block = BLOCK_ENTRIES as u64;
    // Two sides, not a multiple of the block size; one side, symmetric;
    // a side shorter than a block.
    for (m, size) in [
        (Material::new(3, 4), 2 * block + 1234),
        (Material::new(5, 5), block + 1),
        (Material::new(6, 1), 999),
    ] {
        let h = header(m, size);
        let vals: Vec<Vec<u8>> = (0..h.sides)
            .map(|s| random_values(size, 7 + s as u64))
            .collect();
        let fill = |s: usize, start: u64, out: &mut [u8]| {
            out.copy_from_slice(&vals[s][start as usize..start as usize + out.len()])
        };
        for encoding in [Encoding::Plain, Encoding::Zstd] {
            let p = d.join(format!("{}-{encoding:?}.zootb", m.key()));
            let len = write_table_with(&p, &h, encoding, &fill).unwrap();
            assert_eq!(len, std::fs::metadata(&p).unwrap().len());
            let t = Table::open(
                &p,
                &h.game,
                &h.rules,
                m.key() as u16,
                m.stored_sides(),
                size,
            )
            .unwrap();
            assert_eq!(t.encoding(), encoding);
            assert_eq!(t.header, h);
            for (s, v) in vals.iter().enumerate() {
                for (i, &c) in v.iter().enumerate() {
                    assert_eq!(t.get(s, i as u64), split_code(c), "{encoding:?} {s} {i}");
                }
                let mut out = vec![0u8; size as usize];
                t.read_codes(s, 0, &mut out).unwrap();
                assert!(out == *v);
            }
        }
        // The wrapper over whole sides writes the plain file.
        let refs: Vec<&[u8]> = vals.iter().map(|v| v.as_slice()).collect();
        let p = d.join("whole.zootb");
        write_table(&p, &h, &refs).unwrap();
        let plain = d.join(format!("{}-Plain.zootb", m.key()));
        assert!(std::fs::read(&p).unwrap() == std::fs::read(plain).unwrap());
    }
    assert!(std::fs::read_dir(&d).unwrap().all(|e| !e
        .unwrap()
        .path()
        .to_string_lossy()
        .ends_with(".tmp")));
}

/// The Jungle tables up to 3 pieces (as built: the smaller of zstd and
/// plain) rewritten plain and back probe the same, and come out byte for
/// byte as built.
#[test]
fn real_tables_convert_both_ways() {
    let src = table_dir(crate::common::jungle3(), "jungle", "leiden");
    let root = scratch("convert");
    let dst = table_dir(&root, "jungle", "leiden");
    std::fs::create_dir_all(&dst).unwrap();
    let (mut plain, mut packed) = (0, 0);
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension() != Some("zootb".as_ref()) {
            continue; // the manifest
        }
        let t = open_any(&p);
        packed += t.file_len();
        let q = dst.join(p.file_name().unwrap());
        plain += convert(&t, &q, Encoding::Plain);
        let z = open_any(&q);
        assert_eq!(z.encoding(), Encoding::Plain);
        for s in 0..t.header.sides {
            for i in 0..t.header.size {
                assert_eq!(z.get(s, i), t.get(s, i));
            }
        }
        let back = root.join("back.zootb");
        let fill = |s: usize, start: u64, out: &mut [u8]| z.read_codes(s, start, out).unwrap();
        write_table_smallest(&back, &z.header, &fill).unwrap();
        assert!(std::fs::read(&back).unwrap() == std::fs::read(&p).unwrap());
    }
    assert!(packed < plain);
    let tb = Tablebase::<Jungle>::open(&root, &JUNGLE_LEIDEN);
    let p = Position::<Jungle>::from_fen_str("7/7/7/7/7/7/E6/7/6l w", &JUNGLE_LEIDEN).unwrap();
    let old = Tablebase::<Jungle>::open(crate::common::jungle3(), &JUNGLE_LEIDEN);
    assert_eq!(tb.try_probe(&p).unwrap(), old.try_probe(&p).unwrap());
    assert_eq!(tb.probe_moves(&p).unwrap(), old.probe_moves(&p).unwrap());
}

/// A copy of the Jungle 2-piece table `Evl` in the zstd encoding.
fn zstd_copy(name: &str) -> (PathBuf, PathBuf) {
    let (dir, f) = copy(name);
    let t = open_any(&f);
    convert(&t, &f, Encoding::Zstd);
    (dir, f)
}

/// Rewrites the CRC at the end after a deliberate change.
fn fix_crc(b: &mut [u8]) {
    let n = b.len();
    let sum = crc32fast::hash(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn zstd_copy_reads() {
    let (dir, f) = zstd_copy("z-intact");
    assert_eq!(open_any(&f).encoding(), Encoding::Zstd);
    let tb = Tablebase::<Jungle>::open(&dir, &JUNGLE_LEIDEN);
    let p = Position::<Jungle>::from_fen_str("7/7/7/7/7/7/E6/7/6l w", &JUNGLE_LEIDEN).unwrap();
    assert!(tb.try_probe(&p).is_ok());
}

#[test]
fn zstd_damaged_block_is_refused() {
    let (dir, f) = zstd_copy("z-block");
    let mut b = std::fs::read(&f).unwrap();
    b[HEADER + 20] ^= 0x5a;
    std::fs::write(&f, &b).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("checksum"), "{e}");
    // With the CRC made to match, the block itself must not read as values.
    fix_crc(&mut b);
    std::fs::write(&f, &b).unwrap();
    let t = open_any(&f);
    assert_eq!(t.get(0, 0).0, WDL_INVALID);
    assert_eq!(t.get(0, 100).0, WDL_INVALID);
    assert!(t.read_codes(0, 0, &mut [0u8; 10]).is_err());
    let e = probe_err(&dir);
    assert!(e.contains("refused"), "{e}");
}

#[test]
fn zstd_damaged_offset_table_is_refused() {
    let (dir, f) = zstd_copy("z-offsets");
    let mut b = std::fs::read(&f).unwrap();
    let n = b.len();
    // The next-to-last offset: moved far past the end of the file.
    b[n - 4 - 8 * 2 + 7] ^= 0x01;
    std::fs::write(&f, &b).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("checksum") || e.contains("offset"), "{e}");
    fix_crc(&mut b);
    std::fs::write(&f, &b).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("offset table"), "{e}");
    // Two offsets swapped: not increasing.
    let (dir, f) = zstd_copy("z-offsets2");
    let mut b = std::fs::read(&f).unwrap();
    let t = open_any(&f);
    let blocks = t.header.size.div_ceil(t.block_entries()) as usize * t.header.sides;
    assert!(blocks >= 2, "{blocks}");
    let at = n - 4 - 8 * (blocks + 1);
    let (x, y) = (at + 8, at + 16);
    let first: [u8; 8] = b[x..x + 8].try_into().unwrap();
    b.copy_within(y..y + 8, x);
    b[y..y + 8].copy_from_slice(&first);
    fix_crc(&mut b);
    std::fs::write(&f, &b).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("offset table"), "{e}");
}

#[test]
fn zstd_truncated_file_is_refused() {
    for cut in [1, 8, 100, 0] {
        let (dir, f) = zstd_copy("z-trunc");
        let b = std::fs::read(&f).unwrap();
        let cut = if cut == 0 { b.len() / 2 } else { cut };
        std::fs::write(&f, &b[..b.len() - cut]).unwrap();
        let e = probe_err(&dir);
        assert!(e.contains("refused"), "{e}");
    }
    // Cut to the header alone.
    let (dir, f) = zstd_copy("z-trunc-header");
    let b = std::fs::read(&f).unwrap();
    std::fs::write(&f, &b[..HEADER]).unwrap();
    let e = probe_err(&dir);
    assert!(e.contains("truncated"), "{e}");
}

/// The block size measurement of `docs/log/tablebase.md`: recompresses the
/// (version 1) tables named in `ZOO_TB_MEASURE` (separated by `:`) with
/// several block sizes and times the decompression of single blocks.
/// `ZOO_TB_MEASURE=/path/RDTvte.zootb cargo test --release -p zoo-tb -- --ignored measure --nocapture`
#[test]
#[ignore]
fn measure_block_sizes() {
    use std::time::Instant;
    use zoo_tb::file::write_table_blocks;
    let Ok(list) = std::env::var("ZOO_TB_MEASURE") else {
        return;
    };
    let open = |p: &Path| open_any(p);
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-measure.zootb");
    for src in list.split(':') {
        let t = open(Path::new(src));
        let h: &Header = &t.header;
        let fill = |s: usize, start: u64, out: &mut [u8]| t.read_codes(s, start, out).unwrap();
        println!(
            "{src}: {} entries x {} sides, {} bytes",
            h.size,
            h.sides,
            t.file_len()
        );
        for (block, level) in [
            (1 << 12, 3),
            (1 << 13, 3),
            (1 << 14, 3),
            (1 << 15, 3),
            (1 << 16, 3),
            (1 << 14, 9),
            (1 << 20, 3),
        ] {
            let t0 = Instant::now();
            let len = write_table_blocks(&tmp, h, block, level, &fill).unwrap();
            let write = t0.elapsed().as_secs_f64();
            let z = open(&tmp);
            let mut r = rand::rngs::StdRng::seed_from_u64(1);
            let probes = 5000;
            let at: Vec<(usize, u64)> = (0..probes)
                .map(|_| (r.gen_range(0..h.sides), r.gen_range(0..h.size)))
                .collect();
            // The least of three rounds (the machine is shared).
            let (mut us, mut sum) = (f64::MAX, 0);
            for _ in 0..3 {
                let t0 = Instant::now();
                sum = at.iter().map(|&(s, i)| z.get(s, i).1 as u64).sum::<u64>();
                us = us.min(t0.elapsed().as_secs_f64() * 1e6 / probes as f64);
            }
            for &(s, i) in &at[..500] {
                assert_eq!(z.get(s, i), t.get(s, i));
            }
            println!(
                "  block {block:>8} level {level}: {len:>11} bytes, ratio {:.1}, bytes/entry {:.3}, write {write:.1} s, random probe {us:.1} us ({sum})",
                t.file_len() as f64 / len as f64,
                len as f64 / (h.size * h.sides as u64) as f64,
            );
        }
    }
    let _ = std::fs::remove_file(tmp);
}
