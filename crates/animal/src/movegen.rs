//! Legal move generation: steps and leaps from the tables, then the capture
//! rules (strength, rat and elephant, traps, the water's edge).

use crate::board::{bit, Board, NONE, RAT};
use crate::position::{decode, Move, Position};
use zoo_core::{MoveList, Side};

impl<B: Board> Position<B> {
    /// Squares `side`'s `kind` on `from` may move to, captures not yet checked.
    #[inline(always)]
    pub fn targets(&self, side: Side, kind: usize, from: u8) -> u64 {
        let t = B::tables();
        let own = self.occ[side.index()];
        let mut m = t.steps[from as usize] & !own & !bit(B::DEN[side.index()]);
        if kind != RAT {
            m &= !B::WATER;
        }
        if B::LEAPERS & (1 << kind) != 0 {
            for l in &t.leaps[from as usize] {
                if l.to != NONE && l.over & self.rats == 0 {
                    m |= bit(l.to);
                }
            }
            m &= !own;
        }
        m
    }

    /// Whether `side`'s `kind` moving `from` → `to` may take the enemy
    /// `def` standing on `to`.
    #[inline(always)]
    pub fn can_capture(&self, side: Side, kind: usize, from: u8, to: u8, def: usize) -> bool {
        // On one of its opponent's traps a piece defends with strength 0.
        if B::TRAPS[side.index()] & bit(to) != 0 {
            return true;
        }
        if B::WATER != 0 && ((B::WATER >> from) ^ (B::WATER >> to)) & 1 != 0 {
            // Across the water's edge only a rat moves, and it may take only
            // the rat (never the elephant out of the water), if at all.
            return self.rules.captures_across_water_edge && def == RAT;
        }
        self.rules.beats(kind, def, B::ELEPHANT)
    }

    #[inline(always)]
    fn for_each_piece(&self, side: Side, mut f: impl FnMut(usize, u8)) {
        let list = &self.sq[side.index()];
        for (kind, &s) in list.iter().enumerate().take(B::KINDS) {
            if s != NONE {
                f(kind, s);
            }
        }
    }

    /// Appends the legal moves of the side to move (docs/rules/jungle.md §3, §4).
    pub fn generate(&self, out: &mut MoveList<Move>) {
        let us = self.stm;
        let enemy = self.occ[us.flip().index()];
        self.for_each_piece(us, |kind, from| {
            let m = self.targets(us, kind, from);
            let mut caps = m & enemy;
            while caps != 0 {
                let to = caps.trailing_zeros() as u8;
                caps &= caps - 1;
                let (_, def) = decode(self.board[to as usize]);
                if self.can_capture(us, kind, from, to, def) {
                    out.push(Move::new(from, to));
                }
            }
            let mut quiet = m & !enemy;
            while quiet != 0 {
                let to = quiet.trailing_zeros() as u8;
                quiet &= quiet - 1;
                out.push(Move::new(from, to));
            }
        });
    }

    /// The number of legal moves, without building the list.
    pub fn count(&self) -> u64 {
        let us = self.stm;
        let enemy = self.occ[us.flip().index()];
        let mut n = 0u64;
        self.for_each_piece(us, |kind, from| {
            let m = self.targets(us, kind, from);
            n += (m & !enemy).count_ones() as u64;
            let mut caps = m & enemy;
            while caps != 0 {
                let to = caps.trailing_zeros() as u8;
                caps &= caps - 1;
                let (_, def) = decode(self.board[to as usize]);
                n += self.can_capture(us, kind, from, to, def) as u64;
            }
        });
        n
    }

    /// Whether `mv` is legal here (used to check parsed moves).
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut l = MoveList::new();
        self.generate(&mut l);
        l.contains(&mv)
    }
}
