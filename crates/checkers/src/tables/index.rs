//! The dense index of one checkers material: every placement of its
//! pieces on the 32 dark squares, men never on their own crowning row,
//! numbered by the combinatorial number system.
//!
//! The pieces are placed group by group, each group a set of squares
//! chosen among those the groups before left free:
//!
//! 1. White's men, split by how many (`j`) stand on Black's crowning row,
//!    where no Black man may stand: `j` of those 4 squares and the rest
//!    among the 24 squares of rows 1–6, in which both sides' men may stand;
//! 2. Black's men among the squares a Black man may hold that White's men
//!    left free: always `28 − (wm − j)` of them;
//! 3. White's kings among the `32 − wm − bm` free squares, then Black's
//!    kings among the `32 − wm − bm − wk` still free.
//!
//! Every group's count of free squares is fixed once `j` is, so the index
//! is a sum over `j` of plain products: exact (every entry a position,
//! every position one entry) and cheap to rank and unrank.

use crate::geometry::row_mask;
use crate::position::Position;
use crate::variant::{RuleSet, Variant};
use std::marker::PhantomData;
use zoo_core::{Side, TableIndex};

/// `BINOM[n][k]`: n choose k, for n, k ≤ 32.
static BINOM: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// n choose k (0 when k > n or beyond the board's 32 squares).
#[inline(always)]
pub(super) fn binom(n: u32, k: u32) -> u64 {
    if n > 32 || k > 32 {
        return 0;
    }
    BINOM[n as usize][k as usize]
}

/// The rank of the squares of `set` among those of `avail` (a subset of
/// it): the combinatorial number system over their places in `avail`.
#[inline]
pub(super) fn subset_rank(set: u32, avail: u32) -> u64 {
    let mut r = 0u64;
    let mut b = set;
    let mut i = 1;
    while b != 0 {
        let s = b.trailing_zeros();
        let c = (avail & ((1u32 << s) - 1)).count_ones();
        r = r.wrapping_add(binom(c, i));
        b &= b - 1;
        i += 1;
    }
    r
}

/// `SELECT8[b][n]`: the place of the `n`-th set bit (from 0) of byte `b`
/// (8 when `b` has fewer).
static SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut n, mut bit) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The square of the `n`-th (from 0) set bit of `x`, which has more than
/// `n`: a byte's count at a time, then the byte's table (x86-64-v2 has no
/// PDEP to do it in one instruction).
#[inline(always)]
fn select_bit(mut x: u32, mut n: u32) -> u32 {
    let mut base = 0;
    loop {
        let c = (x & 0xff).count_ones();
        if n < c || base >= 24 {
            return base + SELECT8[(x & 0xff) as usize][(n as usize).min(7)] as u32;
        }
        n -= c;
        x >>= 8;
        base += 8;
    }
}

/// The `k` squares of `avail` whose rank is `r` ([`subset_rank`]'s
/// inverse). A rank too large still gives distinct squares of `avail`.
///
/// Each square's place among `avail`'s is found by a binary search of the
/// binomials, then its square by [`select_bit`]: decoding entries is the
/// largest share of a table build's time, and walking `avail` square by
/// square cost three times as much.
#[inline]
pub(super) fn subset_unrank(mut r: u64, k: u32, avail: u32) -> u32 {
    let mut out = 0u32;
    // Places below `hi` are still free to take.
    let mut hi = avail.count_ones();
    for i in (1..=k).rev() {
        if hi == 0 {
            break;
        }
        // The highest place c < hi with C(c, i) ≤ r: C(i − 1, i) = 0, so
        // there is one from i − 1 on (C(c, i) grows with c there).
        let (mut lo, mut top) = ((i - 1).min(hi - 1), hi - 1);
        while lo < top {
            let mid = (lo + top).div_ceil(2);
            if binom(mid, i) <= r {
                lo = mid;
            } else {
                top = mid - 1;
            }
        }
        r -= binom(lo, i).min(r);
        out |= 1u32 << select_bit(avail, lo);
        hi = lo;
    }
    out
}

/// A material: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material {
    /// White's men.
    pub wm: u8,
    /// White's kings.
    pub wk: u8,
    /// Black's men.
    pub bm: u8,
    /// Black's kings.
    pub bk: u8,
}

impl Material {
    /// The material of a position.
    pub fn of<V: Variant>(pos: &Position<V>) -> Material {
        let count = |b: u32| b.count_ones() as u8;
        Material {
            wm: count(pos.men(Side::White)),
            wk: count(pos.kings_of(Side::White)),
            bm: count(pos.men(Side::Black)),
            bk: count(pos.kings_of(Side::Black)),
        }
    }
    /// Pieces on the board.
    pub fn pieces(self) -> u32 {
        (self.wm + self.wk + self.bm + self.bk) as u32
    }
    /// Men on the board (both sides).
    pub fn men(self) -> u32 {
        (self.wm + self.bm) as u32
    }
    /// The same material with the colours swapped.
    pub fn swapped(self) -> Material {
        Material {
            wm: self.bm,
            wk: self.bk,
            bm: self.wm,
            bk: self.wk,
        }
    }
}

/// The index of one material of variant `V` (see the module's text).
#[derive(Clone, Debug)]
pub struct CheckersIndex<V: Variant> {
    m: Material,
    rules: &'static RuleSet,
    /// Black's crowning row: White's men may stand there, Black's not.
    black_far: u32,
    /// Rows 1–6: both sides' men may stand there.
    middle: u32,
    /// Where Black's men may stand.
    black_men: u32,
    /// Entries of the men's placements with `j` White men on `black_far`
    /// (`count[j]`), and where they start (`start[j]`).
    count: [u64; 5],
    start: [u64; 5],
    /// Placements of White's kings, of Black's kings, of all men.
    wk_size: u64,
    bk_size: u64,
    men_size: u64,
    _v: PhantomData<V>,
}

impl<V: Variant> CheckersIndex<V> {
    /// The index of `m` under `rules`. A material has positions only with
    /// at most 12 pieces a side (every position's has); decoding an entry
    /// of any other panics.
    pub fn new(m: Material, rules: &'static RuleSet) -> Self {
        let black_far = Position::<V>::far_row(Side::Black);
        let white_far = Position::<V>::far_row(Side::White);
        debug_assert!(black_far | white_far == row_mask(0) | row_mask(7));
        let (wm, bm) = (m.wm as u32, m.bm as u32);
        let mut count = [0u64; 5];
        let mut start = [0u64; 5];
        let mut total = 0u64;
        for j in 0..=wm.min(4) {
            let rest = wm - j;
            count[j as usize] = binom(4, j)
                .saturating_mul(binom(24, rest))
                .saturating_mul(binom(28u32.saturating_sub(rest), bm));
            start[j as usize] = total;
            total = total.saturating_add(count[j as usize]);
        }
        let free = 32u32.saturating_sub(wm + bm);
        CheckersIndex {
            m,
            rules,
            black_far,
            middle: !(black_far | white_far),
            black_men: !black_far,
            count,
            start,
            wk_size: binom(free, m.wk as u32),
            bk_size: binom(free.saturating_sub(m.wk as u32), m.bk as u32),
            men_size: total,
            _v: PhantomData,
        }
    }

    /// The material indexed.
    pub fn material(&self) -> Material {
        self.m
    }

    /// The entry of `pos`, whose material must be this one (not checked).
    #[inline]
    pub fn rank_of(&self, pos: &Position<V>) -> u64 {
        let (wm, bm) = (self.m.wm as u32, self.m.bm as u32);
        let w = pos.men(Side::White);
        let b = pos.men(Side::Black);
        let on_far = w & self.black_far;
        let j = on_far.count_ones();
        let rest = wm.wrapping_sub(j);
        let r_far = subset_rank(on_far, self.black_far);
        let r_mid = subset_rank(w & self.middle, self.middle);
        let r_b = subset_rank(b, self.black_men & !w);
        let men = self.start[(j as usize).min(4)].wrapping_add(
            r_far
                .wrapping_mul(binom(24, rest))
                .wrapping_add(r_mid)
                .wrapping_mul(binom(28u32.wrapping_sub(rest), bm))
                .wrapping_add(r_b),
        );
        let free = !(w | b);
        let wk = pos.kings_of(Side::White);
        let r_wk = subset_rank(wk, free);
        let r_bk = subset_rank(pos.kings_of(Side::Black), free & !wk);
        men.wrapping_mul(self.wk_size)
            .wrapping_add(r_wk)
            .wrapping_mul(self.bk_size)
            .wrapping_add(r_bk)
    }
}

impl<V: Variant> TableIndex<Position<V>> for CheckersIndex<V> {
    fn size(&self) -> u64 {
        self.men_size
            .saturating_mul(self.wk_size)
            .saturating_mul(self.bk_size)
    }

    fn position(&self, entry: u64, stm: Side) -> Position<V> {
        let (wm, bm) = (self.m.wm as u32, self.m.bm as u32);
        let r_bk = entry % self.bk_size.max(1);
        let e = entry / self.bk_size.max(1);
        let r_wk = e % self.wk_size.max(1);
        let men = e / self.wk_size.max(1);
        let last = wm.min(4) as usize;
        let j = (0..=last)
            .find(|&j| men < self.start[j].saturating_add(self.count[j]))
            .unwrap_or(last);
        let within = men - self.start[j].min(men);
        let rest = wm.saturating_sub(j as u32);
        let b_size = binom(28u32.saturating_sub(rest), bm).max(1);
        let mid_size = binom(24, rest).max(1);
        let r_b = within % b_size;
        let r_mid = (within / b_size) % mid_size;
        let r_far = within / b_size / mid_size;
        let w = subset_unrank(r_far, j as u32, self.black_far)
            | subset_unrank(r_mid, rest, self.middle);
        let b = subset_unrank(r_b, bm, self.black_men & !w);
        let free = !(w | b);
        let wk = subset_unrank(r_wk, self.m.wk as u32, free);
        let bk = subset_unrank(r_bk, self.m.bk as u32, free & !wk);
        Position::from_bitboards(self.rules, w | wk, b | bk, wk | bk, stm)
            .expect("the index keeps men off their crowning rows")
    }

    fn rank(&self, pos: &Position<V>) -> Option<u64> {
        self.holds(pos).then(|| self.rank_of(pos))
    }

    fn holds(&self, pos: &Position<V>) -> bool {
        Material::of(pos) == self.m
    }

    /// Checkers has no mirror image ([`zoo_core::Retro::mirrored`] is the
    /// identity): one entry per position.
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
    fn subsets_rank_densely_and_back() {
        let avail = 0b1011_0110_1101u32;
        let n = avail.count_ones();
        for k in 0..=4 {
            for r in 0..binom(n, k) {
                let set = subset_unrank(r, k, avail);
                assert_eq!(set.count_ones(), k);
                assert_eq!(set & !avail, 0);
                assert_eq!(subset_rank(set, avail), r);
            }
        }
    }

    #[test]
    fn select_finds_every_set_bit() {
        for x in [
            1u32,
            0x8000_0000,
            0xffff_ffff,
            0x0f0f_1234,
            0b1011_0110_1101,
        ] {
            let mut b = x;
            let mut n = 0;
            while b != 0 {
                assert_eq!(select_bit(x, n), b.trailing_zeros());
                b &= b - 1;
                n += 1;
            }
        }
    }
}
