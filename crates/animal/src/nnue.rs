//! The learned evaluation of the animal games (`--eval nnue`): a
//! [`zoo_core::nnue::Net`] over piece-square features, one net per board
//! (its file in `crates/animal/nets/`, made by `zoo train`, see
//! docs/search.md), or a net file named on the command line
//! (`--eval nnue:PATH`).
//!
//! Features, seen from a perspective side P: for each piece on the board,
//! whose it is (P's or the other's), its strength rank under the game's
//! rules (so the wolf and the dog swap places between `leiden` and
//! `common` and one net serves both), and its square turned so that P's
//! den is at the bottom (Black's squares rotated 180°, as the boards are
//! point-symmetric).
//!
//! ```
//! use zoo_animal::{nnue, JunglePos};
//! use zoo_core::{Evaluator, Game};
//! let eval = nnue::NetEval::embedded::<zoo_animal::Jungle>().unwrap();
//! let start = JunglePos::start(&JunglePos::default_rules());
//! // The start is symmetric: each side's view of it is the same.
//! assert!(eval.evaluate(&start).abs() < 200);
//! ```

use crate::board::Board;
use crate::Position;
use std::path::Path;
use std::sync::OnceLock;
use zoo_core::nnue::{Accumulator, Net};
use zoo_core::{Evaluator, Side, EVAL_LIMIT};

/// The number of features of board `B`: two owners, `KINDS` strength
/// ranks, `SQUARES` squares.
pub const fn inputs<B: Board>() -> usize {
    2 * B::KINDS * B::SQUARES as usize
}

/// The feature of `side`'s piece of strength rank `rank` (0 = weakest)
/// on square `s`, seen from `persp`.
#[inline(always)]
pub fn feature<B: Board>(persp: Side, side: Side, rank: usize, s: u8) -> usize {
    let s = if persp == Side::White {
        s
    } else {
        B::SQUARES - 1 - s
    };
    ((usize::from(side != persp) * B::KINDS) + rank) * B::SQUARES as usize + s as usize
}

/// The features of `pos` seen from `persp`, passed to `f` one by one.
#[inline]
pub fn for_each_feature<B: Board>(pos: &Position<B>, persp: Side, mut f: impl FnMut(usize)) {
    let strength = &pos.rule_set().strength;
    for side in [Side::White, Side::Black] {
        for (kind, &st) in strength.iter().enumerate().take(B::KINDS) {
            if let Some(s) = pos.square_of(side, kind) {
                let rank = (st as usize).saturating_sub(1).min(B::KINDS - 1);
                f(feature::<B>(persp, side, rank, s));
            }
        }
    }
}

impl<B: Board> zoo_core::nnue::NetInputs for Position<B> {
    fn net_inputs() -> usize {
        inputs::<B>()
    }
    fn for_each_net_feature(&self, persp: Side, f: &mut dyn FnMut(usize)) {
        for_each_feature(self, persp, f)
    }
}

/// The learned evaluation: a net (named `nnue` in logs, whichever file it
/// came from).
#[derive(Debug, Clone, Copy)]
pub struct NetEval {
    net: &'static Net,
}

static JUNGLE: OnceLock<Result<Net, String>> = OnceLock::new();
static JUNGLE_CHECKERS: OnceLock<Result<Net, String>> = OnceLock::new();

impl NetEval {
    /// The net that comes with zoo for board `B`.
    pub fn embedded<B: Board>() -> Result<NetEval, String> {
        let (cell, bytes, what): (_, &[u8], _) = if B::KINDS == 4 {
            (
                &JUNGLE_CHECKERS,
                include_bytes!("../nets/jungle-checkers.nnue"),
                "the Jungle Checkers net",
            )
        } else {
            (
                &JUNGLE,
                include_bytes!("../nets/jungle.nnue"),
                "the Jungle net",
            )
        };
        let net = cell.get_or_init(|| zoo_core::nnue::parse_for(bytes, inputs::<B>(), what));
        net.as_ref()
            .map(|net| NetEval { net })
            .map_err(Clone::clone)
    }

    /// The net in file `path` (read once per process and contents).
    pub fn from_file<B: Board>(path: &Path) -> Result<NetEval, String> {
        zoo_core::nnue::load_file(path, inputs::<B>()).map(|net| NetEval { net })
    }

    /// The net itself.
    pub fn net(&self) -> &'static Net {
        self.net
    }
}

/// The accumulators of the last position this thread evaluated, with its
/// pieces: the next evaluation updates them by the pieces that differ
/// (one moved piece and one taken, mostly: the positions a search visits
/// in a row are neighbours), as Stockfish's accumulator caches refresh by
/// the difference of boards. Kept per thread so that `Evaluator` stays a
/// shared, stateless `&self` with no hooks into make and unmake.
struct Cache {
    net: *const Net,
    strength: [u8; 8],
    /// `squares[side][kind]`: the square of each piece, `OFF` if off.
    squares: [[u8; 8]; 2],
    /// The accumulators seen from White and from Black.
    acc: [Accumulator; 2],
}

const OFF: u8 = u8::MAX;

thread_local! {
    static CACHE: std::cell::RefCell<Option<Box<Cache>>> = const { std::cell::RefCell::new(None) };
}

impl NetEval {
    /// The evaluation summed afresh from every piece (what the cached
    /// evaluation must always equal).
    pub fn evaluate_from_scratch<B: Board>(&self, pos: &Position<B>) -> i32 {
        let net = self.net;
        let stm = pos.stm();
        let mut us = Accumulator::new(net);
        let mut them = Accumulator::new(net);
        for_each_feature(pos, stm, |f| us.add(net, f));
        for_each_feature(pos, stm.flip(), |f| them.add(net, f));
        net.output(&us, &them)
            .clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }

    fn evaluate_cached<B: Board>(&self, pos: &Position<B>, cache: &mut Cache) -> i32 {
        let net = self.net;
        let strength = pos.rule_set().strength;
        let rank = |kind: usize| {
            (strength[kind] as usize)
                .saturating_sub(1)
                .min(B::KINDS - 1)
        };
        if !std::ptr::eq(cache.net, net) || cache.strength != strength {
            cache.net = net;
            cache.strength = strength;
            cache.squares = [[OFF; 8]; 2];
            cache.acc[0].reset(net);
            cache.acc[1].reset(net);
        }
        for side in [Side::White, Side::Black] {
            for kind in 0..B::KINDS {
                let now = pos.square_of(side, kind).unwrap_or(OFF);
                let was = std::mem::replace(&mut cache.squares[side.index()][kind], now);
                if now == was {
                    continue;
                }
                for persp in [Side::White, Side::Black] {
                    let acc = &mut cache.acc[persp.index()];
                    if was != OFF {
                        acc.remove(net, feature::<B>(persp, side, rank(kind), was));
                    }
                    if now != OFF {
                        acc.add(net, feature::<B>(persp, side, rank(kind), now));
                    }
                }
            }
        }
        let stm = pos.stm();
        net.output(&cache.acc[stm.index()], &cache.acc[stm.flip().index()])
            .clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }
}

impl<B: Board> Evaluator<Position<B>> for NetEval {
    fn name(&self) -> &'static str {
        "nnue"
    }
    #[inline]
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let cache = c.get_or_insert_with(|| {
                Box::new(Cache {
                    net: std::ptr::null(),
                    strength: [0; 8],
                    squares: [[OFF; 8]; 2],
                    acc: [Accumulator::new(self.net), Accumulator::new(self.net)],
                })
            });
            self.evaluate_cached(pos, cache)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Jungle, JungleCheckers, JungleCheckersPos, JunglePos};
    use zoo_core::Game;

    #[test]
    fn features_are_distinct_and_in_range() {
        let p = JunglePos::start(&JunglePos::default_rules());
        for persp in [Side::White, Side::Black] {
            let mut seen = Vec::new();
            for_each_feature(&p, persp, |f| seen.push(f));
            assert_eq!(seen.len(), 16);
            assert!(seen.iter().all(|&f| f < inputs::<Jungle>()));
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 16);
        }
    }

    #[test]
    fn a_side_sees_its_mirror_as_the_other_does() {
        // White's view of a position is Black's view of the colour-swapped,
        // rotated position.
        let rules = JungleCheckersPos::default_rules();
        let p = JungleCheckersPos::from_fen("7/1r5/7/3E3/7/5t1/7 w", &rules).unwrap();
        let q = JungleCheckersPos::from_fen("7/1T5/7/3e3/7/5R1/7 b", &rules).unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for_each_feature(&p, Side::White, |f| a.push(f));
        for_each_feature(&q, Side::Black, |f| b.push(f));
        a.sort();
        b.sort();
        assert_eq!(a, b);
        let e = NetEval::embedded::<JungleCheckers>().unwrap();
        assert_eq!(e.evaluate(&p), e.evaluate(&q));
    }

    #[test]
    fn the_cached_evaluation_is_the_one_from_scratch() {
        // Random games of both boards and both Jungle rule sets, evaluated
        // in turn on one thread: every switch of board, net or rules, every
        // move and every take must leave the cache equal to a fresh sum.
        let mut rng = 12345u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        // Random weights, so that no feature's column is zero.
        let mut random_net = |inputs: usize| {
            let h = 32;
            let mut w = |n: usize| -> Vec<f32> {
                (0..n)
                    .map(|_| (next() % 2001) as f32 / 1000.0 - 1.0)
                    .collect()
            };
            let (w1, b1, w2) = (w(inputs * h), w(h), w(2 * h));
            NetEval {
                net: Box::leak(Box::new(Net::from_float(
                    inputs, h, 1000, &w1, &b1, &w2, 0.1,
                ))),
            }
        };
        let jungle = random_net(inputs::<Jungle>());
        let jc = random_net(inputs::<JungleCheckers>());
        let leiden = JunglePos::default_rules();
        let common = JunglePos::rules_by_name("common").unwrap();
        let mut j = [JunglePos::start(&leiden), JunglePos::start(&common)];
        let mut c = JungleCheckersPos::start(&JungleCheckersPos::default_rules());
        let mut moves = zoo_core::MoveList::new();
        for step in 0..4000 {
            let which = (next() % 3) as usize;
            if which < 2 {
                let p = &mut j[which];
                moves.clear();
                p.legal_moves(&mut moves);
                if p.outcome().is_some() || moves.is_empty() || step % 300 == 299 {
                    *p = JunglePos::start(&p.rule_set());
                } else {
                    p.make(moves[(next() % moves.len() as u64) as usize]);
                }
                assert_eq!(
                    jungle.evaluate(p),
                    jungle.evaluate_from_scratch(p),
                    "{}",
                    p.to_fen()
                );
            } else {
                moves.clear();
                c.legal_moves(&mut moves);
                if c.outcome().is_some() || moves.is_empty() || step % 200 == 199 {
                    c = JungleCheckersPos::start(&c.rule_set());
                } else {
                    c.make(moves[(next() % moves.len() as u64) as usize]);
                }
                assert_eq!(
                    jc.evaluate(&c),
                    jc.evaluate_from_scratch(&c),
                    "{}",
                    c.to_fen()
                );
            }
        }
    }

    #[test]
    fn embedded_nets_load() {
        assert!(NetEval::embedded::<Jungle>().is_ok());
        assert!(NetEval::embedded::<JungleCheckers>().is_ok());
    }
}
