//! Material configurations and the dense index of one configuration.
//!
//! A configuration is the set of kinds on the board for each side (one
//! piece of each kind per side at most, so two bit masks say it all). Its
//! index is a mixed-radix (Lehmer) code over the legal squares: pieces are
//! listed non-rats first (White's kinds, then Black's), rats last. Every
//! non-rat may stand on the land squares that are not a den, a rat also in
//! the water; since the earlier pieces always stand inside the squares a
//! later piece may use, piece `i` has exactly `|domain_i| - i` free squares
//! left, whatever the earlier pieces chose, and the code is a bijection onto
//! `0..size` with no hole. The left-right mirror is taken out by putting the
//! first piece on files a-d (mirroring the whole board when it is on e-g).
//! Positions with the first piece on file d keep both images: they cost
//! little and keep the code a plain product of radices.

use crate::board::{bit, file_of, rank_of, sq, Board, FILES, RAT};
use crate::{Position, RuleSet};
use std::marker::PhantomData;
use zoo_core::{Side, TableIndex};

/// Which kinds each side has on the board (bit `k` = kind `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's kinds (bit `k`: kind `k`).
    pub white: u8,
    /// Black's kinds.
    pub black: u8,
}

impl Material {
    /// The configuration of these two masks.
    pub fn new(white: u8, black: u8) -> Material {
        Material { white, black }
    }
    /// The configuration of a position.
    pub fn of<B: Board>(pos: &Position<B>) -> Material {
        let mut m = Material::new(0, 0);
        for k in 0..B::KINDS {
            if pos.square_of(Side::White, k).is_some() {
                m.white |= 1 << k;
            }
            if pos.square_of(Side::Black, k).is_some() {
                m.black |= 1 << k;
            }
        }
        m
    }
    /// How many pieces.
    pub fn pieces(self) -> u32 {
        self.white.count_ones() + self.black.count_ones()
    }
    /// The colour-swapped configuration (White's kinds are Black's).
    pub fn swapped(self) -> Material {
        Material::new(self.black, self.white)
    }
    /// Whether both sides have the same kinds.
    pub fn is_symmetric(self) -> bool {
        self.white == self.black
    }
    /// The sides to move its table stores: one for a colour-symmetric
    /// configuration (Black to move is White to move colour-swapped).
    pub fn stored_sides(self) -> usize {
        if self.is_symmetric() {
            1
        } else {
            2
        }
    }
    /// Of a colour-swapped pair, the one stored: more White pieces, or as
    /// many and the larger mask.
    pub fn is_canonical(self) -> bool {
        (self.white.count_ones(), self.white) >= (self.black.count_ones(), self.black)
    }
    /// A key for dense per-material arrays.
    pub fn key(self) -> usize {
        self.white as usize | (self.black as usize) << 8
    }
    /// `RDvte`: White's letters, `v`, Black's in lower case.
    pub fn name<B: Board>(self) -> String {
        let mut s = String::new();
        for k in 0..B::KINDS {
            if self.white & (1 << k) != 0 {
                s.push(B::LETTERS[k] as char);
            }
        }
        s.push('v');
        for k in 0..B::KINDS {
            if self.black & (1 << k) != 0 {
                s.push((B::LETTERS[k] as char).to_ascii_lowercase());
            }
        }
        s
    }
    /// Parses [`Material::name`]'s form.
    pub fn parse<B: Board>(s: &str) -> Option<Material> {
        let (w, b) = s.split_once('v')?;
        let mut m = Material::new(0, 0);
        for (part, mask, upper) in [(w, &mut m.white, true), (b, &mut m.black, false)] {
            for c in part.bytes() {
                if c.is_ascii_uppercase() != upper {
                    return None;
                }
                let k = B::LETTERS
                    .iter()
                    .position(|&l| l == c.to_ascii_uppercase())?;
                if *mask & (1 << k) != 0 {
                    return None;
                }
                *mask |= 1 << k;
            }
        }
        Some(m)
    }
    /// Every configuration with `n` pieces and both sides present, in a fixed order.
    pub fn all<B: Board>(n: u32) -> Vec<Material> {
        let full = (1u16 << B::KINDS) - 1;
        let mut v = Vec::new();
        for w in 1..=full {
            for b in 1..=full {
                let m = Material::new(w as u8, b as u8);
                if m.pieces() == n {
                    v.push(m);
                }
            }
        }
        v
    }
    /// The configurations that get a file: one of each colour-swapped pair.
    pub fn canonical<B: Board>(n: u32) -> Vec<Material> {
        Material::all::<B>(n)
            .into_iter()
            .filter(|m| m.is_canonical())
            .collect()
    }
}

/// Files a-d: where the first piece of an index stands.
const fn left_half(squares: u8) -> u64 {
    let mut m = 0u64;
    let mut s = 0u8;
    while s < squares {
        if s % FILES <= 3 {
            m |= 1 << s;
        }
        s += 1;
    }
    m
}

/// `SELECT_IN_BYTE[n][b]`: the n-th (0-based) set bit of byte `b` (8 if none).
static SELECT_IN_BYTE: [[u8; 256]; 8] = {
    let mut t = [[8u8; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[n][b] = i as u8;
                n += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The n-th (0-based) set bit of `x`; `x` has more than `n` set bits.
///
/// Walking an index calls it for nearly every entry, each piece's square
/// waiting for the one before, so its latency counts: with BMI2 (checked
/// once, at run time; the build targets older machines too) one bit
/// deposit, else `select_portable`. (AMD processors before Zen 3 have BMI2
/// but microcode the deposit, slower than the portable path there; the
/// project's machines are Intel.)
#[inline(always)]
fn select(x: u64, n: u32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2.
        return unsafe { select_bmi2(x, n) };
    }
    select_portable(x, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn select_bmi2(x: u64, n: u32) -> u8 {
    std::arch::x86_64::_pdep_u64(1u64 << n, x).trailing_zeros() as u8
}

/// [`select`] without branches (a loop whose length depends on the bits
/// is a mispredicted branch each time): the half, quarter and eighth of
/// the word holding the bit are found by popcounts, then a table gives the
/// bit within its byte.
#[inline(always)]
fn select_portable(mut x: u64, mut n: u32) -> u8 {
    let mut base = 0u32;
    for half in [32u32, 16, 8] {
        let low = (x & ((1u64 << half) - 1)).count_ones();
        let up = (n >= low) as u32;
        n -= low * up;
        base += half * up;
        x >>= half * up;
    }
    base as u8 + SELECT_IN_BYTE[n as usize][(x & 0xff) as usize]
}

/// The left-right mirror image of a square.
#[inline(always)]
pub fn mirror_sq(s: u8) -> u8 {
    sq(FILES - 1 - file_of(s), rank_of(s))
}

/// The square of the colour swap: ranks turned, files kept.
#[inline(always)]
pub fn turned<B: Board>(s: u8) -> u8 {
    sq(file_of(s), B::RANKS - 1 - rank_of(s))
}

/// The index of one material configuration.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The configuration indexed.
    pub material: Material,
    /// How many pieces.
    pub n: usize,
    /// Side and kind of each piece in index order.
    pub pieces: Vec<(Side, usize)>,
    /// `places[side][kind]`: that piece's place in `pieces` (`u8::MAX`
    /// when it is not on the board).
    places: [[u8; 8]; 2],
    domain: Vec<u64>,
    radix: Vec<u64>,
    /// `stride[i]`: the product of the radices after `i`. Sizes beyond
    /// `u64` (16 Jungle pieces) saturate; no table that large is built.
    stride: Vec<u64>,
    /// Entries per side to move.
    pub size: u64,
}

impl Layout {
    /// The index of a configuration.
    pub fn new<B: Board>(material: Material) -> Layout {
        let dens = bit(B::DEN[0]) | bit(B::DEN[1]);
        let all = B::all_squares() & !dens;
        let land = all & !B::WATER;
        let mut pieces = Vec::new();
        for (side, mask) in [(Side::White, material.white), (Side::Black, material.black)] {
            for k in 0..B::KINDS {
                if k != RAT && mask & (1 << k) != 0 {
                    pieces.push((side, k));
                }
            }
        }
        for (side, mask) in [(Side::White, material.white), (Side::Black, material.black)] {
            if mask & 1 != 0 {
                pieces.push((side, RAT));
            }
        }
        let n = pieces.len();
        let mut domain: Vec<u64> = pieces
            .iter()
            .map(|&(_, k)| if k == RAT { all } else { land })
            .collect();
        let mut radix: Vec<u64> = Vec::with_capacity(n);
        for i in 0..n {
            if i == 0 {
                domain[0] &= left_half(B::SQUARES);
                radix.push(domain[0].count_ones() as u64);
            } else {
                radix.push(domain[i].count_ones() as u64 - i as u64);
            }
        }
        let mut stride = vec![1u64; n];
        for i in (0..n.saturating_sub(1)).rev() {
            stride[i] = stride[i + 1].saturating_mul(radix[i + 1]);
        }
        let size = if n == 0 {
            0
        } else {
            stride[0].saturating_mul(radix[0])
        };
        let mut places = [[u8::MAX; 8]; 2];
        for (i, &(side, kind)) in pieces.iter().enumerate() {
            places[side.index()][kind] = i as u8;
        }
        Layout {
            material,
            n,
            pieces,
            places,
            domain,
            radix,
            stride,
            size,
        }
    }

    /// Index of the placement `sqs` (in index order), mirrored first when
    /// `mirror`. The first piece must then stand on files a-d.
    #[inline(always)]
    pub fn rank_squares(&self, sqs: &[u8], mirror: bool) -> u64 {
        let mut idx = 0u64;
        let mut occ = 0u64;
        for (i, &s) in sqs[..self.n].iter().enumerate() {
            let s = if mirror { mirror_sq(s) } else { s };
            let below = bit(s) - 1;
            let d = (self.domain[i] & below).count_ones() - (occ & below).count_ones();
            debug_assert!((d as u64) < self.radix[i], "square outside the domain");
            idx = idx * self.radix[i] + d as u64;
            occ |= bit(s);
        }
        idx
    }

    /// The place in index order of `side`'s piece of `kind`, if the
    /// configuration has it.
    #[inline(always)]
    pub fn place(&self, side: Side, kind: usize) -> Option<usize> {
        let p = self.places[side.index()][kind];
        (p != u8::MAX).then_some(p as usize)
    }

    /// For each piece of placement `sqs`, the squares it may stand on that
    /// no earlier piece takes: its digit counts those below its square.
    #[inline(always)]
    pub fn frees(&self, sqs: &[u8; 16]) -> [u64; 16] {
        let mut free = [0u64; 16];
        let mut occ = 0u64;
        for i in 0..self.n {
            free[i] = self.domain[i] & !occ;
            occ |= bit(sqs[i]);
        }
        free
    }

    /// The index of placement `sqs` (index `x`, so its first piece is on
    /// files a-d) after piece `i` moves to `new` (the first piece staying
    /// on a-d): only the digits from `i` on change, piece `j > i`'s by
    /// whether the moved piece passed below it, so this costs a compare per
    /// later piece instead of a full ranking. `occupied`: the squares of all
    /// pieces; `free`: piece `i`'s [`Layout::frees`] (the same for all
    /// its moves, so a caller taking back several works it out once).
    #[inline(always)]
    pub fn rank_moved(
        &self,
        x: u64,
        sqs: &[u8; 16],
        occupied: u64,
        free: u64,
        i: usize,
        new: u8,
    ) -> u64 {
        let old = sqs[i];
        let (lo, hi) = if old < new { (old, new) } else { (new, old) };
        // The digit changes by the free squares from the lower square up to
        // the higher (the lower is free: the moved piece's own or empty).
        let span = (bit(hi) - 1) & !(bit(lo) - 1);
        let d = (free & span).count_ones() as i64;
        let mut delta = if old < new { d } else { -d } * self.stride[i] as i64;
        // Only a later piece on a square strictly between the two changes
        // its digit: there is none for a step along the rank (the squares
        // are neighbours), nor mostly for a step along the file.
        let between = span & !bit(lo);
        if between & occupied != 0 {
            for (&s, &stride) in sqs[i + 1..self.n].iter().zip(&self.stride[i + 1..]) {
                delta += ((old < s) as i64 - (new < s) as i64) * stride as i64;
            }
        }
        x.wrapping_add(delta as u64)
    }

    /// The squares of the pieces of `pos` in index order; with `swap`, those of
    /// the colour-swapped position (colours exchanged, ranks turned).
    #[inline(always)]
    pub fn squares_of<B: Board>(&self, pos: &Position<B>, swap: bool, out: &mut [u8; 16]) {
        for (i, &(side, kind)) in self.pieces.iter().enumerate() {
            out[i] = if swap {
                turned::<B>(pos.square_of(side.flip(), kind).expect("material matches"))
            } else {
                pos.square_of(side, kind).expect("material matches")
            };
        }
    }

    /// Index of a placement, mirroring it when the first piece is on files e-g.
    #[inline(always)]
    pub fn rank(&self, sqs: &[u8]) -> u64 {
        self.rank_squares(sqs, file_of(sqs[0]) > 3)
    }

    /// The placement of an index (first piece on files a-d).
    #[inline(always)]
    pub fn unrank(&self, idx: u64, out: &mut [u8; 16]) {
        let mut digits = [0u32; 16];
        self.digits(idx, &mut digits);
        self.squares_from(&digits, 0, out);
    }

    /// The mixed-radix digits of an index.
    #[inline(always)]
    pub fn digits(&self, mut idx: u64, digits: &mut [u32; 16]) {
        debug_assert!(idx < self.size);
        if self.size <= u32::MAX as u64 {
            // 32-bit divisions are several times faster than 64-bit ones.
            let mut i32 = idx as u32;
            for i in (0..self.n).rev() {
                let r = self.radix[i] as u32;
                digits[i] = i32 % r;
                i32 /= r;
            }
        } else {
            for i in (0..self.n).rev() {
                digits[i] = (idx % self.radix[i]) as u32;
                idx /= self.radix[i];
            }
        }
    }

    /// The digits and the placement of an index.
    #[inline(always)]
    pub fn locate(&self, idx: u64, digits: &mut [u32; 16], out: &mut [u8; 16]) {
        self.digits(idx, digits);
        self.squares_from(digits, 0, out);
    }

    /// Steps `digits`/`out` forward by `delta` entries (the caller stays
    /// below `size`) and returns the first piece whose square changed: one
    /// division per digit that carries instead of one per piece.
    #[inline(always)]
    pub fn add(&self, digits: &mut [u32; 16], out: &mut [u8; 16], delta: u64) -> usize {
        let mut i = self.n - 1;
        let mut carry = delta;
        loop {
            let v = digits[i] as u64 + carry;
            if v < self.radix[i] || i == 0 {
                digits[i] = v as u32;
                break;
            }
            digits[i] = (v % self.radix[i]) as u32;
            carry = v / self.radix[i];
            i -= 1;
        }
        self.squares_from(digits, i, out);
        i
    }

    /// Squares of pieces `from..n` from the digits (those before are set).
    #[inline(always)]
    fn squares_from(&self, digits: &[u32; 16], from: usize, out: &mut [u8; 16]) {
        let mut occ = 0u64;
        for &s in &out[..from] {
            occ |= bit(s);
        }
        for i in from..self.n {
            let s = select(self.domain[i] & !occ, digits[i]);
            out[i] = s;
            occ |= bit(s);
        }
    }

    /// Steps `digits`/`out` to the next index (the caller stops at the last)
    /// and returns the first piece whose square changed: most steps move
    /// only the last piece, which makes walking all indices cheap.
    #[inline(always)]
    pub fn advance(&self, digits: &mut [u32; 16], out: &mut [u8; 16]) -> usize {
        let last = self.n - 1;
        if ((digits[last] + 1) as u64) < self.radix[last] {
            // The last piece goes to the next free square above its own:
            // the others stay.
            digits[last] += 1;
            let occ = out[..last].iter().fold(0u64, |o, &s| o | bit(s));
            let above = u64::MAX << out[last] << 1;
            out[last] = (self.domain[last] & !occ & above).trailing_zeros() as u8;
            return last;
        }
        let mut i = last;
        loop {
            digits[i] += 1;
            if (digits[i] as u64) < self.radix[i] || i == 0 {
                break;
            }
            digits[i] = 0;
            i -= 1;
        }
        self.squares_from(digits, i, out);
        i
    }

    /// How many consecutive indices share the first piece's square.
    pub fn first_stride(&self) -> u64 {
        self.stride[0]
    }

    /// The file of the first piece of an index.
    pub fn first_file(&self, idx: u64) -> u8 {
        let d = (idx / self.stride[0]) as u32;
        file_of(select(self.domain[0], d))
    }

    /// Builds the position of a placement.
    pub fn position<B: Board>(
        &self,
        sqs: &[u8],
        stm: Side,
        rules: &'static RuleSet,
    ) -> Position<B> {
        let mut p = Position::<B>::empty(rules);
        for (i, &(side, kind)) in self.pieces.iter().enumerate() {
            p.put(side, kind, sqs[i]);
        }
        p.set_side_to_move(stm);
        p
    }
}

/// The animal layout of one configuration as a [`TableIndex`], for the
/// generator of any game with unmoves (`zoo_tb::retro`): the same entries
/// as the animal generator's, so that the two write the same tables.
pub struct AnimalIndex<'a, B: Board> {
    layout: &'a Layout,
    rules: &'static RuleSet,
    board: PhantomData<fn() -> B>,
}

impl<'a, B: Board> AnimalIndex<'a, B> {
    /// The index of `layout`'s configuration under `rules`.
    pub fn new(layout: &'a Layout, rules: &'static RuleSet) -> AnimalIndex<'a, B> {
        AnimalIndex {
            layout,
            rules,
            board: PhantomData,
        }
    }
}

impl<B: Board> AnimalIndex<'_, B> {
    /// The squares of `pos`'s pieces in index order, or `None` when its
    /// material is not the layout's.
    #[inline]
    fn squares(&self, pos: &Position<B>) -> Option<[u8; 16]> {
        let l = self.layout;
        if pos.piece_count() as usize != l.n {
            return None;
        }
        let mut sqs = [0u8; 16];
        for (i, &(side, kind)) in l.pieces.iter().enumerate() {
            sqs[i] = pos.square_of(side, kind)?;
        }
        Some(sqs)
    }
}

impl<B: Board> TableIndex<Position<B>> for AnimalIndex<'_, B> {
    fn size(&self) -> u64 {
        self.layout.size
    }

    fn position(&self, entry: u64, stm: Side) -> Position<B> {
        let mut sqs = [0u8; 16];
        self.layout.unrank(entry, &mut sqs);
        self.layout.position(&sqs[..self.layout.n], stm, self.rules)
    }

    fn rank(&self, pos: &Position<B>) -> Option<u64> {
        let sqs = self.squares(pos)?;
        Some(self.layout.rank(&sqs[..self.layout.n]))
    }

    /// Both images are entries only when the first piece is on file d.
    fn rank_images(&self, pos: &Position<B>) -> [Option<u64>; 2] {
        let Some(sqs) = self.squares(pos) else {
            return [None, None];
        };
        let sqs = &sqs[..self.layout.n];
        let a = self.layout.rank(sqs);
        let b = (file_of(sqs[0]) == 3).then(|| self.layout.rank_squares(sqs, true));
        [Some(a), b.filter(|&b| b != a)]
    }

    /// Entries with the first piece on files a-c stand for themselves and
    /// their mirror image; on file d both images are entries.
    fn weight(&self, entry: u64) -> u64 {
        if self.layout.first_file(entry) < 3 {
            2
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Jungle, JungleCheckers};

    #[test]
    fn select_finds_each_bit() {
        let x: u64 = 0b1011_0000_0000_0001_0100_0000_0000_0000_0000_0000_0000_0000_0000_1000_0010;
        let bits: Vec<u8> = (0..64).filter(|&i| x & (1 << i) != 0).collect();
        for (n, &b) in bits.iter().enumerate() {
            assert_eq!(select(x, n as u32), b);
        }
        // Random words against their list of set bits.
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = r & (r >> 3);
            let bits: Vec<u8> = (0..64).filter(|&i| x & (1 << i) != 0).collect();
            for (n, &b) in bits.iter().enumerate() {
                assert_eq!(select(x, n as u32), b, "{x:#x} {n}");
                assert_eq!(select_portable(x, n as u32), b, "{x:#x} {n}");
            }
        }
    }

    /// Walking an index entry by entry (`advance`) and in jumps (`add`)
    /// meets the placements `unrank` gives.
    fn walks_agree<B: Board>(m: Material) {
        let l = Layout::new::<B>(m);
        let (mut digits, mut sqs) = ([0u32; 16], [0u8; 16]);
        l.locate(0, &mut digits, &mut sqs);
        let (mut jd, mut js) = (digits, sqs);
        let mut at = 0;
        let mut want = [0u8; 16];
        for x in 1..l.size {
            let old = sqs;
            let from = l.advance(&mut digits, &mut sqs);
            l.unrank(x, &mut want);
            assert_eq!(sqs[..l.n], want[..l.n], "{} {x}", m.name::<B>());
            assert_eq!(old[..from], sqs[..from]);
            if x % 7 == 0 {
                l.add(&mut jd, &mut js, x - at);
                at = x;
                assert_eq!(js[..l.n], want[..l.n]);
            }
        }
    }

    #[test]
    fn walks_agree_with_unrank() {
        walks_agree::<JungleCheckers>(Material::parse::<JungleCheckers>("RDvt").unwrap());
        walks_agree::<Jungle>(Material::parse::<Jungle>("Lvr").unwrap());
        walks_agree::<Jungle>(Material::parse::<Jungle>("Rvr").unwrap());
    }

    #[test]
    fn sizes_count_placements() {
        // Two pieces on Jungle Checkers: 26 left-half squares for the first,
        // 46 for the second.
        let l = Layout::new::<JungleCheckers>(Material::new(1, 1));
        assert_eq!(l.size, 26 * 46);
        // Jungle: lion (land, 28 on files a-d) and rat (61 non-den squares, one taken).
        let l = Layout::new::<Jungle>(Material::new(1 << 6, 1));
        assert_eq!(l.size, 28 * 60);
    }

    fn round_trips_every_material<B: Board>(max: u32) {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in 2..=max {
            for m in Material::all::<B>(n) {
                let l = Layout::new::<B>(m);
                for j in 0..40u64 {
                    // xorshift: spread ranks, plus both ends of the range.
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let idx = match j {
                        0 => 0,
                        1 => l.size - 1,
                        _ => x % l.size,
                    };
                    let mut sqs = [0u8; 16];
                    l.unrank(idx, &mut sqs);
                    assert!(file_of(sqs[0]) <= 3);
                    assert_eq!(l.rank(&sqs[..l.n]), idx, "{} {idx}", m.name::<B>());
                }
            }
        }
    }

    #[test]
    fn every_material_round_trips() {
        round_trips_every_material::<Jungle>(4);
        round_trips_every_material::<JungleCheckers>(6);
    }

    #[test]
    fn names_round_trip() {
        for m in Material::all::<Jungle>(3) {
            assert_eq!(Material::parse::<Jungle>(&m.name::<Jungle>()), Some(m));
        }
        assert_eq!(
            Material::parse::<JungleCheckers>("RDvte"),
            Some(Material::new(0b0011, 0b1100))
        );
        assert_eq!(Material::parse::<JungleCheckers>("RRvt"), None);
        assert_eq!(Material::parse::<JungleCheckers>("Rvx"), None);
    }
}
