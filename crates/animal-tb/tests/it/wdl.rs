//! WDL-only files: made from the tables, equal to their values entry by
//! entry, probed alone (value known, distance unknown), and refused when
//! damaged or misnamed.

use std::path::PathBuf;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, Position};
use zoo_animal_tb::index::{Layout, Material};
use zoo_animal_tb::Tablebase;
use zoo_core::Side;
use zoo_tb::file::{table_dir, Encoding, HEADER};
use zoo_tb::{Damage, TbError};

/// The 3-piece Jungle Checkers tables and their WDL files in a directory
/// of the test's own; with `full` false only the WDL files.
pub(crate) fn set(name: &str, full: bool) -> PathBuf {
    let src = table_dir(crate::common::jc3(), "jungle-checkers", "leiden");
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-wdl-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    let dst = table_dir(&root, "jungle-checkers", "leiden");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.extension() == Some("zootb".as_ref()) {
            std::fs::copy(&p, dst.join(p.file_name().unwrap())).unwrap();
        }
    }
    let tb = Tablebase::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN);
    for n in 2..=3 {
        for m in Material::canonical::<JungleCheckers>(n) {
            zoo_animal_tb::wdl::make(&tb, m).unwrap();
            if !full {
                std::fs::remove_file(tb.path_of(m)).unwrap();
            }
        }
    }
    root
}

#[test]
fn wdl_files_hold_the_tables_values() {
    let root = set("equal", true);
    let tb = Tablebase::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN);
    let mut entries = 0;
    for n in 2..=3 {
        for m in Material::canonical::<JungleCheckers>(n) {
            let c = zoo_animal_tb::wdl::check(&tb, m).unwrap();
            assert_eq!(c.disagreements, 0, "{}", m.name::<JungleCheckers>());
            entries += c.entries;
            let (t, w) = (tb.table(m).unwrap(), tb.wdl_table(m).unwrap());
            assert_eq!(w.encoding(), Encoding::Wdl);
            assert_eq!(w.header, t.header);
            assert!(w.file_len() < t.file_len());
        }
    }
    // Both sides to move of every stored material of 2 and 3 pieces.
    assert!(entries > 2_000_000, "{entries}");
}

/// With the WDL files alone every position has its table's value, and
/// asking for a distance says it is unknown.
#[test]
fn a_set_of_wdl_files_alone_gives_values_not_distances() {
    let full = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let root = set("alone", false);
    let wdl = Tablebase::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN);
    let mut probed = 0;
    for m in Material::all::<JungleCheckers>(3) {
        let l = Layout::new::<JungleCheckers>(m);
        let mut sqs = [0u8; 16];
        for idx in (0..l.size).step_by(37) {
            l.unrank(idx, &mut sqs);
            for stm in [Side::White, Side::Black] {
                let p: Position<JungleCheckers> =
                    l.position(&sqs[..l.n], stm, &JUNGLE_CHECKERS_LEIDEN);
                let (o, _) = full.try_probe(&p).unwrap();
                assert_eq!(wdl.probe_wdl(&p).unwrap(), o, "{m:?} {idx}");
                assert_eq!(full.probe_wdl(&p).unwrap(), o);
                if p.terminal_outcome().is_none() {
                    assert!(matches!(wdl.try_probe(&p), Err(TbError::WdlOnly { .. })));
                }
                probed += 1;
            }
        }
    }
    assert!(probed > 10_000, "{probed}");
}

#[test]
fn a_damaged_or_misnamed_wdl_file_is_refused() {
    let root = set("damaged", true);
    let dir = table_dir(&root, "jungle-checkers", "leiden");
    let m = Material::canonical::<JungleCheckers>(2)[0];
    let name = m.name::<JungleCheckers>();
    let (full, wdl) = (
        dir.join(format!("{name}.zootb")),
        dir.join(format!("{name}.zoowdl")),
    );
    let probe = |root: &PathBuf| {
        let tb = Tablebase::<JungleCheckers>::open(root, &JUNGLE_CHECKERS_LEIDEN);
        let l = tb.scheme().layout(m);
        let mut sqs = [0u8; 16];
        l.unrank(0, &mut sqs);
        let p = l.position(&sqs[..l.n], Side::White, &JUNGLE_CHECKERS_LEIDEN);
        (tb.probe_wdl(&p), tb.try_probe(&p))
    };
    let good = std::fs::read(&wdl).unwrap();
    // A flipped byte: the checksum.
    let mut b = good.clone();
    b[HEADER + 3] ^= 0x40;
    std::fs::write(&wdl, &b).unwrap();
    std::fs::remove_file(&full).unwrap();
    let e = probe(&root).0.unwrap_err().to_string();
    assert!(e.contains(".zoowdl") && e.contains("checksum"), "{e}");
    // Codes that are not win, draw or loss, under a valid checksum: the
    // block's own zstd checksum refuses them, and no value is read.
    let mut b = good.clone();
    let n = b.len();
    b[HEADER + 5] ^= 0x5a;
    let sum = crc32fast::hash(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&wdl, &b).unwrap();
    match probe(&root).0 {
        Err(TbError::Damaged(p, _)) => assert!(p.ends_with(format!("{name}.zoowdl"))),
        other => panic!("read {other:?} from a damaged block"),
    }
    // A WDL file under a table's name, and a table under a WDL file's.
    std::fs::write(&full, &good).unwrap();
    std::fs::remove_file(&wdl).unwrap();
    let e = probe(&root).1.unwrap_err();
    assert!(matches!(e, TbError::Damaged(_, Damage::WdlOnly)), "{e}");
    let table = std::fs::read(
        table_dir(crate::common::jc3(), "jungle-checkers", "leiden").join(format!("{name}.zootb")),
    )
    .unwrap();
    std::fs::write(&full, &table).unwrap();
    std::fs::write(&wdl, &table).unwrap();
    std::fs::remove_file(&full).unwrap();
    let e = probe(&root).0.unwrap_err();
    assert!(matches!(e, TbError::Damaged(_, Damage::NotWdl)), "{e}");
}
