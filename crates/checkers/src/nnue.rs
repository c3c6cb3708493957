//! The learned evaluation of checkers (`--eval nnue`): a
//! [`zoo_core::nnue::Net`] over 128 piece-square features, made by `zoo
//! train --game english-checkers` from self-play and the tables (see
//! docs/checkers.md, "The learned evaluation"). English checkers has one
//! in `crates/checkers/nets/`; a net file can be named for either variant
//! (`--eval nnue:PATH`).
//!
//! Features, seen from a perspective side P: for each piece, whose it is
//! (P's or the other's), whether it is a king, and its square turned so
//! that P's first row is row 0 (the other side's squares rotated 180°, as
//! [`crate::eval`] reads "own first row").
//!
//! ```
//! use zoo_checkers::{nnue::NetEval, EnglishPos, English, ENGLISH};
//! use zoo_core::{Evaluator, Game};
//! let eval = NetEval::embedded::<English>().unwrap();
//! let start = EnglishPos::start(&&ENGLISH);
//! // The start is symmetric: each side's view of it is the same.
//! assert!(eval.evaluate(&start).abs() < 100);
//! ```

use crate::position::Position;
use crate::variant::Variant;
use std::path::Path;
use std::sync::OnceLock;
use zoo_core::nnue::{Accumulator, Net, NetInputs};
use zoo_core::{Evaluator, Side, EVAL_LIMIT};

/// The number of features: two owners, man or king, 32 squares.
pub const INPUTS: usize = 2 * 2 * 32;

/// The feature of `side`'s piece (a king or not) on internal square `s`,
/// seen from `persp`, in variant `V`.
#[inline(always)]
pub fn feature<V: Variant>(persp: Side, side: Side, king: bool, s: u8) -> usize {
    let s = if persp == V::FIRST { s } else { 31 - s };
    ((usize::from(side != persp) * 2) + usize::from(king)) * 32 + s as usize
}

/// Calls `f` with each square of bitboard `b`.
#[inline(always)]
fn each_square(mut b: u32, mut f: impl FnMut(u8)) {
    while b != 0 {
        f(b.trailing_zeros() as u8);
        b &= b - 1;
    }
}

/// The features of `pos` seen from `persp`, passed to `f` one by one.
#[inline]
pub fn for_each_feature<V: Variant>(pos: &Position<V>, persp: Side, mut f: impl FnMut(usize)) {
    for side in [Side::White, Side::Black] {
        each_square(pos.men(side), |s| f(feature::<V>(persp, side, false, s)));
        each_square(pos.kings_of(side), |s| {
            f(feature::<V>(persp, side, true, s))
        });
    }
}

impl<V: Variant> NetInputs for Position<V> {
    fn net_inputs() -> usize {
        INPUTS
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

impl PartialEq for NetEval {
    fn eq(&self, other: &NetEval) -> bool {
        std::ptr::eq(self.net, other.net)
    }
}
impl Eq for NetEval {}

static ENGLISH: OnceLock<Result<Net, String>> = OnceLock::new();

impl NetEval {
    /// Whether variant `V` comes with a net.
    pub fn has_embedded<V: Variant>() -> bool {
        V::GAME == crate::English::GAME
    }

    /// The net that comes with zoo for variant `V` (English checkers only).
    pub fn embedded<V: Variant>() -> Result<NetEval, String> {
        if !Self::has_embedded::<V>() {
            return Err(format!(
                "{} comes with no learned evaluation; make one with `zoo train --game {}` and use nnue:PATH",
                V::GAME,
                V::GAME
            ));
        }
        let net = ENGLISH.get_or_init(|| {
            zoo_core::nnue::parse_for(
                include_bytes!("../nets/english.nnue"),
                INPUTS,
                "the English checkers net",
            )
        });
        net.as_ref()
            .map(|net| NetEval { net })
            .map_err(Clone::clone)
    }

    /// The net in file `path` (read once per process and contents).
    pub fn from_file(path: &Path) -> Result<NetEval, String> {
        zoo_core::nnue::load_file(path, INPUTS).map(|net| NetEval { net })
    }

    /// The net itself.
    pub fn net(&self) -> &'static Net {
        self.net
    }

    /// The evaluation summed afresh from every piece (what the cached
    /// evaluation must always equal).
    pub fn evaluate_from_scratch<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let net = self.net;
        let stm = pos.side();
        let mut us = Accumulator::new(net);
        let mut them = Accumulator::new(net);
        for_each_feature(pos, stm, |f| us.add(net, f));
        for_each_feature(pos, stm.flip(), |f| them.add(net, f));
        net.output(&us, &them)
            .clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }

    fn evaluate_cached<V: Variant>(&self, pos: &Position<V>, cache: &mut Cache) -> i32 {
        let net = self.net;
        if !std::ptr::eq(cache.net, net) || cache.first != V::FIRST {
            cache.net = net;
            cache.first = V::FIRST;
            cache.boards = [0; 4];
            cache.acc[0].reset(net);
            cache.acc[1].reset(net);
        }
        for side in [Side::White, Side::Black] {
            for king in [false, true] {
                let now = if king {
                    pos.kings_of(side)
                } else {
                    pos.men(side)
                };
                let slot = side.index() * 2 + usize::from(king);
                let was = std::mem::replace(&mut cache.boards[slot], now);
                for persp in [Side::White, Side::Black] {
                    let acc = &mut cache.acc[persp.index()];
                    each_square(was & !now, |s| {
                        acc.remove(net, feature::<V>(persp, side, king, s))
                    });
                    each_square(now & !was, |s| {
                        acc.add(net, feature::<V>(persp, side, king, s))
                    });
                }
            }
        }
        let stm = pos.side();
        net.output(&cache.acc[stm.index()], &cache.acc[stm.flip().index()])
            .clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }
}

/// The accumulators of the last position this thread evaluated, with its
/// bitboards: the next evaluation updates them by the squares that differ
/// (the positions a search visits in a row are neighbours), so that
/// `Evaluator` stays a shared, stateless `&self` with no hooks into make
/// and unmake — as the animal games' net does (`zoo_animal::nnue`).
struct Cache {
    net: *const Net,
    /// The variant's first mover: the same net file may serve both.
    first: Side,
    /// White's men and kings, then Black's.
    boards: [u32; 4],
    /// The accumulators seen from White and from Black.
    acc: [Accumulator; 2],
}

thread_local! {
    static CACHE: std::cell::RefCell<Option<Box<Cache>>> = const { std::cell::RefCell::new(None) };
}

impl<V: Variant> Evaluator<Position<V>> for NetEval {
    fn name(&self) -> &'static str {
        "nnue"
    }
    #[inline]
    fn evaluate(&self, pos: &Position<V>) -> i32 {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let cache = c.get_or_insert_with(|| {
                Box::new(Cache {
                    net: std::ptr::null(),
                    first: V::FIRST,
                    boards: [0; 4],
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
    use crate::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
    use zoo_core::Game;

    #[test]
    fn features_are_distinct_and_in_range() {
        let p = EnglishPos::start(&&ENGLISH);
        for persp in [Side::White, Side::Black] {
            let mut seen = Vec::new();
            for_each_feature(&p, persp, |f| seen.push(f));
            assert_eq!(seen.len(), 24);
            assert!(seen.iter().all(|&f| f < INPUTS));
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 24);
        }
    }

    #[test]
    fn a_side_sees_its_colour_swap_as_the_other_does() {
        let p = EnglishPos::from_fen("B:W18,K27:B5,9,K12", &&ENGLISH).unwrap();
        let q = p.colour_swapped();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for_each_feature(&p, p.side(), |f| a.push(f));
        for_each_feature(&q, q.side(), |f| b.push(f));
        a.sort();
        b.sort();
        assert_eq!(a, b);
        let e = NetEval::embedded::<crate::English>().unwrap();
        assert_eq!(e.evaluate(&p), e.evaluate(&q));
    }

    #[test]
    fn the_cached_evaluation_is_the_one_from_scratch() {
        // Random games of both variants evaluated in turn on one thread:
        // every switch of variant, every move, take and crowning must
        // leave the cache equal to a fresh sum.
        let mut rng = zoo_core::rng::SplitMix64(7);
        let h = 32;
        let mut w = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.next_u64() % 2001) as f32 / 1000.0 - 1.0)
                .collect()
        };
        let (w1, b1, w2) = (w(INPUTS * h), w(h), w(2 * h));
        let e = NetEval {
            net: Box::leak(Box::new(Net::from_float(
                INPUTS, h, 1000, &w1, &b1, &w2, 0.1,
            ))),
        };
        let mut rng = zoo_core::rng::SplitMix64(8);
        let mut en = EnglishPos::start(&&ENGLISH);
        let mut cl = ClassicalPos::start(&&CLASSICAL);
        let mut moves = zoo_core::MoveList::new();
        for step in 0..4000 {
            if rng.next_u64().is_multiple_of(2) {
                moves.clear();
                en.legal_moves(&mut moves);
                if moves.is_empty() || step % 250 == 249 {
                    en = EnglishPos::start(&&ENGLISH);
                } else {
                    en.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                }
                assert_eq!(
                    e.evaluate(&en),
                    e.evaluate_from_scratch(&en),
                    "{}",
                    en.to_fen()
                );
            } else {
                moves.clear();
                cl.legal_moves(&mut moves);
                if moves.is_empty() || step % 250 == 249 {
                    cl = ClassicalPos::start(&&CLASSICAL);
                } else {
                    cl.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                }
                assert_eq!(
                    e.evaluate(&cl),
                    e.evaluate_from_scratch(&cl),
                    "{}",
                    cl.to_fen()
                );
            }
        }
    }

    #[test]
    fn only_english_has_a_net() {
        assert!(NetEval::embedded::<crate::English>().is_ok());
        let e = NetEval::embedded::<crate::Classical>().unwrap_err();
        assert!(e.contains("zoo train"), "{e}");
    }
}
