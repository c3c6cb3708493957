//! The position (two colour bitboards and a king bitboard), moves, and
//! make/unmake with an incremental Zobrist key.

use crate::geometry::{bit, row_mask, squares};
use crate::variant::{RuleSet, Variant};
use crate::zobrist;
use std::marker::PhantomData;
use zoo_core::Side;

/// A move: origin, destination and the set of captured squares. Two capture
/// sequences with the same three are the same move (docs/rules/checkers.md
/// §6.1); the landing squares in between are recovered for notation by
/// [`crate::Position::capture_path`], which keeps moves at 8 bytes in the
/// hot move lists.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    /// Bit set of the captured internal squares; 0 for a move without capture.
    pub captured: u32,
    /// Origin (internal square, 0..32).
    pub from: u8,
    /// Destination (internal square, 0..32).
    pub to: u8,
}

impl Move {
    #[inline(always)]
    /// A move without capture.
    pub const fn quiet(from: u8, to: u8) -> Move {
        Move {
            captured: 0,
            from,
            to,
        }
    }
    #[inline(always)]
    /// Whether the move takes pieces.
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Internal squares; notation depends on the variant's numbering.
        write!(
            f,
            "s{}{}s{}",
            self.from,
            if self.captured != 0 { "x" } else { "-" },
            self.to
        )?;
        if self.captured != 0 {
            write!(f, "{{")?;
            for (i, s) in squares(self.captured).enumerate() {
                write!(f, "{}s{s}", if i > 0 { "," } else { "" })?;
            }
            write!(f, "}}")?;
        }
        Ok(())
    }
}

/// What unmake needs beyond the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The Zobrist key before the move.
    pub key: u64,
    /// The captured pieces that were kings.
    pub captured_kings: u32,
    /// The mover was a man crowned by this move.
    pub promoted: bool,
    /// [`Position::quiet`] before the move.
    pub quiet: u16,
}

/// A position of variant `V`: a bitboard per side and one of kings, the side
/// to move and an incremental Zobrist key (docs/rules/checkers.md §1, §2).
pub struct Position<V: Variant> {
    /// Pieces of each side, indexed by `Side::index`.
    pub(crate) pieces: [u32; 2],
    pub(crate) kings: u32,
    pub(crate) stm: Side,
    pub(crate) key: u64,
    pub(crate) rules: &'static RuleSet,
    /// Plies since the last capture or man's move, for the rule set's move
    /// limit ([`RuleSet::draw_moves`]); not part of the key or of equality
    /// (the tables and the transposition table value the placement).
    pub(crate) quiet: u16,
    _v: PhantomData<V>,
}

// Manual impls: the derives would require `V: Trait` bounds needlessly.
impl<V: Variant> Clone for Position<V> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<V: Variant> Copy for Position<V> {}
impl<V: Variant> PartialEq for Position<V> {
    fn eq(&self, o: &Self) -> bool {
        self.pieces == o.pieces
            && self.kings == o.kings
            && self.stm == o.stm
            && self.key == o.key
            && self.rules == o.rules
    }
}
impl<V: Variant> Eq for Position<V> {}
impl<V: Variant> std::fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fen())
    }
}

impl<V: Variant> Position<V> {
    /// An empty board with `stm` to move.
    pub fn empty(rules: &'static RuleSet, stm: Side) -> Self {
        let mut p = Position {
            pieces: [0; 2],
            kings: 0,
            stm,
            key: 0,
            rules,
            quiet: 0,
            _v: PhantomData,
        };
        p.key = p.compute_key();
        p
    }

    /// Builds a position from bitboards (internal squares). Fails when the
    /// sets overlap, a king is not a piece, or a man stands on its own far
    /// row (it would have been crowned).
    pub fn from_bitboards(
        rules: &'static RuleSet,
        white: u32,
        black: u32,
        kings: u32,
        stm: Side,
    ) -> Result<Self, String> {
        if white & black != 0 {
            return Err("a square holds pieces of both sides".into());
        }
        if kings & !(white | black) != 0 {
            return Err("a king on an empty square".into());
        }
        // Each side starts with 12 pieces and never gains one; the bound
        // also keeps every move list far below its capacity.
        if white.count_ones() > 12 || black.count_ones() > 12 {
            return Err("more than 12 pieces of one side".into());
        }
        let mut p = Position {
            pieces: [0; 2],
            kings,
            stm,
            key: 0,
            rules,
            quiet: 0,
            _v: PhantomData,
        };
        p.pieces[Side::White.index()] = white;
        p.pieces[Side::Black.index()] = black;
        for side in [Side::White, Side::Black] {
            let men = p.pieces[side.index()] & !kings;
            if men & Self::far_row(side) != 0 {
                return Err(format!(
                    "a {} man on the row where it would be crowned",
                    side.name()
                ));
            }
        }
        p.key = p.compute_key();
        Ok(p)
    }

    /// The start: the first mover on rows 0–2, the other on rows 5–7.
    pub fn start_position(rules: &'static RuleSet) -> Self {
        let first = 0x0000_0FFF;
        let second = 0xFFF0_0000;
        let (w, b) = if V::FIRST == Side::White {
            (first, second)
        } else {
            (second, first)
        };
        Self::from_bitboards(rules, w, b, 0, V::FIRST).expect("start position is valid")
    }

    /// The row where `side`'s men are crowned.
    #[inline(always)]
    pub fn far_row(side: Side) -> u32 {
        if side == V::FIRST {
            row_mask(7)
        } else {
            row_mask(0)
        }
    }

    /// Whether `side` moves towards higher internal indices.
    #[inline(always)]
    pub fn moves_up(side: Side) -> bool {
        side == V::FIRST
    }

    #[inline(always)]
    /// The squares of `side`'s pieces.
    pub fn pieces(&self, side: Side) -> u32 {
        self.pieces[side.index()]
    }
    #[inline(always)]
    /// The squares of `side`'s men.
    pub fn men(&self, side: Side) -> u32 {
        self.pieces[side.index()] & !self.kings
    }
    #[inline(always)]
    /// The squares of `side`'s kings.
    pub fn kings_of(&self, side: Side) -> u32 {
        self.pieces[side.index()] & self.kings
    }
    #[inline(always)]
    /// The squares of all pieces.
    pub fn occupied(&self) -> u32 {
        self.pieces[0] | self.pieces[1]
    }
    #[inline(always)]
    /// The side to move.
    pub fn side(&self) -> Side {
        self.stm
    }
    /// The rule set this position is played under.
    pub fn rule_set(&self) -> &'static RuleSet {
        self.rules
    }
    #[inline(always)]
    /// Number of pieces on the board, both sides.
    pub fn total_pieces(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The piece on an internal square: (side, is king).
    pub fn piece_at(&self, s: u8) -> Option<(Side, bool)> {
        let b = bit(s);
        let king = self.kings & b != 0;
        if self.pieces[0] & b != 0 {
            Some((Side::White, king))
        } else if self.pieces[1] & b != 0 {
            Some((Side::Black, king))
        } else {
            None
        }
    }

    /// The Zobrist key computed from scratch; always equals the incremental one.
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.stm == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for side in [Side::White, Side::Black] {
            for s in squares(self.pieces[side.index()]) {
                let king = (self.kings & bit(s) != 0) as usize;
                k ^= zobrist::PIECE[side.index()][king][s as usize];
            }
        }
        k
    }

    /// The board turned half a turn with the colours swapped and the other
    /// side to move: the same game from the other side's point of view.
    pub fn colour_swapped(&self) -> Self {
        let w = self.pieces[Side::White.index()].reverse_bits();
        let b = self.pieces[Side::Black.index()].reverse_bits();
        // Turning the board maps square s to 31 - s: a bit reversal.
        Self::from_bitboards(self.rules, b, w, self.kings.reverse_bits(), self.stm.flip())
            .expect("turning a valid position keeps men off their crowning rows")
    }

    #[inline]
    /// Plays a legal move (docs/rules/checkers.md §2, §3); returns what
    /// [`Position::unmake_move`] needs.
    pub fn make_move(&mut self, m: Move) -> Undo {
        // Indices are masked to their ranges so that the table lookups
        // need no bounds checks (this runs once per perft node).
        let us = self.stm.index() & 1;
        let them = us ^ 1;
        let (f, t) = ((m.from & 31) as usize, (m.to & 31) as usize);
        let from = 1u32 << f;
        let to = 1u32 << t;
        let was_king = self.kings & from != 0;
        let promoted = !was_king && to & Self::far_row(self.stm) != 0;
        let mut undo = Undo {
            key: self.key,
            captured_kings: 0,
            promoted,
            quiet: self.quiet,
        };
        // A capture or a man's move restarts the move limit's count.
        self.quiet = if m.captured != 0 || !was_king {
            0
        } else {
            self.quiet.saturating_add(1)
        };

        let z = &zobrist::PIECE;
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= z[us][was_king as usize][f] ^ z[us][(was_king || promoted) as usize][t];
        if m.captured != 0 {
            let captured_kings = m.captured & self.kings;
            undo.captured_kings = captured_kings;
            let mut c = m.captured;
            while c != 0 {
                let s = c.trailing_zeros() as usize & 31;
                key ^= z[them][(captured_kings >> s & 1) as usize][s];
                c &= c - 1;
            }
            self.pieces[them] &= !m.captured;
            self.kings &= !m.captured;
        }
        // XOR moves the piece, and leaves it in place when a king's capture
        // ends where it began (from == to).
        self.pieces[us] ^= from ^ to;
        if was_king {
            self.kings ^= from ^ to;
        } else if promoted {
            self.kings |= to;
        }
        self.key = key;
        self.stm = self.stm.flip();
        undo
    }

    #[inline]
    /// Takes back `m`, restoring the position exactly.
    pub fn unmake_move(&mut self, m: Move, u: Undo) {
        self.stm = self.stm.flip();
        let us = self.stm.index();
        let them = us ^ 1;
        let from = bit(m.from);
        let to = bit(m.to);
        let was_king = !u.promoted && self.kings & to != 0;
        self.pieces[us] = (self.pieces[us] & !to) | from;
        self.kings &= !to;
        if was_king {
            self.kings |= from;
        }
        self.pieces[them] |= m.captured;
        self.kings |= u.captured_kings;
        self.key = u.key;
        self.quiet = u.quiet;
    }

    /// Plies since the last capture or man's move.
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// Whether the rule set's move limit ends the game here as a draw.
    #[inline]
    pub fn move_limit_reached(&self) -> bool {
        self.rules.draw_moves.is_some_and(|n| self.quiet >= 2 * n)
    }
}
