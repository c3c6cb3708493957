//! How checkers positions spread over table files: one table per material,
//! both sides to move stored, named and ordered so that every table is
//! built after those its moves lead to.

use super::index::{CheckersIndex, Material};
use crate::position::Position;
use crate::variant::{Classical, English, RuleSet, Variant};
use std::marker::PhantomData;
use zoo_core::{Game, Stored, TableIndex, TableScheme};

/// The most pieces a checkers table is named, sized and planned for: 8,
/// so that `zoo tb plan` can say what 8 pieces would cost. Building is
/// bounded by memory instead: the generic generator holds a table whole,
/// and the plan refuses every table larger than a machine's memory (from
/// 7 pieces on, the largest of each size).
pub const MAX_PIECES: u32 = 8;

/// The tables of variant `V` under one rule set.
///
/// Names: White's pieces, `v`, Black's pieces, each side's kings (`K`)
/// before its men (`M`): `KKvK` is two White kings against one Black
/// king, `KMvMM` a White king and man against two Black men.
///
/// Order ([`TableScheme::stored`]): within a piece count, by the number of
/// men (both sides) ascending, then by (White men, White kings, Black men,
/// Black kings). A capture leads to fewer pieces, built before; a
/// promotion turns a man into a king, one man fewer, so it also leads to a
/// material built before; a quiet move without crowning stays inside.
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
    type Material = Material;
    /// Every material a position can have (each side 0–12 pieces).
    const KEYS: usize = 91 * 91;

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
    fn key(m: Material) -> u16 {
        side_key(m.wm, m.wk) * 91 + side_key(m.bm, m.bk)
    }
    fn name(&self, m: Material) -> String {
        let side = |men: u8, kings: u8| "K".repeat(kings as usize) + &"M".repeat(men as usize);
        format!("{}v{}", side(m.wm, m.wk), side(m.bm, m.bk))
    }
    fn parse(&self, s: &str) -> Option<Material> {
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
    fn pieces(m: Material) -> u32 {
        m.pieces()
    }
    fn max_pieces(&self) -> u32 {
        MAX_PIECES
    }
    fn stored(&self, pieces: u32) -> Vec<Material> {
        if pieces > MAX_PIECES {
            return Vec::new();
        }
        Self::materials(pieces)
    }
    fn stored_sides(_: Material) -> usize {
        2
    }
    fn size(&self, m: Material) -> u64 {
        self.index(m).size()
    }
    fn locate(&self, pos: &Position<V>) -> Stored<Material> {
        let material = Material::of(pos);
        Stored {
            material,
            side: pos.side_to_move().index(),
            entry: self.index(material).rank_of(pos),
        }
    }
    fn position(&self, m: Material, side: usize, entry: u64) -> Position<V> {
        let stm = if side == 0 {
            zoo_core::Side::White
        } else {
            zoo_core::Side::Black
        };
        self.index(m).position(entry, stm)
    }
}
