//! Unmoves (predecessors) and the two symmetries, for tablebases and the census.

use crate::board::{bit, file_of, rank_of, sq, Board, FILES, NONE, RAT};
use crate::position::{Move, Position};
use zoo_core::Side;

/// A move taken back: the piece of the side that just moved goes from `to`
/// back to `from`; `uncapture` is `1 + kind` of the piece of the side to move
/// that reappears on `to`, or 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unmove {
    /// Where the piece goes back to.
    pub from: u8,
    /// Where the piece stands now.
    pub to: u8,
    /// `1 + kind` of the piece that reappears on `to`, or 0.
    pub uncapture: u8,
}

impl<B: Board> Position<B> {
    /// Every predecessor of this position (see `zoo_core::Retro::unmoves`).
    pub fn generate_unmoves(&self, out: &mut Vec<Unmove>) {
        self.for_each_unmove(true, !0, !0, |_, u| out.push(u));
    }

    /// The predecessors without an uncapture (the same configuration of
    /// pieces), with no allocation: the tablebase generator's hot path.
    /// Only the pieces standing on `pieces` are taken back, and only to
    /// squares of `origins` (both sets of squares). `f` is told the kind
    /// of the piece too.
    #[inline]
    pub fn for_each_quiet_unmove(&self, pieces: u64, origins: u64, f: impl FnMut(usize, Unmove)) {
        self.for_each_unmove(false, pieces, origins, f);
    }

    #[inline(always)]
    fn for_each_unmove(
        &self,
        uncaptures: bool,
        pieces: u64,
        origins: u64,
        mut f: impl FnMut(usize, Unmove),
    ) {
        let us = self.stm; // side to move now: its pieces may be uncaptured
        let mover = us.flip();
        let (ui, mi) = (us.index(), mover.index());
        // A piece of the side to move already in the mover's den: every
        // predecessor was a finished game.
        if self.occ[ui] & bit(B::DEN[mi]) != 0 {
            return;
        }
        let t = B::tables();
        let empty = B::all_squares() & !(self.occ[0] | self.occ[1]);
        // Kinds of the side to move that are off the board (may be uncaptured).
        let mut missing = 0u32;
        if uncaptures {
            for k in 0..B::KINDS {
                if self.sq[ui][k] == NONE {
                    missing |= 1 << k;
                }
            }
        }
        // A piece of the mover in the den of the side to move: that entry was
        // the last move, so only that piece may go back.
        let in_den = self.occ[mi] & bit(B::DEN[ui]) != 0;
        for kind in 0..B::KINDS {
            let to = self.sq[mi][kind];
            if to == NONE || (in_den && to != B::DEN[ui]) || pieces & bit(to) == 0 {
                continue;
            }
            // Where it may have come from: an empty square it may stand on,
            // not its own den, not the den of the side to move (game over).
            let mut from_set =
                t.steps[to as usize] & empty & origins & !bit(B::DEN[mi]) & !bit(B::DEN[ui]);
            if kind != RAT {
                from_set &= !B::WATER;
            }
            if B::LEAPERS & (1 << kind) != 0 {
                for l in &t.leaps[to as usize] {
                    // Leaps are symmetric; the rats are where they were.
                    if l.to != NONE && l.over & self.rats == 0 && empty & origins & bit(l.to) != 0 {
                        from_set |= bit(l.to);
                    }
                }
            }
            while from_set != 0 {
                let from = from_set.trailing_zeros() as u8;
                from_set &= from_set - 1;
                // Without a capture the side to move must have had a piece.
                if self.occ[ui] != 0 {
                    f(
                        kind,
                        Unmove {
                            from,
                            to,
                            uncapture: 0,
                        },
                    );
                }
                if to == B::DEN[ui] {
                    continue; // nothing of the side to move stands in its own den
                }
                let mut m = missing;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if c != RAT && B::WATER & bit(to) != 0 {
                        continue;
                    }
                    if self.can_capture(mover, kind, from, to, c) {
                        f(
                            kind,
                            Unmove {
                                from,
                                to,
                                uncapture: 1 + c as u8,
                            },
                        );
                    }
                }
            }
        }
    }

    /// Turns this position into the predecessor `u` leads to.
    pub fn apply_unmove(&mut self, u: Unmove) {
        let mover = self.stm.flip();
        let (_, kind) = self.piece_at(u.to).expect("unmove of an empty square");
        self.remove(mover, kind, u.to);
        self.put(mover, kind, u.from);
        if u.uncapture != 0 {
            self.put(self.stm, (u.uncapture - 1) as usize, u.to);
        }
        self.set_side_to_move(mover);
        self.ply = self.ply.saturating_sub(1);
    }

    /// Undoes [`Position::apply_unmove`].
    pub fn revert_unmove(&mut self, u: Unmove) {
        let mover = self.stm;
        let victim = mover.flip();
        if u.uncapture != 0 {
            self.remove(victim, (u.uncapture - 1) as usize, u.to);
        }
        let (_, kind) = self.piece_at(u.from).expect("revert of an empty square");
        self.remove(mover, kind, u.from);
        self.put(mover, kind, u.to);
        self.set_side_to_move(victim);
        self.ply = self.ply.wrapping_add(1);
    }

    /// The forward move that undoes `u`.
    pub fn unmove_to_move(u: Unmove) -> Move {
        Move::new(u.from, u.to)
    }

    /// Files a ↔ g.
    pub fn mirror(&self) -> Self {
        self.transform(|s| sq(FILES - 1 - file_of(s), rank_of(s)), false)
    }

    /// Colours swapped, ranks turned, side to move switched.
    pub fn colour_swap(&self) -> Self {
        self.transform(|s| sq(file_of(s), B::RANKS - 1 - rank_of(s)), true)
    }

    fn transform(&self, map: impl Fn(u8) -> u8, swap: bool) -> Self {
        let mut p = Position::<B>::empty(self.rules);
        for side in [Side::White, Side::Black] {
            for kind in 0..B::KINDS {
                if let Some(s) = self.square_of(side, kind) {
                    p.put(if swap { side.flip() } else { side }, kind, map(s));
                }
            }
        }
        p.set_side_to_move(if swap { self.stm.flip() } else { self.stm });
        p.clock = self.clock;
        p
    }
}
