//! Step 1, the forward pass: every position's moves sorted into wins,
//! captures valued from the smaller tables, and moves within the
//! configuration, counted.

use super::*;

/// The index of the piece standing on `s`.
#[inline(always)]
pub(super) fn piece_on(sqs: &[u8; 16], n: usize, s: u8) -> usize {
    sqs[..n]
        .iter()
        .position(|&q| q == s)
        .expect("a piece stands there")
}

impl<B: Board> Gen<'_, B> {
    /// The value (for the side to move after it) of the capture of parent
    /// piece `victim` by the piece at `from` going to `to`, on placement `sqs`.
    #[inline]
    pub(super) fn capture_value(
        &self,
        sqs: &[u8; 16],
        mover: usize,
        victim: usize,
    ) -> (Outcome, u16) {
        let c = self.children[victim]
            .as_ref()
            .expect("the capture of a last piece ends the game");
        let (wdl, dist) = c.probe::<B>(sqs, mover, victim);
        match wdl {
            WDL_WIN => (Outcome::Win, dist as u16),
            WDL_LOSS => (Outcome::Loss, dist as u16),
            WDL_DRAW => (Outcome::Draw, 0),
            // The tables were checked when opened; an invalid code is a
            // damaged block, which counts as nothing known: a draw would be
            // wrong, so the build stops on it in `init`.
            _ => (Outcome::Draw, u16::MAX),
        }
    }

    pub(super) fn damaged(&self, victim: usize) -> TbError {
        let c = self.children[victim]
            .as_ref()
            .expect("a capture with a child");
        TbError::DamagedChild {
            material: self.layout.material.name::<B>(),
            child: c.layout.material.name::<B>(),
        }
    }

    /// Step 1 for one position (`pos`, placement `sqs`, entry `x`):
    /// returns its state.
    ///
    /// The moves are not listed: per piece, its target squares are a
    /// bitboard, whose quiet part is only counted (a popcount); captures
    /// are looked at one by one.
    pub(super) fn init(
        &self,
        side: usize,
        x: u64,
        pos: &Position<B>,
        sqs: &[u8; 16],
    ) -> Result<u16, TbError> {
        let n = self.layout.n;
        let us = if side == 0 { Side::White } else { Side::Black };
        let them = us.flip();
        let enemy = pos.occupied(them);
        let den = 1u64 << B::DEN[them.index()];
        let win_in_one = || {
            self.mark(1, side, x);
            Ok(2)
        };
        // A piece of ours next to the enemy den enters it. Every predecessor
        // has that piece there too, next to the den of its side to move, so
        // it is decided below without counting its moves that take nothing,
        // the one to here among them: the sweep of level 1 skips these
        // positions without placing their pieces.
        if self.at_enemy_door(pos, us) != 0 {
            self.mark(1, side, x);
            return Ok(DEN_WIN | 2);
        }
        // An enemy piece next to our den: every move that takes nothing
        // leads to a win in one for the opponent, so those moves lose in two
        // and are not counted. A position lost only through them is decided
        // here, and the wins in one they lead to (all of whose predecessors
        // are such positions) need not be taken back (see `sweep_block`).
        let doomed = self.at_enemy_door(pos, them) != 0;
        let mut moves = 0u32;
        let mut inside = 0u16;
        let mut best_win = u16::MAX;
        let mut phantom = false;
        let mut longest_loss = 0u16;
        for (i, &(ps, kind)) in self.layout.pieces[..n].iter().enumerate() {
            if ps != us {
                continue;
            }
            let from = sqs[i];
            let targets = pos.targets(us, kind, from);
            // Only from next to the den, handled above.
            debug_assert_eq!(targets & den, 0);
            let quiet = (targets & !enemy).count_ones();
            moves += quiet;
            if doomed {
                if quiet > 0 {
                    longest_loss = longest_loss.max(2);
                }
            } else {
                inside += quiet as u16;
            }
            let mut caps = targets & enemy;
            while caps != 0 {
                let to = caps.trailing_zeros() as u8;
                caps &= caps - 1;
                let victim = piece_on(sqs, n, to);
                if !pos.can_capture(us, kind, from, to, self.layout.pieces[victim].1) {
                    continue;
                }
                moves += 1;
                if enemy.count_ones() == 1 {
                    return win_in_one();
                }
                match self.capture_value(sqs, i, victim) {
                    (Outcome::Loss, d) => {
                        best_win = best_win.min(d);
                        phantom = true;
                    }
                    (Outcome::Draw, u16::MAX) => return Err(self.damaged(victim)),
                    (Outcome::Draw, _) => phantom = true,
                    (Outcome::Win, d) => longest_loss = longest_loss.max(d + 1),
                }
            }
        }
        if moves == 0 {
            if self.tb.rules().stalemate_loses {
                self.mark(0, side, x);
                return Ok(SPECIAL | 1);
            }
            return Ok(OPEN | SPECIAL);
        }
        if best_win == 0 {
            win_in_one() // a capture into a child lost at once
        } else if best_win != u16::MAX {
            let w = best_win as usize + 1; // odd
            if w >= LEVELS {
                return Err(self.too_long(w));
            }
            // Decided by the sweep of level w - 1 (see `sweep_block`).
            self.mark(w - 1, side, x);
            Ok(OPEN | SPECIAL | w as u16)
        } else if inside + phantom as u16 == 0 {
            // Every move is a capture to a position the opponent wins: a loss
            // that lasts as long as the longest of them.
            let d = longest_loss as usize;
            if d >= LEVELS {
                return Err(self.too_long(d));
            }
            self.mark(d, side, x);
            Ok(d as u16 + 1)
        } else {
            // Its captures (if any) all lose: when the counter runs out it is
            // a loss no shorter than the longest of them, kept in the low byte.
            if longest_loss as usize >= LEVELS {
                return Err(self.too_long(longest_loss as usize));
            }
            Ok(OPEN | ((inside + phantom as u16) * COUNT) | longest_loss)
        }
    }

    /// The forward pass over entries `start..end` of both sides: a
    /// placement is walked to once for the two sides to move (`init` does
    /// not look at the side to move of `pos`).
    pub(super) fn forward(&self, start: u64, end: u64) -> Result<(), TbError> {
        let layout = self.layout;
        let n = layout.n;
        let mut digits = [0u32; 16];
        let mut sqs = [0u8; 16];
        layout.locate(start, &mut digits, &mut sqs);
        let mut pos = self.position(&sqs, 0);
        let mut four = [[0u16; 4]; 2];
        for x in start..end {
            if x > start {
                // The odometer: move only the pieces whose squares change.
                let old = sqs;
                let from = layout.advance(&mut digits, &mut sqs);
                move_pieces(layout, &mut pos, &old, &sqs, from, n);
            }
            for (side, four) in four.iter_mut().enumerate() {
                four[(x % 4) as usize] = self.init(side, x, &pos, &sqs)?;
            }
            if x % 4 == 3 || x + 1 == end {
                for (side, four) in four.iter_mut().enumerate() {
                    self.state[side].set4((x / 4) as usize, *four);
                    *four = [0; 4];
                }
            }
        }
        Ok(())
    }
}
