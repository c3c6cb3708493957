//! The number of checkers positions per number of pieces (literature C):
//! men never stand on their own far row, so White's men use rows 1–7 and
//! Black's rows 2–8; White's men on White's first row (where Black's men
//! cannot be) are counted apart so that the two men sets can share the
//! other 24 squares. Kings go anywhere free. Side to move is not counted
//! (the published ≈5×10^20 counts board arrangements), and each side has
//! at most 12 pieces. Both games share the board, so the counts are the same.

/// The board has 32 squares and each side starts with 12 pieces.
pub const SQUARES: u32 = 32;
/// At most 12 pieces per side (docs/rules/checkers.md §1).
pub const MAX_SIDE: u32 = 12;

/// Binomial coefficient (0 when k > n).
pub fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // Exact at every step: r * (n - i) is divisible by (i + 1).
        r = r * (n - i) as u128 / (i + 1) as u128;
    }
    r
}

/// Positions with exactly these numbers of White men, White kings, Black
/// men and Black kings.
pub fn arrangements(wm: u32, wk: u32, bm: u32, bk: u32) -> u128 {
    let mut total = 0u128;
    // f White men on White's back row (4 squares no Black man may use).
    for f in 0..=wm.min(4) {
        let rest = wm - f;
        let white_men = binomial(4, f) * binomial(24, rest);
        // Black's men: 28 squares (not Black's far row), minus those taken.
        let black_men = binomial(28 - rest, bm);
        let free = SQUARES - wm - bm;
        total += white_men * black_men * binomial(free, wk) * binomial(free - wk, bk);
    }
    total
}

/// One line of the census.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CensusRow {
    /// Pieces on the board, both sides.
    pub pieces: u32,
    /// Every arrangement with this many pieces.
    pub positions: u128,
    /// Those with at most [`MAX_KINGS`] kings in all and sides differing by
    /// at most [`MAX_DIFFERENCE`] pieces (the tighter estimate).
    pub restricted: u128,
}

/// The tighter estimate's limits (literature C).
pub const MAX_KINGS: u32 = 8;
/// At most this many more pieces on one side than on the other.
pub const MAX_DIFFERENCE: u32 = 4;

/// Census rows for 1..=24 pieces.
pub fn census() -> Vec<CensusRow> {
    let mut rows: Vec<CensusRow> = (1..=2 * MAX_SIDE)
        .map(|pieces| CensusRow {
            pieces,
            positions: 0,
            restricted: 0,
        })
        .collect();
    for w in 0..=MAX_SIDE {
        for b in 0..=MAX_SIDE {
            if w + b == 0 {
                continue;
            }
            for wk in 0..=w {
                for bk in 0..=b {
                    let n = arrangements(w - wk, wk, b - bk, bk);
                    let row = &mut rows[(w + b - 1) as usize];
                    row.positions += n;
                    if wk + bk <= MAX_KINGS && w.abs_diff(b) <= MAX_DIFFERENCE {
                        row.restricted += n;
                    }
                }
            }
        }
    }
    rows
}

/// Totals over all rows: (all positions, tighter estimate).
pub fn totals(rows: &[CensusRow]) -> (u128, u128) {
    rows.iter()
        .fold((0, 0), |(a, b), r| (a + r.positions, b + r.restricted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClassicalPos, CLASSICAL};
    use zoo_core::Side;

    #[test]
    fn binomials() {
        assert_eq!(binomial(32, 0), 1);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(3, 4), 0);
        // Pascal's rule over the whole range used.
        for n in 1..=32 {
            for k in 1..=n {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
            }
        }
    }

    /// The formula against brute force: every placement of up to three
    /// pieces that the position constructor accepts.
    #[test]
    fn formula_matches_enumeration() {
        let rows = census();
        let mut counts = [0u128; 4];
        let kinds = [
            (Side::White, false),
            (Side::White, true),
            (Side::Black, false),
            (Side::Black, true),
        ];
        let mut place = |sqs: &[u32]| {
            let mut codes = vec![0usize; sqs.len()];
            loop {
                let (mut w, mut b, mut k) = (0u32, 0u32, 0u32);
                for (i, &s) in sqs.iter().enumerate() {
                    let (side, king) = kinds[codes[i]];
                    if side == Side::White {
                        w |= 1 << s;
                    } else {
                        b |= 1 << s;
                    }
                    if king {
                        k |= 1 << s;
                    }
                }
                if ClassicalPos::from_bitboards(&CLASSICAL, w, b, k, Side::White).is_ok() {
                    counts[sqs.len()] += 1;
                }
                let mut i = 0;
                while i < codes.len() && codes[i] == 3 {
                    codes[i] = 0;
                    i += 1;
                }
                if i == codes.len() {
                    break;
                }
                codes[i] += 1;
            }
        };
        for a in 0..32 {
            place(&[a]);
            for b in a + 1..32 {
                place(&[a, b]);
                for c in b + 1..32 {
                    place(&[a, b, c]);
                }
            }
        }
        for n in 1..=3 {
            assert_eq!(rows[n - 1].positions, counts[n], "{n} pieces");
        }
    }

    #[test]
    fn full_board_and_symmetry() {
        // 12 against 12 men only is symmetric under swapping colours.
        assert_eq!(arrangements(12, 0, 11, 0), arrangements(11, 0, 12, 0));
        assert_eq!(arrangements(3, 1, 2, 2), arrangements(2, 2, 3, 1));
        let (all, tight) = totals(&census());
        assert!(tight < all);
    }
}
