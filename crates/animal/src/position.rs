//! The position: mailbox, piece list and bitboards kept together, with
//! make/unmake and an incremental Zobrist key.

use crate::board::{bit, Board, NONE, RAT};
use crate::rules::RuleSet;
use crate::zobrist;
use std::marker::PhantomData;
use zoo_core::{Outcome, Side};

/// A move: from-square and to-square (a leap is just a longer move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

impl Move {
    #[inline(always)]
    /// The move from `from` to `to`.
    pub fn new(from: u8, to: u8) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }
    #[inline(always)]
    /// The origin square.
    pub fn from(self) -> u8 {
        (self.0 & 63) as u8
    }
    #[inline(always)]
    /// The destination square.
    pub fn to(self) -> u8 {
        (self.0 >> 6) as u8
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            crate::board::square_name(self.from()),
            crate::board::square_name(self.to())
        )
    }
}

/// What unmake needs: the captured piece (0 = none) and the old clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// Mailbox code of the captured piece ([`code`]), 0 when none.
    pub captured: u8,
    /// The no-capture clock before the move.
    pub clock: u16,
}

/// Piece code in the mailbox: 0 empty, else `1 + side*8 + kind`.
#[inline(always)]
pub const fn code(side: Side, kind: usize) -> u8 {
    1 + (side as u8) * 8 + kind as u8
}
#[inline(always)]
/// The side and kind of a non-zero mailbox [`code`].
pub fn decode(c: u8) -> (Side, usize) {
    let c = c - 1;
    (
        if c >= 8 { Side::Black } else { Side::White },
        (c & 7) as usize,
    )
}

#[derive(Clone)]
/// A position of board `B` under a rule set: mailbox, piece list and
/// bitboards kept in step, with an incremental Zobrist key.
pub struct Position<B: Board> {
    pub(crate) board: [u8; 64],
    /// Square of each kind per side, `NONE` when captured.
    pub(crate) sq: [[u8; 8]; 2],
    pub(crate) occ: [u64; 2],
    /// Squares of both rats: they block leaps.
    pub(crate) rats: u64,
    pub(crate) stm: Side,
    pub(crate) key: u64,
    /// Plies since the last capture (common rules' 200-ply draw).
    pub(crate) clock: u16,
    /// Plies since the start of the game (informative, FEN's counters).
    pub(crate) ply: u16,
    pub(crate) rules: &'static RuleSet,
    _board: PhantomData<B>,
}

impl<B: Board> PartialEq for Position<B> {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.sq == o.sq
            && self.occ == o.occ
            && self.rats == o.rats
            && self.stm == o.stm
            && self.key == o.key
            && self.clock == o.clock
            && self.ply == o.ply
            && std::ptr::eq(self.rules, o.rules)
    }
}
impl<B: Board> Eq for Position<B> {}

impl<B: Board> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fen())
    }
}

impl<B: Board> Position<B> {
    /// An empty board with White to move.
    pub fn empty(rules: &'static RuleSet) -> Self {
        Position {
            board: [0; 64],
            sq: [[NONE; 8]; 2],
            occ: [0; 2],
            rats: 0,
            stm: Side::White,
            key: 0,
            clock: 0,
            ply: 0,
            rules,
            _board: PhantomData,
        }
    }

    #[inline(always)]
    /// The side to move.
    pub fn stm(&self) -> Side {
        self.stm
    }
    /// The rule set this position is played under.
    pub fn rule_set(&self) -> &'static RuleSet {
        self.rules
    }
    #[inline(always)]
    /// The squares of `side`'s pieces.
    pub fn occupied(&self, side: Side) -> u64 {
        self.occ[side.index()]
    }
    /// Square of `side`'s piece of `kind`, if on the board.
    #[inline(always)]
    pub fn square_of(&self, side: Side, kind: usize) -> Option<u8> {
        let s = self.sq[side.index()][kind];
        (s != NONE).then_some(s)
    }
    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, s: u8) -> Option<(Side, usize)> {
        let c = self.board[s as usize];
        (c != 0).then(|| decode(c))
    }
    /// Plies since the last capture (the `common` 200-ply draw, docs/rules/jungle.md §10).
    pub fn clock(&self) -> u16 {
        self.clock
    }
    /// Plies since the start of the game.
    pub fn ply(&self) -> u16 {
        self.ply
    }
    /// Gives the move to `side`, keeping the key in step.
    pub fn set_side_to_move(&mut self, side: Side) {
        if side != self.stm {
            self.stm = side;
            self.key ^= zobrist::BLACK_TO_MOVE;
        }
    }
    /// Sets the no-capture clock and the ply counter.
    pub fn set_counters(&mut self, clock: u16, ply: u16) {
        self.clock = clock;
        self.ply = ply;
    }

    /// Places a piece on an empty square (the caller checks legality).
    #[inline(always)]
    pub fn put(&mut self, side: Side, kind: usize, s: u8) {
        debug_assert_eq!(self.board[s as usize], 0);
        self.board[s as usize] = code(side, kind);
        self.sq[side.index()][kind] = s;
        self.occ[side.index()] |= bit(s);
        if kind == RAT {
            self.rats |= bit(s);
        }
        self.key ^= zobrist::PIECE[side.index()][kind][s as usize];
    }

    /// Removes the piece on `s` (which must hold `side`'s `kind`).
    #[inline(always)]
    pub fn remove(&mut self, side: Side, kind: usize, s: u8) {
        debug_assert_eq!(self.board[s as usize], code(side, kind));
        self.board[s as usize] = 0;
        self.sq[side.index()][kind] = NONE;
        self.occ[side.index()] &= !bit(s);
        if kind == RAT {
            self.rats &= !bit(s);
        }
        self.key ^= zobrist::PIECE[side.index()][kind][s as usize];
    }

    /// Moves `side`'s `kind` from `from` to the empty square `to` (the
    /// caller checks legality; nothing else changes).
    #[inline(always)]
    pub fn relocate(&mut self, side: Side, kind: usize, from: u8, to: u8) {
        debug_assert_eq!(self.board[to as usize], 0);
        let c = self.board[from as usize];
        self.board[from as usize] = 0;
        self.board[to as usize] = c;
        self.sq[side.index()][kind] = to;
        let m = bit(from) | bit(to);
        self.occ[side.index()] ^= m;
        if kind == RAT {
            self.rats ^= m;
        }
        let z = &zobrist::PIECE[side.index()][kind];
        self.key ^= z[from as usize] ^ z[to as usize];
    }

    #[inline(always)]
    /// Plays a legal move; returns what [`Position::unmake_move`] needs.
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let (from, to) = (mv.from(), mv.to());
        let us = self.stm;
        let (_, kind) = decode(self.board[from as usize]);
        let captured = self.board[to as usize];
        let undo = Undo {
            captured,
            clock: self.clock,
        };
        if captured != 0 {
            let (_, ck) = decode(captured);
            self.remove(us.flip(), ck, to);
            self.clock = 0;
        } else {
            self.clock = self.clock.saturating_add(1);
        }
        self.relocate(us, kind, from, to);
        self.stm = us.flip();
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.ply = self.ply.wrapping_add(1);
        undo
    }

    #[inline(always)]
    /// Takes back `mv`, restoring the position exactly.
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let (from, to) = (mv.from(), mv.to());
        let us = self.stm.flip();
        self.stm = us;
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.ply = self.ply.wrapping_sub(1);
        let (_, kind) = decode(self.board[to as usize]);
        self.relocate(us, kind, to, from);
        if undo.captured != 0 {
            let (cs, ck) = decode(undo.captured);
            self.put(cs, ck, to);
        }
        self.clock = undo.clock;
    }

    /// The key from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.stm == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for s in 0..B::SQUARES {
            if let Some((side, kind)) = self.piece_at(s) {
                k ^= zobrist::PIECE[side.index()][kind][s as usize];
            }
        }
        k
    }

    /// The key of the left–right mirror image ([`Position::mirror`]),
    /// from the pieces' squares without building it.
    #[inline]
    pub fn mirror_key(&self) -> u64 {
        use crate::board::{file_of, rank_of, sq, FILES};
        let mut k = if self.stm == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for side in 0..2 {
            for kind in 0..B::KINDS {
                let s = self.sq[side][kind];
                if s != NONE {
                    let m = sq(FILES - 1 - file_of(s), rank_of(s));
                    k ^= zobrist::PIECE[side][kind][m as usize];
                }
            }
        }
        k
    }

    /// The end of the game before the side to move moves, from its view.
    #[inline(always)]
    pub fn terminal_outcome(&self) -> Option<Outcome> {
        let us = self.stm.index();
        let them = 1 - us;
        if self.occ[them] & bit(B::DEN[us]) != 0 || self.occ[us] == 0 {
            return Some(Outcome::Loss);
        }
        // Only reachable from a set-up position: the side to move already won.
        if self.occ[us] & bit(B::DEN[them]) != 0 || self.occ[them] == 0 {
            return Some(Outcome::Win);
        }
        if let Some(limit) = self.rules.no_capture_limit {
            if self.clock >= limit {
                return Some(Outcome::Draw);
            }
        }
        None
    }

    /// Number of pieces on the board, both sides.
    pub fn piece_count(&self) -> u32 {
        (self.occ[0] | self.occ[1]).count_ones()
    }
}
