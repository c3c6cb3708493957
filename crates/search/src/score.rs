//! Scores: the mate scale, distance-to-mate and the conversion of mate
//! scores between the root's and the table's point of view.

use zoo_core::{Outcome, EVAL_LIMIT};

/// A won game scores `MATE - ply` (ply of the final winning move from the root).
pub const MATE: i32 = 31_000;
/// Larger than any score: the open window.
pub const INF: i32 = 32_000;
/// The deepest ply a search reaches, quiescence included (the node there
/// is evaluated); sizes the per-ply tables.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The deepest iteration; also the depth of a search without a depth limit.
pub const MAX_DEPTH: u32 = 100;
const _: () = assert!(MATE_BOUND > EVAL_LIMIT);

/// The mate distance of a score (see [`crate::Iteration::mate`]).
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// The score of a finished game at `ply` from the root.
#[inline(always)]
pub(crate) fn outcome_score(o: Outcome, ply: usize) -> i32 {
    match o {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
        Outcome::Draw => 0,
    }
}

/// Mate scores are stored relative to the node, not the root.
#[inline(always)]
pub(crate) fn to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    };
    s as i16
}
/// The inverse of [`to_tt`]: a stored score as seen from the root.
#[inline(always)]
pub(crate) fn from_tt(s: i16, ply: usize) -> i32 {
    let s = s as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
