//! The sampled one-ply check: silent on sound tables, loud on a wrong entry.

use std::path::PathBuf;
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Jungle, JungleCheckers};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::sample::{capture_tables, check_entry, sample};
use zoo_animal_tb::Tablebase;
use zoo_core::Outcome;
use zoo_tb::file::{file_name, split_code, table_dir, write_table_with, Encoding, WDL_WIN};

#[test]
fn sound_tables_pass() {
    let tb = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    for n in 2..=3 {
        let mats = Material::canonical::<JungleCheckers>(n);
        let r = sample(&tb, &mats, 3000, 11).unwrap();
        assert_eq!(r.disagreement_count, 0, "{:#?}", r.disagreements);
        assert_eq!(r.positions, 3000 * mats.len() as u64);
        assert_eq!(r.tables.len(), mats.len());
        assert!(r.tables.iter().all(|t| t.positions == 3000));
    }
    let tb = Tablebase::<Jungle>::open(crate::common::jungle3(), &JUNGLE_LEIDEN);
    let mats = Material::canonical::<Jungle>(3);
    let r = sample(&tb, &mats, 500, 12).unwrap();
    assert_eq!(r.disagreement_count, 0, "{:#?}", r.disagreements);
    assert_eq!(r.positions, 500 * mats.len() as u64);
}

#[test]
fn a_missing_table_is_an_error() {
    let tb = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let m = Material::parse::<JungleCheckers>("RDTvr").unwrap();
    assert!(matches!(
        sample(&tb, &[m], 10, 1),
        Err(zoo_tb::TbError::Missing { .. })
    ));
    // Only canonical materials have tables.
    let m = Material::parse::<JungleCheckers>("Dvde").unwrap();
    assert!(sample(&tb, &[m], 10, 1).is_err());
}

#[test]
fn capture_tables_are_one_piece_smaller_and_canonical() {
    let p = |s| Material::parse::<JungleCheckers>(s).unwrap();
    // D takes: Tvd; T... d taken: no Black piece left (no table).
    assert_eq!(capture_tables::<JungleCheckers>(p("DTvd")), {
        let mut v = vec![p("Dvd"), p("Tvd")];
        v.sort();
        v
    });
    // Evrd: without E no White piece; without r `Evd`; without d `Evr`.
    let mut want = vec![p("Evd"), p("Evr")];
    want.sort();
    assert_eq!(capture_tables::<JungleCheckers>(p("Evrd")), want);
    // A colour swap: RDvte loses its R, D, t or e.
    for c in capture_tables::<JungleCheckers>(p("RDvte")) {
        assert!(c.is_canonical() && c.pieces() == 3);
    }
    assert_eq!(capture_tables::<JungleCheckers>(p("RDvte")).len(), 4);
}

/// A copy of the 2-piece Jungle Checkers table `Evd` in which one won entry
/// says "win in d + 2" instead of "win in d" (a valid file, checksum and
/// all): which entry, and the directory.
fn corrupted_copy() -> (PathBuf, Material, u64, u16) {
    let m = Material::parse::<JungleCheckers>("Evd").unwrap();
    let src = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let t = src.table(m).unwrap();
    // The first White-to-move win at distance 3 or more.
    let index = (0..t.header.size)
        .find(|&i| matches!(t.get(0, i), (WDL_WIN, d) if d >= 3))
        .unwrap();
    let d = t.get(0, index).1 as u16;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-sample-corrupt");
    let _ = std::fs::remove_dir_all(&dir);
    let tdir = table_dir(&dir, "jungle-checkers", "leiden");
    std::fs::create_dir_all(&tdir).unwrap();
    let fill = |s: usize, start: u64, out: &mut [u8]| {
        t.read_codes(s, start, out).unwrap();
        if s == 0 && (start..start + out.len() as u64).contains(&index) {
            let c = &mut out[(index - start) as usize];
            *c += 2;
            assert_eq!(split_code(*c), (WDL_WIN, d as u8 + 2));
        }
    };
    write_table_with(
        &tdir.join(file_name(&m.name::<JungleCheckers>())),
        &t.header,
        Encoding::Plain,
        &fill,
    )
    .unwrap();
    (dir, m, index, d)
}

#[test]
fn a_corrupted_entry_is_reported() {
    let (dir, m, index, d) = corrupted_copy();
    let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
    // The entry itself, checked directly.
    let bad = check_entry(&tb, m, 0, index)
        .unwrap()
        .expect("a disagreement");
    assert_eq!(bad.stored, Ok((Outcome::Win, d + 2)));
    assert_eq!(bad.recomputed, Ok((Outcome::Win, d)));
    assert!(bad.to_string().contains(&bad.fen), "{bad}");
    assert!(bad
        .to_string()
        .contains(&format!("stored win in {}", d + 2)));
    assert_eq!(check_entry(&tb, m, 1, index).unwrap(), None);

    // Sampled: 2 x 1,196 entries, 20,000 draws; the seed fixes which.
    let size = tb.scheme().layout(m).size;
    assert_eq!(size, 26 * 46);
    let r = sample(&tb, &[m], 20_000, 5).unwrap();
    assert_eq!(r.positions, 20_000);
    assert!(r.disagreement_count >= 1);
    assert_eq!(r.tables[0].disagreements, r.disagreement_count);
    assert!(
        r.disagreements.contains(&bad),
        "{:#?}",
        &r.disagreements[..r.disagreements.len().min(5)]
    );
    // Every other disagreement is a parent of the corrupted entry: its
    // recomputed value saw the wrong child.
    for x in &r.disagreements {
        assert!(x == &bad || x.side == 1, "{x}");
    }

    // The same seed finds the same, whatever the number of threads.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| sample(&tb, &[m], 20_000, 5).unwrap());
    assert_eq!(one, r);
    // The sound original agrees everywhere with the same draws.
    let sound = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    assert_eq!(
        sample(&sound, &[m], 20_000, 5).unwrap().disagreement_count,
        0
    );
}
