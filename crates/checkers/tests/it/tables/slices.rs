//! Slices of a material by the rows of the sides' most advanced men
//! (`zoo_checkers::tables::slice`): they split every material exactly (the
//! whole index's positions, each in one slice, once), their entries round
//! trip, the scheme stores 7 and 8 pieces by them with distinct keys and
//! names that read back, and solving a material slice by slice, each
//! slice reading only those before it, gives the whole table's values.

use super::build::{build_these, decode};
use std::collections::HashMap;
use zoo_checkers::tables::{CheckersScheme, Leads, Material, Part, SLICED_FROM};
use zoo_checkers::{Classical, English};
use zoo_checkers::{Position, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Side, TableIndex, TableScheme};
use zoo_tb::{retro, TbError};
use zoo_testkit::Rng;

const SIDES: [Side; 2] = [Side::White, Side::Black];

/// The slices of every material of 2 to 8 pieces add up to the whole
/// material, and every whole entry of the 2- and 3-piece materials lands
/// in exactly one slice entry, all of them reached.
fn slices_partition_the_materials<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    for pieces in 2..=8 {
        for m in CheckersScheme::<V>::materials(pieces) {
            let whole = scheme.index(m).size();
            let parts = scheme.slices(m);
            let sum: u64 = parts.iter().map(|&p| scheme.part_index(p).size()).sum();
            assert_eq!(sum, whole, "{}", scheme.name(m.into()));
            // Build order: a slice after every slice of its material with
            // both leads at least as far on.
            for (i, p) in parts.iter().enumerate() {
                let l = p.leads.expect("a slice");
                for q in &parts[i + 1..] {
                    let k = q.leads.expect("a slice");
                    assert!(
                        !(k.white >= l.white && k.black >= l.black),
                        "{p:?} before {q:?}"
                    );
                }
            }
        }
    }
    for pieces in 2..=3 {
        for m in CheckersScheme::<V>::materials(pieces) {
            let index = scheme.index(m);
            let mut seen: HashMap<Part, Vec<bool>> = scheme
                .slices(m)
                .into_iter()
                .map(|p| (p, vec![false; scheme.part_index(p).size() as usize]))
                .collect();
            for e in 0..index.size() {
                let pos = index.position(e, Side::White);
                let part = Part::slice(m, Leads::of(&pos));
                let slice = scheme.part_index(part);
                let x = slice.rank(&pos).expect("its own slice holds it");
                let marks = seen.get_mut(&part).expect("a stored slice");
                assert!(!marks[x as usize], "{pos:?} twice");
                marks[x as usize] = true;
                assert_eq!(slice.position(x, Side::White), pos);
            }
            assert!(
                seen.values().flatten().all(|&b| b),
                "{m:?}: an entry no position has"
            );
        }
    }
}

/// Random entries of every slice of 4, 5, 7 and 8 pieces: each is a
/// position of its material and leads, and ranks back to itself; and
/// random positions of the whole materials go to their slice and back.
fn random_slice_entries_round_trip<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    let mut rng = Rng(52);
    for pieces in [4, 5, 7, 8] {
        for m in CheckersScheme::<V>::materials(pieces) {
            for p in scheme.slices(m) {
                let index = scheme.part_index(p);
                let tries = if pieces < 7 { 40 } else { 6 };
                for k in 0..tries {
                    let e = if k == 0 {
                        index.size() - 1
                    } else {
                        rng.below(index.size())
                    };
                    let stm = SIDES[rng.below(2) as usize];
                    let pos = index.position(e, stm);
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(Some(Leads::of(&pos)), p.leads, "{pos:?}");
                    assert_eq!(index.rank(&pos), Some(e), "{} {pos:?}", scheme.name(p));
                }
            }
            let whole = scheme.index(m);
            for _ in 0..20 {
                let pos = whole.position(rng.below(whole.size()), Side::Black);
                let p = Part::slice(m, Leads::of(&pos));
                let x = scheme.part_index(p).rank(&pos).expect("in its slice");
                assert_eq!(scheme.part_index(p).position(x, Side::Black), pos);
                if pieces >= SLICED_FROM {
                    let at = scheme.locate(&pos);
                    assert_eq!((at.material, at.side, at.entry), (p, 1, x));
                    assert_eq!(scheme.position(p, 1, x), pos);
                }
            }
        }
    }
}

#[test]
fn slices_split_every_material_exactly() {
    slices_partition_the_materials::<English>(&ENGLISH);
    slices_partition_the_materials::<Classical>(&CLASSICAL);
    random_slice_entries_round_trip::<English>(&ENGLISH);
    random_slice_entries_round_trip::<Classical>(&CLASSICAL);
}

/// The stored parts: whole below 7 pieces, slices from 7 on; every name
/// reads back, every key is distinct and below `KEYS`, and the colour
/// swap of a stored part is stored.
#[test]
fn seven_and_eight_pieces_are_stored_by_slices() {
    let scheme = CheckersScheme::<English>::new(&ENGLISH);
    let mut keys = std::collections::HashSet::new();
    for pieces in 2..=8 {
        let stored = scheme.stored(pieces);
        for &p in &stored {
            assert_eq!(p.leads.is_some(), pieces >= SLICED_FROM);
            let name = scheme.name(p);
            assert_eq!(scheme.parse(&name), Some(p), "{name}");
            let key = CheckersScheme::<English>::key(p);
            assert!(keys.insert(key), "{name}: key {key} twice");
            assert!((key as usize) < CheckersScheme::<English>::KEYS);
            assert!(stored.contains(&p.swapped()), "{name}");
        }
    }
    let p = scheme.parse("KKMMvKKMM-75").expect("a slice");
    assert_eq!(p.leads, Some(Leads { white: 6, black: 4 }));
    assert_eq!(scheme.name(p), "KKMMvKKMM-75");
    // A 7-piece material is stored only by its slices, a smaller one only
    // whole; a lead a side cannot have, or a slice with no position, is
    // no name.
    for bad in [
        "KKMMvKKM",
        "KMvKM-11",
        "KKMMvKKMM-05",
        "KKKKvKKK-11",
        "KKKKvKKK-0",
        "KKKKMvKK-80",
        "MMMMMvMM-20",
    ] {
        assert_eq!(scheme.parse(bad), None, "{bad}");
    }
    assert!(scheme.parse("KKKKvKKK-00").is_some());
}

/// Solves `m` slice by slice in the scheme's order. A child of the same
/// material is read from the slices solved so far (a slice not yet solved
/// fails the test: the order is wrong), any other from the whole tables
/// of `needed`; every slice's values are the whole table's.
fn by_slices_equals_whole<V: Variant>(rules: &'static RuleSet, name: &str, tag: &str) {
    let scheme = CheckersScheme::<V>::new(rules);
    let m = scheme.parse(name).expect("a material").material;
    let dir = std::env::temp_dir().join(format!(
        "zoo-checkers-slices-{}-{}-{tag}",
        std::process::id(),
        rules.name
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let b = build_these::<V>(rules, &CheckersScheme::<V>::needed(m), &dir).expect("built");
    let mut solved: HashMap<Part, [Vec<u8>; 2]> = HashMap::new();
    let (mut entries, mut decided) = (0u64, 0u64);
    for p in scheme.slices(m) {
        let outside = |c: &Position<V>| {
            if Material::of(c) != m {
                return b.tb.lookup(c);
            }
            let q = Part::slice(m, Leads::of(c));
            let values = solved.get(&q).ok_or_else(|| TbError::Missing {
                material: format!("{} before {}", scheme.name(q), scheme.name(p)),
                dir: dir.clone(),
            })?;
            let x = scheme.part_index(q).rank(c).expect("its slice");
            Ok(decode(values[c.side().index()][x as usize]))
        };
        let index = scheme.part_index(p);
        let s = retro::solve(&index, &scheme.name(p), &outside).expect("the slice solves");
        for (values, stm) in s.values.iter().zip(SIDES) {
            for (x, &code) in values.iter().enumerate() {
                let pos = index.position(x as u64, stm);
                let whole = b.tb.lookup(&pos).expect("the whole table");
                assert_eq!(decode(code), whole, "{} {pos:?}", scheme.name(p));
                entries += 1;
                decided += (code != 0) as u64;
            }
        }
        solved.insert(p, s.values);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(entries, 2 * scheme.index(m).size());
    assert!(
        decided > 0 && decided < entries,
        "wins or losses, and draws"
    );
}

#[test]
fn solving_by_slices_gives_the_whole_tables_values() {
    by_slices_equals_whole::<English>(&ENGLISH, "MMvM", "mmvm");
    by_slices_equals_whole::<English>(&ENGLISH, "MvMM", "mvmm");
    by_slices_equals_whole::<Classical>(&CLASSICAL, "MMvM", "mmvm");
    by_slices_equals_whole::<English>(&ENGLISH, "KMvMM", "kmvmm");
}
