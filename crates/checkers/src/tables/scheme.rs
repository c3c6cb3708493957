//! How checkers positions spread over table files: one table per material
//! below [`SLICED_FROM`] pieces, one per slice of a material from there on
//! ([`super::slice`]), both sides to move stored, named and ordered so that
//! every table is built after those its moves lead to.

use super::index::{CheckersIndex, Material};
use super::slice::{self, Leads, Part, PartIndex, Shape, SliceIndex, NO_MEN};
use crate::position::Position;
use crate::variant::{Classical, English, RuleSet, Variant};
use std::marker::PhantomData;
use std::sync::OnceLock;
use zoo_core::{Game, Stored, TableIndex, TableScheme};

/// The most pieces a checkers table is named, sized and planned for: 8,
/// so that `zoo tb plan` can say what 8 pieces would cost. Building is
/// bounded by memory instead: the generic generator holds a table whole,
/// and the plan refuses every table larger than a machine's memory.
pub const MAX_PIECES: u32 = 8;

/// From this many pieces on a material's table is split into slices by
/// the rows of the sides' most advanced men: whole, the largest 7-piece
/// tables need about 45 GB to solve, the largest 7-piece slice 5.7 GB.
pub const SLICED_FROM: u32 = 7;

/// The keys of whole materials: each side's key below 91.
const WHOLE_KEYS: usize = 91 * 91;

/// Keys per sliced material: 8 leads a side.
const SLICE_KEYS: usize = 64;

/// Each material's place among the sliced ones (`SLICED_FROM..=MAX_PIECES`
/// pieces, in order), by whole key; `u16::MAX` for the others. A slice's
/// key is its material's place times 64, past the whole materials' keys.
fn sliced_places() -> &'static [u16] {
    static S: OnceLock<Vec<u16>> = OnceLock::new();
    S.get_or_init(|| {
        let mut place = vec![u16::MAX; WHOLE_KEYS];
        let list = (SLICED_FROM..=MAX_PIECES).flat_map(materials_of);
        for (i, m) in list.enumerate() {
            place[whole_key(m) as usize] = i as u16;
        }
        place
    })
}

/// `m`'s place among the sliced materials, if it is one.
#[inline]
fn sliced_place(m: Material) -> Option<usize> {
    let i = sliced_places()[whole_key(m) as usize];
    (i != u16::MAX).then_some(i as usize)
}

/// The number of sliced materials: 104 of 7 pieces, 147 of 8.
const SLICED_MATERIALS: usize = 251;

fn whole_key(m: Material) -> u16 {
    side_key(m.wm, m.wk) * 91 + side_key(m.bm, m.bk)
}

/// Where the slice `leads` of `m` is among the slices' keys and kept
/// shapes: `None` unless `m` is sliced (7 or 8 pieces) and both leads are
/// below 8, so that no two slices share a place.
#[inline]
fn slice_slot(m: Material, leads: Leads) -> Option<usize> {
    let i = sliced_place(m)?;
    (leads.white <= NO_MEN && leads.black <= NO_MEN)
        .then(|| i * SLICE_KEYS + leads.white as usize * 8 + leads.black as usize)
}

/// A side's lead as a slice's name writes it: the rank of its most
/// advanced man from its own side (1–7), 0 without men.
fn lead_digit(lead: u8) -> char {
    if lead == NO_MEN {
        '0'
    } else {
        char::from(b'1' + lead)
    }
}

/// The tables of variant `V` under one rule set.
///
/// Names: White's pieces, `v`, Black's pieces, each side's kings (`K`)
/// before its men (`M`): `KKvK` is two White kings against one Black
/// king, `KMvMM` a White king and man against two Black men.
///
/// From [`SLICED_FROM`] pieces on, a table is one slice of a material
/// ([`super::slice`]), named with the ranks of both sides' most advanced
/// men: `KKMMvKKMM-75`.
///
/// Order ([`TableScheme::stored`]): within a piece count, by the number of
/// men (both sides) ascending, then by (White men, White kings, Black men,
/// Black kings); a material's slices with the leads furthest on first. A
/// capture leads to fewer pieces, built before; a promotion turns a man
/// into a king, one man fewer, so it also leads to a material built
/// before; a quiet move without crowning stays in the material, in the
/// same slice or one built before.
#[derive(Clone, Debug)]
pub struct CheckersScheme<V: Variant> {
    rules: &'static RuleSet,
    _v: PhantomData<V>,
}

/// English checkers' tables.
pub type EnglishScheme = CheckersScheme<English>;
/// Classical checkers' tables.
pub type ClassicalScheme = CheckersScheme<Classical>;

/// One side's men and kings as a number below 91 (at most 12 pieces: a
/// side never has more).
fn side_key(men: u8, kings: u8) -> u16 {
    let n = (men + kings) as u16;
    n * (n + 1) / 2 + kings as u16
}

impl<V: Variant> CheckersScheme<V> {
    /// The index of material `m`.
    pub fn index(&self, m: Material) -> CheckersIndex<V> {
        CheckersIndex::new(m, self.rules)
    }

    /// Every material with `pieces` pieces, each side at least one, in the
    /// order of [`TableScheme::stored`].
    pub fn materials(pieces: u32) -> Vec<Material> {
        materials_of(pieces)
    }

    /// The index of part `p` (a whole material or a slice).
    pub fn part_index(&self, p: Part) -> PartIndex<V> {
        match p.leads {
            None => PartIndex::Whole(self.index(p.material)),
            Some(l) => PartIndex::Slice(self.slice_index(p.material, l)),
        }
    }

    /// The index of the slice `leads` of `m`: a stored slice's shape is
    /// computed once for the process (a table build locates every child
    /// of every entry, and a shape costs ten times a whole index's
    /// numbers), any other's each time.
    pub fn slice_index(&self, m: Material, leads: Leads) -> SliceIndex<V> {
        let Some(at) = slice_slot(m, leads) else {
            return SliceIndex::new(m, leads, self.rules);
        };
        static SHAPES: OnceLock<Box<[OnceLock<Box<Shape>>]>> = OnceLock::new();
        let shapes = SHAPES.get_or_init(|| {
            (0..SLICED_MATERIALS * SLICE_KEYS)
                .map(|_| OnceLock::new())
                .collect()
        });
        let shape: &'static Shape = shapes[at].get_or_init(|| Box::new(Shape::new(m, leads)));
        SliceIndex::with_shape(m, leads, self.rules, shape)
    }

    /// The slices of `m` with a position, in build order, whatever its
    /// size (the stored tables slice from [`SLICED_FROM`] pieces on; their
    /// lists are kept, as a build plan asks for them again and again).
    pub fn slices(&self, m: Material) -> Vec<Part> {
        let Some(i) = sliced_place(m) else {
            return slice::slices(m);
        };
        static LISTS: OnceLock<Box<[OnceLock<Vec<Part>>]>> = OnceLock::new();
        let lists = LISTS.get_or_init(|| (0..SLICED_MATERIALS).map(|_| OnceLock::new()).collect());
        lists[i].get_or_init(|| slice::slices(m)).clone()
    }

    /// How the tables store material `m`: whole below [`SLICED_FROM`]
    /// pieces, else its slices.
    pub fn parts(&self, m: Material) -> Vec<Part> {
        if m.pieces() < SLICED_FROM {
            vec![Part::whole(m)]
        } else {
            self.slices(m)
        }
    }

    /// Every stored part a game from `p` can reach, `p` left out: the
    /// tables that must be there before `p`'s is built. For a slice, the
    /// slices of its material with both leads at least as far on, and
    /// every part of the materials it leads to.
    pub fn needed_parts(&self, p: Part) -> Vec<Part> {
        let mut out = Vec::new();
        for n in Self::needed(p.material) {
            if n == p.material {
                if let Some(l) = p.leads {
                    out.extend(self.slices(n).into_iter().filter(|q| {
                        q.leads
                            .is_some_and(|k| *q != p && k.white >= l.white && k.black >= l.black)
                    }));
                }
            } else {
                out.extend(self.parts(n));
            }
        }
        out
    }
}

/// A material's name (`KKMvKM`: each side's kings, then its men, `v`
/// between the sides), at most [`MAX_PIECES`] pieces.
pub fn parse_material(s: &str) -> Option<Material> {
    let side = |t: &str| -> Option<(u8, u8)> {
        let kings = t.len() - t.trim_start_matches('K').len();
        let men = t[kings..].len();
        (t[kings..].bytes().all(|c| c == b'M') && men + kings > 0)
            .then_some((men as u8, kings as u8))
    };
    let (w, b) = s.split_once('v')?;
    if w.len() + b.len() > MAX_PIECES as usize {
        return None;
    }
    let ((wm, wk), (bm, bk)) = (side(w)?, side(b)?);
    Some(Material { wm, wk, bm, bk })
}

/// Every material with `pieces` pieces, each side at least one, in build
/// order.
fn materials_of(pieces: u32) -> Vec<Material> {
    let mut out = Vec::new();
    let p = pieces as u8;
    for wm in 0..=p {
        for wk in 0..=p - wm {
            for bm in 0..=p - wm - wk {
                let bk = p - wm - wk - bm;
                if wm + wk == 0 || bm + bk == 0 || wm + wk > 12 || bm + bk > 12 {
                    continue;
                }
                out.push(Material { wm, wk, bm, bk });
            }
        }
    }
    out.sort_by_key(|m| (m.men(), *m));
    out
}

impl<V: Variant> CheckersScheme<V> {
    /// Material `m` and every material its positions can lead to (by
    /// captures and promotions, any number of moves on), each side keeping
    /// a piece, in build order: the tables a build of `m` alone needs.
    pub fn needed(m: Material) -> Vec<Material> {
        let mut out = vec![m];
        let mut i = 0;
        while i < out.len() {
            let n = out[i];
            i += 1;
            // One move's changes; a capture of several pieces is several
            // steps of one piece each, all kept.
            let next = [
                (n.wm > 0).then(|| Material { wm: n.wm - 1, ..n }),
                (n.wk > 0).then(|| Material { wk: n.wk - 1, ..n }),
                (n.bm > 0).then(|| Material { bm: n.bm - 1, ..n }),
                (n.bk > 0).then(|| Material { bk: n.bk - 1, ..n }),
                (n.wm > 0).then(|| Material {
                    wm: n.wm - 1,
                    wk: n.wk + 1,
                    ..n
                }),
                (n.bm > 0).then(|| Material {
                    bm: n.bm - 1,
                    bk: n.bk + 1,
                    ..n
                }),
            ];
            for c in next.into_iter().flatten() {
                if c.wm + c.wk > 0 && c.bm + c.bk > 0 && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }
}

impl<V: Variant> TableScheme for CheckersScheme<V> {
    type Pos = Position<V>;
    type Material = Part;
    /// Every whole material a position can have (each side 0–12 pieces),
    /// then 64 a sliced material.
    const KEYS: usize = WHOLE_KEYS + SLICED_MATERIALS * SLICE_KEYS;

    fn new(rules: &'static RuleSet) -> Self {
        CheckersScheme {
            rules,
            _v: PhantomData,
        }
    }
    fn rules(&self) -> &&'static RuleSet {
        &self.rules
    }
    fn game(&self) -> &'static str {
        V::GAME
    }
    fn rules_name(&self) -> &'static str {
        self.rules.name
    }
    /// A whole material's key is below 8,281 (as before slices); a
    /// slice's follows, 64 for each sliced material. A part the scheme
    /// does not store (a slice of a smaller material) is given the key
    /// of its whole material.
    fn key(p: Part) -> u16 {
        let whole = whole_key(p.material);
        match p.leads.and_then(|l| slice_slot(p.material, l)) {
            Some(at) => (WHOLE_KEYS + at) as u16,
            None => {
                debug_assert!(p.leads.is_none(), "{p:?} is not a stored slice");
                whole
            }
        }
    }
    /// `KKMvKM` for a whole material; a slice adds `-` and each side's
    /// lead as the rank of its most advanced man from its own side (1–7,
    /// 0 without men): `KKMMvKKMM-75`.
    fn name(&self, p: Part) -> String {
        let m = p.material;
        let side = |men: u8, kings: u8| "K".repeat(kings as usize) + &"M".repeat(men as usize);
        let whole = format!("{}v{}", side(m.wm, m.wk), side(m.bm, m.bk));
        match p.leads {
            Some(l) => format!("{whole}-{}{}", lead_digit(l.white), lead_digit(l.black)),
            None => whole,
        }
    }
    /// A stored part's name: a whole material below [`SLICED_FROM`]
    /// pieces, a slice from there on.
    fn parse(&self, s: &str) -> Option<Part> {
        let (material, leads) = match s.split_once('-') {
            Some((m, l)) => (m, Some(l)),
            None => (s, None),
        };
        let m = parse_material(material)?;
        let digit = |c: u8| match c {
            b'0' => Some(NO_MEN),
            b'1'..=b'7' => Some(c - b'1'),
            _ => None,
        };
        match leads {
            None => (m.pieces() < SLICED_FROM).then_some(Part::whole(m)),
            Some(l) => {
                let &[a, b] = l.as_bytes() else {
                    return None;
                };
                let leads = Leads {
                    white: digit(a)?,
                    black: digit(b)?,
                };
                let p = Part::slice(m, leads);
                (m.pieces() >= SLICED_FROM && self.part_index(p).size() > 0).then_some(p)
            }
        }
    }
    fn pieces(p: Part) -> u32 {
        p.pieces()
    }
    fn max_pieces(&self) -> u32 {
        MAX_PIECES
    }
    fn stored(&self, pieces: u32) -> Vec<Part> {
        if pieces > MAX_PIECES {
            return Vec::new();
        }
        Self::materials(pieces)
            .into_iter()
            .flat_map(|m| self.parts(m))
            .collect()
    }
    fn stored_sides(_: Part) -> usize {
        2
    }
    fn size(&self, p: Part) -> u64 {
        self.part_index(p).size()
    }
    fn locate(&self, pos: &Position<V>) -> Stored<Part> {
        let material = Material::of(pos);
        let side = pos.side_to_move().index();
        // Beyond MAX_PIECES no table exists: named whole, as before.
        if !(SLICED_FROM..=MAX_PIECES).contains(&material.pieces()) {
            return Stored {
                material: Part::whole(material),
                side,
                entry: self.index(material).rank_of(pos),
            };
        }
        let leads = Leads::of(pos);
        Stored {
            material: Part::slice(material, leads),
            side,
            entry: self.slice_index(material, leads).rank_of(pos),
        }
    }
    fn position(&self, p: Part, side: usize, entry: u64) -> Position<V> {
        let stm = if side == 0 {
            zoo_core::Side::White
        } else {
            zoo_core::Side::Black
        };
        self.part_index(p).position(entry, stm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sliced_materials_are_counted_right() {
        let places = sliced_places().iter().filter(|&&i| i != u16::MAX).count();
        assert_eq!(places, SLICED_MATERIALS);
    }
}
