//! The 1-bit "advantage" mode of literature B: one configuration solved
//! with one bit per entry and side to move, for configurations whose
//! 2-byte state would not fit, at the price of distances.
//!
//! A pass gives one colour, the *advantage* side, the draws: an entry's
//! bit says "the advantage side does not lose" (it wins or draws). All
//! bits start set, and sweeps over every entry clear those the rules
//! refute until a sweep clears nothing: a position whose side to move has
//! the advantage keeps its bit while one of its moves leads to a set bit,
//! the other side's position while all of its moves do. The bits that
//! survive are the greatest fixed point of those two rules, which is
//! exactly "the advantage side can avoid losing for ever": no repetition
//! inside a table changes a game-theoretic value, so never losing is
//! winning or drawing. Two passes, one per colour, give win/draw/loss:
//! an entry cleared with White's advantage is a White loss, one cleared
//! with Black's a Black loss, one set in both a draw.
//!
//! Moves that end the game or leave the configuration are valued as the
//! normal generator values them (`generate/forward.rs`): entering the den
//! or taking the last piece wins, a capture reads the smaller table, and
//! a side without a legal move draws or, under rule sets whose
//! `stalemate_loses`, loses.
//!
//! Why sweeps: a bit cannot hold a counter of undecided children, so an
//! entry is decided by looking at all its children again (literature B's
//! scheme). Two things make the sweeps cheaper than B's whole-table ones:
//! - A sweep reads its own updates (entries earlier in index order are
//!   already at their new bits), which cuts the number of sweeps, and a
//!   position stops at its first move that decides it (to a set bit with
//!   the advantage, to a cleared one without); a cleared bit is final and
//!   not looked at again.
//! - After the first sweep, only blocks of [`MARK`] entries with a child
//!   cleared since they were last looked at are swept: a cleared entry's
//!   predecessors (through its unmoves, as the normal generator finds
//!   them) mark their blocks for the next sweep. That costs one bit per
//!   block and side, twice (this sweep's and the next's): nothing beside
//!   one bit per entry. An entry none of whose children changed would be
//!   found as it was.

mod file;
pub use file::{spill_path, wdl, write, Holds, Spilled};

use crate::file::{WDL_DRAW, WDL_LOSS, WDL_WIN};
use crate::generate::{children_of, quiet_predecessors, Batch, Child};
use crate::index::{Layout, Material};
use crate::{Tablebase, TbError};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use zoo_animal::board::file_of;
use zoo_animal::{Board, Position};
use zoo_core::{Outcome, Side};

/// Entries per unit of parallel work: whole words of bits, so each word
/// has one writer in a sweep and is updated with a plain load and store.
const CHUNK: u64 = 1 << 16;
/// Entries per bit of the marks of blocks to sweep again.
pub const MARK: u64 = 1 << 6;

/// The index of the piece standing on `s`.
#[inline(always)]
fn piece_on(sqs: &[u8; 16], n: usize, s: u8) -> usize {
    sqs[..n]
        .iter()
        .position(|&q| q == s)
        .expect("a piece stands there")
}

/// One bit per entry of one side to move.
struct Bits {
    words: Vec<AtomicU64>,
}

impl Bits {
    /// Every bit set: the advantage side does not lose, until refuted.
    fn ones(size: u64) -> Bits {
        let n = size.div_ceil(64) as usize;
        let mut words: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(!0)).collect();
        if !size.is_multiple_of(64) {
            if let Some(w) = words.last_mut() {
                *w.get_mut() = (1u64 << (size % 64)) - 1;
            }
        }
        Bits { words }
    }

    #[inline(always)]
    fn get(&self, x: u64) -> bool {
        self.words[(x / 64) as usize].load(Relaxed) >> (x % 64) & 1 != 0
    }

    /// Clears bit `x`. The sweep's chunks are whole words, so only the
    /// thread sweeping `x` writes its word.
    #[inline(always)]
    fn clear(&self, x: u64) {
        let w = &self.words[(x / 64) as usize];
        w.store(w.load(Relaxed) & !(1u64 << (x % 64)), Relaxed);
    }

    fn count_ones(&self) -> u64 {
        self.words
            .iter()
            .map(|w| w.load(Relaxed).count_ones() as u64)
            .sum()
    }

    fn bytes(&self) -> u64 {
        8 * self.words.len() as u64
    }
}

/// One bit per block of [`MARK`] entries of one side to move: the blocks
/// to sweep.
struct Marks {
    words: Vec<AtomicU64>,
}

impl Marks {
    fn new(size: u64, set: bool) -> Marks {
        let n = size.div_ceil(MARK).div_ceil(64) as usize;
        Marks {
            words: (0..n)
                .map(|_| AtomicU64::new(if set { !0 } else { 0 }))
                .collect(),
        }
    }

    #[inline(always)]
    fn get(&self, x: u64) -> bool {
        let b = x / MARK;
        self.words[(b / 64) as usize].load(Relaxed) >> (b % 64) & 1 != 0
    }

    /// Marks the block of entry `x` (any thread).
    #[inline(always)]
    fn set(&self, x: u64) {
        let b = x / MARK;
        let w = &self.words[(b / 64) as usize];
        let bit = 1u64 << (b % 64);
        if w.load(Relaxed) & bit == 0 {
            w.fetch_or(bit, Relaxed);
        }
    }

    /// Whether a block of entries `start..end` is marked.
    fn any(&self, start: u64, end: u64) -> bool {
        (start / MARK..end.div_ceil(MARK)).any(|b| self.get(b * MARK))
    }

    fn clear_all(&self) {
        for w in &self.words {
            w.store(0, Relaxed);
        }
    }
}

/// The result of one pass: per entry and side to move, whether the
/// advantage side avoids losing.
pub struct Pass {
    pub material: Material,
    /// The colour the draws were given to.
    pub advantage: Side,
    /// Entries per side.
    pub size: u64,
    /// Sweeps over every entry, the last of which changed nothing.
    pub sweeps: u32,
    bits: [Bits; 2],
}

impl Pass {
    /// Whether the advantage side does not lose entry `x` of `side`
    /// (0: White to move, 1: Black to move).
    pub fn holds(&self, side: usize, x: u64) -> bool {
        self.bits[side].get(x)
    }

    /// What a cleared bit of `side` means for its side to move: a loss if
    /// that side has the advantage, else a win.
    pub fn cleared_is(&self, side: usize) -> Outcome {
        if side == self.advantage.index() {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    }

    /// How many entries of `side` this pass decides: those whose bit is
    /// cleared, each a [`Pass::cleared_is`].
    pub fn cleared(&self, side: usize) -> u64 {
        self.size - self.bits[side].count_ones()
    }

    /// Bytes of the bits of both sides: the pass's working set, beside
    /// the smaller tables it reads.
    pub fn bytes(&self) -> u64 {
        self.bits[0].bytes() + self.bits[1].bytes()
    }
}

/// Bytes one pass over a configuration of `size` entries per side needs:
/// a bit per entry and side.
pub fn working_bytes(size: u64) -> u64 {
    2 * 8 * size.div_ceil(64)
}

struct Sweeper<'a, B: Board> {
    tb: &'a Tablebase<B>,
    layout: &'a Layout,
    advantage: Side,
    bits: [Bits; 2],
    /// Per side: the blocks this sweep looks at, and those the next will
    /// (marked by the predecessors of the entries this sweep clears).
    now: [Marks; 2],
    next: [Marks; 2],
    /// Per parent piece index: the child table when that piece is taken
    /// (`None` for the last piece of its side: taking it ends the game).
    children: Vec<Option<Child<'a>>>,
}

impl<'a, B: Board> Sweeper<'a, B> {
    fn new(tb: &'a Tablebase<B>, m: Material, advantage: Side) -> Result<Self, TbError> {
        let layout = tb.scheme().layout(m);
        // Only values are read: a WDL file does (one an advantage build of
        // the smaller size wrote, say).
        let children = children_of(tb, layout, true)?;
        Ok(Sweeper {
            tb,
            layout,
            advantage,
            bits: [Bits::ones(layout.size), Bits::ones(layout.size)],
            now: [Marks::new(layout.size, true), Marks::new(layout.size, true)],
            next: [
                Marks::new(layout.size, false),
                Marks::new(layout.size, false),
            ],
            children,
        })
    }

    /// Whether the advantage side does not lose the child of the capture
    /// of parent piece `victim` by piece `mover` (placement `sqs`), whose
    /// side to move is `victim`'s.
    #[inline]
    fn capture_holds(&self, sqs: &[u8; 16], mover: usize, victim: usize) -> Result<bool, TbError> {
        let c = self.children[victim]
            .as_ref()
            .expect("the capture of a last piece ends the game");
        let (wdl, _) = c.probe::<B>(sqs, mover, victim);
        let victim_has_it = self.layout.pieces[victim].0 == self.advantage;
        match wdl {
            WDL_DRAW => Ok(true),
            WDL_WIN => Ok(victim_has_it),
            WDL_LOSS => Ok(!victim_has_it),
            _ => Err(TbError::DamagedChild {
                material: self.layout.material.name::<B>(),
                child: c.material().name::<B>(),
            }),
        }
    }

    /// The index of the child where piece `i` of placement `sqs` (entry
    /// `x`) moves to `to`, taking nothing.
    #[inline(always)]
    fn child(&self, x: u64, sqs: &[u8; 16], occupied: u64, free: u64, i: usize, to: u8) -> u64 {
        if i == 0 && file_of(to) > 3 {
            // The first piece leaves files a-d: the child is stored mirrored.
            let mut q = *sqs;
            q[0] = to;
            self.layout.rank_squares(&q[..self.layout.n], true)
        } else {
            self.layout.rank_moved(x, sqs, occupied, free, i, to)
        }
    }

    /// Whether entry `x` of `side` (placement `sqs`, pieces in `pos`)
    /// keeps its bit given the bits of its children now. `first`: the
    /// first sweep, which also values the captures of the side without
    /// the advantage (later, a position of that side still set has only
    /// captures the advantage side does not lose, and those stay so).
    fn holds(
        &self,
        side: usize,
        x: u64,
        pos: &Position<B>,
        sqs: &[u8; 16],
        first: bool,
    ) -> Result<bool, TbError> {
        let l = self.layout;
        let n = l.n;
        let us = if side == 0 { Side::White } else { Side::Black };
        let them = us.flip();
        let ours = us == self.advantage;
        // With the advantage one move to a set bit keeps the bit; without,
        // one move to a cleared bit clears it: a child whose bit is `ours`
        // decides.
        let enemy = pos.occupied(them);
        let occupied = enemy | pos.occupied(us);
        let den = 1u64 << B::DEN[them.index()];
        let children = &self.bits[1 - side];
        let free = l.frees(sqs);
        let mut moves = false;
        for (i, &(ps, kind)) in l.pieces[..n].iter().enumerate() {
            if ps != us {
                continue;
            }
            let from = sqs[i];
            let targets = pos.targets(us, kind, from);
            if targets & den != 0 {
                // Entering the enemy den wins.
                return Ok(ours);
            }
            let mut quiet = targets & !enemy;
            moves |= quiet != 0;
            while quiet != 0 {
                let to = quiet.trailing_zeros() as u8;
                quiet &= quiet - 1;
                if children.get(self.child(x, sqs, occupied, free[i], i, to)) == ours {
                    return Ok(ours);
                }
            }
        }
        if ours || first {
            for (i, &(ps, kind)) in l.pieces[..n].iter().enumerate() {
                if ps != us {
                    continue;
                }
                let from = sqs[i];
                let mut caps = pos.targets(us, kind, from) & enemy;
                while caps != 0 {
                    let to = caps.trailing_zeros() as u8;
                    caps &= caps - 1;
                    let victim = piece_on(sqs, n, to);
                    if !pos.can_capture(us, kind, from, to, l.pieces[victim].1) {
                        continue;
                    }
                    moves = true;
                    let holds = if enemy.count_ones() == 1 {
                        ours // taking the last piece wins
                    } else {
                        self.capture_holds(sqs, i, victim)?
                    };
                    if holds == ours {
                        return Ok(ours);
                    }
                }
            }
        }
        if !moves && ours {
            // No legal move: a draw keeps the bit, a loss does not. (Without
            // the advantage the bit stays either way, as below.)
            return Ok(!self.tb.rules().stalemate_loses);
        }
        // With the advantage, no move saved it; without, none refuted it.
        Ok(!ours)
    }

    /// One sweep over the marked blocks of entries `start..end` of both
    /// sides: returns how many bits it cleared.
    fn sweep(&self, start: u64, end: u64, first: bool) -> Result<u64, TbError> {
        let mut cleared = 0;
        let mut at = start;
        while at < end {
            let stop = (at - at % MARK + MARK).min(end);
            let look = [self.now[0].get(at), self.now[1].get(at)];
            if look[0] || look[1] {
                cleared += self.sweep_block(at, stop, look, first)?;
            }
            at = stop;
        }
        Ok(cleared)
    }

    /// [`Sweeper::sweep`] over entries `start..end` of one block, of the
    /// sides `look` says.
    fn sweep_block(
        &self,
        start: u64,
        end: u64,
        look: [bool; 2],
        first: bool,
    ) -> Result<u64, TbError> {
        let l = self.layout;
        let n = l.n;
        let mut digits = [0u32; 16];
        let mut sqs = [0u8; 16];
        let mut pos: Option<(u64, Position<B>)> = None;
        let mut batch = Batch::new();
        let mut cleared = 0;
        for x in start..end {
            let set = [
                look[0] && self.bits[0].get(x),
                look[1] && self.bits[1].get(x),
            ];
            if !set[0] && !set[1] {
                continue; // cleared bits are final
            }
            // Walk to `x`, moving only the pieces whose squares change.
            match &mut pos {
                None => {
                    l.locate(x, &mut digits, &mut sqs);
                    pos = Some((x, l.position(&sqs[..n], Side::White, self.tb.rules())));
                }
                Some((at, p)) => {
                    let old = sqs;
                    let from = l.add(&mut digits, &mut sqs, x - *at);
                    for (&(ps, pk), &s) in l.pieces[from..n].iter().zip(&old[from..n]) {
                        p.remove(ps, pk, s);
                    }
                    for (&(ps, pk), &s) in l.pieces[from..n].iter().zip(&sqs[from..n]) {
                        p.put(ps, pk, s);
                    }
                    *at = x;
                }
            }
            let (_, p) = pos.as_mut().expect("set above");
            for (side, &set) in set.iter().enumerate() {
                if set && !self.holds(side, x, p, &sqs, first)? {
                    self.bits[side].clear(x);
                    cleared += 1;
                    // Its predecessors (of the other side) look again.
                    p.set_side_to_move(if side == 0 { Side::White } else { Side::Black });
                    quiet_predecessors(l, x, p, &sqs, !0, !0, &mut batch);
                    for &q in &batch.xs[..batch.len] {
                        self.next[1 - side].set(q);
                    }
                }
            }
        }
        Ok(cleared)
    }

    /// After a sweep: the blocks it marked are the next one's.
    fn turn(&mut self) {
        std::mem::swap(&mut self.now, &mut self.next);
        for m in &self.next {
            m.clear_all();
        }
    }
}

/// One sweep done: which, and how many bits it cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sweep {
    pub advantage: Side,
    /// 1 for the first sweep.
    pub number: u32,
    pub cleared: u64,
}

/// Solves canonical material `m` with `advantage` given the draws, reading
/// the smaller tables of `tb` for captures. With `parallel`, the sweeps
/// are shared among the threads of the current rayon pool. `progress` is
/// told of each sweep; `stop` ends the pass between two chunks.
pub fn solve<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    advantage: Side,
    parallel: bool,
    progress: &(dyn Fn(Sweep) + Sync),
    stop: &AtomicBool,
) -> Result<Pass, TbError> {
    let mut s = Sweeper::new(tb, m, advantage)?;
    let size = s.layout.size;
    let chunks: Vec<u64> = (0..size.div_ceil(CHUNK)).map(|c| c * CHUNK).collect();
    let mut number = 0;
    loop {
        number += 1;
        let first = number == 1;
        let one = |&start: &u64| -> Result<u64, TbError> {
            if stop.load(Relaxed) {
                return Err(TbError::Interrupted);
            }
            let end = (start + CHUNK).min(size);
            if !s.now[0].any(start, end) && !s.now[1].any(start, end) {
                return Ok(0);
            }
            s.sweep(start, end, first)
        };
        let cleared = if parallel {
            chunks
                .par_iter()
                .map(one)
                .try_reduce(|| 0, |a, b| Ok(a + b))?
        } else {
            chunks
                .iter()
                .try_fold(0, |a, c| Ok::<_, TbError>(a + one(c)?))?
        };
        progress(Sweep {
            advantage,
            number,
            cleared,
        });
        // A sweep that cleared nothing marked nothing: every entry agrees
        // with its children, the fixed point.
        if cleared == 0 {
            break;
        }
        s.turn();
    }
    Ok(Pass {
        material: m,
        advantage,
        size,
        sweeps: number,
        bits: s.bits,
    })
}

/// A pass compared with the normal table of its configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Entries compared (both sides to move).
    pub entries: u64,
    /// Entries whose bit is not what the table's value says.
    pub disagreements: u64,
    /// The first of them: side and index.
    pub first: Option<(usize, u64)>,
}

/// Compares `pass` with the table of its material in `tb`, entry by
/// entry: a bit must be set exactly where the table's value is not a loss
/// for the advantage side. Sides the file does not store (the Black-to-move
/// side of a colour-symmetric configuration) are probed through the colour
/// swap.
pub fn compare<B: Board>(tb: &Tablebase<B>, pass: &Pass) -> Result<Comparison, TbError> {
    let m = pass.material;
    let table = tb.table(m)?;
    let layout = tb.scheme().layout(m);
    let size = pass.size;
    let chunks: Vec<u64> = (0..size.div_ceil(CHUNK)).map(|c| c * CHUNK).collect();
    let parts = chunks
        .par_iter()
        .map(|&start| -> Result<Comparison, TbError> {
            let mut c = Comparison::default();
            let mut sqs = [0u8; 16];
            for x in start..(start + CHUNK).min(size) {
                for side in 0..2 {
                    let value = if side < table.header.sides {
                        crate::decode(table.get(side, x).0, 0)
                    } else {
                        layout.unrank(x, &mut sqs);
                        let stm = if side == 0 { Side::White } else { Side::Black };
                        let pos = layout.position::<B>(&sqs[..layout.n], stm, tb.rules());
                        tb.lookup(&pos).ok()
                    };
                    let value = value.ok_or_else(|| {
                        TbError::Damaged(tb.path_of(m), crate::Damage::InvalidValue)
                    })?;
                    // The table's value for the advantage side.
                    let adv = if side == pass.advantage.index() {
                        value.0
                    } else {
                        value.0.flip()
                    };
                    c.entries += 1;
                    if (adv != Outcome::Loss) != pass.holds(side, x) {
                        c.disagreements += 1;
                        c.first.get_or_insert((side, x));
                    }
                }
            }
            Ok(c)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(parts
        .into_iter()
        .fold(Comparison::default(), |a, b| Comparison {
            entries: a.entries + b.entries,
            disagreements: a.disagreements + b.disagreements,
            first: a.first.or(b.first),
        }))
}
