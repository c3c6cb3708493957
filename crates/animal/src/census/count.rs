//! The Jungle Checkers census by counting: exact, and fast enough for all
//! eight rows (docs/census.md, "How the counts are made").
//!
//! Almost every position is plainly reachable, so each kind of exception
//! is counted from the few squares that make it one, and the rest of the
//! board is filled combinatorially:
//!
//! - an unfinished position is unreachable (`one`) when the side that just
//!   moved is *jammed*: none of its pieces has an empty square beside it
//!   that is not a den. Enumerate that side's squares; the other side must
//!   fill their empty neighbours, and its remaining pieces go anywhere.
//! - a stalemate: enumerate the squares of the side to move; every
//!   neighbour that is not its own den must hold a piece of the other side
//!   that none of its neighbours can take; the other side's remaining
//!   pieces go anywhere — minus the placements that jam the other side
//!   (those are unreachable, not stalemates), enumerated.
//! - a den win is unreachable when the winner cannot have stepped in from
//!   any square beside the den (`one`), or (`two`) when every such step
//!   back leaves the loser jammed: enumerate the loser's squares and which
//!   of the few squares that decide it the winner's other pieces hold.
//!
//! Pieces are distinct, so a set of `c` squares of one side carries
//! `4·3·…` (`P(4, c)`) materials-and-orders. With all eight pieces on the
//! board the count of squares of a1's colour decides the side to move, so
//! every free fill is counted by colour.
//!
//! Only [`Reading::One`] and [`Reading::Thesis`]; [`Reading::Two`] for
//! unfinished positions needs uncaptures and is left to
//! [`super::enumerate`].

use super::{light, Reading, Row};
use crate::board::{bit, Board, JungleCheckers};
use crate::rules::RuleSet;
use std::fmt;
use std::sync::atomic::Ordering;

type B = JungleCheckers;

/// Why a count cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    /// The counting method does not cover this reading.
    Reading(Reading),
    /// More pieces than the game has.
    Pieces(u32),
    /// Stopped before the end.
    Stopped,
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::Reading(r) => write!(
                f,
                "the counting method covers the readings one and thesis; `{r}` is counted by enumeration (--method enumerate)"
            ),
            CountError::Pieces(n) => write!(f, "Jungle Checkers has 1 to 8 pieces, not {n}"),
            CountError::Stopped => f.write_str("stopped"),
        }
    }
}

impl std::error::Error for CountError {}

pub use super::Options;

/// The row of `pieces` pieces.
///
/// ```
/// use zoo_animal::census::{count, Reading};
/// use zoo_animal::JungleCheckers;
/// let opts = count::Options::new::<JungleCheckers>(Reading::Thesis);
/// let row = count::row(&zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 3, &opts).unwrap();
/// assert_eq!((row.unreachable_unfinished, row.stalemates), (768, 48));
/// ```
pub fn row(rules: &'static RuleSet, pieces: u32, opts: &Options) -> Result<Row, CountError> {
    if matches!(opts.reading, Reading::Two | Reading::Fixpoint) {
        return Err(CountError::Reading(opts.reading));
    }
    if pieces == 0 || pieces > 8 {
        return Err(CountError::Pieces(pieces));
    }
    let c = Counter {
        rules,
        opts,
        parity: opts.parity_pieces == Some(pieces),
    };
    let mut row = Row {
        pieces,
        ..Row::default()
    };
    for w in 0..=4u32.min(pieces) {
        let b = pieces - w;
        if b > 4 {
            continue;
        }
        c.check_stop()?;
        if w == 0 || b == 0 {
            let loser = if w == 0 { 0 } else { 1 };
            let (total, unreachable) = c.won_material(pieces, loser);
            row.won_material += total - unreachable;
            row.unreachable_won += unreachable;
            continue;
        }
        // Side to move: 0 White (w pieces), 1 Black (b pieces).
        for x in 0..2 {
            let (m, k) = if x == 0 { (w, b) } else { (b, w) };
            let total = c.unfinished_total(x, m, k);
            let unreachable = c.jammed_unfinished(x, m, k)?;
            let stalemates = c.reachable_stalemates(x, m, k)?;
            row.unfinished += total - unreachable - stalemates;
            row.unreachable_unfinished += unreachable;
            row.stalemates += stalemates;
            // The loser `x` to move; the winner (`k` pieces) on x's den.
            let (total, unreachable) = c.den_wins(x, m, k)?;
            row.won_den += total - unreachable;
            row.unreachable_won += unreachable;
        }
    }
    Ok(row.close())
}

/// The 47 squares a piece may stand on without the game being over.
const fn nonden() -> u64 {
    ((1u64 << 49) - 1) & !(1 << 3) & !(1 << 45)
}
const NONDEN: u64 = nonden();
const LIGHT_NONDEN: u32 = 25;
const DARK_NONDEN: u32 = 22;

fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (0..k.min(n - k)).fold(1u128, |r, i| r * (n - i) as u128 / (i + 1) as u128)
}

/// Materials-and-orders of `c` pieces of one side on `c` given squares.
fn arrangements(c: u32) -> u128 {
    (0..c).map(|i| (4 - i) as u128).product()
}

fn neighbours(set: u64) -> u64 {
    let t = B::tables();
    let mut n = 0;
    let mut s = set;
    while s != 0 {
        n |= t.steps[s.trailing_zeros() as usize];
        s &= s - 1;
    }
    n
}

fn light_count(set: u64) -> u32 {
    let mut n = 0;
    let mut s = set;
    while s != 0 {
        n += light(s.trailing_zeros() as u8) as u32;
        s &= s - 1;
    }
    n
}

/// Calls `f` with every `k`-subset of `from`.
fn subsets(from: u64, k: u32, f: &mut impl FnMut(u64)) {
    fn go(rest: u64, k: u32, acc: u64, f: &mut impl FnMut(u64)) {
        if k == 0 {
            f(acc);
            return;
        }
        if rest.count_ones() < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, f);
        go(rest & !low, k, acc, f);
    }
    go(from, k, 0, f);
}

struct Counter<'a> {
    rules: &'static RuleSet,
    opts: &'a Options<'a>,
    /// Whether this row's side to move follows from the colours.
    parity: bool,
}

impl Counter<'_> {
    fn check_stop(&self) -> Result<(), CountError> {
        match self.opts.stop {
            Some(s) if s.load(Ordering::Relaxed) => Err(CountError::Stopped),
            _ => Ok(()),
        }
    }

    /// Whether a position whose pieces stand on `light` squares of a1's
    /// colour may have side `x` to move.
    fn side_ok(&self, light: u32, x: usize) -> bool {
        !self.parity || light.is_multiple_of(2) == (x == 0)
    }

    /// The `r`-subsets of `free` which, added to squares holding `light`
    /// of a1's colour, let side `x` move.
    fn fills(&self, free: u64, r: u32, light: u32, x: usize) -> u128 {
        let fl = light_count(free);
        let fd = free.count_ones() - fl;
        (0..=r.min(fl))
            .filter(|&j| self.side_ok(light + j, x))
            .map(|j| binomial(fl, j) * binomial(fd, r - j))
            .sum()
    }

    /// Unfinished positions, `x` to move with `m` pieces against `k`.
    fn unfinished_total(&self, x: usize, m: u32, k: u32) -> u128 {
        let n = m + k;
        let placements: u128 = (0..=n.min(LIGHT_NONDEN))
            .filter(|&j| self.side_ok(j, x))
            .map(|j| binomial(LIGHT_NONDEN, j) * binomial(DARK_NONDEN, n - j))
            .sum();
        placements * binomial(n, m) * arrangements(m) * arrangements(k)
    }

    /// Unfinished positions, `x` to move, whose other side (`k` pieces) is
    /// jammed: unreachable.
    fn jammed_unfinished(&self, x: usize, m: u32, k: u32) -> Result<u128, CountError> {
        let mut sets = 0u128;
        subsets(NONDEN, k, &mut |s| {
            let holes = neighbours(s) & NONDEN & !s;
            let h = holes.count_ones();
            if h <= m {
                sets += self.fills(NONDEN & !s & !holes, m - h, light_count(s | holes), x);
            }
        });
        self.check_stop()?;
        Ok(sets * arrangements(m) * arrangements(k))
    }

    /// Material wins with `n` pieces of one side, the other (`loser`) to
    /// move: (all, unreachable).
    /// The winner's move took a piece (any piece takes a rat), so only a
    /// jammed winner is unreachable.
    fn won_material(&self, n: u32, loser: usize) -> (u128, u128) {
        let total = self.fills(NONDEN, n, 0, loser) * arrangements(n);
        let mut jammed = 0u128;
        subsets(NONDEN, n, &mut |s| {
            jammed +=
                (neighbours(s) & NONDEN & !s == 0 && self.side_ok(light_count(s), loser)) as u128;
        });
        (total, jammed * arrangements(n))
    }

    /// Reachable stalemates, `x` to move with `m` pieces against `k`.
    fn reachable_stalemates(&self, x: usize, m: u32, k: u32) -> Result<u128, CountError> {
        let own_den = bit(B::DEN[x]);
        let enemy_den = bit(B::DEN[1 - x]);
        let steps = &B::tables().steps;
        let mut total = 0u128;
        subsets(NONDEN, m, &mut |t| {
            let f = neighbours(t) & !t & !own_den;
            if f & enemy_den != 0 || f.count_ones() > k {
                return;
            }
            // The kinds of the side to move on `t`'s squares, every order;
            // the other side's kinds on `f`'s squares that none of their
            // neighbours may take.
            let tsq: Vec<u8> = bits(t).collect();
            let fsq: Vec<u8> = bits(f).collect();
            let mut fills = 0u128;
            for_each_order(4, m as usize, &mut |xk| {
                let allowed: Vec<u8> = fsq
                    .iter()
                    .map(|&s| {
                        (0..4u8)
                            .filter(|&y| {
                                !tsq.iter().zip(xk).any(|(&a, &kind)| {
                                    steps[a as usize] & bit(s) != 0
                                        && self.rules.beats(kind as usize, y as usize, B::ELEPHANT)
                                })
                            })
                            .fold(0u8, |acc, y| acc | 1 << y)
                    })
                    .collect();
                fills += injections(&allowed, 0);
            });
            if fills == 0 {
                return;
            }
            let r = k - fsq.len() as u32;
            let base = light_count(t | f);
            let free = NONDEN & !t & !f;
            let all = self.fills(free, r, base, x);
            // The other side jammed as well: its empty non-den neighbours
            // must all be its own remaining pieces.
            let must = neighbours(f) & NONDEN & !t & !f;
            let mut jammed = 0u128;
            if must.count_ones() <= r {
                subsets(free & !must, r - must.count_ones(), &mut |rest| {
                    let y = f | must | rest;
                    if neighbours(y) & NONDEN & !y & !t == 0 && self.side_ok(light_count(t | y), x)
                    {
                        jammed += 1;
                    }
                });
            }
            // The kinds of the remaining pieces and their order.
            let rest_kinds: u128 = (0..r).map(|i| (4 - fsq.len() as u32 - i) as u128).product();
            total += fills * (all - jammed) * rest_kinds;
        });
        self.check_stop()?;
        Ok(total)
    }

    /// Den wins, loser `x` (`m` pieces) to move, the winner's `k` pieces
    /// one of them on x's den: (all, unreachable).
    fn den_wins(&self, x: usize, m: u32, k: u32) -> Result<(u128, u128), CountError> {
        let den = B::DEN[x];
        let beside = B::tables().steps[den as usize] & NONDEN;
        let n = m + k;
        let others = k - 1;
        // Every placement of the loser's m and the winner's other pieces.
        let placements: u128 = (0..=(n - 1).min(LIGHT_NONDEN))
            .filter(|&j| self.side_ok(j, x))
            .map(|j| binomial(LIGHT_NONDEN, j) * binomial(DARK_NONDEN, n - 1 - j))
            .sum();
        let total = placements * binomial(n - 1, m) * arrangements(m) * arrangements(k);
        let depth = self.opts.reading.depth(true).unwrap_or(2);
        let mut unreachable = 0u128;
        subsets(NONDEN, m, &mut |s| {
            let holes = neighbours(s) & NONDEN & !s;
            let decide = (beside | holes) & !s;
            for size in 0..=others.min(decide.count_ones()) {
                subsets(decide, size, &mut |u| {
                    let open = beside & !s & !u;
                    let loser_holes = holes & !u;
                    let cut_off = match (depth, open.count_ones()) {
                        (_, 0) => true,
                        (1, _) => false,
                        (_, 1) => loser_holes & !open == 0,
                        _ => loser_holes == 0,
                    };
                    if cut_off {
                        unreachable +=
                            self.fills(NONDEN & !s & !decide, others - size, light_count(s | u), x);
                    }
                });
            }
        });
        self.check_stop()?;
        Ok((total, unreachable * arrangements(m) * arrangements(k)))
    }
}

fn bits(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as u8;
            set &= set - 1;
            s
        })
    })
}

/// Calls `f` with every sequence of `len` distinct kinds below `kinds`.
fn for_each_order(kinds: u8, len: usize, f: &mut impl FnMut(&[u8])) {
    fn go(kinds: u8, len: usize, used: u8, acc: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
        if acc.len() == len {
            f(acc);
            return;
        }
        for k in 0..kinds {
            if used & (1 << k) == 0 {
                acc.push(k);
                go(kinds, len, used | 1 << k, acc, f);
                acc.pop();
            }
        }
    }
    go(kinds, len, 0, &mut Vec::with_capacity(len), f);
}

/// The ways to give each square its own kind from its `allowed` set.
fn injections(allowed: &[u8], used: u8) -> u128 {
    match allowed.split_first() {
        None => 1,
        Some((&a, rest)) => (0..4)
            .filter(|&k| a & !used & (1 << k) != 0)
            .map(|k| injections(rest, used | 1 << k))
            .sum(),
    }
}
