//! Slices of one material's table: its positions split by the row of each
//! side's most advanced man, as Chinook and Kingsrow split theirs, so that
//! no part of a 7- or 8-piece table has to be held whole to be solved.
//!
//! A man moves only forward, so a quiet move leaves its side's most
//! advanced man where it was or further on: a slice's quiet moves stay in
//! it or go to a slice with one side's lead further on, built before it
//! (the order of [`slices`]). Captures and promotions leave the material,
//! as in the whole tables.
//!
//! The index of a slice places, as [`super::index`] does, group by group,
//! every group's free squares fixed once a few counts are:
//!
//! 1. White's men, in White's own view (row 0 its back row), all in rows
//!    `0..=lw` and at least one in row `lw`. Black's men can share only
//!    the rows Black's own rows `0..=lb` cover, so White's men are split
//!    into three regions: `H` (Black's rows below `lb`), `C` (Black's row
//!    `lb`) and `L` (rows Black's men do not reach here). A block is one
//!    count `a` of men in `H` and `c` in `C`.
//! 2. Black's men, in Black's own view, among the `4·lb + 4 − a − c`
//!    squares of its rows `0..=lb` that White's men left free, at least
//!    one in row `lb`: ranked from Black's back row (the combinatorial
//!    number system), those sets are the ranks from `C(4·lb − a, bm)` up
//!    to `C(4·lb + 4 − a − c, bm)`, one range.
//! 3. Kings as in the whole table, among the squares the men left free.
//!
//! So a slice's index is a sum over blocks of plain products: exact, and
//! as cheap to rank and unrank as the whole table's.

use super::index::{binom, subset_rank, subset_unrank, CheckersIndex, Material};
use crate::position::Position;
use crate::variant::{RuleSet, Variant};
use std::marker::PhantomData;
use zoo_core::{Side, TableIndex};

/// The lead of a side without men.
pub const NO_MEN: u8 = 7;

/// Where each side's most advanced man stands: its row counted from the
/// side's own back row (0–6; a man never stands on its crowning row), or
/// [`NO_MEN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Leads {
    /// White's most advanced man's row.
    pub white: u8,
    /// Black's.
    pub black: u8,
}

impl Leads {
    /// The leads of a position.
    pub fn of<V: Variant>(pos: &Position<V>) -> Leads {
        Leads {
            white: lead(own_view::<V>(Side::White, pos.men(Side::White))),
            black: lead(own_view::<V>(Side::Black, pos.men(Side::Black))),
        }
    }
}

/// What one table file holds: a whole material, or one slice of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Part {
    /// The material.
    pub material: Material,
    /// The slice; `None` for the whole material.
    pub leads: Option<Leads>,
}

impl Part {
    /// A whole material.
    pub fn whole(material: Material) -> Part {
        Part {
            material,
            leads: None,
        }
    }
    /// The slice of `material` with `leads`.
    pub fn slice(material: Material, leads: Leads) -> Part {
        Part {
            material,
            leads: Some(leads),
        }
    }
    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        self.material.pieces()
    }
    /// The part that holds the colour swaps of this one's positions (the
    /// board turned, the colours swapped): each side's lead is the other's.
    pub fn swapped(self) -> Part {
        Part {
            material: self.material.swapped(),
            leads: self.leads.map(|l| Leads {
                white: l.black,
                black: l.white,
            }),
        }
    }
}

impl From<Material> for Part {
    fn from(m: Material) -> Part {
        Part::whole(m)
    }
}

/// `bits` (a side's men) seen from that side: its back row is row 0 and
/// it moves towards higher bits.
#[inline(always)]
fn own_view<V: Variant>(side: Side, bits: u32) -> u32 {
    if Position::<V>::moves_up(side) {
        bits
    } else {
        bits.reverse_bits()
    }
}

/// The row of the highest man of `view` (a side's own view), or
/// [`NO_MEN`].
#[inline(always)]
fn lead(view: u32) -> u8 {
    if view == 0 {
        NO_MEN
    } else {
        ((31 - view.leading_zeros()) / 4) as u8
    }
}

/// The squares of rows `lo..=hi` (none when `lo > hi`).
#[inline(always)]
fn rows(lo: i32, hi: i32) -> u32 {
    if lo > hi || hi < 0 {
        return 0;
    }
    let lo = lo.max(0) as u32;
    let top = (4 * (hi as u32 + 1)).min(32);
    let below_top = if top == 32 {
        u32::MAX
    } else {
        (1u32 << top) - 1
    };
    below_top & !((1u32 << (4 * lo)) - 1)
}

/// The lowest row a side's most advanced man can have with `men` men.
fn lowest_lead(men: u8) -> u8 {
    (men as u32).div_ceil(4).saturating_sub(1) as u8
}

/// The leads `men` men can have, the most advanced first.
fn leads_of(men: u8) -> Vec<u8> {
    if men == 0 {
        vec![NO_MEN]
    } else if men > 28 {
        Vec::new()
    } else {
        (lowest_lead(men)..=6).rev().collect()
    }
}

/// The slices of `m` with at least one position, in build order: White's
/// lead from the most advanced, then Black's, so that every slice comes
/// after those its quiet moves lead to.
pub fn slices(m: Material) -> Vec<Part> {
    let mut out = Vec::new();
    for white in leads_of(m.wm) {
        for black in leads_of(m.bm) {
            if Shape::new(m, Leads { white, black }).size() > 0 {
                out.push(Part::slice(m, Leads { white, black }));
            }
        }
    }
    out
}

/// Whether `leads` can be those of material `m`.
pub fn leads_fit(m: Material, leads: Leads) -> bool {
    leads_of(m.wm).contains(&leads.white) && leads_of(m.bm).contains(&leads.black)
}

/// Sets of `k` squares of a region of `n` squares (whole rows), with at
/// least one in its top row when `top`.
#[inline]
fn region_count(n: u32, k: u32, top: bool) -> u64 {
    if top {
        binom(n, k) - binom(n.saturating_sub(4), k).min(binom(n, k))
    } else {
        binom(n, k)
    }
}

/// The rank of `set` among [`region_count`]'s sets of `region`.
#[inline]
fn region_rank(set: u32, region: u32, top: bool) -> u64 {
    let r = subset_rank(set, region);
    if top {
        r - binom(region.count_ones().saturating_sub(4), set.count_ones()).min(r)
    } else {
        r
    }
}

/// [`region_rank`]'s inverse.
#[inline]
fn region_unrank(r: u64, k: u32, region: u32, top: bool) -> u32 {
    let skip = if top {
        binom(region.count_ones().saturating_sub(4), k)
    } else {
        0
    };
    subset_unrank(r + skip, k, region)
}

/// One block of a slice: `a` White men in `H`, `c` in `C`.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: u64,
    /// Placements of White's men in `C` and `L` (those in `H` are the
    /// slowest-moving digit).
    n_c: u64,
    n_l: u64,
    /// Placements of Black's men for each of White's.
    n_b: u64,
    /// The first rank of Black's sets in this block (those with no man in
    /// row `lb` come before).
    b_skip: u64,
}

/// What a slice's index needs beyond its variant: its regions and blocks
/// and its size, the same in both games (computed in [`Shape::new`],
/// kept by the scheme for every stored slice).
#[derive(Clone, Debug)]
pub struct Shape {
    /// White's regions in its own view.
    h: u32,
    c: u32,
    l: u32,
    /// Which region holds row `lw`: 0 `H`, 1 `C`, 2 `L`, 3 none.
    top: u8,
    /// Black's rows `0..=lb` in its own view.
    black_rows: u32,
    /// `blocks[a][c]`, `None` when empty.
    blocks: [[Option<Block>; 5]; 9],
    /// The blocks in order, as `(a, c)`.
    order: Vec<(u8, u8)>,
    wk_size: u64,
    bk_size: u64,
    men_size: u64,
}

impl Shape {
    /// The shape of the slice `leads` of `m`. Leads that `m` cannot have
    /// give an empty slice.
    pub fn new(m: Material, leads: Leads) -> Shape {
        let (wm, bm) = (m.wm as u32, m.bm as u32);
        let (lw, lb) = (leads.white as i32, leads.black as i32);
        let fits = leads_fit(m, leads) && wm <= 8 && bm <= 28;
        let (h, c, l, top) = if !fits || wm == 0 {
            (0, 0, 0, 3)
        } else if leads.black == NO_MEN {
            (0, 0, rows(0, lw), 2)
        } else {
            let l = rows(0, lw.min(6 - lb));
            let c = if 7 - lb <= lw {
                rows(7 - lb, 7 - lb)
            } else {
                0
            };
            let h = rows(8 - lb, lw);
            let top = if lw >= 8 - lb {
                0
            } else if lw == 7 - lb {
                1
            } else {
                2
            };
            (h, c, l, top)
        };
        let black_rows = if leads.black == NO_MEN {
            0
        } else {
            rows(0, lb)
        };
        let mut blocks = [[None; 5]; 9];
        let mut order = Vec::new();
        let mut total = 0u64;
        if fits {
            let (nh, nc, nl) = (h.count_ones(), c.count_ones(), l.count_ones());
            for a in 0..=wm.min(nh) {
                for cc in 0..=(wm - a).min(nc) {
                    let rest = wm - a - cc;
                    let (n_h, n_c, n_l) = if wm == 0 {
                        (1, 1, 1)
                    } else {
                        (
                            region_count(nh, a, top == 0),
                            region_count(nc, cc, top == 1),
                            region_count(nl, rest, top == 2),
                        )
                    };
                    let (n_b, b_skip) = if bm == 0 {
                        (1, 0)
                    } else {
                        let avail = (4 * (lb as u32 + 1)).saturating_sub(a + cc);
                        let low = (4 * lb as u32).saturating_sub(a);
                        let skip = binom(low, bm);
                        (binom(avail, bm).saturating_sub(skip), skip)
                    };
                    let size = n_h
                        .saturating_mul(n_c)
                        .saturating_mul(n_l)
                        .saturating_mul(n_b);
                    if size == 0 {
                        continue;
                    }
                    blocks[a as usize][cc as usize] = Some(Block {
                        start: total,
                        n_c,
                        n_l,
                        n_b,
                        b_skip,
                    });
                    order.push((a as u8, cc as u8));
                    total = total.saturating_add(size);
                }
            }
        }
        let free = 32u32.saturating_sub(wm + bm);
        Shape {
            h,
            c,
            l,
            top,
            black_rows,
            blocks,
            order,
            wk_size: binom(free, m.wk as u32),
            bk_size: binom(free.saturating_sub(m.wk as u32), m.bk as u32),
            men_size: total,
        }
    }

    /// Entries per side to move.
    pub fn size(&self) -> u64 {
        self.men_size
            .saturating_mul(self.wk_size)
            .saturating_mul(self.bk_size)
    }
}

/// The index of one slice (see the module's text).
#[derive(Clone, Debug)]
pub struct SliceIndex<V: Variant> {
    m: Material,
    leads: Leads,
    rules: &'static RuleSet,
    shape: ShapeRef,
    _v: PhantomData<V>,
}

/// A slice's shape: the scheme's, shared for the process, or its own
/// (boxed, so that an index stays small to move).
#[derive(Clone, Debug)]
enum ShapeRef {
    Shared(&'static Shape),
    Own(Box<Shape>),
}

impl std::ops::Deref for ShapeRef {
    type Target = Shape;
    #[inline(always)]
    fn deref(&self) -> &Shape {
        match self {
            ShapeRef::Shared(s) => s,
            ShapeRef::Own(s) => s,
        }
    }
}

impl<V: Variant> SliceIndex<V> {
    /// The index of the slice `leads` of `m` under `rules`. Leads that `m`
    /// cannot have give an empty index.
    pub fn new(m: Material, leads: Leads, rules: &'static RuleSet) -> Self {
        Self::with(
            m,
            leads,
            rules,
            ShapeRef::Own(Box::new(Shape::new(m, leads))),
        )
    }

    /// The index of the slice `leads` of `m`, whose shape is `shape`
    /// (the scheme's, computed once).
    pub fn with_shape(
        m: Material,
        leads: Leads,
        rules: &'static RuleSet,
        shape: &'static Shape,
    ) -> Self {
        Self::with(m, leads, rules, ShapeRef::Shared(shape))
    }

    fn with(m: Material, leads: Leads, rules: &'static RuleSet, shape: ShapeRef) -> Self {
        SliceIndex {
            m,
            leads,
            rules,
            shape,
            _v: PhantomData,
        }
    }

    /// The entry of `pos`, whose material and leads must be this slice's
    /// (not checked).
    #[inline]
    pub fn rank_of(&self, pos: &Position<V>) -> u64 {
        let w = pos.men(Side::White);
        let b = pos.men(Side::Black);
        let wv = own_view::<V>(Side::White, w);
        let (a, cc) = (
            (wv & self.shape.h).count_ones(),
            (wv & self.shape.c).count_ones(),
        );
        let Some(block) = self
            .shape
            .blocks
            .get(a as usize)
            .and_then(|r| r.get(cc as usize))
            .copied()
            .flatten()
        else {
            return u64::MAX;
        };
        let r_h = region_rank(wv & self.shape.h, self.shape.h, self.shape.top == 0);
        let r_c = region_rank(wv & self.shape.c, self.shape.c, self.shape.top == 1);
        let r_l = region_rank(wv & self.shape.l, self.shape.l, self.shape.top == 2);
        let r_w = (r_h * block.n_c + r_c) * block.n_l + r_l;
        // White's men seen from Black's side are White's own view reversed.
        let r_b = if self.m.bm == 0 {
            0
        } else {
            let bv = own_view::<V>(Side::Black, b);
            subset_rank(bv, self.shape.black_rows & !wv.reverse_bits()) - block.b_skip
        };
        let men = block.start + r_w * block.n_b + r_b;
        let free = !(w | b);
        let wk = pos.kings_of(Side::White);
        let r_wk = subset_rank(wk, free);
        let r_bk = subset_rank(pos.kings_of(Side::Black), free & !wk);
        (men * self.shape.wk_size + r_wk) * self.shape.bk_size + r_bk
    }
}

impl<V: Variant> TableIndex<Position<V>> for SliceIndex<V> {
    fn size(&self) -> u64 {
        self.shape.size()
    }

    fn position(&self, entry: u64, stm: Side) -> Position<V> {
        let r_bk = entry % self.shape.bk_size.max(1);
        let e = entry / self.shape.bk_size.max(1);
        let r_wk = e % self.shape.wk_size.max(1);
        let men = e / self.shape.wk_size.max(1);
        // The last block starting at or before `men` (a handful of them).
        let (a, cc, block) = self
            .shape
            .order
            .iter()
            .rev()
            .map(|&(a, cc)| (a, cc, self.shape.blocks[a as usize][cc as usize]))
            .find_map(|(a, cc, b)| b.filter(|b| b.start <= men).map(|b| (a, cc, b)))
            .expect("an entry below the slice's size");
        let (a, cc) = (a as u32, cc as u32);
        let within = men - block.start;
        let r_b = within % block.n_b;
        let r_w = within / block.n_b;
        let r_l = r_w % block.n_l;
        let r_c = (r_w / block.n_l) % block.n_c;
        let r_h = r_w / block.n_l / block.n_c;
        let rest = self.m.wm as u32 - a - cc;
        let wv = region_unrank(r_h, a, self.shape.h, self.shape.top == 0)
            | region_unrank(r_c, cc, self.shape.c, self.shape.top == 1)
            | region_unrank(r_l, rest, self.shape.l, self.shape.top == 2);
        let w = own_view::<V>(Side::White, wv);
        let b = if self.m.bm == 0 {
            0
        } else {
            let bv = subset_unrank(
                r_b + block.b_skip,
                self.m.bm as u32,
                self.shape.black_rows & !wv.reverse_bits(),
            );
            own_view::<V>(Side::Black, bv)
        };
        let free = !(w | b);
        let wk = subset_unrank(r_wk, self.m.wk as u32, free);
        let bk = subset_unrank(r_bk, self.m.bk as u32, free & !wk);
        Position::from_bitboards(self.rules, w | wk, b | bk, wk | bk, stm)
            .expect("a slice keeps men off their crowning rows")
    }

    fn rank(&self, pos: &Position<V>) -> Option<u64> {
        self.holds(pos).then(|| self.rank_of(pos))
    }

    fn holds(&self, pos: &Position<V>) -> bool {
        Material::of(pos) == self.m && Leads::of(pos) == self.leads
    }

    fn rank_images(&self, pos: &Position<V>) -> [Option<u64>; 2] {
        [self.rank(pos), None]
    }

    fn folds(&self) -> bool {
        false
    }
}

/// The index of a [`Part`]: a whole material's or a slice's.
#[derive(Clone, Debug)]
pub enum PartIndex<V: Variant> {
    /// A whole material.
    Whole(CheckersIndex<V>),
    /// A slice.
    Slice(SliceIndex<V>),
}

impl<V: Variant> PartIndex<V> {
    /// The entry of `pos`, which must be of this part (not checked).
    #[inline]
    pub fn rank_of(&self, pos: &Position<V>) -> u64 {
        match self {
            PartIndex::Whole(i) => i.rank_of(pos),
            PartIndex::Slice(i) => i.rank_of(pos),
        }
    }
}

impl<V: Variant> TableIndex<Position<V>> for PartIndex<V> {
    fn size(&self) -> u64 {
        match self {
            PartIndex::Whole(i) => i.size(),
            PartIndex::Slice(i) => i.size(),
        }
    }
    fn position(&self, entry: u64, stm: Side) -> Position<V> {
        match self {
            PartIndex::Whole(i) => i.position(entry, stm),
            PartIndex::Slice(i) => i.position(entry, stm),
        }
    }
    fn rank(&self, pos: &Position<V>) -> Option<u64> {
        match self {
            PartIndex::Whole(i) => i.rank(pos),
            PartIndex::Slice(i) => i.rank(pos),
        }
    }
    fn holds(&self, pos: &Position<V>) -> bool {
        match self {
            PartIndex::Whole(i) => i.holds(pos),
            PartIndex::Slice(i) => i.holds(pos),
        }
    }
    fn rank_images(&self, pos: &Position<V>) -> [Option<u64>; 2] {
        [self.rank(pos), None]
    }
    fn folds(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_what_they_say() {
        assert_eq!(rows(0, 0), 0xF);
        assert_eq!(rows(1, 2), 0xFF0);
        assert_eq!(rows(0, 7), u32::MAX);
        assert_eq!(rows(3, 2), 0);
        assert_eq!(lead(0x10), 1);
        assert_eq!(lead(0), NO_MEN);
        assert_eq!(leads_of(5), vec![6, 5, 4, 3, 2, 1]);
    }
}
