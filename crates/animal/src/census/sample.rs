//! The census estimated by sampling, for rows too large to enumerate (the
//! whole of Jungle, 1 to 16 pieces): each sample is a uniform draw from
//! the product of every piece's squares (a material drawn in proportion to
//! its product's size), classified as the enumeration classifies. A draw
//! with two pieces on one square is no position and counts zero, so the
//! estimate of each count is unbiased: the product's size times the mean
//! count per draw, with a normal confidence interval.

use super::enumerate::{classify_one, materials, pieces_of, EnumerateError, Options};
use super::Row;
use crate::board::{bit, Board, RAT};
use crate::position::Position;
use crate::rules::RuleSet;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering;
use zoo_core::Side;

/// A count estimated by sampling.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// The half-width of its 95% confidence interval (1.96 standard
    /// errors; when no draw was of this kind, the rule of three's bound).
    pub half_width: f64,
}

/// A row of the census estimated from `samples` draws.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct EstimatedRow {
    /// Pieces on the board.
    pub pieces: u32,
    /// Draws made.
    pub samples: u64,
    /// Every draw's product size: the placements the draws come from,
    /// squares shared included.
    pub drawn_from: u128,
    /// [`Row::unfinished`] estimated.
    pub unfinished: Estimate,
    /// [`Row::unreachable_unfinished`] estimated.
    pub unreachable_unfinished: Estimate,
    /// [`Row::stalemates`] estimated.
    pub stalemates: Estimate,
    /// [`Row::won_material`] estimated.
    pub won_material: Estimate,
    /// [`Row::won_den`] estimated.
    pub won_den: Estimate,
    /// [`Row::unreachable_won`] estimated.
    pub unreachable_won: Estimate,
    /// [`Row::reachable`] estimated.
    pub reachable: Estimate,
}

/// The squares each piece of `side`'s `kind` may stand on.
fn squares<B: Board>(side: Side, kind: usize) -> u64 {
    let mut s = B::all_squares() & !bit(B::DEN[side.index()]);
    if kind != RAT {
        s &= !B::WATER;
    }
    s
}

fn nth_square(mut set: u64, n: u32) -> u8 {
    for _ in 0..n {
        set &= set - 1;
    }
    set.trailing_zeros() as u8
}

/// Estimates the row of `pieces` pieces from `samples` draws of a
/// generator seeded with `seed` (the same seed, the same estimate).
pub fn estimate<B: Board>(
    rules: &'static RuleSet,
    pieces: u32,
    samples: u64,
    seed: u64,
    opts: &Options,
) -> Result<EstimatedRow, EnumerateError> {
    let mats: Vec<(Vec<(Side, usize)>, u128)> = materials::<B>(pieces)
        .into_iter()
        .map(|m| {
            let list = pieces_of::<B>(m);
            let size = list
                .iter()
                .map(|&(s, k)| squares::<B>(s, k).count_ones() as u128)
                .product();
            (list, size)
        })
        .collect();
    let total: u128 = mats.iter().map(|m| m.1).sum();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ (pieces as u64) << 32);
    // Sums and sums of squares of each field's count per draw.
    let mut sum = [0f64; 7];
    let mut sq = [0f64; 7];
    for i in 0..samples {
        if i % 4096 == 0 {
            if let Some(stop) = opts.stop {
                if stop.load(Ordering::Relaxed) {
                    return Err(EnumerateError::Stopped);
                }
            }
        }
        // A material in proportion to its size: a point of the whole
        // product, located by its material.
        let mut at = rng.gen_range(0..total);
        let (list, _) = mats
            .iter()
            .find(|(_, size)| {
                let here = at < *size;
                if !here {
                    at -= size;
                }
                here
            })
            .expect("a point below the total lies in some material");
        let mut pos = Position::<B>::empty(rules);
        let mut clash = false;
        for &(side, kind) in list {
            let set = squares::<B>(side, kind);
            let s = nth_square(set, rng.gen_range(0..set.count_ones()));
            if pos.piece_at(s).is_some() {
                clash = true;
                break;
            }
            pos.put(side, kind, s);
        }
        if clash {
            continue;
        }
        let r = classify_one(pos, opts)?;
        let counts = fields(&r.close());
        for f in 0..7 {
            sum[f] += counts[f];
            sq[f] += counts[f] * counts[f];
        }
    }
    let n = samples.max(1) as f64;
    let est = |f: usize| {
        let mean = sum[f] / n;
        let var = (sq[f] / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        // No draw of this kind: the normal interval would be empty; the
        // rule of three bounds it instead (95%: at most 3/n of the draws).
        let half_width = if sum[f] == 0.0 {
            total as f64 * 3.0 / n
        } else {
            1.96 * total as f64 * (var / n).sqrt()
        };
        Estimate {
            value: total as f64 * mean,
            half_width,
        }
    };
    Ok(EstimatedRow {
        pieces,
        samples,
        drawn_from: total,
        unfinished: est(0),
        unreachable_unfinished: est(1),
        stalemates: est(2),
        won_material: est(3),
        won_den: est(4),
        unreachable_won: est(5),
        reachable: est(6),
    })
}

fn fields(r: &Row) -> [f64; 7] {
    [
        r.unfinished as f64,
        r.unreachable_unfinished as f64,
        r.stalemates as f64,
        r.won_material as f64,
        r.won_den as f64,
        r.unreachable_won as f64,
        r.reachable as f64,
    ]
}
