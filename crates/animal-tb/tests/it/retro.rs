//! The generator of any game with unmoves against the animal generator:
//! each builds its own chain of tables from 2 pieces up (each size from
//! its own smaller tables), and every file must be the same, byte for
//! byte. The cases are lines of `tests/data/retro.txt`.

use crate::common::build_into;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use zoo_animal::{Board, Jungle, JungleCheckers};
use zoo_animal_tb::build_retro::build_retro;
use zoo_tb::file::table_dir;

/// The table files of a directory, by name.
fn tables(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("a table directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".zootb"))
        .collect()
}

fn same_files<B: Board>(rules: &str, pieces: u32) {
    let rules = zoo_animal::board::by_name::<B>(rules).expect("a rule set");
    let name = format!("{}-{}-{pieces}", B::GAME, rules.name.replace('+', "-"));
    let t = Instant::now();
    let fast = build_into::<B>(&format!("retro-fast-{name}"), rules, pieces);
    let fast_time = t.elapsed();
    let slow = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-retro-{name}"));
    let _ = std::fs::remove_dir_all(&slow);
    let t = Instant::now();
    let written = build_retro::<B>(&slow, rules, pieces, &|_| {}, &AtomicBool::new(false))
        .expect("the retro build");
    let slow_time = t.elapsed();
    assert!(written.iter().all(|w| w.built));
    let (fast, slow) = (
        table_dir(&fast, B::GAME, rules.name),
        table_dir(&slow, B::GAME, rules.name),
    );
    let names = tables(&fast);
    assert_eq!(names, tables(&slow), "{name}: the same tables");
    assert_eq!(names.len(), written.len());
    for n in &names {
        let (a, b) = (
            std::fs::read(fast.join(n)).expect("a fast table"),
            std::fs::read(slow.join(n)).expect("a retro table"),
        );
        assert!(a == b, "{name}: {n} differs");
    }
    eprintln!(
        "{name}: {} tables the same (animal generator {:.1} s, retro {:.1} s)",
        names.len(),
        fast_time.as_secs_f64(),
        slow_time.as_secs_f64()
    );
}

/// Runs the cases of retro.txt, those marked `slow` or the others; how
/// many ran.
fn cases(slow: bool) -> usize {
    let cases = include_str!("../data/retro.txt");
    let mut n = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f: Vec<&str> = line.split_whitespace().collect();
        let marked = f.first() == Some(&"slow");
        if marked {
            f.remove(0);
        }
        let [game, rules, pieces] = f[..] else {
            panic!("`{line}`: not [slow] GAME RULES PIECES");
        };
        if marked != slow {
            continue;
        }
        let pieces: u32 = pieces.parse().expect("a piece count");
        match game {
            "jungle" => same_files::<Jungle>(rules, pieces),
            "jungle-checkers" => same_files::<JungleCheckers>(rules, pieces),
            g => panic!("unknown game {g}"),
        }
        n += 1;
    }
    n
}

#[test]
fn the_retro_generator_writes_the_animal_generators_tables() {
    assert!(cases(false) >= 4, "the cases of retro.txt");
}

#[test]
#[ignore = "slow: Jungle to 3 pieces (about three minutes); run by `cargo xtask test --slow`"]
fn slow_the_retro_generator_writes_the_animal_generators_larger_tables() {
    assert!(cases(true) >= 2, "the slow cases of retro.txt");
}
