//! Unmoves of checkers positions (`zoo_core::Retro`): the quiet steps back
//! that stay within one material.

use crate::geometry::{bit, squares, DL, DR, NONE, STEP, UL, UR};
use crate::movegen::ray_free;
use crate::position::{Move, Position};
use crate::variant::Variant;
use crate::zobrist;
use zoo_core::Retro;

/// A step back: the piece of the side that just moved, now on `to`,
/// returns to `from`. The forward move is the quiet move `from`-`to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unmove {
    /// Where the piece stood before the move (internal square).
    pub from: u8,
    /// Where it stands now (internal square).
    pub to: u8,
}

impl<V: Variant> Position<V> {
    /// Moves the piece on `from` of `side` to `to`, keeping its kind and
    /// the key; the caller flips the side to move.
    #[inline]
    fn shift_piece(&mut self, side: usize, from: u8, to: u8) {
        let (f, t) = (bit(from), bit(to));
        let king = self.kings & f != 0;
        self.pieces[side] ^= f | t;
        if king {
            self.kings ^= f | t;
        }
        let z = &zobrist::PIECE[side][king as usize];
        self.key ^= z[from as usize] ^ z[to as usize] ^ zobrist::BLACK_TO_MOVE;
    }

    /// Whether the quiet move `u` is legal in its predecessor: checkers
    /// captures are compulsory, so a quiet move was possible only when the
    /// mover had no capture there.
    #[inline]
    fn unmove_legal(&self, u: Unmove) -> bool {
        let mut p = *self;
        Retro::apply_unmove(&mut p, u);
        !p.has_capture()
    }
}

impl<V: Variant> Retro for Position<V> {
    type Unmove = Unmove;

    /// The quiet, non-crowning moves that lead here, from predecessors in
    /// which they were legal (the mover had no capture there): a man steps
    /// back one square (away from its crowning row, so it never comes from
    /// it), a king one square back in English checkers and along any
    /// empty stretch of a diagonal in Classical checkers (flying kings).
    ///
    /// Un-captures and un-promotions are left out: their predecessors are
    /// of another material (more pieces, or a man where a king stands),
    /// which the generator never looks up from this table — it values the
    /// moves into other materials forward, from the tables built before.
    fn unmoves(&self, out: &mut Vec<Unmove>) {
        out.clear();
        let mover = self.stm.flip();
        let occ = self.occupied();
        let back = if Self::moves_up(mover) {
            [DR, DL]
        } else {
            [UR, UL]
        };
        for to in squares(self.men(mover)) {
            for d in back {
                let from = STEP[to as usize][d];
                if from == NONE || occ & bit(from) != 0 {
                    continue;
                }
                let u = Unmove { from, to };
                if self.unmove_legal(u) {
                    out.push(u);
                }
            }
        }
        for to in squares(self.kings_of(mover)) {
            for d in [UR, UL, DR, DL] {
                let reach = if V::FLYING_KINGS {
                    ray_free(to, d, occ)
                } else {
                    let s = STEP[to as usize][d];
                    if s == NONE || occ & bit(s) != 0 {
                        0
                    } else {
                        bit(s)
                    }
                };
                for from in squares(reach) {
                    let u = Unmove { from, to };
                    if self.unmove_legal(u) {
                        out.push(u);
                    }
                }
            }
        }
    }

    fn apply_unmove(&mut self, u: Unmove) {
        let mover = self.stm.flip();
        self.shift_piece(mover.index(), u.to, u.from);
        self.stm = mover;
    }

    fn revert_unmove(&mut self, u: Unmove) {
        let mover = self.stm;
        self.shift_piece(mover.index(), u.from, u.to);
        self.stm = mover.flip();
    }

    fn unmove_forward(&self, u: Unmove) -> Move {
        Move::quiet(u.from, u.to)
    }

    /// The position itself: checkers has no left–right symmetry. Mirroring
    /// the columns puts the pieces on the light squares; mirroring across a
    /// long diagonal keeps the dark squares but turns the men's forward
    /// direction sideways; the half turn reverses it, which only the colour
    /// swap ([`Retro::colour_swapped`]) makes good again.
    fn mirrored(&self) -> Self {
        *self
    }

    /// The board turned half a turn, the colours and the side to move
    /// swapped: the same game seen from the other side.
    fn colour_swapped(&self) -> Self {
        Position::colour_swapped(self)
    }
}
