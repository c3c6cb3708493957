//! Retrograde analysis of one material configuration.
//!
//! Both sides to move are solved together (each move of the one leads to a
//! position of the other), in two byte arrays per side: `res` (0 while
//! undecided, else the distance in plies + 1: wins have odd distances,
//! losses even, so the parity gives the outcome) and `cnt` (moves to
//! undecided positions of this configuration).
//!
//! 1. One forward pass: each position's moves are sorted into immediate wins
//!    (into the enemy den, or taking the last enemy piece), captures (their
//!    value comes from the smaller tables, already built) and moves within
//!    the configuration (counted in `cnt`). A capture to a lost or drawn
//!    child adds one phantom to the counter so the position can never be
//!    counted down to a loss; a capture to a lost child also queues the
//!    position as a win at that distance + 1 ("external" queue).
//! 2. Backward induction level by level (distance 0, 1, 2, ...): at level d
//!    the external wins of distance d still undecided are decided, then every
//!    position decided at d is taken back through its unmoves: a predecessor
//!    of a loss is a win at d + 1; a predecessor of a win loses one from its
//!    counter and, at zero, is a loss at max(d + 1, its longest capture).
//!    Each position is decided once, at its final distance, because levels
//!    are handled in increasing order.
//! 3. What is still undecided is a draw: no side can force a result, and
//!    with no repetition inside a table that is its value.

use crate::file::{Header, SideCounts};
use crate::index::{Layout, Material};
use crate::{Tablebase, TbError};
use std::sync::atomic::{AtomicBool, Ordering};
use zoo_animal::board::file_of;
use zoo_animal::{Board, Position, Unmove};
use zoo_core::{MoveList, Outcome, Side};

/// `cnt` of a position with no legal move (left out of the statistics).
const STALEMATE: u8 = u8::MAX;
/// Positions between two looks at the stop flag and two progress reports.
const CHUNK: u64 = 1 << 14;

/// A solved configuration, ready to be written.
pub struct Generated {
    pub header: Header,
    /// Per side to move: 0 draw, else distance + 1.
    pub values: [Vec<u8>; 2],
}

/// Bytes one configuration needs while it is solved: two sides of `res` and
/// `cnt`, and the queues (at worst every position once, 4 bytes each).
pub fn working_bytes(size: u64) -> u64 {
    size.saturating_mul(2 * (2 + 4))
}

struct Gen<'a, B: Board> {
    tb: &'a Tablebase<B>,
    layout: &'a Layout,
    res: [Vec<u8>; 2],
    cnt: [Vec<u8>; 2],
    /// Positions decided at each distance, per side.
    levels: Vec<[Vec<u32>; 2]>,
    /// Positions with a capture that wins at each distance, per side.
    external: Vec<[Vec<u32>; 2]>,
    unmoves: Vec<Unmove>,
}

fn push(q: &mut Vec<[Vec<u32>; 2]>, d: usize, side: usize, x: u64) {
    if q.len() <= d {
        q.resize_with(d + 1, Default::default);
    }
    q[d][side].push(x as u32);
}

impl<B: Board> Gen<'_, B> {
    fn position(&self, idx: u64, side: usize, sqs: &mut [u8; 16]) -> Position<B> {
        self.layout.unrank(idx, sqs);
        let stm = if side == 0 { Side::White } else { Side::Black };
        self.layout
            .position(&sqs[..self.layout.n], stm, self.tb.rules())
    }

    /// The value of the child a capture leads to, from the smaller tables.
    fn capture_value(
        &self,
        pos: &mut Position<B>,
        m: zoo_animal::Move,
    ) -> Result<(Outcome, u16), TbError> {
        let u = pos.make_move(m);
        let r = self.tb.lookup(pos);
        pos.unmake_move(m, u);
        r
    }

    /// Step 1 for one position (`pos`, entry `idx`; left as it was found).
    fn init(
        &mut self,
        side: usize,
        idx: u64,
        pos: &mut Position<B>,
        list: &mut MoveList<zoo_animal::Move>,
    ) -> Result<(), TbError> {
        list.clear();
        pos.generate(list);
        if list.is_empty() {
            self.cnt[side][idx as usize] = STALEMATE;
            if self.tb.rules().stalemate_loses {
                self.res[side][idx as usize] = 1;
                push(&mut self.levels, 0, side, idx);
            }
            return Ok(());
        }
        let them = 1 - side;
        let enemy = pos.occupied(if them == 0 { Side::White } else { Side::Black });
        let den = B::DEN[them];
        let mut inside = 0u32;
        let mut best_win = u16::MAX;
        let mut phantom = false;
        let mut longest_loss = 0u16;
        for &m in list.iter() {
            if m.to() == den {
                best_win = 0;
                break;
            }
            if enemy & (1u64 << m.to()) == 0 {
                inside += 1;
                continue;
            }
            if enemy.count_ones() == 1 {
                best_win = 0;
                break;
            }
            match self.capture_value(pos, m)? {
                (Outcome::Loss, d) => {
                    best_win = best_win.min(d);
                    phantom = true;
                }
                (Outcome::Draw, _) => phantom = true,
                (Outcome::Win, d) => longest_loss = longest_loss.max(d + 1),
            }
        }
        let i = idx as usize;
        if best_win == 0 {
            return self.decide(side, idx, 1); // a win in one ply
        }
        if best_win != u16::MAX {
            push(&mut self.external, best_win as usize + 1, side, idx);
        }
        let c = inside + phantom as u32;
        if c == 0 {
            // Every move is a capture to a position the opponent wins: a loss
            // that lasts as long as the longest of them.
            self.decide(side, idx, longest_loss as usize)?;
        } else {
            self.cnt[side][i] = c as u8;
        }
        Ok(())
    }

    /// Records a decision at distance `d` and queues it for its level.
    fn decide(&mut self, side: usize, idx: u64, d: usize) -> Result<(), TbError> {
        if d >= 255 {
            return Err(TbError::Other(format!(
                "{}: a distance of {d} plies does not fit the one-byte distance format",
                self.layout.material.name::<B>()
            )));
        }
        self.res[side][idx as usize] = (d + 1) as u8;
        push(&mut self.levels, d, side, idx);
        Ok(())
    }

    /// The longest capture of a position all of whose captures lose.
    fn longest_capture(&self, side: usize, idx: u64) -> Result<usize, TbError> {
        let mut sqs = [0u8; 16];
        let mut pos = self.position(idx, side, &mut sqs);
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let enemy = pos.occupied(if side == 0 { Side::Black } else { Side::White });
        let mut longest = 0usize;
        for &m in list.iter() {
            if enemy & (1u64 << m.to()) != 0 {
                let (o, d) = self.capture_value(&mut pos, m)?;
                debug_assert_eq!(
                    o,
                    Outcome::Win,
                    "a counted-down position has only lost captures"
                );
                longest = longest.max(d as usize + 1);
            }
        }
        Ok(longest)
    }

    /// Step 2 for one position decided at distance `d`.
    fn propagate(&mut self, side: usize, y: u64, d: usize) -> Result<(), TbError> {
        let mut sqs = [0u8; 16];
        let pos = self.position(y, side, &mut sqs);
        let n = self.layout.n;
        let mut slot_at = [0u8; 64];
        for (i, &s) in sqs[..n].iter().enumerate() {
            slot_at[s as usize] = i as u8;
        }
        let f0y = file_of(sqs[0]);
        let lost = d.is_multiple_of(2);
        let t = 1 - side;
        let mut unmoves = std::mem::take(&mut self.unmoves);
        unmoves.clear();
        pos.generate_unmoves(&mut unmoves);
        for u in &unmoves {
            if u.uncapture != 0 {
                continue; // a predecessor in a larger configuration
            }
            let mut q = sqs;
            q[slot_at[u.to as usize] as usize] = u.from;
            let f0q = file_of(q[0]);
            // The index keeps positions whose first piece is on files a-d. A
            // predecessor q on those files is its own entry; when y has its
            // first piece on a-c, the mirror of q moves to the mirror of y,
            // which is stored as y, so mirror(q) (if on a-d) is one too.
            if f0q <= 3 {
                self.notify(t, self.layout.rank_squares(&q[..n], false), lost, d)?;
            }
            if f0y < 3 && f0q >= 3 {
                self.notify(t, self.layout.rank_squares(&q[..n], true), lost, d)?;
            }
        }
        self.unmoves = unmoves;
        Ok(())
    }

    #[inline]
    fn notify(&mut self, t: usize, x: u64, child_lost: bool, d: usize) -> Result<(), TbError> {
        let i = x as usize;
        if self.res[t][i] != 0 {
            return Ok(());
        }
        if child_lost {
            self.decide(t, x, d + 1)
        } else {
            self.cnt[t][i] -= 1;
            if self.cnt[t][i] == 0 {
                let l = (d + 1).max(self.longest_capture(t, x)?);
                self.decide(t, x, l)?;
            }
            Ok(())
        }
    }

    fn counts(&self, side: usize) -> SideCounts {
        let l = self.layout;
        let mut c = SideCounts::default();
        let stride = l.first_stride();
        let (res, cnt) = (&self.res[side], &self.cnt[side]);
        for start in (0..l.size).step_by(stride as usize) {
            // Entries with the first piece on files a-c stand for themselves
            // and their mirror image; on file d both images are entries.
            let w = if l.first_file(start) < 3 { 2 } else { 1 };
            for i in start as usize..(start + stride) as usize {
                let v = res[i];
                let o = if v == 0 {
                    0
                } else if (v - 1) % 2 == 1 {
                    1
                } else {
                    2
                };
                c.entries[o] += 1;
                if cnt[i] == STALEMATE {
                    continue;
                }
                c.positions += w;
                match o {
                    0 => c.draws += w,
                    1 => c.wins += w,
                    _ => c.losses += w,
                }
                if v != 0 {
                    c.longest = c.longest.max(v as u64 - 1);
                }
            }
        }
        c
    }
}

/// Solves material `m` (canonical) with the smaller tables of `tb`.
/// `progress` is told how many positions the forward pass has done, by chunks.
pub fn generate<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Generated, TbError> {
    let layout = tb.layout(m);
    let size = layout.size;
    if size > u32::MAX as u64 {
        return Err(TbError::Other(format!(
            "{}: {size} entries exceed the 32-bit queues",
            m.name::<B>()
        )));
    }
    let mut g = Gen {
        tb,
        layout,
        res: [vec![0u8; size as usize], vec![0u8; size as usize]],
        cnt: [vec![0u8; size as usize], vec![0u8; size as usize]],
        levels: Vec::new(),
        external: Vec::new(),
        unmoves: Vec::with_capacity(256),
    };
    let mut list = MoveList::new();
    let n = layout.n;
    for side in 0..2 {
        let stm = if side == 0 { Side::White } else { Side::Black };
        let mut idx = 0u64;
        while idx < size {
            if stop.load(Ordering::Relaxed) {
                return Err(TbError::Interrupted);
            }
            let end = (idx + CHUNK).min(size);
            // Walk the chunk with the odometer, moving only the pieces whose
            // squares change instead of building each position anew.
            let mut digits = [0u32; 16];
            let mut sqs = [0u8; 16];
            layout.digits(idx, &mut digits);
            layout.unrank(idx, &mut sqs);
            let mut pos = layout.position::<B>(&sqs[..n], stm, tb.rules());
            for x in idx..end {
                if x > idx {
                    let old = sqs;
                    let from = layout.advance(&mut digits, &mut sqs);
                    for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&old[from..n]) {
                        pos.remove(ps, pk, s);
                    }
                    for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&sqs[from..n]) {
                        pos.put(ps, pk, s);
                    }
                }
                g.init(side, x, &mut pos, &mut list)?;
            }
            progress(end - idx);
            idx = end;
        }
    }
    let mut d = 0usize;
    while d < g.levels.len() || d < g.external.len() {
        if stop.load(Ordering::Relaxed) {
            return Err(TbError::Interrupted);
        }
        if d < g.external.len() {
            for side in 0..2 {
                for x in std::mem::take(&mut g.external[d][side]) {
                    if g.res[side][x as usize] == 0 {
                        g.decide(side, x as u64, d)?;
                    }
                }
            }
        }
        if d < g.levels.len() {
            for side in 0..2 {
                // Decisions made now are for levels above d, never d itself.
                let now = std::mem::take(&mut g.levels[d][side]);
                for y in now {
                    g.propagate(side, y as u64, d)?;
                }
            }
        }
        d += 1;
    }
    let counts = [g.counts(0), g.counts(1)];
    let header = Header {
        game: B::GAME.to_string(),
        rules: tb.rules().name.to_string(),
        material: m,
        sides: if m.is_symmetric() { 1 } else { 2 },
        size,
        counts,
    };
    let [r0, r1] = g.res;
    Ok(Generated {
        header,
        values: [r0, r1],
    })
}
