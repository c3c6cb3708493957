//! Helpers shared by the animal-game tests: positions from random play and
//! random placements, and comparison of placements.
#![allow(dead_code)]

use zoo_animal::board::{bit, Board, NONE, RAT};
use zoo_animal::{rules, Position, RuleSet};
use zoo_core::{Game, MoveList, Side};

pub use zoo_testkit::Rng;

/// The position after up to `plies` random legal moves from the start
/// (stops early when the game ends).
pub fn random_play<B: Board>(rules: &'static RuleSet, seed: u64, plies: u32) -> Position<B> {
    let mut rng = Rng(seed);
    let mut pos = Position::<B>::start(&rules);
    for _ in 0..plies {
        if pos.terminal().is_some() {
            break;
        }
        let mut l = MoveList::new();
        pos.legal_moves(&mut l);
        if l.is_empty() {
            break;
        }
        // Prefer captures a little so that material comes off the board.
        let caps: Vec<_> = l.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        let m = if !caps.is_empty() && rng.below(3) == 0 {
            caps[rng.below(caps.len() as u64) as usize]
        } else {
            l[rng.below(l.len() as u64) as usize]
        };
        pos.make(m);
    }
    pos
}

/// A random legal placement: each piece present with probability 1/2, on a
/// random free square where it may stand (not its own den, water only for
/// rats); never a piece of the side that moved last... no: any side to move.
pub fn random_placement<B: Board>(rules: &'static RuleSet, seed: u64) -> Position<B> {
    let mut rng = Rng(seed);
    let mut pos = Position::<B>::empty(rules);
    let density = 1 + rng.below(3); // keep sometimes few, sometimes many pieces
    for side in [Side::White, Side::Black] {
        for kind in 0..B::KINDS {
            if rng.below(4) >= density {
                continue;
            }
            for _ in 0..100 {
                let s = rng.below(B::SQUARES as u64) as u8;
                let free = pos.piece_at(s).is_none();
                let water_ok = kind == RAT || B::WATER & bit(s) == 0;
                if free && water_ok && s != B::DEN[side.index()] {
                    pos.put(side, kind, s);
                    break;
                }
            }
        }
    }
    if rng.below(2) == 1 {
        pos.set_side_to_move(Side::Black);
    }
    pos
}

/// Same pieces on the same squares, same side to move (counters ignored).
pub fn same_placement<B: Board>(a: &Position<B>, b: &Position<B>) -> bool {
    a.key() == b.key()
        && (0..B::KINDS).all(|k| {
            a.square_of(Side::White, k) == b.square_of(Side::White, k)
                && a.square_of(Side::Black, k) == b.square_of(Side::Black, k)
        })
        && a.side_to_move() == b.side_to_move()
}

pub fn leiden_jungle() -> &'static RuleSet {
    &rules::JUNGLE_LEIDEN
}

pub const _NONE: u8 = NONE;
