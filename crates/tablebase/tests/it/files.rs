//! Damaged, truncated and foreign files are refused, never read as values.

use std::path::PathBuf;
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Jungle, JungleCheckers, Position};
use zoo_tb::file::{file_name, table_dir};
use zoo_tb::index::Material;
use zoo_tb::{Tablebase, TbError};

/// A copy of the Jungle 2-piece table `Evl` in a directory of its own.
fn copy(name: &str) -> (PathBuf, PathBuf) {
    let m = Material::new(1 << 7, 1 << 6);
    let src = table_dir(crate::common::jungle3(), "jungle", "leiden").join(file_name::<Jungle>(m));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-files-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let tdir = table_dir(&dir, "jungle", "leiden");
    std::fs::create_dir_all(&tdir).unwrap();
    let dst = tdir.join(file_name::<Jungle>(m));
    std::fs::copy(src, &dst).unwrap();
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
    std::fs::rename(&f, jdir.join(file_name::<JungleCheckers>(m))).unwrap();
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
