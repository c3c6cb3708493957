//! The 3-piece partitions of Jungle and Jungle Checkers (one side's lone
//! piece against the other side's two, White to move): their positions,
//! their features (defined in docs/trees.md) and the table's values, as
//! data sets for the learner.
//!
//! The features name the pieces by role, not by colour, so one schema
//! serves both splits (two White pieces against one, one against two)
//! and the tree of several partitions: L is the lone piece, P the weaker
//! of the pair, Q the stronger (by kind number).

use super::partition::{class_of, CLASSES};
use super::routes::{moves_on, FAR};
use crate::AppError;
use zoo_animal::board::{bit, file_of, rank_of, Board, RAT};
use zoo_animal::{Position, RuleSet};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::{MoveList, Side};
use zoo_learn::{Dataset, Feature, Schema};
use zoo_tb::TbError;

/// How many features a 3-piece position has.
pub const COUNT: usize = 21;

const OUTCOMES: [&str; 3] = ["win", "draw", "loss"];

/// The features, in the order of [`features`]' values.
pub fn schema() -> Vec<Feature> {
    let sides = ["white", "black"];
    let sectors = ["low", "middle", "high"];
    let parity = ["even", "odd"];
    vec![
        Feature::nominal("lone", &sides),
        Feature::numeric("kind_l"),
        Feature::numeric("kind_p"),
        Feature::numeric("kind_q"),
        Feature::nominal("closest", &sides),
        Feature::numeric("den_l"),
        Feature::numeric("den_p"),
        Feature::numeric("den_q"),
        Feature::nominal("sector_l", &sectors),
        Feature::nominal("sector_p", &sectors),
        Feature::nominal("sector_q", &sectors),
        Feature::numeric("distance_lp"),
        Feature::numeric("distance_lq"),
        Feature::numeric("distance_pq"),
        Feature::nominal("parity_lp", &parity),
        Feature::nominal("parity_lq", &parity),
        Feature::numeric("captures_w"),
        Feature::numeric("captures_b"),
        Feature::numeric("trapped"),
        Feature::nominal("value_lp", &OUTCOMES),
        Feature::nominal("value_lq", &OUTCOMES),
    ]
}

/// A piece on the board: its side, kind and square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Whose piece.
    pub side: Side,
    /// Its kind (0 rat … the elephant).
    pub kind: usize,
    /// Where it stands.
    pub square: u8,
}

/// Moves to the enemy den, unreachable (never, for a den) capped so the
/// feature stays a small number.
fn to_den<B: Board>(p: Piece) -> u32 {
    match moves_on::<B>(p.side, p.kind, p.square, B::DEN[p.side.flip().index()]) {
        FAR => 99,
        m => m as u32,
    }
}

fn manhattan(a: u8, b: u8) -> u32 {
    (file_of(a).abs_diff(file_of(b)) + rank_of(a).abs_diff(rank_of(b))) as u32
}

/// Ranks in three, counted from White's side: on Jungle's nine ranks
/// 1-3, 4-6, 7-9; on Jungle Checkers' seven 1-3, 4-5, 6-7.
fn sector<B: Board>(s: u8) -> f64 {
    (rank_of(s) as u32 * 3 / B::RANKS as u32) as f64
}

fn place<B: Board>(pieces: &[Piece], rules: &'static RuleSet) -> Position<B> {
    let mut pos = Position::<B>::empty(rules);
    for p in pieces {
        pos.put(p.side, p.kind, p.square);
    }
    pos.set_side_to_move(Side::White);
    pos
}

/// Captures `side` could make if it were to move.
fn captures<B: Board>(pos: &mut Position<B>, side: Side) -> u32 {
    let stm = pos.stm();
    pos.set_side_to_move(side);
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let enemy = pos.occupied(side.flip());
    let n = list.iter().filter(|m| enemy & bit(m.to()) != 0).count() as u32;
    pos.set_side_to_move(stm);
    n
}

/// The 2-piece table's value, White to move, of two of the pieces alone.
fn value_of<B: Board>(tb: &Tablebase<B>, a: Piece, b: Piece) -> Result<f64, AppError> {
    let pos = place::<B>(&[a, b], tb.rules());
    let (v, _) = tb.try_probe(&pos).map_err(missing::<B>)?;
    Ok(class_of(v) as f64)
}

fn missing<B: Board>(e: TbError) -> AppError {
    match e {
        TbError::Missing { .. } => AppError::Input(format!(
            "{e}; build the tables first: zoo tb build --game {} --pieces 3 --dir DIR (it makes the 2-piece ones too), then give --tb DIR",
            B::GAME
        )),
        e => AppError::Tables(e),
    }
}

/// The feature values of the lone piece `l` against the pair `p`, `q`
/// (`p` the weaker kind), White to move, in the order of [`schema`].
pub fn features<B: Board>(
    tb: &Tablebase<B>,
    l: Piece,
    p: Piece,
    q: Piece,
) -> Result<[f64; COUNT], AppError> {
    let mut pos = place::<B>(&[l, p, q], tb.rules());
    let (d_l, d_p, d_q) = (to_den::<B>(l), to_den::<B>(p), to_den::<B>(q));
    let lone_white = l.side == Side::White;
    // Each side's best race to the enemy den; White moves first, so it
    // arrives first on a tie.
    let pair_best = d_p.min(d_q);
    let (white_best, black_best) = if lone_white {
        (d_l, pair_best)
    } else {
        (pair_best, d_l)
    };
    let trapped = [l, p, q]
        .iter()
        .filter(|x| B::TRAPS[x.side.flip().index()] & bit(x.square) != 0)
        .count();
    let (lp, lq) = (manhattan(l.square, p.square), manhattan(l.square, q.square));
    // "If one of the pair were gone": the 2-piece table's values of the
    // lone piece against each of the pair where they stand, White to move.
    let value_lp = value_of(tb, l, p)?;
    let value_lq = value_of(tb, l, q)?;
    Ok([
        if lone_white { 0.0 } else { 1.0 },
        l.kind as f64,
        p.kind as f64,
        q.kind as f64,
        if white_best <= black_best { 0.0 } else { 1.0 },
        d_l as f64,
        d_p as f64,
        d_q as f64,
        sector::<B>(l.square),
        sector::<B>(p.square),
        sector::<B>(q.square),
        lp as f64,
        lq as f64,
        manhattan(p.square, q.square) as f64,
        (lp % 2) as f64,
        (lq % 2) as f64,
        captures(&mut pos, Side::White) as f64,
        captures(&mut pos, Side::Black) as f64,
        trapped as f64,
        value_lp,
        value_lq,
    ])
}

/// One 3-piece partition: its data set and the table's values.
pub struct Partition3 {
    /// `CLvr`: White's letters, `v`, Black's in lower case.
    pub material: String,
    /// Every position's features and value.
    pub data: Dataset,
    /// Each position's pieces (L, P, Q), as the rows of `data`.
    pub pieces: Vec<[Piece; 3]>,
    /// Wins, draws and losses for White.
    pub values: [u64; 3],
}

impl Partition3 {
    /// The position of entry `i`, White to move.
    pub fn position<B: Board>(&self, i: usize, rules: &'static RuleSet) -> Position<B> {
        place::<B>(&self.pieces[i], rules)
    }
}

/// The squares a piece of `kind` can stand on in a table: land that is
/// not a den, for the rat the water too.
fn domain<B: Board>(kind: usize) -> Vec<u8> {
    let dens = bit(B::DEN[0]) | bit(B::DEN[1]);
    (0..B::SQUARES)
        .filter(|&s| bit(s) & dens == 0 && (kind == RAT || bit(s) & B::WATER == 0))
        .collect()
}

/// The data set's schema.
pub fn dataset_schema() -> Schema {
    Schema {
        features: schema(),
        classes: CLASSES.iter().map(|c| c.to_string()).collect(),
    }
}

/// Every position of material `m` (three pieces, both sides present),
/// White to move, with its features and its value read from `tb`.
pub fn partition<B: Board>(tb: &Tablebase<B>, m: Material) -> Result<Partition3, AppError> {
    let kinds = |mask: u8| (0..B::KINDS).filter(move |k| mask & (1 << k) != 0);
    let (lone, pair, lone_mask, pair_mask) = if m.white.count_ones() == 1 {
        (Side::White, Side::Black, m.white, m.black)
    } else {
        (Side::Black, Side::White, m.black, m.white)
    };
    let lk = kinds(lone_mask).next().unwrap_or(0);
    let mut pk = kinds(pair_mask);
    let (pk, qk) = (pk.next().unwrap_or(0), pk.next().unwrap_or(0));
    let mut part = Partition3 {
        material: m.name::<B>(),
        data: Dataset::new(dataset_schema()),
        pieces: Vec::new(),
        values: [0; 3],
    };
    let (dl, dp, dq) = (domain::<B>(lk), domain::<B>(pk), domain::<B>(qk));
    for &ls in &dl {
        for &ps in dp.iter().filter(|&&s| s != ls) {
            for &qs in dq.iter().filter(|&&s| s != ls && s != ps) {
                let l = Piece {
                    side: lone,
                    kind: lk,
                    square: ls,
                };
                let p = Piece {
                    side: pair,
                    kind: pk,
                    square: ps,
                };
                let q = Piece {
                    side: pair,
                    kind: qk,
                    square: qs,
                };
                let (v, _) = tb
                    .try_probe(&place::<B>(&[l, p, q], tb.rules()))
                    .map_err(missing::<B>)?;
                let class = class_of(v);
                let row = features(tb, l, p, q)?;
                part.data
                    .push(&row, class)
                    .map_err(|e| AppError::Input(format!("decision tree: {e}")))?;
                part.values[class] += 1;
                part.pieces.push([l, p, q]);
            }
        }
    }
    Ok(part)
}
