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
//! - [`Ghi::Path`] (literature B's chain check, in the form that is sound)
//!   stores numbers with their *chain*: the positions above the node that
//!   the repetitions they depend on return to (at most [`MAX_DEPS`], else
//!   they are not stored). A hit counts only where every one of them is on
//!   the current path, and the numbers then depend on them there too.
//!
//! - [`Ghi::Closure`] stores every value as `Naive` does, but marks a
//!   solved value that rests on a repetition (or on a marked value) as
//!   *unchecked*. When the root's answer is such a draw-side value, the
//!   marked values it rests on are checked to close on themselves (every
//!   one has the children its claim needs solved the same way in the
//!   table: endless play inside them is a draw, which is their claim);
//!   a value that does not close is reopened and the root searched again
//!   (module `closure`). Checked values are unmarked: they hold on any path.
//!
//! Why the root's answer is right in the last four modes is in
//! docs/solve.md: the solved values they store, followed from the node
//! where they are used (and, under `Path`, back up to the path positions
//! their chain names), are strategies in the game in which endless play is
//! a draw, and the root's value is the same there.
//!
//! The table replaces by work done (MID calls below the entry): the entry
//! that cost more to compute stays.
//!
//! [`Remedies`] (Kishimoto 2010), off by default: `tca` stores open
//! numbers whatever repetitions they rest on and raises the thresholds of
//! a node that may sit on a cycle; `wpn` takes δ = max φ + (k − 1) over
//! the k open children instead of Σ φ. Neither changes which solved
//! values are stored (docs/solve.md, "df-pn's remedies").

mod closure;
mod deps;
mod extract;
pub(crate) use extract::root_leaf;
mod line;
mod options;
mod parallel;
mod table;

use crate::leaf::{End, Leaves};
use crate::limits::{add, Clock, Limits, Progress, Report, Sample, INF};
use crate::value::{Answer, Goal};
pub use deps::MAX_DEPS;
use deps::{path_deps, Deps};
pub use options::*;
use std::io::{self, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::{Table, NO_DEPTH, UNCHECKED};
pub use table::{TableView, SAVED_ENTRY_BYTES};
use zoo_core::{Game, History, MoveList, Oracle};

/// The most nodes a df-pn proof may have (the tree is built in memory,
/// about 50 bytes a node).
pub const MAX_PROOF_NODES: u64 = 20_000_000;

/// Below this depth TCA raises no threshold. In these games nearly every
/// node has a child nearer the root (most moves can be taken back), so
/// the flag is nearly always set, and with every node bound to call a
/// child the path would run on through the whole graph (it ends only at
/// a repetition or a finished game), far deeper than the stack the
/// recursion has. Below it df-pn is plain df-pn with TCA's stored
/// numbers (docs/solve.md, "df-pn's remedies").
pub const TCA_MAX_DEPTH: usize = 64;

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
/// move), whether they are a leaf's, the shallowest path index that a
/// repetition they depend on repeats (`NO_REPEAT`: none) and, under
/// [`Ghi::Path`], the positions above it those repetitions return to.
#[derive(Clone, Copy)]
struct Child<M> {
    mv: M,
    phi: u32,
    delta: u32,
    leaf: bool,
    reach: usize,
    deps: Deps,
    /// The least depth its position was searched at, from the table
    /// ([`Remedies::tca`]; [`NO_DEPTH`] when unknown).
    depth: u32,
    /// Its distance when solved ([`Found::dist`]).
    dist: u16,
}

/// What a MID call returns: the node's numbers and what they depend on
/// (as [`Child`] keeps it).
struct Found {
    phi: u32,
    delta: u32,
    reach: usize,
    deps: Deps,
    /// When solved, how far its proof reaches down: 0 at a leaf, one more
    /// than the nearest proving child's when proven for the side to move,
    /// than the farthest child's when disproven (saturating). The proof's
    /// derivation takes the proving child of least distance, so it goes
    /// down toward the leaves instead of wandering through proven
    /// positions (docs/solve.md, "Proofs").
    dist: u16,
}

/// No repetition below: the numbers hold on any path.
const NO_REPEAT: usize = usize::MAX;

/// After this many failed closure checks a [`Ghi::Closure`] run reopens its
/// unchecked values and goes on storing none ([`Ghi::NoRepetitionStore`]).
pub const MAX_CLOSURE_FAILURES: u32 = 16;

/// What the closure checks of a [`Ghi::Closure`] run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClosureChecks {
    /// Positions walked by the checks.
    pub walked: u64,
    /// Checks that failed: the root's answer did not close, and was
    /// searched again.
    pub failed: u32,
    /// Values the checks reopened.
    pub reopened: u64,
}

struct Search<'a, G: Game> {
    leaves: Leaves<'a, G>,
    opts: Options,
    /// Shared with the other threads of a parallel run.
    table: Arc<Table>,
    /// While threads search together ([`Options::threads`]): what they
    /// share besides the table.
    shared: Option<Arc<parallel::Shared>>,
    /// A helper thread's seed for its choice of child (0: the run's own
    /// thread, which chooses as one thread does).
    jitter: u64,
    /// The helpers' MID calls as last read ([`Search::calls`] is the own
    /// thread's until they are added at the end of [`Run::go`]).
    others: u64,
    /// A helper's calls already added to the shared count.
    flushed: u64,
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
    /// The root's numbers as its frame last computed them (after each
    /// call of a child returned), for progress lines and samples.
    root: (u32, u32),
    stopped: bool,
    /// The line a stopped round was searching, gone back down by the next
    /// (one thread only).
    line: line::Line<G::Move>,
    saver: Option<Saver<'a>>,
    save_every: Duration,
    last_save: Instant,
    /// The move of the child that proved the node the last MID call
    /// returned from, when it was proven for its side to move: after a
    /// call at a node, the move a proof takes there.
    proving: Option<G::Move>,
    /// MID calls of the run when the proof's derivation began (`None`
    /// during the run), for its progress lines.
    derive_from: Option<u64>,
    /// The proof's nodes built so far by the derivation.
    built: u64,
    /// Whether a draw meets the claim of the proof being derived (a
    /// disproof of `win`, a proof of `not-lose`): then a position already
    /// derived is pointed to, not derived again ([`extract`]).
    draw_ok: bool,
    /// The positions of the inner nodes derived so far (with `draw_ok`).
    done: std::collections::HashSet<u64>,
    /// The closure checks so far ([`Ghi::Closure`]).
    closure: ClosureChecks,
    /// [`Search::done`] in the order added, to take back a subtree's when
    /// the winner drops it.
    done_log: Vec<u64>,
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
/// (else `opts.default_table_mb`). With `opts.proof` the report carries
/// the proof of a decided answer, derived again after the run (`nodes`
/// counts the run's calls only; `seconds` includes the derivation), or
/// none when a limit stopped that.
///
/// # Panics
/// When the system refuses the table's memory: front ends call
/// [`solve_resumable`], which returns that as an error.
pub fn solve<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
) -> Report<G::Move> {
    solve_resumable(root, goal, oracle, limits, opts, Resume::default())
        .unwrap_or_else(|e| panic!("{e}"))
}

impl<'a, G: Game> Run<'a, G> {
    /// Sets a run up as [`solve_resumable`] does: the table (loaded from
    /// `resume`), the root classified, nothing searched yet.
    pub fn new(
        root: &G,
        goal: Goal,
        oracle: Option<&'a dyn Oracle<G>>,
        limits: &Limits,
        opts: &Options,
        resume: Resume<'a>,
    ) -> io::Result<Run<'a, G>> {
        let start = Instant::now();
        let leaves = Leaves::new(root, goal, oracle);
        let mb = limits.memory_mb.unwrap_or(opts.default_table_mb);
        let entries = (mb << 20) / bytes_per_entry_of(opts) as u64;
        let table = Table::with_depths(entries, opts.ghi == Ghi::Path, opts.remedies.tca)
            .and_then(|t| if opts.proof { t.with_dists() } else { Ok(t) })
            .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
        if let Some((r, n)) = resume.from {
            let mut b = [0u8; SAVED_ENTRY_BYTES];
            let u64at =
                |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"));
            let u32at =
                |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"));
            for _ in 0..n {
                r.read_exact(&mut b)?;
                let deps = Deps::NONE;
                table.put(
                    u64at(&b, 0),
                    u32at(&b, 8),
                    u32at(&b, 12),
                    u64at(&b, 16),
                    &deps,
                );
            }
        }
        let (saver, save_every) = match resume.save {
            Some((f, every)) => (Some(f), every),
            None => (None, Duration::MAX),
        };
        let mut s = Search::new(root, leaves, opts, Arc::new(table), limits, start);
        s.calls = resume.calls;
        s.saver = saver;
        s.save_every = save_every;
        let mut moves = MoveList::new();
        let (phi, delta) = match s.leaves.classify(root, &s.hist, &mut moves) {
            Some(end) => leaf_numbers(&s.leaves, root, end),
            None => (1, 1),
        };
        s.root = (phi, delta);
        Ok(Run {
            s,
            root: root.clone(),
            goal,
            oracle,
            limits: *limits,
            opts: *opts,
            phi,
            delta,
            reach: NO_REPEAT,
            start,
        })
    }
}

impl<'a, G: Game> Search<'a, G> {
    /// A search from `root` with `table`, nothing searched yet, no saver.
    fn new(
        root: &G,
        leaves: Leaves<'a, G>,
        opts: &Options,
        table: Arc<Table>,
        limits: &Limits,
        start: Instant,
    ) -> Self {
        Search {
            hist: Leaves::<G>::history(root),
            path: vec![(root.key(), root.piece_count())],
            leaves,
            opts: *opts,
            table,
            shared: None,
            jitter: 0,
            others: 0,
            flushed: 0,
            pos: root.clone(),
            calls: 0,
            call_limit: limits.nodes.unwrap_or(u64::MAX),
            start,
            clock: Clock::new(limits),
            root: (1, 1),
            stopped: false,
            line: line::Line::new(),
            saver: None,
            save_every: Duration::MAX,
            last_save: start,
            proving: None,
            derive_from: None,
            built: 0,
            draw_ok: false,
            done: std::collections::HashSet::new(),
            done_log: Vec::new(),
            closure: ClosureChecks::default(),
        }
    }
}

/// A df-pn run that can be continued: [`Run::go`] searches until the root
/// is solved or a call limit, a time limit or a stop request ends it, and
/// can be called again with a higher call limit, the table kept whole
/// (what [`crate::manager`] does between its rounds); [`Run::finish`]
/// derives the proof if asked and reports.
pub struct Run<'a, G: Game> {
    s: Search<'a, G>,
    root: G,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: Limits,
    opts: Options,
    phi: u32,
    delta: u32,
    /// What the root's numbers rest on, as [`Found::reach`].
    reach: usize,
    start: Instant,
}

impl<G: Game> Run<'_, G> {
    /// Searches until the root is solved, the run has made `call_limit`
    /// MID calls in all, or the time limit or a stop request (of the
    /// run's limits) ends it; the answer so far.
    pub fn go(&mut self, call_limit: u64) -> Answer {
        // The closure check walks and rewrites the table between searches:
        // one thread (docs/solve.md, "Parallel df-pn").
        if self.opts.threads > 1 && self.opts.ghi != Ghi::Closure {
            return self.go_parallel(call_limit);
        }
        let s = &mut self.s;
        s.call_limit = call_limit;
        s.stopped = false;
        s.line.start_replay();
        loop {
            while !s.stopped && open_below_saturation(self.phi, self.delta) {
                let f = s.mid(INF - 1, INF - 1, false);
                self.phi = f.phi;
                self.delta = f.delta;
                self.reach = f.reach;
            }
            // Under `Closure` an answer resting on a repetition stands only
            // once the unchecked values below it close ([`closure`]).
            let solved = self.phi == 0 || self.delta == 0;
            if s.opts.ghi != Ghi::Closure || !solved || self.reach == NO_REPEAT {
                break;
            }
            match s.check_closure(&self.root) {
                closure::Closed::Yes { walked } => {
                    s.closure.walked += walked;
                    self.reach = NO_REPEAT;
                    break;
                }
                closure::Closed::No { walked, reopened } => {
                    s.closure.walked += walked;
                    s.closure.reopened += reopened;
                    s.closure.failed += 1;
                    if s.closure.failed >= MAX_CLOSURE_FAILURES {
                        // Values that keep failing to close are path-bound
                        // ones the search keeps finding again: store no
                        // more of them (no-repetition-store, sound as it
                        // is), and go on from the sound values alone.
                        s.table.keep_sound_only();
                        s.opts.ghi = Ghi::NoRepetitionStore;
                    }
                    (self.phi, self.delta) = (1, 1);
                    if s.stopped {
                        break;
                    }
                }
            }
        }
        self.answer()
    }

    /// Whether the root is open with a number at the most a threshold can
    /// be: a call there returns at once, so the run can go no further.
    /// Numbers fed around cycles of the graph grow until they saturate.
    pub fn stuck(&self) -> bool {
        self.phi != 0 && self.delta != 0 && !open_below_saturation(self.phi, self.delta)
    }

    /// The closure checks of the run so far ([`Ghi::Closure`]).
    pub fn closure(&self) -> ClosureChecks {
        self.s.closure
    }

    /// The answer so far.
    pub fn answer(&self) -> Answer {
        if self.phi == 0 {
            Answer::Proven
        } else if self.delta == 0 {
            Answer::Disproven
        } else {
            Answer::Unknown
        }
    }

    /// MID calls so far.
    pub fn calls(&self) -> u64 {
        self.s.calls
    }

    /// Bytes of the table's entries in use so far ([`Report::held`]).
    pub fn held(&self) -> u64 {
        self.s.table.used() * bytes_per_entry_of(&self.s.opts) as u64
    }

    /// Whether the time limit or a stop request (not the call limit)
    /// stopped the last [`Run::go`].
    pub fn out_of_time(&self) -> bool {
        self.s.stopped && self.s.calls < self.s.call_limit
    }

    /// Ends the run: saves an unsolved one (with a [`Resume::save`]),
    /// derives the proof when the options ask for one and the root is
    /// solved, and reports.
    pub fn finish(self) -> Report<G::Move> {
        let held = self.held();
        let Run {
            mut s,
            root,
            goal,
            limits,
            opts,
            phi,
            delta,
            start,
            ..
        } = self;
        let (root, limits, opts) = (&root, &limits, &opts);
        let mut moves = MoveList::new();
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
        let run_calls = s.calls;
        let mut derivation = None;
        let proof = if opts.proof && answer != Answer::Unknown {
            // The root is an OR node: its side to move wins the binary game
            // when the goal is proven.
            let winner = answer == Answer::Proven;
            let tree = match s.leaves.classify(root, &s.hist, &mut moves) {
                Some(end) => Ok(extract::root_leaf(end)),
                None => {
                    s.stopped = false;
                    s.line.forget();
                    // The derivation searches plainly: see docs/solve.md, "df-pn's remedies".
                    s.opts.remedies = Remedies::NONE;
                    // Limits (docs/solve.md, "Proofs"): the time limit and a
                    // stop request cover run and derivation together; the
                    // derivation may make as many MID calls again as the
                    // node limit gave the run.
                    s.call_limit = s.calls.saturating_add(limits.nodes.unwrap_or(u64::MAX));
                    s.derive_from = Some(s.calls);
                    // A repetition leaf meets the claim exactly when a draw does.
                    s.draw_ok = s.leaves.proves(root, End::Repetition) == winner;
                    let began = Instant::now();
                    let mut left = MAX_PROOF_NODES;
                    let got = s.extract(winner, &mut left).map(|kids| crate::proof::Tree {
                        mv: None,
                        end: None,
                        kids,
                        key: root.key(),
                        same: None,
                    });
                    derivation = Some(crate::limits::Derivation {
                        calls: s.calls - run_calls,
                        seconds: began.elapsed().as_secs_f64(),
                        failed: got.as_ref().err().copied(),
                    });
                    got
                }
            };
            tree.ok().and_then(|t| t.into_proof(goal, answer))
        } else {
            None
        };
        let (nodes, bytes, seconds) = (run_calls, s.table.bytes(), start.elapsed().as_secs_f64());
        Report {
            goal,
            answer,
            pn,
            dn,
            nodes,
            expansions: nodes,
            bytes,
            held,
            seconds,
            derivation,
            proof,
            samples: s.clock.samples(Sample {
                seconds,
                nodes,
                pn,
                dn,
            }),
        }
    }
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
    let mut run = Run::new(root, goal, oracle, limits, opts, resume)?;
    run.go(limits.nodes.unwrap_or(u64::MAX));
    Ok(run.finish())
}

impl<G: Game> Search<'_, G> {
    /// Searches the current position (not a leaf) until its φ reaches
    /// `th_phi` or its δ reaches `th_delta`; returns φ, δ and what they
    /// depend on: the shallowest path index a repetition they depend on
    /// repeats ([`NO_REPEAT`] when none) and, under [`Ghi::Path`], the
    /// positions above the node those repetitions return to.
    ///
    /// `inc` is Kishimoto's increase flag ([`Remedies::tca`]): set when an
    /// ancestor has an unproven old child, so this node may be in a cycle
    /// and raises its thresholds above its numbers on its first pass.
    fn mid(&mut self, mut th_phi: u32, mut th_delta: u32, inc: bool) -> Found {
        self.calls += 1;
        if self.shared.is_some() && self.poll_shared() {
            self.stopped = true;
        }
        if self.calls + self.others >= self.call_limit {
            self.stopped = true;
        } else if self.calls.is_multiple_of(1024) {
            let (nodes, bytes) = (self.calls + self.others, self.table.bytes());
            let seconds = self.start.elapsed().as_secs_f64();
            let root = Some(self.root);
            let deriving = self.derive_from.map(|from| (nodes - from, self.built));
            if self.clock.check(|| Progress {
                nodes,
                bytes,
                seconds,
                root,
                deriving,
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
            self.table.prefetch(self.pos.key());
            self.pos.unmake(mv, u);
        }
        for &mv in &moves {
            let u = self.pos.make(mv);
            self.push();
            let child = match self.leaves.classify(&self.pos, &self.hist, &mut scratch) {
                Some(end) => {
                    let (phi, delta) = leaf_numbers(&self.leaves, &self.pos, end);
                    let rep = end == End::Repetition;
                    Child {
                        mv,
                        phi,
                        delta,
                        leaf: true,
                        reach: if rep {
                            self.repeated_index()
                        } else {
                            NO_REPEAT
                        },
                        // The repeated position has the leaf's key.
                        deps: if rep {
                            Deps::one(self.pos.key())
                        } else {
                            Deps::NONE
                        },
                        depth: NO_DEPTH,
                        dist: 0,
                    }
                }
                None => {
                    // Under `Path` a hit counts only where the positions its
                    // repetitions returned to are all on this path; it then
                    // depends on them here too.
                    let hit = self
                        .table
                        .get(self.pos.key())
                        .filter(|h| self.on_path(&h.deps));
                    let (phi, delta, deps, unchecked) = hit.map_or_else(
                        || {
                            let (p, d) = guided(&self.opts, &self.pos);
                            (p, d, Deps::NONE, false)
                        },
                        |h| (h.phi, h.delta, h.deps, h.unchecked()),
                    );
                    let depth = hit.map_or(NO_DEPTH, |h| self.table.depth_at(h.slot));
                    Child {
                        mv,
                        phi,
                        delta,
                        leaf: false,
                        // An unchecked value ([`Ghi::Closure`]) may hold on
                        // no path but the one that found it: as path-bound
                        // as a repetition of the root.
                        reach: if unchecked { 0 } else { NO_REPEAT },
                        deps,
                        depth,
                        dist: hit.map_or(0, |h| self.table.dist_at(h.slot)),
                    }
                }
            };
            self.pop();
            self.pos.unmake(mv, u);
            kids.push(child);
        }

        let depth = self.path.len() - 1;
        let rem = self.opts.remedies;
        // TCA: a node seen before (its numbers are in the table) with an
        // unproven child first reached no deeper than itself may sit in a
        // cycle; so may everything below it. A node searched the first
        // time clears the flag (Kishimoto 2010, Figure 3).
        let inc = rem.tca
            && depth < TCA_MAX_DEPTH
            && match self.table.depth(self.pos.key()) {
                None => false,
                Some(d) => {
                    let own = d.min(depth as u32);
                    inc || kids
                        .iter()
                        .any(|k| !k.leaf && k.phi != 0 && k.delta != 0 && k.depth < own)
                }
            };
        let mut first = true;
        let (mut phi, mut delta);
        // Under WPN, the children whose φ is not 0 (δ = max φ + this − 1).
        let mut open;
        loop {
            phi = INF;
            delta = 0;
            open = 0u32;
            let mut max_phi = 0;
            for k in &kids {
                phi = phi.min(k.delta);
                if rem.wpn {
                    if k.phi != 0 {
                        open += 1;
                        max_phi = max_phi.max(k.phi);
                    }
                } else {
                    delta = add(delta, k.phi);
                }
            }
            if rem.wpn && open > 0 {
                delta = add(max_phi, open - 1);
            }
            if phi == 0 {
                delta = INF;
            }
            if delta == 0 {
                phi = INF;
            }
            if self.path.len() == 1 {
                self.root = (phi, delta);
            }
            if first && inc && phi != 0 && delta != 0 {
                // Numbers a cycle made too small would end the call at
                // once, and the caller would call again: search on until
                // they grow.
                th_phi = th_phi.max(add(phi, 1)).min(INF - 1);
                th_delta = th_delta.max(add(delta, 1)).min(INF - 1);
            }
            first = false;
            if phi >= th_phi || delta >= th_delta || self.stopped {
                break;
            }
            // A new round goes back down the line the last one stopped
            // on, each child with the thresholds it had ([`line`]).
            let resumed = if self.shared.is_none() {
                self.line.step(depth, |mv| {
                    kids.iter()
                        .position(|k| k.mv == mv && !k.leaf && k.phi != 0 && k.delta != 0)
                })
            } else {
                None
            };
            // Else the child with the smallest δ (never a leaf: a leaf's δ
            // is 0, which would have ended the loop, or INF, which is the
            // smallest only when φ = INF ≥ th_phi), and the second δ.
            let (best, delta2) = if let Some((i, _, _)) = resumed {
                (i, INF)
            } else if self.jitter == 0 {
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
                (best, delta2)
            } else {
                // A helper of a parallel run strays from the best child.
                parallel::choose(&kids, th_phi, self.jitter ^ self.pos.key())
            };
            let k = kids[best];
            debug_assert!(!k.leaf);
            // thφ(c) = thδ(n) − (δ(n) − φ(c)); thδ(c) = min(thφ(n), δ₂(1+ε)).
            // Under WPN δ(n) reaches thδ(n) once φ(c) reaches
            // thδ(n) − (open − 1), whichever child had the largest φ.
            let rest = if rem.wpn {
                open as u64 - 1
            } else {
                delta as u64 - k.phi as u64
            };
            let c_th_phi = (th_delta as u64).saturating_sub(rest).min(INF as u64 - 1) as u32;
            let grown = if delta2 >= INF - 1 {
                INF - 1
            } else {
                let e = (delta2 as f64 * (1.0 + self.opts.epsilon)).ceil() as u64;
                e.max(delta2 as u64 + 1).min(INF as u64 - 1) as u32
            };
            let (c_th_phi, c_th_delta) =
                resumed.map_or((c_th_phi, th_phi.min(grown)), |(_, p, d)| (p, d));
            let u = self.pos.make(k.mv);
            self.push();
            let f = self.mid(c_th_phi, c_th_delta, inc);
            self.pop();
            self.pos.unmake(k.mv, u);
            if self.stopped && self.shared.is_none() {
                self.line.record(k.mv, c_th_phi, c_th_delta);
            }
            kids[best].phi = f.phi;
            kids[best].delta = f.delta;
            kids[best].reach = f.reach;
            kids[best].deps = f.deps;
            kids[best].dist = f.dist;
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
        let deps = if self.opts.ghi == Ghi::Path {
            path_deps(&kids, phi == 0).without(self.pos.key())
        } else {
            Deps::NONE
        };
        let store = match self.opts.ghi {
            Ghi::Naive => true,
            Ghi::NoRepetitionStore => reach == NO_REPEAT,
            Ghi::LocalRepetition => reach >= depth,
            Ghi::Path => !deps.too_many(),
            Ghi::Closure => true,
        };
        let solved = phi == 0 || delta == 0;
        let work = self.calls - calls_before
            + 1
            + if self.opts.ghi == Ghi::Closure && solved && reach != NO_REPEAT {
                UNCHECKED
            } else {
                0
            };
        // A helper of a parallel run keeps no depths: they are the
        // distances from the root of one thread's paths, which TCA reads.
        let depth = if self.jitter == 0 {
            depth
        } else {
            NO_DEPTH as usize
        };
        if rem.tca && !solved {
            // Open numbers claim nothing: stored whatever repetitions they
            // rest on, with no chain, so every path may use them.
            self.table
                .put_at(self.pos.key(), phi, delta, work, &Deps::NONE, depth as u32);
        } else if store {
            self.table
                .put_at(self.pos.key(), phi, delta, work, &deps, depth as u32);
        } else if rem.tca {
            self.table.lower_depth(self.pos.key(), depth as u32);
        }
        // Only a proof's derivation reads these: a run without `--proof`
        // (no distances kept) skips the work.
        let proving = if phi == 0 && self.table.keeps_dists() {
            kids.iter()
                .filter(|k| k.delta == 0)
                .min_by_key(|k| (k.dist, k.deps.len))
        } else {
            None
        };
        self.proving = proving.map(|k| k.mv);
        let dist = match proving {
            Some(k) => k.dist.saturating_add(1),
            None if delta == 0 && self.table.keeps_dists() => kids
                .iter()
                .map(|k| k.dist)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
            None => 0,
        };
        if self.table.keeps_dists() && solved {
            self.table.set_dist(self.pos.key(), dist);
        }
        // The parent compares the same index with its own depth, and
        // takes its own key out of the chain.
        Found {
            phi,
            delta,
            reach,
            deps,
            dist,
        }
    }

    /// Whether every position of `deps` is on the current path (above the
    /// position just made, which is never one of them).
    fn on_path(&self, deps: &Deps) -> bool {
        deps.keys()
            .iter()
            .all(|k| self.path.iter().any(|(p, _)| p == k))
    }

    /// Hands the table to the saver, if there is one; a failed save stops
    /// the run (going on would lose more than the saver could keep).
    fn save(&mut self) {
        if let Some(f) = self.saver.as_mut() {
            let view = TableView {
                table: &self.table,
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

/// A new node's numbers: 1/1, or from the game's static score under
/// [`Options::guide`] (df-pn+): small for the side the score favours.
#[inline]
fn guided<G: Game>(opts: &Options, pos: &G) -> (u32, u32) {
    if opts.guide == 0 {
        return (1, 1);
    }
    let e = pos.proof_guide();
    let f = |x: i32| -> u32 {
        let bad = x.saturating_neg().max(0) as u32;
        (1 + bad / opts.guide).min(GUIDE_CAP)
    };
    (f(e), f(-e))
}

/// Whether a root with these numbers is open and a call there can still
/// do something: neither number 0 (decided) nor at the most a threshold
/// can be (saturated: [`Run::stuck`]).
fn open_below_saturation(phi: u32, delta: u32) -> bool {
    phi != 0 && delta != 0 && phi.max(delta) < INF - 1
}
