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

/// Set while a position is undecided.
const OPEN: u16 = 0x8000;
/// With `OPEN`: a pending win (low byte: its distance) or, with a low byte
/// of 0, a stalemate (a draw). Without `OPEN`: a stalemate lost at once.
const SPECIAL: u16 = 0x4000;
/// The counter of an undecided position: bits 8-13.
const COUNT: u16 = 0x0100;
/// On a decided position (its counter bits are free): a win in one into
/// the den, which the sweep does not take back (see `init`).
const DEN_WIN: u16 = 0x0100;
/// Entries per bit of the level marks.
const BLOCK: u64 = 4096;
/// Entries per unit of parallel work in the forward pass (and between two
/// looks at the stop flag and two progress reports).
const CHUNK: u64 = 1 << 16;
/// Levels: a distance `d` is stored as `d + 1` in one byte (0 is
/// "undecided"), so distances run up to `LEVELS - 1`.
const LEVELS: usize = 255;

/// The state of one side: four 16-bit entries per `u64` word, so the
/// level sweep tests four entries per load (SWAR) and an update touches
/// one cache line.
///
/// The words live in an anonymous memory map advised to use transparent
/// huge pages: almost every state update lands on a random entry, and with
/// 4 KiB pages each of those also misses the TLB (a table of 8.5 G entries
/// has 4 M pages of state), whose page walk is another miss to memory.
/// Fresh anonymous pages are zero, the initial state, and are only touched
/// when the forward pass first writes them. A configuration larger than the
/// memory allowed keeps its words in a file instead (`Solve::state_dir`).
struct State {
    map: MmapRaw,
    len: usize,
}

/// `0x0001` in every lane.
const LANES: u64 = 0x0001_0001_0001_0001;

impl State {
    /// Zero entries in memory, or with `file` in a file of that name (see
    /// [`Solve::state_dir`]).
    fn new(size: u64, file: Option<&Path>) -> Result<State, TbError> {
        let len = size.div_ceil(4) as usize;
        let bytes = 8 * len.max(1);
        let map = match file {
            None => {
                let map = MmapOptions::new()
                    .len(bytes)
                    .map_anon()
                    .map_err(|e| TbError::Alloc {
                        bytes,
                        source: e.into(),
                    })?;
                // Only a hint: without huge pages the build is slower, not wrong.
                #[cfg(target_os = "linux")]
                let _ = map.advise(Advice::HugePage);
                map.into()
            }
            Some(path) => {
                let io = |e| TbError::io(path, e);
                let f = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(path)
                    .map_err(io)?;
                // Without a name the file goes when `f` and the map do,
                // even if the build fails below or is killed later.
                std::fs::remove_file(path).map_err(io)?;
                // Its pages read as zero until written. The blocks are
                // reserved now, so a full disk is this error rather than a
                // SIGBUS when a page of the map is first written.
                f.set_len(bytes as u64).map_err(io)?;
                #[cfg(unix)]
                {
                    use std::os::fd::AsRawFd;
                    // SAFETY: a plain system call on a descriptor `f` owns.
                    let r =
                        unsafe { libc::posix_fallocate(f.as_raw_fd(), 0, bytes as libc::off_t) };
                    if r != 0 {
                        return Err(io(std::io::Error::from_raw_os_error(r)));
                    }
                }
                MmapOptions::new().len(bytes).map_raw(&f).map_err(io)?
            }
        };
        Ok(State { map, len })
    }

    #[inline(always)]
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned, `8 * len` bytes long, lives as
        // long as `self` and is only ever accessed through these atomics
        // (`AtomicU64` has the size and alignment of `u64`; any bits are a
        // valid value). `MmapRaw::as_mut_ptr` is a pointer with write access.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<AtomicU64>(), self.len) }
    }

    #[inline(always)]
    fn get(&self, x: u64) -> u16 {
        (self.words()[(x / 4) as usize].load(Relaxed) >> (16 * (x % 4))) as u16
    }

    /// Entry `x` becomes `f(entry)` unless `f` says `None`; returns the
    /// entry it replaced. With `shared` an atomic read-modify-write,
    /// otherwise a plain load and store (see `Gen::shared`).
    #[inline(always)]
    fn update(&self, x: u64, shared: bool, f: impl Fn(u16) -> Option<u16>) -> Option<u16> {
        let w = &self.words()[(x / 4) as usize];
        let sh = 16 * (x % 4);
        let lane = |word: u64| {
            let old = (word >> sh) as u16;
            f(old).map(|new| (word & !(0xffff << sh)) | (new as u64) << sh)
        };
        if shared {
            w.fetch_update(Relaxed, Relaxed, lane)
                .ok()
                .map(|old| (old >> sh) as u16)
        } else {
            let word = w.load(Relaxed);
            let new = lane(word)?;
            w.store(new, Relaxed);
            Some((word >> sh) as u16)
        }
    }

    /// Calls `f` with entries `start..end` in order, the whole words four
    /// lanes at a time with no test between (the passes over every entry:
    /// counting, writing the file).
    #[inline(always)]
    fn for_each(&self, start: u64, end: u64, mut f: impl FnMut(u16)) {
        let mut x = start;
        while x < end && !x.is_multiple_of(4) {
            f(self.get(x));
            x += 1;
        }
        let whole = x + (end.saturating_sub(x) / 4) * 4;
        for w in &self.words()[(x / 4) as usize..(whole / 4) as usize] {
            let w = w.load(Relaxed);
            f(w as u16);
            f((w >> 16) as u16);
            f((w >> 32) as u16);
            f((w >> 48) as u16);
        }
        for x in whole..end {
            f(self.get(x));
        }
    }

    /// Sets entries `4k..4k + 4` at once (the forward pass owns them).
    fn set4(&self, k: usize, v: [u16; 4]) {
        let word = v
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &e)| w | (e as u64) << (16 * i));
        self.words()[k].store(word, Relaxed);
    }
}

/// Lanes of `w` whose low byte is `code`: bit 15 of each such lane is set.
#[inline(always)]
fn candidates(w: u64, code: u16) -> u64 {
    const HIGH: u64 = 0x8000_8000_8000_8000;
    // Low bytes equal to `code` become 0; setting bit 15 first keeps the
    // subtraction inside each lane, and bit 15 survives only where the
    // byte was not 0.
    let y = (w ^ (code as u64 * LANES)) & 0x00ff_00ff_00ff_00ff;
    !((y | HIGH) - LANES) & HIGH
}

/// The predecessor entries of one position: at most 4 moves for each of
/// 8 pieces, plus leaps, each possibly twice through the mirror.
struct Batch {
    xs: [u64; 96],
    len: usize,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            xs: [0; 96],
            len: 0,
        }
    }
    #[inline(always)]
    fn push(&mut self, x: u64) {
        self.xs[self.len] = x;
        self.len += 1;
    }
}

/// A solved configuration, ready to be written.
pub struct Generated {
    pub header: Header,
    pub work: Work,
    /// Why a checkpoint could not be saved between levels, if one could
    /// not: the solve went on without it, as a checkpoint is only a
    /// shortcut (a full disk should not cost the half hour of work in
    /// memory).
    pub unsaved: Option<String>,
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
struct Child<'a> {
    layout: &'a Layout,
    table: &'a Table,
    side: usize,
    swap: bool,
    /// For each piece of the child's index, the parent's piece index.
    from_parent: [u8; 16],
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
        let mut children = Vec::with_capacity(layout.n);
        let m = layout.material;
        let state_of = |side: usize| {
            let file = solve
                .state_dir
                .map(|d| d.join(format!("{}.state{side}", m.name::<B>())));
            State::new(size, file.as_deref())
        };
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
            let cl = tb.layout(slot.material);
            let mut from_parent = [0u8; 16];
            for (j, &(cs, ck)) in cl.pieces.iter().enumerate() {
                let want = if slot.swap { cs.flip() } else { cs };
                from_parent[j] = layout
                    .place(want, ck)
                    .expect("the child's pieces are the parent's")
                    as u8;
            }
            children.push(Some(Child {
                layout: cl,
                table: tb.table(slot.material)?,
                side: slot.side,
                swap: slot.swap,
                from_parent,
            }));
        }
        Ok(Gen {
            tb,
            layout,
            state: [state_of(0)?, state_of(1)?],
            marks,
            children,
            shared: solve.parallel,
            den_doors: [0, 1].map(|s| B::tables().steps[B::DEN[s] as usize]),
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

    /// The value (for the side to move after it) of the capture of parent
    /// piece `victim` by the piece at `from` going to `to`, on placement `sqs`.
    #[inline]
    fn capture_value(&self, sqs: &[u8; 16], mover: usize, victim: usize) -> (Outcome, u16) {
        let c = self.children[victim]
            .as_ref()
            .expect("the capture of a last piece ends the game");
        let mut q = [0u8; 16];
        for (j, &p) in c.from_parent[..c.layout.n].iter().enumerate() {
            let p = p as usize;
            let s = if p == mover { sqs[victim] } else { sqs[p] };
            q[j] = if c.swap { turned::<B>(s) } else { s };
        }
        let (wdl, dist) = c.table.get(c.side, c.layout.rank(&q[..c.layout.n]));
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

    fn damaged(&self, victim: usize) -> TbError {
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
    fn init(&self, side: usize, x: u64, pos: &Position<B>, sqs: &[u8; 16]) -> Result<u16, TbError> {
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

    fn position(&self, sqs: &[u8; 16], side: usize) -> Position<B> {
        let stm = if side == 0 { Side::White } else { Side::Black };
        self.layout
            .position(&sqs[..self.layout.n], stm, self.tb.rules())
    }

    /// Decides entry `x` of `side` at distance `d` unless it is decided.
    fn decide(&self, side: usize, x: u64, d: usize) -> Result<(), TbError> {
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
    fn notify(&self, t: usize, x: u64, child_lost: bool, d: usize) -> Result<(), TbError> {
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
    fn predecessors(&self, x: u64, pos: &Position<B>, sqs: &[u8; 16], out: &mut Batch) {
        let n = self.layout.n;
        let f0y = file_of(sqs[0]);
        out.len = 0;
        // A predecessor with a piece of its side to move next to our den is
        // a win in one, decided by `init`: telling it would change nothing.
        // So only a piece of the side that moved standing next to our den
        // may be taken back, and none when there are two.
        let doors = self.den_doors[pos.stm().index()];
        let at_doors = self.at_enemy_door(pos, pos.stm().flip());
        let pieces = match at_doors.count_ones() {
            0 => !0,
            1 => at_doors,
            _ => return,
        };
        let occupied = pos.occupied(Side::White) | pos.occupied(Side::Black);
        let free = self.layout.frees(sqs);
        let mover = pos.stm().flip();
        pos.for_each_quiet_unmove(pieces, !doors, |kind, u| {
            let i = self
                .layout
                .place(mover, kind)
                .expect("a piece on the board");
            debug_assert_eq!(sqs[i], u.to);
            let f0q = if i == 0 { file_of(u.from) } else { f0y };
            // The index keeps positions whose first piece is on files a-d. A
            // predecessor q on those files is its own entry; when y has its
            // first piece on a-c, the mirror of q moves to the mirror of y,
            // which is stored as y, so mirror(q) (if on a-d) is one too.
            if f0q <= 3 {
                out.push(self.layout.rank_moved(x, sqs, occupied, free[i], i, u.from));
            }
            if f0y < 3 && f0q >= 3 {
                let mut q = *sqs;
                q[i] = u.from;
                out.push(self.layout.rank_squares(&q[..n], true));
            }
        });
    }

    /// Tells the predecessors in `batch` (of side `t`) that their child was
    /// decided at distance `d`.
    fn notify_all(&self, t: usize, batch: &Batch, d: usize) -> Result<(), TbError> {
        let lost = d.is_multiple_of(2);
        for &x in &batch.xs[..batch.len] {
            self.notify(t, x, lost, d)?;
        }
        Ok(())
    }

    /// The forward pass over entries `start..end` of both sides: a
    /// placement is walked to once for the two sides to move (`init` does
    /// not look at the side to move of `pos`).
    fn forward(&self, start: u64, end: u64) -> Result<(), TbError> {
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

    /// Level `d` over the marked block `b` of `side`; returns how many
    /// positions it took back.
    fn sweep_block(&self, side: usize, b: u64, d: usize) -> Result<u64, TbError> {
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
                self.notify_all(1 - side, &batch, d)?;
                taken_back += 1;
                told += batch.len as u64;
            }
        }
        self.taken_back.fetch_add(taken_back, Relaxed);
        self.told.fetch_add(told, Relaxed);
        Ok(done)
    }

    fn counts(&self, side: usize) -> SideCounts {
        let l = self.layout;
        let stride = l.first_stride();
        let firsts = l.size / stride;
        (0..firsts)
            .into_par_iter()
            .map(|f| {
                let start = f * stride;
                // Entries with the first piece on files a-c stand for themselves
                // and their mirror image; on file d both images are entries.
                let w = if l.first_file(start) < 3 { 2 } else { 1 };
                // Without branches: [draw, win, loss] of every entry, and of
                // those that are positions of the statistics (not stalemates).
                let mut entries = [0u64; 3];
                let mut counted = [0u64; 3];
                let mut longest = 0u64;
                self.state[side].for_each(start, start + stride, |v| {
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
            .reduce(SideCounts::default, |a, b| SideCounts {
                entries: [
                    a.entries[0] + b.entries[0],
                    a.entries[1] + b.entries[1],
                    a.entries[2] + b.entries[2],
                ],
                positions: a.positions + b.positions,
                wins: a.wins + b.wins,
                draws: a.draws + b.draws,
                losses: a.losses + b.losses,
                longest: a.longest.max(b.longest),
            })
    }
}

/// The index of the piece standing on `s`.
#[inline(always)]
fn piece_on(sqs: &[u8; 16], n: usize, s: u8) -> usize {
    sqs[..n]
        .iter()
        .position(|&q| q == s)
        .expect("a piece stands there")
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
    let layout = tb.layout(m);
    let size = layout.size;
    let parallel = solve.parallel;
    let checkpoint = solve.checkpoint;
    let g = Gen::new(tb, layout, solve)?;
    let parts = checkpoint::Parts {
        material: m,
        size,
        state: [g.state[0].words(), g.state[1].words()],
        marks: &g.marks,
    };
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
        let blocks: Vec<(usize, u64)> = (0..2)
            .flat_map(|side| {
                let marks = &g.marks[d][side];
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
            .collect();
        // A block's mark is cleared once it is swept (nothing marks level d
        // during its own sweep), so a stop between blocks leaves a state a
        // checkpoint can hold: the next run sweeps the blocks still marked.
        let swept = each(&blocks, parallel, |&(side, b)| {
            check()?;
            let k = g.sweep_block(side, b, d)?;
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
            Err(e) => return Err(e),
        }
    }
    // The draws (and stalemates under rules where they draw) never taken back.
    progress((2 * size).saturating_sub(swept_entries));
    let counts = [g.counts(0), g.counts(1)];
    let header = Header {
        counts,
        ..Header::new(B::GAME, tb.rules().name, m, size)
    };
    Ok(Generated {
        header,
        work: Work {
            taken_back: g.taken_back.load(Relaxed),
            told: g.told.load(Relaxed),
        },
        unsaved,
        state: g.state,
    })
}
