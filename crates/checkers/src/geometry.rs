//! The 32 dark squares and their diagonals, as tables built at compile time.
//!
//! Internal square `s` (0..32) lies on row `s / 4` counted from the back row
//! of the side that moves first (row 0) and, within the row, at index
//! `s % 4` counted from that side's right. The column (0..8, left to right
//! as the first mover sees the board) is `7 - 2i` on even rows and `6 - 2i`
//! on odd rows. For Classical checkers this is exactly the numbering of
//! docs/rules/checkers.md §1.4 minus one (`1 = h1`, row `a1` light);
//! English numbering (§7.1 there) is the same board with each row read the
//! other way (see [`crate::variant`]).
//!
//! Every diagonal step changes the row by one, so along an "up" direction
//! indices only grow and along a "down" direction they only shrink: the
//! nearest piece on a ray is its lowest or highest set bit.

/// Directions: U = towards higher rows, R = towards higher columns.
pub const UR: usize = 0;
/// Up and to the left.
pub const UL: usize = 1;
/// Down and to the right.
pub const DR: usize = 2;
/// Down and to the left.
pub const DL: usize = 3;
/// No square (off the board).
pub const NONE: u8 = 32;

const DROW: [i32; 4] = [1, 1, -1, -1];
const DCOL: [i32; 4] = [1, -1, 1, -1];

#[inline(always)]
/// The bitboard of one internal square.
pub const fn bit(s: u8) -> u32 {
    1u32 << s
}

/// Whether a direction moves towards higher indices.
#[inline(always)]
pub const fn is_up(d: usize) -> bool {
    d < 2
}

/// The opposite direction (UR <-> DL, UL <-> DR).
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    d ^ 3
}

/// The row of an internal square, 0 = the first mover's back row.
pub const fn row(s: usize) -> i32 {
    (s / 4) as i32
}

/// The column of an internal square, 0..8 from the left as the first mover sees the board.
pub const fn col(s: usize) -> i32 {
    let i = (s % 4) as i32;
    if row(s) % 2 == 0 {
        7 - 2 * i
    } else {
        6 - 2 * i
    }
}

/// The dark square at (row, column), or `NONE`.
pub const fn square_at(r: i32, c: i32) -> u8 {
    if r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0 {
        return NONE;
    }
    let i = if r % 2 == 0 { (7 - c) / 2 } else { (6 - c) / 2 };
    (r * 4 + i) as u8
}

const fn build_step(dist: i32) -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            t[s][d] = square_at(row(s) + dist * DROW[d], col(s) + dist * DCOL[d]);
            d += 1;
        }
        s += 1;
    }
    t
}

/// The neighbour of a square in each direction.
pub static STEP: [[u8; 4]; 32] = build_step(1);
/// The square two steps away (where a short jump lands).
pub static JUMP: [[u8; 4]; 32] = build_step(2);

const fn build_rays() -> [[u32; 4]; 32] {
    let mut t = [[0u32; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            let mut k = 1;
            while k < 8 {
                let q = square_at(row(s) + k * DROW[d], col(s) + k * DCOL[d]);
                if q != NONE {
                    t[s][d] |= 1 << q;
                }
                k += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// All squares beyond a square in a direction (the square itself excluded).
pub static RAY: [[u32; 4]; 32] = build_rays();

/// For each direction, two (source mask, shift amount) pairs: a bitboard
/// step in that direction is `((b & m0) << k0) | ((b & m1) << k1)` (right
/// shifts for the down directions). Row parity decides which pair applies;
/// the masks also drop squares whose step would leave the board.
pub const SHIFTS: [[(u32, u32); 2]; 4] = build_shifts();

const fn build_shifts() -> [[(u32, u32); 2]; 4] {
    let mut t = [[(0u32, 0u32); 2]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 32 {
            let n = STEP_CONST[s][d];
            if n != NONE {
                let k = if is_up(d) {
                    n as u32 - s as u32
                } else {
                    s as u32 - n as u32
                };
                // Deltas are 3, 4 or 5; within one direction exactly two occur.
                let slot = if t[d][0].1 == 0 || t[d][0].1 == k {
                    0
                } else {
                    1
                };
                t[d][slot].0 |= 1 << s;
                t[d][slot].1 = k;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

// A const copy of STEP for use inside other const initialisers.
const STEP_CONST: [[u8; 4]; 32] = build_step(1);

/// All pieces of `b` moved one step in direction `d` (those that would
/// leave the board vanish).
#[inline(always)]
pub fn shift(b: u32, d: usize) -> u32 {
    let [(m0, k0), (m1, k1)] = SHIFTS[d];
    if is_up(d) {
        ((b & m0) << k0) | ((b & m1) << k1)
    } else {
        ((b & m0) >> k0) | ((b & m1) >> k1)
    }
}

/// The piece of `blockers` nearest to the origin of a ray in direction `d`.
#[inline(always)]
pub fn nearest(blockers: u32, d: usize) -> u8 {
    if is_up(d) {
        blockers.trailing_zeros() as u8
    } else {
        31 - blockers.leading_zeros() as u8
    }
}

/// Row masks.
pub const fn row_mask(r: u32) -> u32 {
    0xF << (4 * r)
}

/// The long diagonal (the "river") through internal squares 0 and 31.
pub static RIVER: u32 = RAY_CONST[0][UL] | 1;
const RAY_CONST: [[u32; 4]; 32] = build_rays();

/// Squares from which no piece can ever be jumped (edges): a captured
/// piece always stands on one of the other 18.
pub const EDGE: u32 = {
    let mut m = 0u32;
    let mut s = 0;
    while s < 32 {
        let c = col(s);
        let r = row(s);
        if r == 0 || r == 7 || c == 0 || c == 7 {
            m |= 1 << s;
        }
        s += 1;
    }
    m
};

/// Iterates the set bits of a bitboard as square indices.
#[inline(always)]
pub fn squares(mut b: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(s)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree_with_step_table() {
        for (s, steps) in STEP.iter().enumerate() {
            for (d, &n) in steps.iter().enumerate() {
                let expect = if n == NONE { 0 } else { bit(n) };
                assert_eq!(shift(bit(s as u8), d), expect, "square {s} direction {d}");
            }
        }
    }

    #[test]
    fn river_and_edges() {
        assert_eq!(RIVER.count_ones(), 8);
        assert!(RIVER & bit(31) != 0);
        assert_eq!(EDGE.count_ones(), 14);
    }

    #[test]
    fn rays_are_monotone() {
        for (s, rays) in RAY.iter().enumerate() {
            for (d, &ray) in rays.iter().enumerate() {
                for q in squares(ray) {
                    assert_eq!(is_up(d), q as usize > s);
                }
            }
        }
    }
}
