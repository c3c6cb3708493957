//! Ply-bounded df-pn for wins: does a side win within `D` plies?
//!
//! Why (docs/solve.md, "Ply-bounded df-pn"): two pieces past the tables
//! the long wins of the animal games are open to df-pn keyed by the
//! position alone, whose numbers are fed around the graph's cycles until
//! they saturate, although the wins' proofs are small. A win never needs
//! a cycle: along a shortest win the distance falls at every ply, so no
//! position repeats. Here the search runs on (position, plies left): the
//! plies left fall at every move, so the graph has no cycle, repetition
//! needs no handling, and a line that runs out of plies is simply not a
//! win within the bound. The bound grows between rounds until the win is
//! found or the limits end the run.
//!
//! Soundness. A proven entry holds a win for the prover whatever the
//! path, reaching a finished game or a position the oracle or the store
//! decides within `dist` plies: its proof is a tree whose lines end at
//! finished games, the oracle's positions or the store's, and whose
//! distance (one more than its proving child's at the prover's move,
//! than its farthest child's at the other side's) falls by one at every
//! ply, so no line of it repeats a position and the rule that a repetition
//! is a draw never meets it. A failed entry says only "no win within `r`
//! plies" and is used only as such, inside the bound. So a proven root is
//! a win; a failed root says nothing of the game and the next round
//! raises the bound. This search never proves a draw: the manager's other
//! settings do.
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::Game;
//! use zoo_solve::bounded::{Options, Search};
//! use zoo_solve::{Answer, Goal, Limits};
//!
//! // A 3-piece loss in 18 for White, no tables: Black's win is found.
//! let pos = JungleCheckersPos::from_fen("1e5/1d5/7/5t1/7/7/6E w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let black = pos.side_to_move().flip();
//! let opts = Options { table_mb: 16, ..Options::default() };
//! let mut s = Search::new(&pos, black, None, &Limits::nodes(1_000_000), &opts).unwrap();
//! assert!(s.go(1_000_000).is_some());
//! // Its proof disproves White's `not-lose`.
//! let proof = s.proof(Goal::NotLose, 2_000_000, 100_000).unwrap();
//! assert_eq!(proof.answer, Answer::Disproven);
//! ```

use crate::leaf::{settled, End, Leaves};
use crate::limits::NoProof as Failed;
use crate::limits::{add, Clock, Limits, Progress, INF};
use crate::proof::Tree;
use std::collections::HashSet;
use std::io;
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle, Side};

/// One entry of the table: what is known of a position for the prover.
#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
#[repr(C)]
struct Entry {
    key: u64,
    /// One more than the distance of a proven win (0: none known).
    win: u16,
    /// One more than the most plies left at which no win was found (0:
    /// none known).
    fail: u16,
    /// The plies left the open numbers were computed with.
    r: u16,
    pn: u32,
    dn: u32,
    /// MID calls below the entry: the costlier stays.
    work: u32,
}

/// The table: two entries a bucket, keyed by the position.
struct Table {
    slots: crate::pages::Pages<Entry>,
    mask: usize,
}

impl Table {
    fn new(mb: u64) -> io::Result<Self> {
        let n = ((mb << 20) / std::mem::size_of::<Entry>() as u64).max(2);
        let n = 1usize << (63 - n.leading_zeros());
        // Zeroed memory comes as pages mapped on first touch: a question
        // decided soon pays only for what it wrote.
        let slots = crate::pages::Pages::zeroed(n).map_err(|e| {
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("the ply-bounded search's table of {mb} MB: no memory for it ({e})"),
            )
        })?;
        Ok(Table {
            slots,
            mask: (n - 1) & !1,
        })
    }

    /// Drops every open entry, keeping proven wins and failed bounds.
    fn forget_open(&mut self) {
        for e in self.slots.iter_mut() {
            if e.win == 0 && e.fail == 0 {
                *e = Entry::default();
            }
        }
    }

    /// Asks for the bucket of `key` to be brought into the cache.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        crate::prefetch::line(&self.slots[(key as usize) & self.mask]);
    }

    #[inline]
    fn get(&self, key: u64) -> Option<&Entry> {
        let i = (key as usize) & self.mask;
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.key == key && key != 0)
    }

    /// The entry of `key`, made when new, in the bucket's cheaper slot: a
    /// proven win is kept over an entry without one (the proof is derived
    /// from them after the run, and one lost is searched again), then
    /// the entry that cost more calls stays.
    #[inline]
    fn entry(&mut self, key: u64) -> &mut Entry {
        let i = (key as usize) & self.mask;
        let j = if self.slots[i].key == key {
            i
        } else if self.slots[i + 1].key == key {
            i + 1
        } else {
            let cost = |e: &Entry| ((e.win != 0) as u64) << 32 | e.work as u64;
            let j = if cost(&self.slots[i]) <= cost(&self.slots[i + 1]) {
                i
            } else {
                i + 1
            };
            self.slots[j] = Entry {
                key,
                ..Entry::default()
            };
            j
        };
        &mut self.slots[j]
    }
}

/// The choices of a ply-bounded run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The first round's bound, in plies.
    pub first: u16,
    /// Each round's bound is the last one's times this (at least two more).
    pub grow: f64,
    /// The 1+ε trick's ε.
    pub epsilon: f64,
    /// The table's size in MB.
    pub table_mb: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            first: 16,
            grow: 1.5,
            epsilon: 0.25,
            table_mb: 256,
        }
    }
}

#[derive(Clone, Copy)]
struct Kid<M> {
    mv: M,
    pn: u32,
    dn: u32,
    dist: u16,
}

/// The longest bound a run searches.
pub const MAX_BOUND: u16 = 600;

/// The longest line a derived proof may hold. A win found within a bound
/// may be longer than the bound (a proven position counts whatever its
/// distance: the win in 85 of docs/solve.md, found at bound 81, held a
/// distance of 629 in the table); deriving it within its own distance
/// reuses the table's proofs, where a cap at the bound searched it all
/// again.
pub const MAX_LINE: u16 = 4096;

/// The stack the recursions keep free before each level, and what they
/// grow it by where less is left (the `stacker` crate, as rustc does):
/// a line of the search or of a derivation is a frame each ply, and a
/// derivation's lines reach [`MAX_LINE`], past any thread's own stack.
const RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 4 * 1024 * 1024;

/// A ply-bounded search of whether one side wins from a root, continued
/// round after round ([`Search::go`]) as the manager's other runs are.
pub struct Search<'a, G: Game> {
    leaves: Leaves<'a, G>,
    oracle: Option<&'a dyn Oracle<G>>,
    oracle_pieces: u32,
    prover: Side,
    table: Table,
    root: G,
    pos: G,
    calls: u64,
    call_limit: u64,
    clock: Clock,
    start: Instant,
    stopped: bool,
    opts: Options,
    /// The bound of the round under way.
    bound: u16,
    /// Whether rounds are over: the bound reached [`MAX_BOUND`] or the
    /// root is a leaf that is no win.
    exhausted: bool,
    /// The win's distance once proven.
    won: Option<u16>,
    /// Whether a proven entry counts only within the plies left (while
    /// a proof is derived: its distances then fall along every line).
    strict: bool,
    /// Whether the prover's disproof numbers are weak (the largest
    /// child's plus one for each other open child) instead of sums:
    /// once the sums overflowed at the root.
    weak: bool,
}

impl<'a, G: Game> Search<'a, G> {
    /// A search of whether `prover` wins from `root`, nothing searched
    /// yet; an error when the table's memory is refused.
    pub fn new(
        root: &G,
        prover: Side,
        oracle: Option<&'a dyn Oracle<G>>,
        limits: &Limits,
        opts: &Options,
    ) -> io::Result<Self> {
        // The leaves' goal: a win for the root's side to move when it is
        // the prover, else a not-lose of the root's side (its disproof);
        // only the store's bounds read it.
        let goal = if prover == root.side_to_move() {
            crate::Goal::Win
        } else {
            crate::Goal::NotLose
        };
        Ok(Search {
            leaves: Leaves::new(root, goal, oracle),
            oracle,
            oracle_pieces: oracle.map_or(0, |o| o.max_pieces()),
            prover,
            table: Table::new(opts.table_mb)?,
            root: root.clone(),
            pos: root.clone(),
            calls: 0,
            call_limit: limits.nodes.unwrap_or(u64::MAX),
            clock: Clock::new(limits),
            start: Instant::now(),
            stopped: false,
            opts: *opts,
            bound: opts.first.clamp(1, MAX_BOUND),
            exhausted: false,
            won: None,
            strict: false,
            weak: false,
        })
    }

    /// Searches until the win is proven (its distance: at most the bound
    /// it was found in), the run has made `call_limit` MID calls in all,
    /// the bounds are used up, or the time limit or a stop request ends
    /// it; each round's bound is the last one's times [`Options::grow`].
    pub fn go(&mut self, call_limit: u64) -> Option<u16> {
        self.call_limit = call_limit;
        self.stopped = false;
        while self.won.is_none() && !self.exhausted && !self.stopped {
            let (pn, dn, dist) = self.round(self.bound);
            if pn == 0 {
                self.won = Some(dist);
            } else if dn == 0 {
                if self.bound >= MAX_BOUND {
                    self.exhausted = true;
                } else {
                    let next = (self.bound as f64 * self.opts.grow) as u64;
                    self.bound = next.max(self.bound as u64 + 2).min(MAX_BOUND as u64) as u16;
                }
            }
        }
        self.won
    }

    /// Whether no further round can prove the win: the root is a leaf
    /// that is none, or the bound reached [`MAX_BOUND`] without it.
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Whether the time limit or a stop request (not the call limit)
    /// stopped the last [`Search::go`].
    pub fn out_of_time(&self) -> bool {
        self.stopped && self.calls < self.call_limit
    }

    /// MID calls so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// The win's distance, once a round found it.
    pub fn won(&self) -> Option<u16> {
        self.won
    }

    /// Whether the prover is the root's side to move.
    pub fn prover_moves_first(&self) -> bool {
        self.prover == self.root.side_to_move()
    }

    /// Times the run from now under `limits` (a search kept for a later
    /// question gets that question's time).
    pub fn restart_clock(&mut self, limits: &Limits) {
        self.clock = Clock::new(limits);
        self.start = Instant::now();
    }

    /// The bound of the round under way (or of the one that proved it).
    pub fn bound(&self) -> u16 {
        self.bound
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> u64 {
        (self.table.slots.len() * std::mem::size_of::<Entry>()) as u64
    }

    /// One round from the root with `bound` plies, until it is solved
    /// within them or a limit stops it.
    fn round(&mut self, bound: u16) -> (u32, u32, u16) {
        let mut moves = MoveList::new();
        let pos = self.pos.clone();
        if let Some(end) = self.leaf(&pos, &mut moves) {
            if self.wins(&pos, end) {
                return (0, INF, 0);
            }
            self.exhausted = true;
            return (INF, 0, 0);
        }
        loop {
            let (pn, dn, dist) = self.mid(bound, INF - 1, INF - 1);
            if pn == 0 || dn == 0 || self.stopped {
                return (pn, dn, dist);
            }
            if pn >= INF - 1 || dn >= INF - 1 {
                // Numbers at the most a threshold can be: a call would
                // return at once. The sums of disproof numbers over the
                // many lines of a long bound overflowed: go on with weak
                // ones; where those overflow too, no round can go on.
                if self.weak {
                    self.exhausted = true;
                    return (pn, dn, dist);
                }
                self.weak = true;
                self.table.forget_open();
            }
        }
    }

    /// Whether the leaf `end` at `pos` is a win for the prover.
    fn wins(&self, pos: &G, end: End) -> bool {
        let o = end.outcome();
        let for_prover = if pos.side_to_move() == self.prover {
            o
        } else {
            o.flip()
        };
        for_prover == zoo_core::Outcome::Win
    }

    /// `Some(end)` at a finished game, a position the store decides, one
    /// the oracle knows, or one without a move; else `None` with the
    /// moves in `moves`. No repetition: a win never needs one.
    fn leaf(&self, pos: &G, moves: &mut MoveList<G::Move>) -> Option<End> {
        moves.clear();
        if let Some(o) = pos.terminal() {
            return Some(End::Terminal(o));
        }
        if let Some(end) = self.leaves.by_bounds(pos) {
            return Some(end);
        }
        settled(pos, self.oracle, self.oracle_pieces, moves).map(|(end, _)| end)
    }

    /// Searches the current position with `r` plies left until its proof
    /// number reaches `th_pn` or its disproof number `th_dn`: (pn, dn,
    /// the distance when proven).
    fn mid(&mut self, r: u16, th_pn: u32, th_dn: u32) -> (u32, u32, u16) {
        self.calls += 1;
        if self.calls >= self.call_limit {
            self.stopped = true;
        } else if self.calls.is_multiple_of(1024) {
            let (nodes, seconds) = (self.calls, self.start.elapsed().as_secs_f64());
            let bytes = self.bytes();
            if self.clock.check(|| Progress {
                nodes,
                bytes,
                seconds,
                root: None,
                deriving: None,
            }) {
                self.stopped = true;
            }
        }
        let before = self.calls;
        let or = self.pos.side_to_move() == self.prover;
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        let mut scratch = MoveList::new();
        let mut kids: Vec<Kid<G::Move>> = Vec::with_capacity(moves.len());
        // The table is read at random, two cache misses a child (its
        // entry and its open numbers at `r - 1`): asking for every
        // child's buckets before reading any overlaps the misses instead
        // of waiting for each in turn (docs/log/solve.md, 37th session).
        for &mv in &moves {
            let u = self.pos.make(mv);
            let key = self.pos.key();
            self.table.prefetch(key);
            self.table.prefetch(open_key(key, r - 1));
            self.pos.unmake(mv, u);
        }
        for &mv in &moves {
            let u = self.pos.make(mv);
            let (pn, dn, dist) = match self.leaf(&self.pos, &mut scratch) {
                Some(end) if self.wins(&self.pos, end) => (0, INF, 0),
                Some(_) => (INF, 0, 0),
                None => self.lookup(self.pos.key(), r - 1),
            };
            self.pos.unmake(mv, u);
            kids.push(Kid { mv, pn, dn, dist });
        }
        let (mut pn, mut dn, mut dist);
        loop {
            (pn, dn, dist) = sum(&kids, or, self.weak);
            if pn >= th_pn || dn >= th_dn || self.stopped {
                break;
            }
            // The child to search: least pn at the prover's move, least dn
            // at the other side's; its thresholds as df-pn's, with 1+ε.
            let key = |k: &Kid<G::Move>| if or { k.pn } else { k.dn };
            let (mut best, mut second) = (0usize, INF);
            for i in 1..kids.len() {
                if key(&kids[i]) < key(&kids[best]) {
                    second = key(&kids[best]);
                    best = i;
                } else if key(&kids[i]) < second {
                    second = key(&kids[i]);
                }
            }
            let wide = ((second as f64) * (1.0 + self.opts.epsilon))
                .ceil()
                .min((INF - 1) as f64) as u32;
            let near = wide.max(second.saturating_add(1));
            let (c_pn, c_dn) = if or {
                (th_pn.min(near), add(th_dn - dn.min(th_dn), kids[best].dn))
            } else {
                (add(th_pn - pn.min(th_pn), kids[best].pn), th_dn.min(near))
            };
            let mv = kids[best].mv;
            let u = self.pos.make(mv);
            let (cpn, cdn, cdist) =
                stacker::maybe_grow(RED_ZONE, STACK_GROWTH, || self.mid(r - 1, c_pn, c_dn));
            self.pos.unmake(mv, u);
            kids[best].pn = cpn;
            kids[best].dn = cdn;
            kids[best].dist = cdist;
        }
        let work = (self.calls - before + 1).min(u32::MAX as u64) as u32;
        let key = self.pos.key();
        if pn == 0 {
            let d = dist.saturating_add(1);
            let e = self.table.entry(key);
            if e.win == 0 || d < e.win - 1 {
                e.win = d.saturating_add(1);
            }
            e.work = e.work.max(work);
            return (0, INF, d);
        }
        if dn == 0 {
            let e = self.table.entry(key);
            e.fail = e.fail.max(r + 1);
            e.work = e.work.max(work);
            return (INF, 0, 0);
        }
        let e = self.table.entry(open_key(key, r));
        e.r = r;
        e.pn = pn;
        e.dn = dn;
        e.work = e.work.saturating_add(work);
        (pn, dn, 0)
    }

    /// The numbers of a position with `r` plies left, from the table: a
    /// proven win counts whatever its distance (the bound only steers the
    /// search), except while a proof is derived.
    #[inline]
    fn lookup(&self, key: u64, r: u16) -> (u32, u32, u16) {
        match self.table.get(key) {
            Some(e) if e.win != 0 && (!self.strict || e.win - 1 <= r) => {
                return (0, INF, e.win - 1)
            }
            Some(e) if e.fail > r => return (INF, 0, 0),
            _ if r == 0 => return (INF, 0, 0),
            _ => {}
        }
        match self.table.get(open_key(key, r)) {
            Some(e) if e.r == r && e.pn != 0 => (e.pn, e.dn, 0),
            _ => (1, 1, 0),
        }
    }

    /// The proven win's distance of the current position from the table,
    /// when it is at most `limit`.
    fn known_within(&self, limit: u16) -> Option<u16> {
        match self.table.get(self.pos.key()) {
            Some(e) if e.win != 0 && e.win - 1 <= limit => Some(e.win - 1),
            _ => None,
        }
    }

    /// Searches the current position (not a leaf) until it is proven
    /// within `limit` plies, counting only wins that fit (the derivation's
    /// strict mode); its distance.
    fn prove_within(&mut self, limit: u16) -> Result<u16, Failed> {
        match self.known_within(limit) {
            Some(d) => Ok(d),
            None => self.search_here(limit),
        }
    }

    /// Searches the current position (not a leaf) within `limit` plies
    /// until it is solved, whatever its own entry says; its distance.
    fn search_here(&mut self, limit: u16) -> Result<u16, Failed> {
        if limit == 0 {
            return Err(Failed::Inconsistent);
        }
        loop {
            let (pn, dn, dist) = self.mid(limit, INF - 1, INF - 1);
            if pn == 0 {
                return Ok(dist);
            }
            if dn == 0 {
                return Err(Failed::Inconsistent);
            }
            if self.stopped {
                return Err(Failed::Stopped);
            }
            if pn >= INF - 1 || dn >= INF - 1 {
                // As in a round: the sums overflowed, weak numbers once.
                if self.weak {
                    return Err(Failed::TooLarge);
                }
                self.weak = true;
                self.table.forget_open();
            }
        }
    }

    /// The proof of the win, once [`Search::go`] found it, within
    /// `call_limit` MID calls in all and at most `max_nodes` inner nodes:
    /// a graph in which every position is derived once (later lines
    /// point to it with `same` leaves), except where the other side can
    /// move back to a position of the line: that repeat is derived again
    /// below, within fewer plies. It has no cycle: a node's children are
    /// derived within fewer plies than the node (the strict mode), and a
    /// `same` leaf points only to a first node whose derivation is
    /// finished. A repeat inside is no draw for the prover: every line
    /// ends in a win within the bound, so at the first occurrence the
    /// prover can play as below the last, and the tree without the
    /// repeats wins too (the checker accepts inner repeats for that
    /// reason).
    /// Its lines are at most [`MAX_LINE`] plies long: a win whose
    /// distance is longer is `TooLarge`.
    ///
    /// The proof answers `goal` at the root: proven where the prover
    /// moves first there (a win is at least a draw), else disproven.
    pub fn proof(
        &mut self,
        goal: crate::Goal,
        call_limit: u64,
        max_nodes: u64,
    ) -> Result<crate::Proof<G::Move>, Failed> {
        let Some(dist) = self.won else {
            return Err(Failed::Inconsistent);
        };
        self.call_limit = call_limit;
        self.stopped = false;
        self.strict = true;
        self.pos = self.root.clone();
        let mut left = max_nodes;
        let mut done = Derived::default();
        done.open.insert(self.root.key());
        let mut moves = MoveList::new();
        let root = self.root.clone();
        let got = match self.leaf(&root, &mut moves) {
            Some(end) => Ok(crate::dfpn::root_leaf(end)),
            // Within the win's own distance: the table's proofs count.
            None if dist > MAX_LINE => Err(Failed::TooLarge),
            None => self
                .prove_within(dist.max(self.bound))
                .and_then(|limit| self.derive(limit, &mut left, &mut done))
                .map(|kids| Tree {
                    mv: None,
                    end: None,
                    kids,
                    key: root.key(),
                    same: None,
                }),
        };
        self.strict = false;
        let tree = got?;
        let answer = if self.prover_moves_first() {
            crate::Answer::Proven
        } else {
            crate::Answer::Disproven
        };
        tree.into_proof(goal, answer).ok_or(Failed::Inconsistent)
    }

    /// The children of the proof at the current position, a non-leaf
    /// proven within `limit` plies. The prover never moves back to a
    /// position of the line; the other side may, and the position is
    /// then derived again within fewer plies. A child that cannot be
    /// derived within its plies fails the node (`Inconsistent`), and the
    /// prover's move above is replaced by its next.
    fn derive(
        &mut self,
        limit: u16,
        left: &mut u64,
        done: &mut Derived,
    ) -> Result<Vec<Tree<G::Move>>, Failed> {
        if limit == 0 {
            return Err(Failed::Inconsistent);
        }
        let or = self.pos.side_to_move() == self.prover;
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        let mut scratch = MoveList::new();
        if !or {
            let mut kids = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let u = self.pos.make(mv);
                let key = self.pos.key();
                let t = match self.leaf(&self.pos, &mut scratch) {
                    Some(end) if self.wins(&self.pos, end) => Ok(leaf_tree(mv, end)),
                    Some(_) => Err(Failed::Inconsistent),
                    None if done.finished.contains(&key) => Ok(same_tree(mv, key)),
                    // Back to a position of the line (then derived again
                    // within fewer plies, a repeat) or to a new one.
                    None => match self.prove_within(limit - 1) {
                        Ok(d) => self.inner(mv, d, left, done),
                        Err(e) => Err(e),
                    },
                };
                self.pos.unmake(mv, u);
                kids.push(t?);
            }
            return Ok(kids);
        }
        // A winning leaf, else a finished position, else the proven
        // children off the line, least distance first (searched for when
        // none shows).
        let mut tried: Vec<G::Move> = Vec::new();
        for pass in 0..2 {
            let mut order: Vec<(u16, G::Move)> = Vec::new();
            for &mv in &moves {
                let u = self.pos.make(mv);
                let key = self.pos.key();
                let found = match self.leaf(&self.pos, &mut scratch) {
                    Some(end) if self.wins(&self.pos, end) => Some(leaf_tree(mv, end)),
                    Some(_) => None,
                    None if done.open.contains(&key) => None,
                    None if done.finished.contains(&key) => Some(same_tree(mv, key)),
                    None => {
                        if let Some(d) = self.known_within(limit - 1) {
                            order.push((d, mv));
                        }
                        None
                    }
                };
                self.pos.unmake(mv, u);
                if let Some(t) = found {
                    return Ok(vec![t]);
                }
            }
            order.sort_by_key(|&(d, _)| d);
            for (d, mv) in order {
                if tried.contains(&mv) {
                    continue;
                }
                tried.push(mv);
                let (mark, before) = (done.log.len(), *left);
                let u = self.pos.make(mv);
                let t = self.inner(mv, d, left, done);
                self.pos.unmake(mv, u);
                match t {
                    Ok(t) => return Ok(vec![t]),
                    Err(Failed::Inconsistent) => {
                        // Its subtree is not in the proof: no leaf may
                        // point into it.
                        for k in done.log.drain(mark..) {
                            done.finished.remove(&k);
                        }
                        *left = before;
                    }
                    Err(e) => return Err(e),
                }
            }
            if pass == 0 {
                // None that works shows in the table: the node searched
                // again within its plies (past its own entry) may leave
                // another proving child there.
                self.search_here(limit)?;
            }
        }
        Err(Failed::Inconsistent)
    }

    /// The inner node of the current position (just made by `mv`, not on
    /// the line from the root), proven within `limit` plies.
    fn inner(
        &mut self,
        mv: G::Move,
        limit: u16,
        left: &mut u64,
        done: &mut Derived,
    ) -> Result<Tree<G::Move>, Failed> {
        if *left == 0 {
            return Err(Failed::TooLarge);
        }
        *left -= 1;
        let key = self.pos.key();
        // A repeat of a position of the line is not that position's node:
        // `same` leaves point only to the first, once it is finished.
        let first = done.open.insert(key);
        let kids = stacker::maybe_grow(RED_ZONE, STACK_GROWTH, || self.derive(limit, left, done));
        if first {
            done.open.remove(&key);
        }
        let kids = kids?;
        if first {
            done.finished.insert(key);
            done.log.push(key);
        }
        Ok(Tree {
            mv: Some(mv),
            end: None,
            kids,
            key,
            same: None,
        })
    }
}

/// The positions of a derivation: finished (a later line may point to
/// one with a `same` leaf; a position's first node is its only one
/// outside the repeats below it, so the proof's lines never return to a
/// node) and on the line being derived; `log` is `finished` in the order
/// added, to take back a subtree the prover's move above drops.
#[derive(Default)]
struct Derived {
    finished: HashSet<u64>,
    open: HashSet<u64>,
    log: Vec<u64>,
}

fn leaf_tree<M>(mv: M, end: End) -> Tree<M> {
    Tree {
        mv: Some(mv),
        end: Some(end),
        kids: Vec::new(),
        key: 0,
        same: None,
    }
}

fn same_tree<M>(mv: M, key: u64) -> Tree<M> {
    Tree {
        mv: Some(mv),
        end: None,
        kids: Vec::new(),
        key: 0,
        same: Some(key),
    }
}

/// The key of a position's open numbers with `r` plies left.
#[inline]
fn open_key(key: u64, r: u16) -> u64 {
    (key ^ (r as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
}

/// A node's numbers from its children's: at the prover's move the least
/// proof number and the sum of disproof numbers (or, `weak`, the largest
/// plus one for each other open child), at the other side's the sum of
/// proof numbers and the least disproof number; the distance of a
/// proven node.
fn sum<M>(kids: &[Kid<M>], or: bool, weak: bool) -> (u32, u32, u16) {
    if or {
        let (mut pn, mut dn, mut dist) = (INF, 0u32, u16::MAX);
        let mut open = 0u32;
        for k in kids {
            if k.pn == 0 {
                dist = dist.min(k.dist);
            }
            pn = pn.min(k.pn);
            if weak {
                if k.dn != 0 {
                    dn = dn.max(k.dn);
                    open += 1;
                }
            } else {
                dn = add(dn, k.dn);
            }
        }
        if open > 1 {
            dn = add(dn, open - 1);
        }
        (pn, dn, if pn == 0 { dist } else { 0 })
    } else {
        let (mut pn, mut dn, mut dist) = (0u32, INF, 0u16);
        for k in kids {
            pn = add(pn, k.pn);
            dn = dn.min(k.dn);
            dist = dist.max(k.dist);
        }
        (pn, dn, if pn == 0 { dist } else { 0 })
    }
}
