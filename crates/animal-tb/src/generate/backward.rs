//! Step 2, the backward pass: positions decided at one level taken back
//! through their unmoves, their predecessors told and decided.

use super::state::candidates;
use super::*;

/// The predecessor entries of one position: at most 4 moves for each of
/// 8 pieces, plus leaps, each possibly twice through the mirror.
pub(crate) struct Batch {
    pub(crate) xs: [u64; 96],
    pub(crate) len: usize,
}

impl Batch {
    pub(crate) fn new() -> Batch {
        Batch {
            xs: [0; 96],
            len: 0,
        }
    }
    #[inline(always)]
    pub(super) fn push(&mut self, x: u64) {
        self.xs[self.len] = x;
        self.len += 1;
    }
}

/// The entries of the predecessors of position `pos` (placement `sqs`,
/// entry `x` of `layout`) through quiet unmoves of the pieces standing on
/// `pieces` from squares of `origins`, into `out`: the unmoves that stay in
/// the configuration, with the mirror the index keeps.
pub(crate) fn quiet_predecessors<B: Board>(
    layout: &Layout,
    x: u64,
    pos: &Position<B>,
    sqs: &[u8; 16],
    pieces: u64,
    origins: u64,
    out: &mut Batch,
) {
    let n = layout.n;
    let f0y = file_of(sqs[0]);
    out.len = 0;
    let occupied = pos.occupied(Side::White) | pos.occupied(Side::Black);
    let free = layout.frees(sqs);
    let mover = pos.stm().flip();
    pos.for_each_quiet_unmove(pieces, origins, |kind, u| {
        let i = layout.place(mover, kind).expect("a piece on the board");
        debug_assert_eq!(sqs[i], u.to);
        let f0q = if i == 0 { file_of(u.from) } else { f0y };
        // The index keeps positions whose first piece is on files a-d. A
        // predecessor q on those files is its own entry; when y has its
        // first piece on a-c, the mirror of q moves to the mirror of y,
        // which is stored as y, so mirror(q) (if on a-d) is one too.
        if f0q <= 3 {
            out.push(layout.rank_moved(x, sqs, occupied, free[i], i, u.from));
        }
        if f0y < 3 && f0q >= 3 {
            let mut q = *sqs;
            q[i] = u.from;
            out.push(layout.rank_squares(&q[..n], true));
        }
    });
}

impl<B: Board> Gen<'_, B> {
    /// Decides entry `x` of `side` at distance `d` unless it is decided.
    pub(super) fn decide(&self, side: usize, x: u64, d: usize) -> Result<(), TbError> {
        if d >= LEVELS {
            return Err(self.too_long(d));
        }
        let code = d as u16 + 1;
        let decided = self.state[side]
            .update(x, self.shared, |cur| (cur & OPEN != 0).then_some(code))
            .is_some();
        if decided {
            self.mark(d, side, x);
        }
        Ok(())
    }

    /// A child of entry `x` (side `t`) was decided at `d`: lost for its side
    /// to move (`child_lost`) or won.
    #[inline]
    pub(super) fn notify(
        &self,
        t: usize,
        x: u64,
        child_lost: bool,
        d: usize,
    ) -> Result<(), TbError> {
        if child_lost {
            return self.decide(t, x, d + 1);
        }
        // Counters count down; decided entries, pending wins and stalemates
        // do not, nor (never reached) a counter at 0.
        let counting =
            |cur: u16| (cur & (OPEN | SPECIAL) == OPEN && cur & 0x3f00 != 0).then(|| cur - COUNT);
        if let Some(old) = self.state[t].update(x, self.shared, counting) {
            if old & 0x3f00 == COUNT {
                // The last child is won for the opponent: a loss, no shorter
                // than its longest capture. No other notice can reach it now.
                self.decide(t, x, (d + 1).max((old & 0xff) as usize))?;
            }
        }
        Ok(())
    }

    /// Step 2 for a position `pos` (placement `sqs`, entry `x`): the
    /// entries of its predecessors (of the other side).
    pub(super) fn predecessors(&self, x: u64, pos: &Position<B>, sqs: &[u8; 16], out: &mut Batch) {
        // A predecessor with a piece of its side to move next to our den is
        // a win in one, decided by `init`: telling it would change nothing.
        // So only a piece of the side that moved standing next to our den
        // may be taken back, and none when there are two.
        let doors = self.den_doors[pos.stm().index()];
        let at_doors = self.at_enemy_door(pos, pos.stm().flip());
        let pieces = match at_doors.count_ones() {
            0 => !0,
            1 => at_doors,
            _ => {
                out.len = 0;
                return;
            }
        };
        quiet_predecessors(self.layout, x, pos, sqs, pieces, !doors, out);
    }

    /// Tells the predecessors in `batch` (of side `t`) that their child was
    /// decided at distance `d`; those another rank owns go to `remote`
    /// (with `t` in bit 63) for it to be told ([`super::split`]).
    pub(super) fn notify_all(
        &self,
        t: usize,
        batch: &Batch,
        d: usize,
        remote: &mut Vec<u64>,
    ) -> Result<(), TbError> {
        let lost = d.is_multiple_of(2);
        for &x in &batch.xs[..batch.len] {
            if self.own.contains(&x) {
                self.notify(t, x, lost, d)?;
            } else {
                remote.push((t as u64) << 63 | x);
            }
        }
        Ok(())
    }

    /// Level `d` over the marked block `b` of `side`; returns how many
    /// positions it took back. Predecessors of other ranks go to `remote`.
    pub(super) fn sweep_block(
        &self,
        side: usize,
        b: u64,
        d: usize,
        remote: &mut Vec<u64>,
    ) -> Result<u64, TbError> {
        let layout = self.layout;
        let n = layout.n;
        let start = b * BLOCK;
        let end = (start + BLOCK).min(layout.size);
        let code = d as u16 + 1;
        // Pending wins at d + 1 are decided in this sweep: their low byte
        // is code too.
        let pend = OPEN | SPECIAL | code;
        let mut digits = [0u32; 16];
        let mut sqs = [0u8; 16];
        let mut pos: Option<(u64, Position<B>)> = None;
        let mut batch = Batch::new();
        let mut done = 0;
        let (mut taken_back, mut told) = (0, 0);
        let words = &self.state[side].words()[(start / 4) as usize..end.div_ceil(4) as usize];
        for (k, word) in words.iter().enumerate() {
            let mut m = candidates(word.load(Relaxed), code);
            while m != 0 {
                let lane = m.trailing_zeros() as u64 / 16;
                m &= m - 1;
                let x = start + 4 * k as u64 + lane;
                let v = self.state[side].get(x);
                if v & OPEN != 0 {
                    if v == pend {
                        // A pending win at d + 1: nothing can decide it sooner now.
                        self.decide(side, x, d + 1)?;
                    }
                    continue; // an undecided one whose longest capture is d + 1
                }
                if v & 0xff != code {
                    continue;
                }
                done += 1;
                if v & DEN_WIN != 0 {
                    continue; // a win in one into the den, see `init`
                }
                match &mut pos {
                    None => {
                        layout.locate(x, &mut digits, &mut sqs);
                        pos = Some((x, self.position(&sqs, side)));
                    }
                    Some((at, p)) => {
                        let old = sqs;
                        let from = layout.add(&mut digits, &mut sqs, x - *at);
                        move_pieces(layout, p, &old, &sqs, from, n);
                        *at = x;
                    }
                }
                let (_, p) = pos.as_ref().expect("set above");
                self.predecessors(x, p, &sqs, &mut batch);
                self.notify_all(1 - side, &batch, d, remote)?;
                taken_back += 1;
                told += batch.len as u64;
            }
        }
        self.taken_back.fetch_add(taken_back, Relaxed);
        self.told.fetch_add(told, Relaxed);
        Ok(done)
    }
}
