//! Retrograde analysis of one material configuration.
//!
//! Both sides to move are solved together (each move of the one leads to a
//! position of the other) in one `u16` of state per entry and side, and
//! nothing else of the size of the table: 2 bytes per entry.
//!
//! - Decided: the distance in plies + 1 (wins have odd distances, losses
//!   even ones, so the parity gives the outcome); `SPECIAL` marks a
//!   stalemate lost at once (rule sets where stalemate loses), `DEN_WIN` a
//!   win in one into the den.
//! - Undecided (`OPEN`): in bits 8-13 the number of moves to positions of
//!   this configuration not yet known to be won by the opponent, and in the
//!   low byte the longest of its captures (all lost, into smaller tables),
//!   which bounds its distance when the counter runs out; or, with
//!   `SPECIAL`, a *pending win* (a capture into a smaller table wins at the
//!   distance in the low byte: no counter needed, it can never be a loss),
//!   or with a low byte of 0 a stalemate that draws.
//!
//! 1. One forward pass over all entries: each position's moves are sorted
//!    into immediate wins (into the enemy den, or taking the last enemy
//!    piece), captures (valued from the smaller tables, already built) and
//!    moves within the configuration (counted). A capture to a drawn child
//!    adds one phantom to the counter so the position can never be counted
//!    down to a loss; a capture to a lost child makes a pending win. With
//!    an enemy piece next to its den a position's non-captures all lose in
//!    two and are not counted, so the wins in one into a den are never
//!    taken back (nor told anything).
//! 2. Backward induction level by level (distance 0, 1, 2, ...). Level `d`
//!    sweeps the blocks marked for it: every position decided at `d` is
//!    taken back through its unmoves (non-captures: un-captures lead to
//!    larger configurations); a predecessor of a loss is a win at `d + 1`, a
//!    predecessor of a win loses one from its counter and at zero is a loss
//!    at `max(d + 1, its longest capture)`. Pending wins at `d + 1` are
//!    decided in the same sweep (nothing can decide them sooner by then).
//!    Each position is decided once, at its final distance, because levels
//!    are handled in increasing order; the positions of one level are taken
//!    back in parallel (the state is atomic).
//! 3. What is still undecided is a draw: no side can force a result, and
//!    with no repetition inside a table that is its value.
//!
//! Instead of queues of decided positions (4 bytes each), one bit per block
//! of `BLOCK` entries and level says where to look: the sweep reads only
//! marked blocks, and walks each in index order, so the position of each
//! entry is found by a few digit increments rather than a full unranking.

use crate::file::{Header, SideCounts, Table, WDL_DRAW, WDL_LOSS, WDL_WIN};
use crate::index::{turned, Layout, Material};
use crate::{checkpoint, slot_of, Tablebase, TbError};
#[cfg(target_os = "linux")]
use memmap2::Advice;
use memmap2::{MmapOptions, MmapRaw};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use zoo_animal::board::file_of;
use zoo_animal::{Board, Position};
use zoo_core::{Outcome, Side};

mod backward;
pub(crate) use backward::{quiet_predecessors, Batch};
pub(crate) mod codes;
mod forward;
pub mod split;
mod split_checkpoint;
mod state;

use codes::{BLOCK, COUNT, DEN_WIN, LEVELS, OPEN, SPECIAL};
use state::State;

/// Entries per unit of parallel work in the forward pass (and between two
/// looks at the stop flag and two progress reports).
const CHUNK: u64 = 1 << 16;

/// A solved configuration, ready to be written.
pub struct Generated {
    pub header: Header,
    pub work: Work,
    /// Why a checkpoint could not be saved between levels, if one could
    /// not: the solve went on without it, as a checkpoint is only a
    /// shortcut (a full disk should not cost the half hour of work in
    /// memory).
    pub unsaved: Option<String>,
    /// The level its checkpoint resumed the solve at, if one did.
    pub resumed_at: Option<u64>,
    state: [State; 2],
}

/// How much the backward pass did: a measure of the algorithm that, unlike
/// its time, does not depend on the machine. After a resumed checkpoint it
/// counts the part done since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Decided positions taken back through their unmoves.
    pub taken_back: u64,
    /// Predecessors told of a decided child (many of them decided already).
    pub told: u64,
}

impl Generated {
    /// The value codes (0 draw, else distance + 1) of `side`'s entries
    /// `start..start + out.len()`.
    pub fn fill(&self, side: usize, start: u64, out: &mut [u8]) {
        let mut o = out.iter_mut();
        self.state[side].for_each(start, start + o.len() as u64, |v| {
            if let Some(o) = o.next() {
                // 0 for an open entry, without a branch.
                *o = v as u8 & ((v & OPEN == 0) as u8).wrapping_neg();
            }
        });
    }

    /// The value code (0 draw, else distance + 1) of `side`'s entry `x`:
    /// a table built in memory probed one position at a time
    /// ([`crate::memory`]).
    pub fn code(&self, side: usize, x: u64) -> u8 {
        let v = self.state[side].get(x);
        v as u8 & ((v & OPEN == 0) as u8).wrapping_neg()
    }

    /// Every value code of one side (tests and small tables).
    pub fn values(&self, side: usize) -> Vec<u8> {
        let mut v = vec![0u8; self.header.size as usize];
        self.fill(side, 0, &mut v);
        v
    }
}

fn marks_words(size: u64) -> usize {
    size.div_ceil(BLOCK).div_ceil(64) as usize
}

/// Bytes one configuration needs while it is solved: the state of both
/// sides and the level marks.
pub fn working_bytes(size: u64) -> u64 {
    size.saturating_mul(2 * 2) + (2 * LEVELS * 8 * marks_words(size)) as u64
}

/// How one configuration is solved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solve<'a> {
    /// Several threads on this configuration at once (the pool's): state
    /// updates are then atomic.
    pub parallel: bool,
    /// Where its checkpoint is kept, if it keeps one.
    pub checkpoint: Option<&'a Path>,
    /// With a directory, the state (2 bytes per entry and side, nearly all
    /// of the working set) is kept in files there instead of anonymous
    /// memory, for configurations larger than the memory allowed: the
    /// kernel then holds in memory the pages in use and writes the others
    /// back to disk. Slower, never wrong. The files are unlinked as soon as
    /// they are opened, so nothing is left behind, even by a killed build;
    /// resuming goes through the checkpoint as usual.
    pub state_dir: Option<&'a Path>,
}

/// Where the child of a capture of one piece is stored.
pub(crate) struct Child<'a> {
    layout: &'a Layout,
    table: &'a Table,
    side: usize,
    swap: bool,
    /// For each piece of the child's index, the parent's piece index.
    from_parent: [u8; 16],
}

impl Child<'_> {
    /// The material of the child's table.
    pub(crate) fn material(&self) -> Material {
        self.layout.material
    }

    /// The (WDL, distance) codes of the child of placement `sqs` where
    /// parent piece `mover` takes parent piece `victim`.
    #[inline]
    pub(crate) fn probe<B: Board>(&self, sqs: &[u8; 16], mover: usize, victim: usize) -> (u8, u8) {
        let mut q = [0u8; 16];
        for (j, &p) in self.from_parent[..self.layout.n].iter().enumerate() {
            let p = p as usize;
            let s = if p == mover { sqs[victim] } else { sqs[p] };
            q[j] = if self.swap { turned::<B>(s) } else { s };
        }
        self.table
            .get(self.side, self.layout.rank(&q[..self.layout.n]))
    }
}

/// Per piece of `layout` (a canonical material's), the child when that
/// piece is taken, `None` for the last piece of its side (taking it ends
/// the game). With `values_only`, a child's WDL-only file serves when its
/// full table is not there.
pub(crate) fn children_of<'a, B: Board>(
    tb: &'a Tablebase<B>,
    layout: &Layout,
    values_only: bool,
) -> Result<Vec<Option<Child<'a>>>, TbError> {
    let m = layout.material;
    let mut children = Vec::with_capacity(layout.n);
    for &(side, kind) in &layout.pieces {
        let mut cm = m;
        match side {
            Side::White => cm.white &= !(1 << kind),
            Side::Black => cm.black &= !(1 << kind),
        }
        if cm.white == 0 || cm.black == 0 {
            children.push(None);
            continue;
        }
        // The capturer is the other side; after the capture `side` moves.
        let slot = slot_of(cm, side);
        let cl = tb.scheme().layout(slot.material);
        let mut from_parent = [0u8; 16];
        for (j, &(cs, ck)) in cl.pieces.iter().enumerate() {
            let want = if slot.swap { cs.flip() } else { cs };
            from_parent[j] = layout
                .place(want, ck)
                .expect("the child's pieces are the parent's") as u8;
        }
        let table = match tb.table(slot.material) {
            Err(TbError::WdlOnly { .. }) if values_only => tb.wdl_table(slot.material)?,
            t => t?,
        };
        children.push(Some(Child {
            layout: cl,
            table,
            side: slot.side,
            swap: slot.swap,
            from_parent,
        }));
    }
    Ok(children)
}

struct Gen<'a, B: Board> {
    tb: &'a Tablebase<B>,
    layout: &'a Layout,
    state: [State; 2],
    /// `marks[level][side]`: a bit per block holding an entry decided at
    /// `level` or a pending win at `level`.
    marks: Vec<[Vec<AtomicU64>; 2]>,
    /// Per parent piece index: the child table when that piece is captured
    /// (`None` for the last piece of its side: taking it ends the game).
    children: Vec<Option<Child<'a>>>,
    /// Whether several threads work on this configuration at once: state
    /// updates are then atomic read-modify-writes, otherwise plain loads
    /// and stores (a locked instruction waits for its cache miss and keeps
    /// the next ones from overlapping it, which costs half the time).
    shared: bool,
    /// Per side: the squares next to its den. An enemy piece on one of
    /// them enters the den next move whatever that side does (it cannot
    /// step into its own den to block it), see `init`.
    den_doors: [u64; 2],
    /// The entries this process decides (both sides): all of them, but
    /// in a build split by ranges ([`split`]).
    own: std::ops::Range<u64>,
    /// `Work` so far.
    taken_back: AtomicU64,
    told: AtomicU64,
}

impl<'a, B: Board> Gen<'a, B> {
    fn new(tb: &'a Tablebase<B>, layout: &'a Layout, solve: &Solve) -> Result<Self, TbError> {
        let size = layout.size;
        let words = marks_words(size);
        let marks = (0..LEVELS)
            .map(|_| {
                [
                    (0..words).map(|_| AtomicU64::new(0)).collect(),
                    (0..words).map(|_| AtomicU64::new(0)).collect(),
                ]
            })
            .collect();
        let m = layout.material;
        let state_of = |side: usize| {
            let file = solve
                .state_dir
                .map(|d| d.join(format!("{}.state{side}", m.name::<B>())));
            State::new(size, file.as_deref())
        };
        let children = children_of(tb, layout, false)?;
        Ok(Gen {
            tb,
            layout,
            state: [state_of(0)?, state_of(1)?],
            marks,
            children,
            shared: solve.parallel,
            den_doors: [0, 1].map(|s| B::tables().steps[B::DEN[s] as usize]),
            own: 0..size,
            taken_back: AtomicU64::new(0),
            told: AtomicU64::new(0),
        })
    }

    fn mark(&self, level: usize, side: usize, x: u64) {
        let b = x / BLOCK;
        let w = &self.marks[level][side][(b / 64) as usize];
        let bit = 1 << (b % 64);
        // Most marks find their bit set already (a block holds many entries
        // of a level): a plain load spares the locked read-modify-write,
        // which would also pull the word away from the other thread.
        // A set bit stays set until its level is swept, and nothing marks
        // a level during its own sweep.
        let word = w.load(Relaxed);
        if word & bit != 0 {
            return;
        }
        if self.shared {
            w.fetch_or(bit, Relaxed);
        } else {
            w.store(word | bit, Relaxed);
        }
    }

    /// The blocks marked for `level`, as (side, block).
    fn marked(&self, level: usize) -> Vec<(usize, u64)> {
        (0..2)
            .flat_map(|side| {
                let marks = &self.marks[level][side];
                marks.iter().enumerate().flat_map(move |(w, word)| {
                    let mut bits = word.load(Relaxed);
                    std::iter::from_fn(move || {
                        (bits != 0).then(|| {
                            let b = bits.trailing_zeros() as u64;
                            bits &= bits - 1;
                            (side, w as u64 * 64 + b)
                        })
                    })
                })
            })
            .collect()
    }

    /// Clears the mark of block `b` at `level` (it has been swept).
    fn unmark(&self, level: usize, side: usize, b: u64) {
        let w = &self.marks[level][side][(b / 64) as usize];
        let bit = 1u64 << (b % 64);
        if self.shared {
            w.fetch_and(!bit, Relaxed);
        } else {
            w.store(w.load(Relaxed) & !bit, Relaxed);
        }
    }

    /// The pieces of `attacker` next to its opponent's den: each enters
    /// that den next move, whatever the opponent does (see `init`).
    #[inline(always)]
    fn at_enemy_door(&self, pos: &Position<B>, attacker: Side) -> u64 {
        pos.occupied(attacker) & self.den_doors[attacker.flip().index()]
    }

    fn too_long(&self, d: usize) -> TbError {
        TbError::TooLong {
            material: self.layout.material.name::<B>(),
            distance: d,
        }
    }

    fn position(&self, sqs: &[u8; 16], side: usize) -> Position<B> {
        let stm = if side == 0 { Side::White } else { Side::Black };
        self.layout
            .position(&sqs[..self.layout.n], stm, self.tb.rules())
    }

    /// The counts of `side`'s entries in `self.own`.
    fn counts(&self, side: usize) -> SideCounts {
        let l = self.layout;
        let stride = l.first_stride();
        let (lo, hi) = (self.own.start, self.own.end);
        (lo / stride..hi.div_ceil(stride))
            .into_par_iter()
            .map(|f| {
                // Entries with the first piece on files a-c stand for themselves
                // and their mirror image; on file d both images are entries.
                let w = if l.first_file(f * stride) < 3 { 2 } else { 1 };
                let (start, end) = ((f * stride).max(lo), ((f + 1) * stride).min(hi));
                // Without branches: [draw, win, loss] of every entry, and of
                // those that are positions of the statistics (not stalemates).
                let mut entries = [0u64; 3];
                let mut counted = [0u64; 3];
                let mut longest = 0u64;
                self.state[side].for_each(start, end, |v| {
                    let r = if v & OPEN != 0 { 0 } else { v & 0xff };
                    let draw = (r == 0) as u64;
                    let win = (r != 0 && r % 2 == 0) as u64;
                    let loss = 1 - draw - win;
                    let stalemate = v & SPECIAL != 0 && (v & OPEN == 0 || v & 0xff == 0);
                    let k = !stalemate as u64;
                    entries[0] += draw;
                    entries[1] += win;
                    entries[2] += loss;
                    counted[0] += draw & k;
                    counted[1] += win & k;
                    counted[2] += loss & k;
                    longest = longest.max(r.saturating_sub(1) as u64 * k);
                });
                SideCounts {
                    entries,
                    positions: w * (counted[0] + counted[1] + counted[2]),
                    draws: w * counted[0],
                    wins: w * counted[1],
                    losses: w * counted[2],
                    longest,
                }
            })
            .reduce(SideCounts::default, SideCounts::merged)
    }
}

/// Moves the pieces `from..n` of `pos` from `old` to `new` squares.
#[inline(always)]
fn move_pieces<B: Board>(
    l: &Layout,
    pos: &mut Position<B>,
    old: &[u8; 16],
    new: &[u8; 16],
    from: usize,
    n: usize,
) {
    if from + 1 == n {
        // The usual step: the last piece alone.
        let (ps, pk) = l.pieces[from];
        pos.relocate(ps, pk, old[from], new[from]);
        return;
    }
    for (&(ps, pk), &s) in l.pieces[from..n].iter().zip(&old[from..n]) {
        pos.remove(ps, pk, s);
    }
    for (&(ps, pk), &s) in l.pieces[from..n].iter().zip(&new[from..n]) {
        pos.put(ps, pk, s);
    }
}

/// Runs `f` over `items`, in parallel or not, and adds up what it returns.
fn each<T: Sync>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&T) -> Result<u64, TbError> + Sync + Send,
) -> Result<u64, TbError> {
    if parallel {
        items.par_iter().map(&f).try_reduce(|| 0, |a, b| Ok(a + b))
    } else {
        items.iter().try_fold(0, |a, t| Ok(a + f(t)?))
    }
}

/// How often a configuration with checkpoints saves one (between levels).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(600);

/// Solves material `m` (canonical) with the smaller tables of `tb`.
/// `progress` is told of the work done, in steps: every entry is one step
/// in the forward pass and one when it is taken back (or found a draw at
/// the end), so a table is `4 × size` steps.
///
/// With `solve.parallel` the configuration is solved by all threads of the
/// current rayon pool (for a configuration too large to solve several at
/// once); without, by the calling thread alone (configurations side by side).
///
/// With `solve.checkpoint` (a path), the state is saved there after the forward
/// pass, every ten minutes (between levels) and when stopped (between two
/// blocks of a level's sweep), and a build
/// resumes from a checkpoint it finds; the caller removes it when the table
/// is written.
pub fn generate<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    solve: &Solve,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Generated, TbError> {
    let layout = tb.scheme().layout(m);
    let size = layout.size;
    let parallel = solve.parallel;
    let checkpoint = solve.checkpoint;
    let g = Gen::new(tb, layout, solve)?;
    let parts =
        checkpoint::Parts::whole(m, size, [g.state[0].words(), g.state[1].words()], &g.marks);
    let check = || {
        if stop.load(Relaxed) {
            Err(TbError::Interrupted)
        } else {
            Ok(())
        }
    };
    let resumed = match checkpoint {
        Some(p) => checkpoint::load(p, &parts)?,
        None => None,
    };
    // A resumed solve that fails on its state names the checkpoint it came
    // from: a rerun would fail the same way until it is removed.
    let blame = |e: TbError| match (resumed, checkpoint, &e) {
        (Some(_), Some(p), TbError::TooLong { .. } | TbError::UnstorableWin { .. }) => {
            checkpoint::refused(p, &e.to_string())
        }
        _ => e,
    };
    let first = match resumed {
        Some(level) => {
            progress(2 * size);
            level as usize
        }
        None => {
            let chunks: Vec<u64> = (0..size.div_ceil(CHUNK)).map(|c| c * CHUNK).collect();
            each(&chunks, parallel, |&start| {
                check()?;
                let end = (start + CHUNK).min(size);
                g.forward(start, end)?;
                progress(2 * (end - start));
                Ok(0)
            })?;
            0
        }
    };
    let mut saved = (resumed.is_some(), Instant::now());
    let mut unsaved = None;
    // Every entry handled by a sweep, including wins in one into a den
    // that are not taken back (see `sweep_block`).
    let mut swept_entries = 0u64;
    for d in first..LEVELS {
        if let Some(p) = checkpoint {
            let stopping = stop.load(Relaxed);
            if stopping || !saved.0 || saved.1.elapsed() >= CHECKPOINT_EVERY {
                match checkpoint::save(p, &parts, d as u64) {
                    Ok(()) => unsaved = None,
                    // Stopping, the checkpoint is what is left of the work.
                    Err(e) if stopping => return Err(e),
                    // Tried again after `CHECKPOINT_EVERY`.
                    Err(e) => unsaved = Some(e.to_string()),
                }
                saved = (true, Instant::now());
            }
        }
        check()?;
        let blocks = g.marked(d);
        // A block's mark is cleared once it is swept (nothing marks level d
        // during its own sweep), so a stop between blocks leaves a state a
        // checkpoint can hold: the next run sweeps the blocks still marked.
        let swept = each(&blocks, parallel, |&(side, b)| {
            check()?;
            // One process owns every entry: nothing goes to `remote`.
            let k = g.sweep_block(side, b, d, &mut Vec::new())?;
            g.unmark(d, side, b);
            progress(k);
            Ok(k)
        });
        match swept {
            Ok(k) => swept_entries += k,
            Err(TbError::Interrupted) => {
                if let Some(p) = checkpoint {
                    checkpoint::save(p, &parts, d as u64)?;
                }
                return Err(TbError::Interrupted);
            }
            Err(e) => return Err(blame(e)),
        }
    }
    // The draws (and stalemates under rules where they draw) never taken back.
    progress((2 * size).saturating_sub(swept_entries));
    let counts = [g.counts(0), g.counts(1)];
    let header = Header {
        counts,
        ..crate::header::<B>(tb.rules().name, m, size)
    };
    Ok(Generated {
        header,
        work: Work {
            taken_back: g.taken_back.load(Relaxed),
            told: g.told.load(Relaxed),
        },
        unsaved,
        resumed_at: resumed,
        state: g.state,
    })
}
