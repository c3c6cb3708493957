//! The positions of one partition of the 2-piece Jungle table (one White
//! kind against one Black kind, White to move), each with its features
//! and the table's value.

use super::features::{features, FeatureSet, COUNT};
use crate::AppError;
use zoo_animal::board::{bit, Board, RAT};
use zoo_animal::{Jungle, JunglePos, RuleSet};
use zoo_animal_tb::Tablebase;
use zoo_core::{Outcome, Side};
use zoo_tb::TbError;

/// The class names of the trees, in the order of [`class_of`].
pub const CLASSES: [&str; 3] = ["win", "draw", "loss"];

/// The class of a value for White to move.
pub fn class_of(o: Outcome) -> usize {
    match o {
        Outcome::Win => 0,
        Outcome::Draw => 1,
        Outcome::Loss => 2,
    }
}

/// One partition's positions.
#[derive(Clone, Debug)]
pub struct Partition {
    /// White's kind (0 rat … 7 elephant).
    pub white: usize,
    /// Black's kind.
    pub black: usize,
    /// Its name, `LvE`: White's letter, `v`, Black's in lower case.
    pub material: String,
    /// Each position as (White's square, Black's square).
    pub squares: Vec<(u8, u8)>,
    /// Each position's features.
    pub rows: Vec<[f64; COUNT]>,
    /// Each position's value for White to move, as a class of [`CLASSES`].
    pub labels: Vec<usize>,
}

impl Partition {
    /// Positions with each value: wins, draws, losses for White.
    pub fn values(&self) -> [u64; 3] {
        let mut v = [0u64; 3];
        for &l in &self.labels {
            v[l] += 1;
        }
        v
    }

    /// The position of entry `i`, White to move.
    pub fn position(&self, i: usize, rules: &'static RuleSet) -> JunglePos {
        let (w, b) = self.squares[i];
        place(self.white, w, self.black, b, rules)
    }
}

fn place(wk: usize, w: u8, bk: usize, b: u8, rules: &'static RuleSet) -> JunglePos {
    let mut p = JunglePos::empty(rules);
    p.put(Side::White, wk, w);
    p.put(Side::Black, bk, b);
    p.set_side_to_move(Side::White);
    p
}

/// The squares a lone piece of `kind` can stand on in a table: land that
/// is not a den, and for the rat the water too (a piece in the enemy
/// den has already won).
fn domain(kind: usize) -> impl Iterator<Item = u8> {
    let dens = bit(Jungle::DEN[0]) | bit(Jungle::DEN[1]);
    (0..Jungle::SQUARES)
        .filter(move |&s| bit(s) & dens == 0 && (kind == RAT || bit(s) & Jungle::WATER == 0))
}

/// Every position of White's `white` against Black's `black`, White to
/// move, with its features (read as `set` says) and its value read from
/// `tb`.
pub fn partition(
    tb: &Tablebase<Jungle>,
    set: FeatureSet,
    white: usize,
    black: usize,
) -> Result<Partition, AppError> {
    let material = format!(
        "{}v{}",
        Jungle::LETTERS[white] as char,
        (Jungle::LETTERS[black] as char).to_ascii_lowercase()
    );
    let mut part = Partition {
        white,
        black,
        material,
        squares: Vec::new(),
        rows: Vec::new(),
        labels: Vec::new(),
    };
    for w in domain(white) {
        for b in domain(black).filter(|&b| b != w) {
            let pos = place(white, w, black, b, tb.rules());
            let (value, _) = tb.try_probe(&pos).map_err(|e| match e {
                TbError::Missing { .. } => AppError::Input(format!(
                    "{e}; build the 2-piece tables first: zoo tb build --game jungle --pieces 2 --dir DIR, then give --tb DIR"
                )),
                e => AppError::Tables(e),
            })?;
            part.squares.push((w, b));
            part.rows.push(features(set, white, w, black, b));
            part.labels.push(class_of(value));
        }
    }
    Ok(part)
}
