//! Solve checkpoints (`zoo solve --checkpoint`): never a panic, and one
//! that loads is consistent: each goal answered once with the numbers
//! that decide it, the goal being asked not among them, and a df-pn
//! table's entries all there. The first byte says whether the checksum
//! trailer is made right (so the fuzzer gets past it) and which
//! algorithm's question is asked; the file is written to /dev/shm where
//! there is one, as `load` reads a path.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::io::Read;
use zoo_app::solve::checkpoint::{load, Question};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, body)) = data.split_first() else {
        return;
    };
    let mut bytes = body.to_vec();
    if flags & 1 != 0 {
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(b"CRC:");
        bytes.extend_from_slice(&crc.to_le_bytes());
    }
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        std::path::PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let path = dir.join(format!("zoo-fuzz-solve-{}.ckpt", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let q = Question {
        game: "jungle-checkers".into(),
        rules: "leiden".into(),
        fen: "7/3e3/7/7/7/3R3/2D4 b".into(),
        ghi: if flags & 2 != 0 { "-".into() } else { "path".into() },
        tables: false,
        algo: if flags & 2 != 0 { "pns".into() } else { "dfpn".into() },
    };
    if let Ok(Some(mut l)) = load(&path, &q) {
        let mut goals = Vec::new();
        for (g, a) in &l.done {
            assert!(!goals.contains(g), "a goal answered twice");
            goals.push(*g);
            match a.answer {
                "proven" => assert!(a.pn == Some(0) && a.dn.is_none()),
                "disproven" => assert!(a.pn.is_none() && a.dn == Some(0)),
                other => panic!("answer {other} loaded"),
            }
        }
        if let Some(t) = l.table.as_mut() {
            assert!(!goals.contains(&t.goal));
            assert_eq!(t.tree, flags & 2 != 0);
            if !t.tree {
                let want = t.entries * zoo_solve_entry_bytes();
                let mut rest = Vec::new();
                t.reader.read_to_end(&mut rest).unwrap();
                assert_eq!(rest.len() as u64, want, "the table's entries all there");
            }
        }
    }
    let _ = std::fs::remove_file(&path);
});

/// Bytes of a saved df-pn entry (`zoo_solve::dfpn::SAVED_ENTRY_BYTES`).
fn zoo_solve_entry_bytes() -> u64 {
    24
}
