//! Strategy search for draws: does a side keep from losing?
//!
//! Why (docs/solve.md, "The strategy search"): two pieces past the
//! tables, df-pn leaves most drawn positions' `not-lose` open. Its table
//! is keyed by the position while a draw's proof rests on repetitions,
//! which hold only on the path that made them (the graph-history
//! problem), so it proves the same fortress again and again. A draw's
//! proof is a strategy for the side that keeps it (the *keeper*): one
//! move at its turns, every move at the other side's, closed under play.
//! This search grows that strategy's graph itself, each position once:
//!
//! - a pass walks from the root along the strategy (the keeper's chosen
//!   move, every move of the other side), expanding the positions it
//!   meets that have no moves listed yet;
//! - losses for the keeper (finished games, the oracle's values) run
//!   backwards as in a table build: a position of the other side's
//!   with a child lost, of the keeper's with every child lost;
//! - where the keeper's chosen child is lost, it chooses again among
//!   the others, preferring positions the strategy already holds (so
//!   that play returns to them) and then the game's static score; a
//!   choice lost after the pass walked it is made again in the same pass
//!   (the pass keeps the keeper's positions it walked, within an eighth
//!   of the memory), so passes are few;
//! - a pass that expands nothing has walked a closed strategy with no
//!   lost position on it: the keeper does not lose;
//! - where the game is left–right symmetric ([`Game::mirror_key`]), a
//!   position and its mirror image are one node, keyed by the smaller
//!   key, and the search plays on from that one of the two: a strategy
//!   where both sides roam meets both images of many positions.
//!
//! Soundness. A lost position is lost whatever the path: the losses are
//! the least fixed point of the rules above from finished games and the
//! oracle's exact values, so the other side has a strategy whose distance
//! to the end falls at every move. A closed strategy with no lost
//! position on it keeps the game among its positions for ever unless it
//! reaches a leaf that is no loss: every line either ends there or goes on
//! for ever, and endless play is a draw (the game of
//! [`crate::graph`], whose values are the repetition-as-draw game's). So
//! merging positions by key across paths is sound, as in the reachable
//! graph, of which this holds only the part the keeper's strategy needs.
//! Merging a position with its mirror image is sound as well: the image
//! has the same value, the mirror of a move is a move of the image, so
//! the lines of the merged graph are the real game's lines, some of them
//! seen in the mirror.
//! Only for games whose play does not depend on move counters
//! ([`Game::counter_free`]).
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::Game;
//! use zoo_solve::fortress::Search;
//! use zoo_solve::{Answer, Goal, Limits};
//!
//! // Elephant and dog against an elephant: White to move does not lose.
//! let pos = JungleCheckersPos::from_fen("7/7/3e3/7/7/2D4/2E4 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let white = pos.side_to_move();
//! let mut s = Search::new(&pos, white, None, &Limits::nodes(1_000_000)).unwrap();
//! assert_eq!(s.go(1_000_000), Some(true));
//! let r = s.report(Goal::NotLose, true).unwrap();
//! assert_eq!(r.answer, Answer::Proven);
//! assert!(r.proof.is_some());
//! ```

use crate::graph::index::Index;
use crate::known::{self, Cost};
use crate::limits::{Clock, Limits, Progress, Report};
use crate::mirror::{keyed, node_key};
use crate::value::Goal;
use std::collections::VecDeque;
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle, Outcome, Side};

/// No node, no choice.
const NONE: u32 = u32::MAX;

/// What a node is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Its moves not listed yet.
    Open,
    /// Its moves listed: its children are in the edge list.
    Inner,
    /// A finished game or the oracle's position that is no loss for the
    /// keeper.
    Safe,
    /// A leaf that is a loss for the keeper.
    LostLeaf,
}

#[derive(Clone, Copy)]
struct Node {
    first_kid: u32,
    kids: u16,
    state: State,
    /// Lost for the keeper (a lost leaf, or lost by the rules above).
    lost: bool,
    /// The keeper is to move.
    keepers: bool,
    /// The keeper's positions: children not lost.
    alive: u16,
    /// The keeper's positions: the child followed (an index into its
    /// children; `u16::MAX`: none yet).
    chosen: u16,
    /// The head of the list of its parents' edges.
    first_parent: u32,
    /// The pass that last walked it.
    seen: u32,
    /// Lost: plies to the loss along the other side's line (falls by one
    /// at least at every ply of it, so a proof of the loss has no cycle;
    /// past `u16::MAX` it saturates and such a proof is refused by the
    /// checker, the answer still right).
    dist: u16,
    /// The keeper's positions walked in this pass: where the pass keeps
    /// the position (an index into `Search::held`, valid when that entry
    /// names this node), so a choice lost later in the pass is made again
    /// at once.
    held: u32,
}

/// Bytes a node costs with its index slot, its edges both ways (about 8
/// moves a position) and the pass's queue, for the memory limit.
pub const BYTES_PER_NODE: u64 = 160;

/// The share of the memory limit the positions a pass keeps may take
/// (1/`HELD_SHARE`); past it a lost choice waits for the next pass.
const HELD_SHARE: u64 = 8;

/// A strategy search of whether `keeper` keeps from losing from a root,
/// continued pass after pass ([`Search::go`]) as the manager's other runs
/// are.
pub struct Search<'a, G: Game> {
    oracle: Option<&'a dyn Oracle<G>>,
    keeper: Side,
    root: G,
    /// The root as the passes start from it (`mirror::keyed`).
    keyed_root: G,
    nodes: Vec<Node>,
    index: Index,
    /// Children: the move and the child's node.
    kids: Vec<(G::Move, u32)>,
    /// Parents' edges: (parent, the next edge of the same child's list).
    parents: Vec<(u32, u32)>,
    /// The pass under way and what it still has to walk.
    stamp: u32,
    queue: VecDeque<(u32, G)>,
    /// The keeper's positions this pass has walked, by node: where a
    /// loss found later in the pass takes a choice away, the choice is
    /// made again from here in the same pass instead of in the next. Why:
    /// without it the passes re-walked the whole strategy about a hundred
    /// times on the draws it proves (12 walks an expansion, two thirds of
    /// the time; docs/log/solve.md).
    held: Vec<(u32, G)>,
    max_held: usize,
    /// Keeper's positions held this pass whose choice a loss took away.
    rechoose: Vec<u32>,
    /// The children of the position being expanded with their node
    /// keys (kept for its allocation).
    children: Vec<(G, u64)>,
    expanded_in_pass: u64,
    /// Positions taken from the pass's queue, for the clock's checks.
    walked: u64,
    calls: u64,
    call_limit: u64,
    max_nodes: usize,
    clock: Clock,
    start: Instant,
    stopped: bool,
    full: bool,
    /// `Some(true)`: the keeper does not lose; `Some(false)`: it loses.
    result: Option<bool>,
    /// The pass that found the closed strategy.
    closed: u32,
}

impl<'a, G: Game> Search<'a, G> {
    /// A search of whether `keeper` keeps from losing from `root`,
    /// nothing searched yet; an error for a game whose play depends on
    /// move counters.
    pub fn new(
        root: &G,
        keeper: Side,
        oracle: Option<&'a dyn Oracle<G>>,
        limits: &Limits,
    ) -> Result<Self, &'static str> {
        if !root.counter_free() {
            return Err("the strategy search needs a game whose play ignores move counters");
        }
        // The positions a pass keeps take their share of the limit first.
        let held_bytes = limits.memory_mb.map(|mb| (mb << 20) / HELD_SHARE);
        let max_held = held_bytes
            .map_or(usize::MAX, |b| {
                (b / (std::mem::size_of::<(u32, G)>() as u64).max(1)) as usize
            })
            .min((NONE - 1) as usize);
        let max_nodes = limits
            .memory_mb
            .zip(held_bytes)
            .map_or(usize::MAX, |(mb, held)| {
                (((mb << 20) - held) / BYTES_PER_NODE) as usize
            })
            .clamp(16, (NONE - 1) as usize);
        let mut s = Search {
            oracle,
            keeper,
            root: root.clone(),
            keyed_root: keyed(root.clone()),
            nodes: Vec::new(),
            index: Index::new(),
            kids: Vec::new(),
            parents: Vec::new(),
            stamp: 0,
            queue: VecDeque::new(),
            held: Vec::new(),
            max_held,
            rechoose: Vec::new(),
            children: Vec::new(),
            expanded_in_pass: 0,
            walked: 0,
            calls: 0,
            call_limit: limits.nodes.unwrap_or(u64::MAX),
            max_nodes,
            clock: Clock::new(limits),
            start: Instant::now(),
            stopped: false,
            full: false,
            result: None,
            closed: 0,
        };
        let mut moves = MoveList::new();
        let root_node = s
            .node_of(root, node_key(root), &mut moves)
            .ok_or("no memory for the root")?;
        debug_assert_eq!(root_node, 0);
        if s.nodes[0].lost {
            s.result = Some(false);
        } else if s.nodes[0].state == State::Safe {
            s.result = Some(true);
        }
        Ok(s)
    }

    /// Searches until the answer is found, the run has expanded
    /// `call_limit` positions in all, the memory is full, or the time
    /// limit or a stop request ends it: `Some(true)` where the keeper
    /// does not lose, `Some(false)` where it loses.
    pub fn go(&mut self, call_limit: u64) -> Option<bool> {
        self.call_limit = call_limit;
        self.stopped = false;
        let mut moves = MoveList::new();
        while self.result.is_none() && !self.stopped && !self.full {
            if !self.rechoose.is_empty() {
                self.rechoose_lost();
            }
            let Some((n, pos)) = self.queue.pop_front() else {
                if self.stamp > 0 && self.expanded_in_pass == 0 {
                    self.closed = self.stamp;
                    self.result = Some(true);
                    break;
                }
                self.stamp += 1;
                self.expanded_in_pass = 0;
                self.held.clear();
                self.rechoose.clear();
                self.nodes[0].seen = self.stamp;
                self.queue.push_back((0, self.keyed_root.clone()));
                continue;
            };
            self.walked += 1;
            // A pass over a large strategy expands little: the clock is
            // asked on the way too.
            if self.walked.is_multiple_of(1 << 16) && self.clock_check() {
                self.stopped = true;
                self.queue.push_front((n, pos));
                break;
            }
            if self.nodes[n as usize].lost {
                continue;
            }
            match self.nodes[n as usize].state {
                State::Safe | State::LostLeaf => continue,
                State::Open => {
                    if self.calls >= self.call_limit || self.clock_says_stop() {
                        self.stopped = true;
                        self.queue.push_front((n, pos));
                        break;
                    }
                    if !self.expand(n, &pos, &mut moves) {
                        self.full = true;
                        self.queue.push_front((n, pos));
                        break;
                    }
                    if self.nodes[0].lost {
                        self.result = Some(false);
                        break;
                    }
                    if self.nodes[n as usize].lost {
                        continue;
                    }
                }
                State::Inner => {}
            }
            let node = self.nodes[n as usize];
            let first = node.first_kid as usize;
            if self.queue.try_reserve(node.kids as usize).is_err() {
                self.full = true;
                self.queue.push_front((n, pos));
                break;
            }
            if pos.side_to_move() == self.keeper {
                let c = self.choose(n, &pos);
                let (mv, kid) = self.kids[first + c as usize];
                self.walk(kid, &pos, mv);
                self.hold(n, pos);
            } else {
                for i in first..first + node.kids as usize {
                    let (mv, kid) = self.kids[i];
                    self.walk(kid, &pos, mv);
                }
            }
        }
        self.result
    }

    /// Keeps the keeper's position `pos` (node `n`) for this pass, where
    /// memory allows.
    fn hold(&mut self, n: u32, pos: G) {
        let len = self.held.len();
        if len == self.held.capacity() {
            // Doubling, but never past the share.
            let more = len.max(1024).min(self.max_held - len);
            if more == 0 || self.held.try_reserve_exact(more).is_err() {
                return;
            }
        }
        self.nodes[n as usize].held = len as u32;
        self.held.push((n, pos));
    }

    /// The position this pass holds for node `n`, if any.
    fn held_position(&self, n: u32) -> Option<&G> {
        let h = self.nodes[n as usize].held as usize;
        match self.held.get(h) {
            Some((m, pos)) if *m == n => Some(pos),
            _ => None,
        }
    }

    /// Makes again, in this pass, the choices losses took away at the
    /// keeper's positions the pass has walked and holds, queueing the
    /// new choices.
    fn rechoose_lost(&mut self) {
        while let Some(n) = self.rechoose.pop() {
            let node = self.nodes[n as usize];
            if node.lost || node.seen != self.stamp {
                continue;
            }
            let Some(pos) = self.held_position(n).cloned() else {
                continue;
            };
            if self.queue.try_reserve(1).is_err() {
                // The next pass walks it again.
                continue;
            }
            let c = self.choose(n, &pos);
            let (mv, kid) = self.kids[node.first_kid as usize + c as usize];
            self.walk(kid, &pos, mv);
        }
    }

    /// Queues `kid` (reached from `pos` by `mv`) for this pass, once.
    fn walk(&mut self, kid: u32, pos: &G, mv: G::Move) {
        let k = &mut self.nodes[kid as usize];
        if k.seen == self.stamp || matches!(k.state, State::Safe | State::LostLeaf) {
            return;
        }
        k.seen = self.stamp;
        let mut c = pos.clone();
        c.make(mv);
        self.queue.push_back((kid, keyed(c)));
    }

    fn clock_says_stop(&mut self) -> bool {
        self.calls.is_multiple_of(256) && self.clock_check()
    }

    fn clock_check(&mut self) -> bool {
        let (nodes, seconds) = (self.calls, self.start.elapsed().as_secs_f64());
        let bytes = self.bytes();
        self.clock.check(|| Progress {
            nodes,
            bytes,
            seconds,
            root: None,
            deriving: None,
        })
    }

    /// The keeper's child to follow at `n` (not lost, which has one): the
    /// last choice while it is not lost, else a leaf that is no loss,
    /// else one this pass or the last walked, else one already expanded,
    /// each time the best by the game's static score for the keeper.
    fn choose(&mut self, n: u32, pos: &G) -> u16 {
        let node = self.nodes[n as usize];
        let first = node.first_kid as usize;
        if node.chosen != u16::MAX {
            let kid = self.kids[first + node.chosen as usize].1;
            if !self.nodes[kid as usize].lost {
                return node.chosen;
            }
        }
        let mut best: Option<(u8, i32, u16)> = None;
        for i in 0..node.kids {
            let (mv, kid) = self.kids[first + i as usize];
            let k = &self.nodes[kid as usize];
            if k.lost {
                continue;
            }
            let rank = match k.state {
                State::Safe => 0,
                _ if k.seen + 1 >= self.stamp && k.seen > 0 => 1,
                State::Inner => 2,
                _ => 3,
            };
            if rank == 0 {
                best = Some((0, 0, i));
                break;
            }
            let mut c = pos.clone();
            c.make(mv);
            // The child's score is the other side's.
            let score = c.proof_guide();
            if best.is_none_or(|(r, s, _)| (rank, score) < (r, s)) {
                best = Some((rank, score, i));
            }
        }
        let (_, _, i) = best.expect("a position not lost has a child not lost");
        self.nodes[n as usize].chosen = i;
        i
    }

    /// The node of `pos`, whose [`node_key`] is `key`, made (and valued
    /// where it is a leaf) when new; `None` when the memory is full.
    fn node_of(&mut self, pos: &G, key: u64, moves: &mut MoveList<G::Move>) -> Option<u32> {
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        let next = self.nodes.len() as u32;
        let (n, new) = self.index.get_or_insert(key, next).ok()?;
        if !new {
            return Some(n);
        }
        let (state, dist) = match known::leaf(pos, self.oracle, moves) {
            Some((end, d)) => {
                let o = end.outcome();
                let for_keeper = if pos.side_to_move() == self.keeper {
                    o
                } else {
                    o.flip()
                };
                if for_keeper == Outcome::Loss {
                    (State::LostLeaf, d)
                } else {
                    (State::Safe, 0)
                }
            }
            None => (State::Open, 0),
        };
        self.nodes.push(Node {
            first_kid: 0,
            kids: 0,
            state,
            lost: state == State::LostLeaf,
            keepers: pos.side_to_move() == self.keeper,
            alive: 0,
            chosen: u16::MAX,
            first_parent: NONE,
            seen: 0,
            dist,
            held: NONE,
        });
        Some(n)
    }

    /// Lists the moves of `n` (at `pos`), making its children's nodes,
    /// and runs the losses it settles backwards; `false` when the memory
    /// is full (nothing changed then).
    fn expand(&mut self, n: u32, pos: &G, moves: &mut MoveList<G::Move>) -> bool {
        moves.clear();
        pos.legal_moves(moves);
        let k = moves.len();
        // Memory refused is a full search, never an abort.
        // Edges are numbered in u32, `NONE` the end of a list.
        if self.nodes.len() + k > self.max_nodes
            || self.kids.len() + k >= NONE as usize
            || self.parents.len() + k >= NONE as usize
            || self.nodes.try_reserve(k).is_err()
            || self.kids.try_reserve(k).is_err()
            || self.parents.try_reserve(k).is_err()
            || self.queue.try_reserve(k).is_err()
            || self.children.try_reserve(k).is_err()
        {
            return false;
        }
        self.calls += 1;
        self.expanded_in_pass += 1;
        let first = self.kids.len() as u32;
        let mut scratch = MoveList::new();
        let keeper_moves = pos.side_to_move() == self.keeper;
        let (mut alive, mut lost_kid) = (0u16, None);
        // Every child's slot is fetched before any is read: the index is
        // read at random, a cache miss a child, the search's main cost
        // (perf, docs/log/solve.md), and the misses then overlap.
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for &mv in moves.iter() {
            let mut c = pos.clone();
            c.make(mv);
            let key = node_key(&c);
            self.index.prefetch(key);
            children.push((c, key));
        }
        for (&mv, (c, key)) in moves.iter().zip(&children) {
            let Some(kid) = self.node_of(c, *key, &mut scratch) else {
                self.children = children;
                // The index could not grow: the search is full. The node
                // stays open, and `lose` skips it as a parent.
                return false;
            };
            self.kids.push((mv, kid));
            let head = self.nodes[kid as usize].first_parent;
            self.nodes[kid as usize].first_parent = self.parents.len() as u32;
            self.parents.push((n, head));
            let k = self.nodes[kid as usize];
            if k.lost {
                lost_kid.get_or_insert(k.dist);
            } else {
                alive += 1;
            }
        }
        self.children = children;
        let node = &mut self.nodes[n as usize];
        node.first_kid = first;
        node.kids = moves.len() as u16;
        node.state = State::Inner;
        node.alive = alive;
        if keeper_moves && alive == 0 {
            let d = self.farthest_kid(n);
            self.lose(n, d);
        } else if let (false, Some(d)) = (keeper_moves, lost_kid) {
            self.lose(n, d.saturating_add(1));
        }
        true
    }

    /// One more than the farthest loss among `n`'s children (all lost).
    fn farthest_kid(&self, n: u32) -> u16 {
        let node = self.nodes[n as usize];
        let first = node.first_kid as usize;
        let most = (first..first + node.kids as usize)
            .map(|i| self.nodes[self.kids[i].1 as usize].dist)
            .max()
            .unwrap_or(0);
        most.saturating_add(1)
    }

    /// Marks `n` lost in `dist` plies and runs it backwards to its
    /// parents.
    fn lose(&mut self, n: u32, dist: u16) {
        let mut work = vec![(n, dist)];
        while let Some((n, d)) = work.pop() {
            let node = &mut self.nodes[n as usize];
            if node.lost {
                continue;
            }
            node.lost = true;
            node.dist = d;
            let mut e = node.first_parent;
            while e != NONE {
                let (p, next) = self.parents[e as usize];
                e = next;
                let parent = &mut self.nodes[p as usize];
                // A parent whose expansion the memory cut short holds
                // no count of its children.
                if parent.lost || parent.state != State::Inner {
                    continue;
                }
                if parent.keepers {
                    let parent = &mut self.nodes[p as usize];
                    parent.alive -= 1;
                    if parent.alive == 0 {
                        let pd = self.farthest_kid(p);
                        work.push((p, pd));
                    } else if parent.seen == self.stamp
                        && parent.chosen != u16::MAX
                        && self.kids[(parent.first_kid + parent.chosen as u32) as usize].1 == n
                    {
                        // Its choice is gone: made again in this pass if
                        // the pass holds its position.
                        if self.rechoose.try_reserve(1).is_ok() {
                            self.rechoose.push(p);
                        }
                    }
                } else {
                    work.push((p, d.saturating_add(1)));
                }
            }
        }
    }

    /// `Some(true)` once the keeper is shown not to lose, `Some(false)`
    /// once it is shown to lose.
    pub fn result(&self) -> Option<bool> {
        self.result
    }

    /// Passes begun and positions walked so far (the walks re-read the
    /// strategy; the expansions grow it).
    pub fn passes(&self) -> (u32, u64) {
        (self.stamp, self.walked)
    }

    /// Positions expanded so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Whether the time limit or a stop request (not the call limit)
    /// stopped the last [`Search::go`].
    pub fn out_of_time(&self) -> bool {
        self.stopped && self.calls < self.call_limit
    }

    /// Whether the memory is full: no further call can go on.
    pub fn full(&self) -> bool {
        self.full
    }

    /// Times the run from now under `limits` (a search kept for a later
    /// question gets that question's time).
    pub fn restart_clock(&mut self, limits: &Limits) {
        self.clock = Clock::new(limits);
        self.start = Instant::now();
    }

    /// The side whose not-losing is searched.
    pub fn keeper(&self) -> Side {
        self.keeper
    }

    /// Bytes the search holds, about.
    pub fn bytes(&self) -> u64 {
        self.nodes.len() as u64 * BYTES_PER_NODE
            + (self.held.capacity() * std::mem::size_of::<(u32, G)>()) as u64
    }

    /// The answer to `goal` at the root that the result gives, with its
    /// proof when `proof` asks for one; `None` where the result does not
    /// decide `goal` (the keeper, the root's side, keeps a draw: `win` is
    /// open; the other side keeps it: `not-lose` is open) or no result
    /// is found yet.
    pub fn report(&self, goal: Goal, proof: bool) -> Option<Report<G::Move>> {
        let keeps = self.result?;
        let root_keeps = self.keeper == self.root.side_to_move();
        // The root's value as far as `goal` needs it.
        let value = match (keeps, root_keeps, goal) {
            (true, true, Goal::NotLose) => Outcome::Draw,
            (true, false, Goal::Win) => Outcome::Draw,
            (false, true, _) => Outcome::Loss,
            (false, false, _) => Outcome::Win,
            _ => return None,
        };
        let closed = self.closed;
        let values = |p: &G| -> Option<(Outcome, u16)> {
            let n = self.index.get(node_key(p))?;
            let node = self.nodes[n as usize];
            let keepers = p.side_to_move() == self.keeper;
            match node.state {
                // Leaves: as the proof's own leaf rules value them.
                State::Safe | State::LostLeaf => None,
                _ if node.lost => Some(if keepers {
                    (Outcome::Loss, node.dist)
                } else {
                    (Outcome::Win, node.dist)
                }),
                // On the closed strategy: a draw at least for the keeper.
                _ if keeps && node.seen == closed => Some((Outcome::Draw, 0)),
                // Anything else: not for the proof's chooser (a win for
                // the side to move there is never its choice).
                _ => Some((Outcome::Win, 0)),
            }
        };
        let cost = Cost {
            nodes: self.nodes.len() as u64,
            expansions: self.calls,
            bytes: self.bytes(),
            seconds: self.start.elapsed().as_secs_f64(),
            progress: None,
        };
        Some(known::report(
            &self.root,
            self.oracle,
            goal,
            value,
            proof,
            &values,
            cost,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};

    /// A search that cannot close within its memory stops full, holding
    /// no more than the limit counts.
    #[test]
    fn the_search_stays_within_its_memory() {
        let pos = JungleCheckersPos::from_fen("7/4r2/5e1/5E1/5d1/T6/7 w", &&JUNGLE_CHECKERS_LEIDEN)
            .unwrap();
        let limits = Limits {
            memory_mb: Some(4),
            ..Limits::default()
        };
        let mut s = Search::new(&pos, pos.side_to_move(), None, &limits).unwrap();
        assert_eq!(s.go(u64::MAX), None);
        assert!(s.full());
        assert!(s.bytes() <= 4 << 20, "{} bytes", s.bytes());
        assert!(s.calls() > 1_000, "{} expanded", s.calls());
    }
}
