//! Scores: the mate scale, distance-to-mate, the table-win band below it,
//! and the conversion of both between the root's and the transposition
//! table's point of view.
//!
//! From the top: mates (`MATE - ply`, exact: a finished game or a table
//! with distances), then table wins (a WDL-only table says won, the
//! distance is unknown: `TB_WIN - ply` plus a share of the evaluation, so
//! that the engine still heads for the end, in the manner of Stockfish's
//! `VALUE_TB_WIN_IN_MAX_PLY`), then evaluations; losses mirror them.

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
/// The best table win: a won position of a WDL-only table at the root,
/// just below every mate.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// How many score units a table win's evaluation share spans.
const TB_EVAL_SPAN: i32 = 256;
/// Evaluation units per score unit of that share: a table win a capture
/// ahead outranks one a few plies shorter, as in play it should.
const TB_EVAL_DIV: i32 = 16;
/// Scores beyond this (and below [`MATE_BOUND`]) are table wins: above
/// every evaluation, which stays strictly inside ±`EVAL_LIMIT`. The lowest
/// table win a search makes is `TB_WIN - TB_EVAL_SPAN - MAX_PLY`; the room
/// between keeps a table win read back from the transposition table at
/// another ply a table win.
pub const TB_WIN_BOUND: i32 = EVAL_LIMIT;
const _: () = assert!(MATE_BOUND > EVAL_LIMIT);
const _: () = assert!(TB_WIN - TB_EVAL_SPAN - (MAX_PLY as i32) > TB_WIN_BOUND + MAX_PLY as i32);

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

/// Whether a score is a table win (`Win`) or loss (`Loss`): won or lost by
/// a WDL-only table, the distance unknown (see [`TB_WIN`]).
pub fn table_result(score: i32) -> Option<Outcome> {
    if (TB_WIN_BOUND..MATE_BOUND).contains(&score) {
        Some(Outcome::Win)
    } else if (-MATE_BOUND + 1..=-TB_WIN_BOUND).contains(&score) {
        Some(Outcome::Loss)
    } else {
        None
    }
}

/// The score at `ply` from the root of a position a WDL-only table says is
/// won for the side to move, whose evaluation for that side is `eval`:
/// nearer the root is better (so the engine does not postpone the win),
/// and a better evaluation is (so it converts: captures, advances).
#[inline(always)]
pub(crate) fn table_win(ply: usize, eval: i32) -> i32 {
    let half = TB_EVAL_SPAN / 2;
    let share = (eval / TB_EVAL_DIV).clamp(-half, half - 1) + half;
    TB_WIN - (TB_EVAL_SPAN - 1) + share - ply as i32
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

/// Mate scores and table wins are stored relative to the node, not the
/// root (both count plies from the root).
#[inline(always)]
pub(crate) fn to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= TB_WIN_BOUND {
        s + ply as i32
    } else if s <= -TB_WIN_BOUND {
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
    if s >= TB_WIN_BOUND {
        s - ply as i32
    } else if s <= -TB_WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_wins_lie_between_evaluations_and_mates() {
        for ply in [0, 1, 17, MAX_PLY] {
            for eval in [-EVAL_LIMIT, -5000, -1, 0, 1, 300, 5000, EVAL_LIMIT] {
                let s = table_win(ply, eval);
                assert!(s > EVAL_LIMIT && s < MATE_BOUND, "{ply} {eval}: {s}");
                assert_eq!(table_result(s), Some(Outcome::Win));
                assert_eq!(table_result(-s), Some(Outcome::Loss));
                assert_eq!(mate_distance(s), None);
                // Stored at one ply and read at another, still a table win.
                assert_eq!(table_result(from_tt(to_tt(s, ply), 0)), Some(Outcome::Win));
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
                assert_eq!(from_tt(to_tt(-s, ply), ply), -s);
            }
            // Nearer the root is better; a better evaluation is.
            assert!(table_win(ply, 0) > table_win(ply + 1, 0));
            assert!(table_win(ply, 400) > table_win(ply, 0));
        }
        assert_eq!(table_result(EVAL_LIMIT - 1), None);
        assert_eq!(table_result(MATE - 3), None);
        assert_eq!(table_result(-(MATE - 3)), None);
        assert_eq!(table_result(0), None);
    }
}
