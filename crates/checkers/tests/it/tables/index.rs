//! The index of a material: every entry a position of that material and
//! back (`rank(position(e)) == e`), as many entries as there are
//! placements (counted here by brute force), other materials refused.

use zoo_checkers::tables::{CheckersScheme, Material};
use zoo_checkers::{Classical, English};
use zoo_checkers::{Position, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Side, TableIndex, TableScheme};
use zoo_testkit::Rng;

const SIDES: [Side; 2] = [Side::White, Side::Black];

/// Every entry of every material of up to 3 pieces.
fn every_entry_round_trips<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    let mut entries = 0u64;
    for pieces in 2..=3 {
        for m in scheme.stored(pieces) {
            let index = scheme.part_index(m);
            for e in 0..index.size() {
                for stm in SIDES {
                    let p = index.position(e, stm);
                    assert_eq!(Material::of(&p), m.material, "{}", scheme.name(m));
                    assert_eq!(p.side(), stm);
                    assert_eq!(index.rank(&p), Some(e), "{} {p:?}", scheme.name(m));
                    let at = scheme.locate(&p);
                    assert_eq!((at.material, at.entry), (m, e));
                    assert_eq!(scheme.position(m, stm.index(), e), p);
                    entries += 1;
                }
            }
        }
    }
    assert_eq!(entries, 2 * (6976 / 2 + 392064 / 2));
}

/// The placements of `m` counted one by one: every set of squares with
/// every assignment of piece kinds, kept when it is a position.
fn brute_count<V: Variant>(rules: &'static RuleSet, m: Material) -> u64 {
    let p = m.pieces();
    let kinds: Vec<u8> = [(0u8, m.wm), (1, m.wk), (2, m.bm), (3, m.bk)]
        .iter()
        .flat_map(|&(k, n)| std::iter::repeat_n(k, n as usize))
        .collect();
    let mut count = 0;
    // Ordered distinct squares, one per piece in `kinds` order; divided
    // by the orderings of equal pieces at the end.
    let mut sq = vec![0u8; p as usize];
    fn rec<V: Variant>(
        i: usize,
        sq: &mut Vec<u8>,
        kinds: &[u8],
        rules: &'static RuleSet,
        count: &mut u64,
    ) {
        if i == sq.len() {
            let (mut w, mut b, mut k) = (0u32, 0u32, 0u32);
            for (&s, &kind) in sq.iter().zip(kinds) {
                if kind < 2 {
                    w |= 1 << s
                } else {
                    b |= 1 << s
                }
                if kind % 2 == 1 {
                    k |= 1 << s
                }
            }
            if Position::<V>::from_bitboards(rules, w, b, k, Side::White).is_ok() {
                *count += 1;
            }
            return;
        }
        for s in 0..32u8 {
            if !sq[..i].contains(&s) {
                sq[i] = s;
                rec::<V>(i + 1, sq, kinds, rules, count);
            }
        }
    }
    rec::<V>(0, &mut sq, &kinds, rules, &mut count);
    let fact = |n: u8| (1..=n as u64).product::<u64>();
    count / (fact(m.wm) * fact(m.wk) * fact(m.bm) * fact(m.bk))
}

fn sizes_are_the_placements<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    for pieces in 2..=3 {
        for m in scheme.stored(pieces) {
            assert_eq!(
                scheme.size(m),
                brute_count::<V>(rules, m.material),
                "{}",
                scheme.name(m)
            );
        }
    }
}

/// Random entries of every 4-piece material; a position of another
/// material has no entry.
fn random_entries_round_trip<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    let mut rng = Rng(4);
    let others = scheme.stored(3);
    for m in scheme.stored(4) {
        let index = scheme.part_index(m);
        for _ in 0..2000 {
            let e = rng.below(index.size());
            let stm = SIDES[rng.below(2) as usize];
            let p = index.position(e, stm);
            assert_eq!(index.rank(&p), Some(e), "{} {p:?}", scheme.name(m));
            let other = others[rng.below(others.len() as u64) as usize];
            assert_eq!(index.rank(&scheme.part_index(other).position(0, stm)), None);
        }
        // The last entry is a position too.
        let last = index.size() - 1;
        assert_eq!(index.rank(&index.position(last, Side::Black)), Some(last));
    }
}

#[test]
fn english_index_round_trips() {
    every_entry_round_trips::<English>(&ENGLISH);
    sizes_are_the_placements::<English>(&ENGLISH);
    random_entries_round_trip::<English>(&ENGLISH);
}

#[test]
fn classical_index_round_trips() {
    every_entry_round_trips::<Classical>(&CLASSICAL);
    sizes_are_the_placements::<Classical>(&CLASSICAL);
    random_entries_round_trip::<Classical>(&CLASSICAL);
}

#[test]
fn names_read_back_and_keys_are_distinct() {
    let scheme = CheckersScheme::<English>::new(&ENGLISH);
    let mut keys = std::collections::HashSet::new();
    for pieces in 2..=6 {
        for m in scheme.stored(pieces) {
            let name = scheme.name(m);
            assert_eq!(scheme.parse(&name), Some(m), "{name}");
            assert!(keys.insert(CheckersScheme::<English>::key(m)), "{name}");
            assert!((CheckersScheme::<English>::key(m) as usize) < CheckersScheme::<English>::KEYS);
        }
    }
    let kkvk = Material {
        wm: 0,
        wk: 2,
        bm: 0,
        bk: 1,
    };
    assert_eq!(scheme.name(kkvk.into()), "KKvK");
    assert_eq!(
        scheme.name(
            Material {
                wm: 1,
                wk: 1,
                bm: 2,
                bk: 0
            }
            .into()
        ),
        "KMvMM"
    );
    for bad in ["", "v", "Kv", "vK", "MKvK", "KxvK", "KKKKKvKKKK", "KvKvK"] {
        assert_eq!(scheme.parse(bad), None, "{bad}");
    }
}

#[test]
fn stored_order_puts_every_promotion_and_capture_before() {
    let scheme = CheckersScheme::<Classical>::new(&CLASSICAL);
    for pieces in 2..=6 {
        let order = CheckersScheme::<Classical>::materials(pieces);
        for (i, m) in order.iter().enumerate() {
            // A promotion of either side: one man fewer, one king more.
            let promoted = [
                (m.wm > 0).then(|| Material {
                    wm: m.wm - 1,
                    wk: m.wk + 1,
                    ..*m
                }),
                (m.bm > 0).then(|| Material {
                    bm: m.bm - 1,
                    bk: m.bk + 1,
                    ..*m
                }),
            ];
            for p in promoted.into_iter().flatten() {
                let at = order.iter().position(|x| *x == p).expect("stored");
                assert!(
                    at < i,
                    "{} before {}",
                    scheme.name(p.into()),
                    scheme.name((*m).into())
                );
            }
        }
    }
}

/// `needed` holds a material, everything one move of it leads to (each
/// side keeping a piece) and nothing else, in build order.
#[test]
fn needed_is_closed_and_in_build_order() {
    let scheme = CheckersScheme::<English>::new(&ENGLISH);
    for pieces in 2..=5 {
        for m in CheckersScheme::<English>::materials(pieces) {
            let need = CheckersScheme::<English>::needed(m);
            assert!(need.contains(&m));
            for n in &need {
                let next = [
                    (n.wm > 0).then(|| Material { wm: n.wm - 1, ..*n }),
                    (n.bk > 0).then(|| Material { bk: n.bk - 1, ..*n }),
                    (n.bm > 0).then(|| Material {
                        bm: n.bm - 1,
                        bk: n.bk + 1,
                        ..*n
                    }),
                ];
                for c in next.into_iter().flatten() {
                    if c.wm + c.wk > 0 && c.bm + c.bk > 0 {
                        assert!(
                            need.contains(&c),
                            "{} leads to {}",
                            scheme.name((*n).into()),
                            scheme.name(c.into())
                        );
                    }
                }
                // Nothing with more pieces, or more men, than it started with.
                assert!(n.pieces() <= m.pieces() && n.wm <= m.wm && n.bm <= m.bm);
            }
            let order: Vec<_> = (2..=pieces)
                .flat_map(CheckersScheme::<English>::materials)
                .collect();
            let at: Vec<_> = need
                .iter()
                .map(|n| order.iter().position(|o| o == n))
                .collect();
            assert!(at.iter().all(Option::is_some), "{}", scheme.name(m.into()));
            assert!(
                at.windows(2).all(|w| w[0] < w[1]),
                "{}: not in build order",
                scheme.name(m.into())
            );
        }
    }
    // A king and a man a side: each side keeps (men, kings) among (1, 1),
    // (0, 2) by crowning, (1, 0) and (0, 1) by losing a piece; all 16 pairs.
    let kmvkm = scheme.parse("KMvKM").expect("a material").material;
    let mut need = CheckersScheme::<English>::needed(kmvkm);
    let sides = [(1, 1), (0, 2), (1, 0), (0, 1)];
    let mut all: Vec<Material> = sides
        .iter()
        .flat_map(|&(wm, wk)| {
            sides
                .iter()
                .map(move |&(bm, bk)| Material { wm, wk, bm, bk })
        })
        .collect();
    need.sort();
    all.sort();
    assert_eq!(need, all);
}
