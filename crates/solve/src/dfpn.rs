//! Depth-first proof-number search (Nagai's df-pn) with a transposition
//! table, in the φ/δ form: at every node φ is the proof number for its side
//! to move and δ the disproof number, so φ(n) = min δ(child) and
//! δ(n) = Σ φ(child) whichever side moves.
//!
//! MID searches a node until its φ or δ reaches its thresholds. The child
//! with the smallest δ is searched with thresholds
//! `thφ(c) = thδ(n) − δ(n) + φ(c)` and `thδ(c) = min(thφ(n), ⌈δ₂(1+ε)⌉)`
//! where δ₂ is the second-smallest δ among the children (Pawlewicz & Lew's
//! 1+ε trick: with ε = 0 it is Nagai's δ₂ + 1; a larger ε lets the search
//! stay longer in one subtree before switching, fewer re-searches).
//!
//! **The graph-history interaction.** The table is keyed by the position
//! ([`Game::key`]), but a repetition draw belongs to the path. Two modes:
//!
//! - [`Ghi::Naive`] stores every value: a value that holds only because
//!   some position repeated one on the path is reused on paths where it
//!   does not. Wrong answers follow; for tests and experiments only.
//! - [`Ghi::NoRepetitionStore`] (literature B's workaround) never stores a
//!   value decided or influenced by a repetition: a node's numbers are
//!   *influenced* when a child is a repetition leaf or returned influenced
//!   numbers (for a proven node: when the child that proves it is; for a
//!   disproven node, or one still open: when any child is). Those numbers
//!   live only in the frame of the MID call that computed them, i.e. on the
//!   one path where they hold.
//! - [`Ghi::LocalRepetition`] stores numbers unless a repetition they
//!   depend on repeats a position above the node: a cycle that closes at
//!   the node or below holds whatever the path.
//!
//! Why the root's answer is right in the last two modes is in
//! docs/solve.md: the solved values they store are exact for the game in
//! which endless play is a draw, and the root's value is the same there.
//!
//! The table replaces by work done (MID calls below the entry): the entry
//! that cost more to compute stays.

use crate::leaf::{End, Leaves};
use crate::limits::{add, Clock, Limits, Progress, Report, INF};
use crate::value::{Answer, Goal};
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};
use zoo_core::{Game, History, MoveList, Oracle};

/// How the transposition table meets repetition (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ghi {
    /// Store every value, including those that hold only on their path
    /// (wrong answers possible: for tests and experiments).
    Naive,
    /// Never store values decided or influenced by a repetition.
    NoRepetitionStore,
    /// Store a value unless a repetition it depends on repeats a position
    /// *above* the node on the path: a value whose repetitions all return
    /// into its own subtree holds whatever the path (docs/solve.md).
    LocalRepetition,
}

impl Ghi {
    /// `naive` or `no-repetition-store`.
    pub fn name(self) -> &'static str {
        match self {
            Ghi::Naive => "naive",
            Ghi::NoRepetitionStore => "no-repetition-store",
            Ghi::LocalRepetition => "local-repetition",
        }
    }
}

/// The choices of a df-pn run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// How the table meets repetition.
    pub ghi: Ghi,
    /// The ε of the 1+ε trick (0: Nagai's second-best + 1).
    pub epsilon: f64,
    /// The table's size in MB when [`Limits::memory_mb`] does not say.
    pub default_table_mb: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ghi: Ghi::NoRepetitionStore,
            epsilon: 0.25,
            default_table_mb: 16,
        }
    }
}

/// One table entry: the numbers of a position (φ/δ for its side to move)
/// and the work spent on them.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    phi: u32,
    delta: u32,
    work: u64,
}

/// The bytes of one table entry (what the memory limit is divided by).
pub fn bytes_per_entry() -> usize {
    std::mem::size_of::<Entry>()
}

/// A table of two-entry buckets; within a bucket the entry with less work
/// is replaced.
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(max_entries: u64) -> Table {
        // A power of two, at least one bucket, never above the budget.
        let mut n = 2usize;
        while (n as u64) * 2 <= max_entries {
            n *= 2;
        }
        Table {
            entries: vec![Entry::default(); n],
            mask: (n - 1) & !1,
        }
    }

    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let i = key as usize & self.mask;
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.work > 0)
            .map(|e| (e.phi, e.delta))
    }

    fn put(&mut self, key: u64, phi: u32, delta: u32, work: u64) {
        let i = key as usize & self.mask;
        let slot = if self.entries[i].key == key {
            i
        } else if self.entries[i + 1].key == key {
            i + 1
        } else if self.entries[i].work <= self.entries[i + 1].work {
            i
        } else {
            i + 1
        };
        let e = &mut self.entries[slot];
        if e.key != key && e.work > work {
            // The resident cost more to compute: keep it.
            return;
        }
        *e = Entry {
            key,
            phi,
            delta,
            work: work.max(1),
        };
    }
}

/// The bytes of a saved entry: key, φ, δ, work, little-endian.
pub const SAVED_ENTRY_BYTES: usize = 24;

/// The table of a run as it is saved: its used entries, streamed.
pub struct TableView<'a> {
    entries: &'a [Entry],
    /// MID calls so far, the saved run's included.
    pub calls: u64,
}

impl TableView<'_> {
    /// The entries that will be written.
    pub fn len(&self) -> u64 {
        self.entries.iter().filter(|e| e.work > 0).count() as u64
    }

    /// Whether no entry is used.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the used entries, [`SAVED_ENTRY_BYTES`] each.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        for e in self.entries.iter().filter(|e| e.work > 0) {
            let mut b = [0u8; SAVED_ENTRY_BYTES];
            b[0..8].copy_from_slice(&e.key.to_le_bytes());
            b[8..12].copy_from_slice(&e.phi.to_le_bytes());
            b[12..16].copy_from_slice(&e.delta.to_le_bytes());
            b[16..24].copy_from_slice(&e.work.to_le_bytes());
            w.write_all(&b)?;
        }
        Ok(())
    }
}

/// What saves a run's table: called with it, an error stops the run.
pub type Saver<'a> = &'a mut dyn FnMut(&TableView<'_>) -> io::Result<()>;

/// Saving a run now and then, and going on from a saved one: a long
/// proof outlives the process (docs/solve.md, "Long runs").
#[derive(Default)]
pub struct Resume<'a> {
    /// A saved table to load first: where to read it and how many
    /// entries it holds. Loaded into the table `limits` size (entries
    /// that collide keep the costlier, as in the search).
    pub from: Option<(&'a mut dyn Read, u64)>,
    /// MID calls of the saved run, counted on.
    pub calls: u64,
    /// Called about every `Duration`, and when a limit stops the run,
    /// with the table to save; an error stops the run.
    pub save: Option<(Saver<'a>, Duration)>,
}

/// A child in a MID frame: its move, its numbers (φ/δ for its side to
/// move), whether they are a leaf's, and the shallowest path index that a
/// repetition they depend on repeats (`NO_REPEAT`: none).
#[derive(Clone, Copy)]
struct Child<M> {
    mv: M,
    phi: u32,
    delta: u32,
    leaf: bool,
    reach: usize,
}

/// No repetition below: the numbers hold on any path.
const NO_REPEAT: usize = usize::MAX;

struct Search<'a, G: Game> {
    leaves: Leaves<'a, G>,
    opts: Options,
    table: Table,
    pos: G,
    hist: History,
    /// The keys and piece counts of the path, root first (as in `hist`),
    /// to find which node a repetition repeats.
    path: Vec<(u64, u32)>,
    calls: u64,
    call_limit: u64,
    start: Instant,
    /// Time and stop requests, progress reports.
    clock: Clock,
    stopped: bool,
    saver: Option<Saver<'a>>,
    save_every: Duration,
    last_save: Instant,
}

/// A leaf's numbers for the side to move at `pos`.
fn leaf_numbers<G: Game>(leaves: &Leaves<'_, G>, pos: &G, end: End) -> (u32, u32) {
    // Proving the goal is proof number 0: φ = 0 where the attacker moves,
    // δ = 0 where the opponent does.
    crate::pns::solved(leaves.proves(pos, end) == leaves.is_or(pos))
}

/// Solves `root` under `goal` by df-pn within `limits`, with `oracle`'s
/// positions as leaves when one is given.
///
/// `limits.nodes` bounds MID calls; `limits.memory_mb` sizes the table
/// (else `opts.default_table_mb`). The report carries no proof: the table
/// may have lost the entries one needs (PNS gives proofs).
pub fn solve<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
) -> Report<G::Move> {
    solve_resumable(root, goal, oracle, limits, opts, Resume::default())
        .expect("nothing is read without a saved table")
}

/// [`solve`], going on from a saved table and saving it now and then
/// ([`Resume`]). `limits.nodes` counts the saved run's calls too. An error
/// reading the saved table is returned; one saving it stops the run.
pub fn solve_resumable<'a, G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    resume: Resume<'a>,
) -> io::Result<Report<G::Move>> {
    let start = Instant::now();
    let leaves = Leaves::new(root, goal, oracle);
    let mb = limits.memory_mb.unwrap_or(opts.default_table_mb);
    let entries = (mb << 20) / bytes_per_entry() as u64;
    let mut table = Table::new(entries);
    if let Some((r, n)) = resume.from {
        let mut b = [0u8; SAVED_ENTRY_BYTES];
        let u64at =
            |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
        let u32at =
            |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
        for _ in 0..n {
            r.read_exact(&mut b)?;
            table.put(u64at(&b, 0), u32at(&b, 8), u32at(&b, 12), u64at(&b, 16));
        }
    }
    let (saver, save_every) = match resume.save {
        Some((f, every)) => (Some(f), every),
        None => (None, Duration::MAX),
    };
    let mut s = Search {
        hist: Leaves::<G>::history(root),
        path: vec![(root.key(), root.piece_count())],
        leaves,
        opts: *opts,
        table,
        pos: root.clone(),
        calls: resume.calls,
        call_limit: limits.nodes.unwrap_or(u64::MAX),
        start,
        clock: Clock::new(limits),
        stopped: false,
        saver,
        save_every,
        last_save: start,
    };
    let mut moves = MoveList::new();
    let (mut phi, mut delta) = match s.leaves.classify(root, &s.hist, &mut moves) {
        Some(end) => leaf_numbers(&s.leaves, root, end),
        None => (1, 1),
    };
    while phi != 0 && delta != 0 && !s.stopped {
        let (p, d, _) = s.mid(INF - 1, INF - 1);
        phi = p;
        delta = d;
    }
    if s.stopped && phi != 0 && delta != 0 {
        s.save();
    }
    // The root is an OR node: φ is its proof number.
    let (pn, dn) = (phi, delta);
    let answer = if pn == 0 {
        Answer::Proven
    } else if dn == 0 {
        Answer::Disproven
    } else {
        Answer::Unknown
    };
    Ok(Report {
        goal,
        answer,
        pn,
        dn,
        nodes: s.calls,
        expansions: s.calls,
        bytes: (s.table.entries.len() * bytes_per_entry()) as u64,
        seconds: start.elapsed().as_secs_f64(),
        proof: None,
    })
}

impl<G: Game> Search<'_, G> {
    /// Searches the current position (not a leaf) until its φ reaches
    /// `th_phi` or its δ reaches `th_delta`; returns (φ, δ, reach): reach
    /// is the shallowest path index a repetition the numbers depend on
    /// repeats ([`NO_REPEAT`] when none).
    fn mid(&mut self, th_phi: u32, th_delta: u32) -> (u32, u32, usize) {
        self.calls += 1;
        if self.calls >= self.call_limit {
            self.stopped = true;
        } else if self.calls.is_multiple_of(1024) {
            let (nodes, bytes) = (
                self.calls,
                (self.table.entries.len() * bytes_per_entry()) as u64,
            );
            let seconds = self.start.elapsed().as_secs_f64();
            if self.clock.check(|| Progress {
                nodes,
                bytes,
                seconds,
                root: None,
            }) {
                self.stopped = true;
            }
            if self.last_save.elapsed() >= self.save_every {
                self.save();
            }
        }
        let calls_before = self.calls;
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        let mut kids: Vec<Child<G::Move>> = Vec::with_capacity(moves.len());
        let mut scratch = MoveList::new();
        for &mv in &moves {
            let u = self.pos.make(mv);
            self.push();
            let child = match self.leaves.classify(&self.pos, &self.hist, &mut scratch) {
                Some(end) => {
                    let (phi, delta) = leaf_numbers(&self.leaves, &self.pos, end);
                    Child {
                        mv,
                        phi,
                        delta,
                        leaf: true,
                        reach: if end == End::Repetition {
                            self.repeated_index()
                        } else {
                            NO_REPEAT
                        },
                    }
                }
                None => {
                    let (phi, delta) = self.table.get(self.pos.key()).unwrap_or((1, 1));
                    Child {
                        mv,
                        phi,
                        delta,
                        leaf: false,
                        reach: NO_REPEAT,
                    }
                }
            };
            self.pop();
            self.pos.unmake(mv, u);
            kids.push(child);
        }

        let (mut phi, mut delta);
        loop {
            phi = INF;
            delta = 0;
            for k in &kids {
                phi = phi.min(k.delta);
                delta = add(delta, k.phi);
            }
            if phi == 0 {
                delta = INF;
            }
            if delta == 0 {
                phi = INF;
            }
            if phi >= th_phi || delta >= th_delta || self.stopped {
                break;
            }
            // The child with the smallest δ (never a leaf: a leaf's δ is 0,
            // which would have ended the loop, or INF, which is the
            // smallest only when φ = INF ≥ th_phi), and the second δ.
            let mut best = usize::MAX;
            let mut delta2 = INF;
            for (i, k) in kids.iter().enumerate() {
                if best == usize::MAX || k.delta < kids[best].delta {
                    if best != usize::MAX {
                        delta2 = delta2.min(kids[best].delta);
                    }
                    best = i;
                } else {
                    delta2 = delta2.min(k.delta);
                }
            }
            let k = kids[best];
            debug_assert!(!k.leaf);
            // thφ(c) = thδ(n) − (δ(n) − φ(c)); thδ(c) = min(thφ(n), δ₂(1+ε)).
            let rest = delta as u64 - k.phi as u64;
            let c_th_phi = (th_delta as u64).saturating_sub(rest).min(INF as u64 - 1) as u32;
            let grown = if delta2 >= INF - 1 {
                INF - 1
            } else {
                let e = (delta2 as f64 * (1.0 + self.opts.epsilon)).ceil() as u64;
                e.max(delta2 as u64 + 1).min(INF as u64 - 1) as u32
            };
            let c_th_delta = th_phi.min(grown);
            let u = self.pos.make(k.mv);
            self.push();
            let (p, d, reach) = self.mid(c_th_phi, c_th_delta);
            self.pop();
            self.pos.unmake(k.mv, u);
            kids[best].phi = p;
            kids[best].delta = d;
            kids[best].reach = reach;
        }

        // Proven for the side to move (φ = 0): as the child that proves it,
        // the least path-dependent one. Otherwise every child counts.
        let reach = if phi == 0 {
            kids.iter()
                .filter(|k| k.delta == 0)
                .map(|k| k.reach)
                .max()
                .unwrap_or(NO_REPEAT)
        } else {
            kids.iter().map(|k| k.reach).min().unwrap_or(NO_REPEAT)
        };
        let depth = self.path.len() - 1;
        let store = match self.opts.ghi {
            Ghi::Naive => true,
            Ghi::NoRepetitionStore => reach == NO_REPEAT,
            Ghi::LocalRepetition => reach >= depth,
        };
        if store {
            let work = self.calls - calls_before + 1;
            self.table.put(self.pos.key(), phi, delta, work);
        }
        // The parent compares the same index with its own depth.
        (phi, delta, reach)
    }

    /// Hands the table to the saver, if there is one; a failed save stops
    /// the run (going on would lose more than the saver could keep).
    fn save(&mut self) {
        if let Some(f) = self.saver.as_mut() {
            let view = TableView {
                entries: &self.table.entries,
                calls: self.calls,
            };
            if f(&view).is_err() {
                self.stopped = true;
            }
        }
        self.last_save = Instant::now();
    }

    /// Records the position just made on the path.
    fn push(&mut self) {
        self.hist.push(self.pos.key(), self.pos.piece_count());
        self.path.push((self.pos.key(), self.pos.piece_count()));
    }

    /// Takes the last position off the path.
    fn pop(&mut self) {
        self.hist.pop();
        self.path.pop();
    }

    /// The path index of the earlier occurrence of the last position (the
    /// one [`History::is_draw`] found): same side to move, so every second
    /// entry, and no further back than the last change of material.
    fn repeated_index(&self) -> usize {
        let n = self.path.len();
        let (key, pieces) = self.path[n - 1];
        let mut i = n - 1;
        while i >= 2 {
            i -= 2;
            let (k, p) = self.path[i];
            if p != pieces {
                break;
            }
            if k == key {
                return i;
            }
        }
        unreachable!("a repetition leaf repeats a position of the path")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_stays_within_its_budget() {
        for budget in [2u64, 3, 100, 1 << 20, (1 << 20) + 1] {
            let t = Table::new(budget);
            assert!(t.entries.len() as u64 <= budget.max(2));
            assert!(t.entries.len() as u64 * 2 > budget);
        }
    }

    #[test]
    fn table_keeps_the_costlier_entry() {
        let mut t = Table::new(2);
        // One bucket: the two keys fill it, a third replaces the cheaper.
        t.put(10, 1, 2, 5);
        t.put(20, 3, 4, 50);
        assert_eq!(t.get(10), Some((1, 2)));
        assert_eq!(t.get(20), Some((3, 4)));
        t.put(30, 5, 6, 7);
        assert_eq!(t.get(10), None);
        assert_eq!(t.get(30), Some((5, 6)));
        // Cheaper than both residents: not stored.
        t.put(40, 7, 8, 1);
        assert_eq!(t.get(40), None);
        // The same key is always updated.
        t.put(20, 9, 9, 1);
        assert_eq!(t.get(20), Some((9, 9)));
    }
}
