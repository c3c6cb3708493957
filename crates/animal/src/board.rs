//! The two board descriptions: size, water, traps, dens, animals and the
//! step/leap tables precomputed at compile time.

use crate::rules::RuleSet;
use std::fmt::Debug;
use zoo_core::ParseError;

/// Files of both boards, `a` to `g` (docs/rules/jungle.md §1.1, docs/rules/jungle-checkers.md §1.1).
pub const FILES: u8 = 7;
/// "No square": the place of a piece that is not on the board.
pub const NONE: u8 = 64;

#[inline(always)]
/// The bitboard of one square.
pub const fn bit(sq: u8) -> u64 {
    1u64 << sq
}
/// The square number `(rank-1)*7 + file`, both counted from 0 here (docs/rules/jungle.md §1.2).
pub const fn sq(file: u8, rank: u8) -> u8 {
    rank * FILES + file
}
/// The file of a square, 0 = `a`.
pub const fn file_of(s: u8) -> u8 {
    s % FILES
}
/// The rank of a square, 0 = rank 1.
pub const fn rank_of(s: u8) -> u8 {
    s / FILES
}
/// The name of a square, `a1` for 0 (docs/rules/jungle.md §1.2).
pub fn square_name(s: u8) -> String {
    format!("{}{}", (b'a' + file_of(s)) as char, rank_of(s) + 1)
}

/// A leap of lion or tiger across a river: where it lands and which water
/// squares a rat must not stand on.
#[derive(Clone, Copy, Debug)]
pub struct Leap {
    /// The landing square.
    pub to: u8,
    /// The water squares jumped over: a rat on any of them blocks the leap (docs/rules/jungle.md §3.6).
    pub over: u64,
}

/// Precomputed move tables of one board.
pub struct Tables {
    /// The squares one orthogonal step away from each square (docs/rules/jungle.md §3.1).
    pub steps: [u64; 64],
    /// Up to four leaps (one per direction) from each square, `to == NONE` when absent.
    pub leaps: [[Leap; 4]; 64],
}

impl Tables {
    /// The tables of a board of `ranks` ranks with `water` as its water squares, built at compile time.
    pub const fn build(ranks: u8, water: u64) -> Tables {
        let mut steps = [0u64; 64];
        let mut leaps = [[Leap { to: NONE, over: 0 }; 4]; 64];
        let n = FILES * ranks;
        let dirs: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let mut s = 0u8;
        while s < n {
            let (f, r) = (file_of(s) as i8, rank_of(s) as i8);
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                let (nf, nr) = (f + df, r + dr);
                if nf >= 0 && nf < FILES as i8 && nr >= 0 && nr < ranks as i8 {
                    let t = sq(nf as u8, nr as u8);
                    steps[s as usize] |= bit(t);
                    // A leap starts on land next to water and flies over it.
                    if water & bit(s) == 0 && water & bit(t) != 0 {
                        let (mut cf, mut cr) = (nf, nr);
                        let mut over = 0u64;
                        while cf >= 0
                            && cf < FILES as i8
                            && cr >= 0
                            && cr < ranks as i8
                            && water & bit(sq(cf as u8, cr as u8)) != 0
                        {
                            over |= bit(sq(cf as u8, cr as u8));
                            cf += df;
                            cr += dr;
                        }
                        if cf >= 0 && cf < FILES as i8 && cr >= 0 && cr < ranks as i8 {
                            leaps[s as usize][d] = Leap {
                                to: sq(cf as u8, cr as u8),
                                over,
                            };
                        }
                    }
                }
                d += 1;
            }
            s += 1;
        }
        Tables { steps, leaps }
    }
}

/// One board description. Kinds are numbered by their index in `NAMES`;
/// kind 0 is always the rat and kind `KINDS-1` the elephant.
pub trait Board: Copy + Clone + Debug + Default + PartialEq + Eq + Send + Sync + 'static {
    /// Game name on the command line and in files.
    const GAME: &'static str;
    /// Number of ranks (9 in Jungle, 7 in Jungle Checkers).
    const RANKS: u8;
    /// Number of squares.
    const SQUARES: u8 = FILES * Self::RANKS;
    /// Number of piece kinds per side (docs/rules/jungle.md §2, docs/rules/jungle-checkers.md §2).
    const KINDS: usize;
    /// White's letter of each kind.
    const LETTERS: &'static [u8];
    /// The name of each kind (`rat`, ...).
    const NAMES: &'static [&'static str];
    /// The water squares as a bitboard (docs/rules/jungle.md §1.5); 0 without water.
    const WATER: u64;
    /// Traps around White's den and around Black's den.
    const TRAPS: [u64; 2];
    /// White's den and Black's den.
    const DEN: [u8; 2];
    /// Bit set of the kinds that leap rivers.
    const LEAPERS: u8;
    /// The kind number of the elephant, the strongest kind.
    const ELEPHANT: usize = Self::KINDS - 1;
    /// The precomputed step and leap tables of this board.
    fn tables() -> &'static Tables;
    /// The named rule sets, the default first.
    fn rule_sets() -> &'static [&'static RuleSet];
    /// Every square of the board as a bitboard.
    fn all_squares() -> u64 {
        (1u64 << Self::SQUARES) - 1
    }
}

/// The kind number of the rat on both boards.
pub const RAT: usize = 0;

const JUNGLE_WATER: u64 = {
    let mut w = 0u64;
    let files = [1u8, 2, 4, 5];
    let mut i = 0;
    while i < 4 {
        let mut r = 3u8;
        while r <= 5 {
            w |= bit(sq(files[i], r));
            r += 1;
        }
        i += 1;
    }
    w
};
static JUNGLE_TABLES: Tables = Tables::build(9, JUNGLE_WATER);
static JC_TABLES: Tables = Tables::build(7, 0);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
/// The Jungle board: 7×9 with two rivers, traps and dens (docs/rules/jungle.md §1, §2).
pub struct Jungle;

impl Board for Jungle {
    const GAME: &'static str = "jungle";
    const RANKS: u8 = 9;
    const KINDS: usize = 8;
    const LETTERS: &'static [u8] = b"RCWDPTLE";
    const NAMES: &'static [&'static str] = &[
        "rat", "cat", "wolf", "dog", "panther", "tiger", "lion", "elephant",
    ];
    const WATER: u64 = JUNGLE_WATER;
    const TRAPS: [u64; 2] = [
        bit(sq(2, 0)) | bit(sq(4, 0)) | bit(sq(3, 1)),
        bit(sq(2, 8)) | bit(sq(4, 8)) | bit(sq(3, 7)),
    ];
    const DEN: [u8; 2] = [sq(3, 0), sq(3, 8)];
    const LEAPERS: u8 = (1 << 5) | (1 << 6);
    fn tables() -> &'static Tables {
        &JUNGLE_TABLES
    }
    fn rule_sets() -> &'static [&'static RuleSet] {
        &crate::rules::JUNGLE_RULE_SETS
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
/// The Jungle Checkers board: 7×7, four animals, no water and no traps
/// (docs/rules/jungle-checkers.md §1, §2).
pub struct JungleCheckers;

impl Board for JungleCheckers {
    const GAME: &'static str = "jungle-checkers";
    const RANKS: u8 = 7;
    const KINDS: usize = 4;
    const LETTERS: &'static [u8] = b"RDTE";
    const NAMES: &'static [&'static str] = &["rat", "dog", "tiger", "elephant"];
    const WATER: u64 = 0;
    const TRAPS: [u64; 2] = [0, 0];
    const DEN: [u8; 2] = [sq(3, 0), sq(3, 6)];
    const LEAPERS: u8 = 0;
    fn tables() -> &'static Tables {
        &JC_TABLES
    }
    fn rule_sets() -> &'static [&'static RuleSet] {
        &crate::rules::JUNGLE_CHECKERS_RULE_SETS
    }
}

/// Finds a rule set of board `B` by its name: a named one (`leiden`), or
/// one with fields changed (`leiden+stalemate=loss`; an empty base is the
/// default rule set: `+stalemate=loss`), see [`crate::rules::apply`].
pub fn by_name<B: Board>(name: &str) -> Result<&'static RuleSet, ParseError> {
    let (base_name, changes) = match name.split_once('+') {
        Some((b, c)) => (b, Some(c)),
        None => (name, None),
    };
    let base = if base_name.is_empty() && changes.is_some() {
        B::rule_sets()[0]
    } else {
        B::rule_sets()
            .iter()
            .copied()
            .find(|r| r.name == base_name)
            .ok_or_else(|| {
                let names: Vec<&str> = B::rule_sets().iter().map(|r| r.name).collect();
                ParseError::new(
                    name,
                    0,
                    format!(
                        "unknown rule set for {}; expected one of: {} (and FIELD=VALUE changes after `+`)",
                        B::GAME,
                        names.join(", ")
                    ),
                )
            })?
    };
    match changes {
        Some(c) => crate::rules::apply(base, c, name),
        None => Ok(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_sq(s: &str) -> u8 {
        let b = s.as_bytes();
        sq(b[0] - b'a', b[1] - b'1')
    }

    #[test]
    fn water_and_leaps() {
        assert_eq!(Jungle::WATER.count_ones(), 12);
        for s in [
            "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6",
        ] {
            assert!(Jungle::WATER & bit(parse_sq(s)) != 0, "{s}");
        }
        let t = Jungle::tables();
        let leaps = |s: &str| {
            let mut v: Vec<u8> = t.leaps[parse_sq(s) as usize]
                .iter()
                .filter(|l| l.to != NONE)
                .map(|l| l.to)
                .collect();
            v.sort();
            v
        };
        assert_eq!(leaps("b3"), vec![parse_sq("b7")]);
        assert_eq!(leaps("a4"), vec![parse_sq("d4")]);
        let mut d5 = vec![parse_sq("a5"), parse_sq("g5")];
        d5.sort();
        assert_eq!(leaps("d5"), d5);
        assert!(leaps("d3").is_empty());
        assert_eq!(t.steps[0], bit(1) | bit(7));
    }
}
