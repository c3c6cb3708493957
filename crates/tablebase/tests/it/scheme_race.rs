//! Tables of a game that is not an animal game, end to end through zoo-tb
//! alone: `Race` (race.rs) solved by the generic generator, written as
//! table files, probed through its own `TableScheme`, used as an oracle,
//! and checked by the forward verifier, which must also catch a table
//! with one wrong value.

use crate::race::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use zoo_core::{Game, Oracle, Outcome, Side, Stored, TableIndex, TableScheme};
use zoo_tb::file::{write_table, Header};
use zoo_tb::oracle::TbOracle;
use zoo_tb::verify::verify_table;
use zoo_tb::{retro, Tablebase};

fn key(m: &Material) -> u16 {
    m.iter()
        .flatten()
        .enumerate()
        .map(|(i, &b)| (b as u16) << i)
        .sum()
}

/// Race's tables: every material stored, both sides to move, entries as
/// `RaceIndex` numbers them.
struct RaceScheme {
    indexes: HashMap<Material, RaceIndex>,
}

impl TableScheme for RaceScheme {
    type Pos = Race;
    type Material = Material;
    const KEYS: usize = 16;

    fn new(_: ()) -> Self {
        RaceScheme {
            indexes: materials()
                .iter()
                .map(|m| (*m, RaceIndex::new(m)))
                .collect(),
        }
    }
    fn rules(&self) -> &() {
        &()
    }
    fn game(&self) -> &'static str {
        "race"
    }
    fn rules_name(&self) -> &'static str {
        "std"
    }
    fn key(m: Material) -> u16 {
        key(&m)
    }
    fn name(&self, m: Material) -> String {
        let letters = |side: [bool; 2]| -> String {
            side.iter()
                .zip(["A", "B"])
                .filter(|(on, _)| **on)
                .map(|(_, l)| l)
                .collect()
        };
        format!("{}v{}", letters(m[0]), letters(m[1]).to_lowercase())
    }
    fn parse(&self, s: &str) -> Option<Material> {
        self.indexes.keys().copied().find(|&m| self.name(m) == s)
    }
    fn pieces(m: Material) -> u32 {
        m.iter().flatten().filter(|&&b| b).count() as u32
    }
    fn max_pieces(&self) -> u32 {
        4
    }
    fn stored(&self, pieces: u32) -> Vec<Material> {
        materials()
            .into_iter()
            .filter(|&m| Self::pieces(m) == pieces)
            .collect()
    }
    fn stored_sides(_: Material) -> usize {
        2
    }
    fn size(&self, m: Material) -> u64 {
        self.indexes[&m].size()
    }
    fn locate(&self, pos: &Race) -> Stored<Material> {
        let material = material_of(&pos.stones);
        Stored {
            material,
            side: side_index(pos.stm),
            entry: self.indexes[&material].rank(pos).expect("a placement"),
        }
    }
    fn position(&self, m: Material, side: usize, entry: u64) -> Race {
        self.indexes[&m].position(entry, [Side::White, Side::Black][side])
    }
}

fn decode(code: u8) -> (Outcome, u16) {
    match code as u16 {
        0 => (Outcome::Draw, 0),
        c if c % 2 == 0 => (Outcome::Win, c - 1),
        c => (Outcome::Loss, c - 1),
    }
}

/// Solves every material with the generic generator and writes its file
/// into `dir/race/std/`, with `corrupt` changing one entry's code first.
fn build(dir: &Path, corrupt: Option<(Material, usize, usize)>) {
    let scheme = RaceScheme::new(());
    let tdir = dir.join("race").join("std");
    std::fs::create_dir_all(&tdir).unwrap();
    let mut solved: HashMap<Material, retro::Solved> = HashMap::new();
    for m in materials() {
        let outside = |c: &Race| {
            let at = scheme.locate(c);
            Ok(decode(
                solved[&at.material].values[at.side][at.entry as usize],
            ))
        };
        let s = retro::solve(&scheme.indexes[&m], &scheme.name(m), &outside).unwrap();
        let header = Header {
            counts: s.counts,
            ..Header::new("race", "std", key(&m), 2, s.values[0].len() as u64)
        };
        let mut values = s.values.clone();
        if let Some((_, side, entry)) = corrupt.filter(|c| c.0 == m) {
            // A win in 1 where there was something else.
            values[side][entry] = if values[side][entry] == 2 { 1 } else { 2 };
        }
        let path = tdir.join(format!("{}.zootb", scheme.name(m)));
        write_table(&path, &header, &[&values[0], &values[1]]).unwrap();
        solved.insert(m, s);
    }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-tb-race-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn race_tables_probe_as_the_forward_solver_says_and_pass_the_verifier() {
    let dir = temp("good");
    build(&dir, None);
    let tb = Tablebase::<RaceScheme>::open(&dir, ());
    let truth = forward(&materials());
    let mut probed = 0;
    for m in materials() {
        for side in 0..2 {
            for e in 0..tb.scheme().size(m) {
                let p = tb.scheme().position(m, side, e);
                let want = truth.get(&p).copied().unwrap_or((Outcome::Draw, 0));
                assert_eq!(tb.try_probe(&p).unwrap(), want, "{p:?}");
                // The value of a position is the one its moves give.
                assert_eq!(tb.value_from_children(&p).unwrap(), want, "{p:?}");
                probed += 1;
            }
        }
        let r = verify_table(&tb, m).unwrap();
        assert_eq!(r.entries, 2 * tb.scheme().size(m));
        assert_eq!(r.wrong, 0, "{}: {:?}", tb.scheme().name(m), r.examples);
    }
    assert!(probed > 10_000);
    let oracle = TbOracle::<RaceScheme>::open(&dir, ()).expect("a complete set");
    assert_eq!(oracle.max_pieces(), 4);
    let start = Race::start(&());
    assert_eq!(
        oracle.probe(&start).map(|v| v.outcome),
        truth.get(&start).map(|v| v.0).or(Some(Outcome::Draw))
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_verifier_finds_a_wrong_value() {
    let dir = temp("bad");
    let m = [[true, true], [true, false]];
    build(&dir, Some((m, 1, 17)));
    let tb = Tablebase::<RaceScheme>::open(&dir, ());
    let r = verify_table(&tb, m).unwrap();
    assert!(r.wrong >= 1, "the changed entry is found");
    assert!(
        r.examples.iter().any(|d| (d.side, d.entry) == (1, 17)),
        "{:?}",
        r.examples
    );
    // The materials it was not changed in still pass.
    let other = [[true, false], [true, false]];
    assert_eq!(verify_table(&tb, other).unwrap().wrong, 0);
    let _ = std::fs::remove_dir_all(dir);
}
