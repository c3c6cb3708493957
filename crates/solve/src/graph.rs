//! Retrograde analysis of a position's reachable graph: every position
//! play can reach from the root (stopping at finished games, positions
//! without moves and the oracle's positions) is listed once, by its key,
//! and valued backwards from those leaves, as a table build values a
//! material. What is not valued at the end is a draw: neither side can
//! force a leaf it wins, so play goes on for ever.
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::{Game, Outcome};
//! use zoo_solve::graph;
//! use zoo_solve::{Answer, Goal, Limits};
//!
//! // White's tiger and dog against Black's dog: White wins.
//! let pos = JungleCheckersPos::from_fen("7/7/d6/7/5T1/1D5/7 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let g = graph::solve(&pos, None, &Limits::default(), 1 << 20).unwrap();
//! assert_eq!(g.value(), Outcome::Win);
//! let r = g.report(Goal::Win, true);
//! assert_eq!(r.answer, Answer::Proven);
//! assert!(r.proof.is_some());
//! ```
//!
//! Why it is right where df-pn's table is not (docs/solve.md, "The
//! reachable graph"): it values the game in which endless play is a draw,
//! and in that game a position's value is a function of the position, so
//! merging positions by key across paths is sound, and so is merging a
//! position with its mirror image where the game is left–right
//! symmetric (`mirror`): one node for both, whichever of the two is
//! expanded. That game and the
//! game where a repetition on the path ends in a draw (the other
//! algorithms' leaves) have the same values: the winner has a strategy
//! whose distance to the end falls at each of its moves, so it never
//! repeats a position, and the drawing side a strategy that stays among
//! drawn positions, so that any line either repeats or goes on for ever.
//! Only for games whose play does not depend on move counters
//! ([`Game::counter_free`]).
//!
//! Its cost is the graph: about [`BYTES_PER_POSITION`] bytes a position
//! while it is built, so it decides what fits in memory (the 4-piece
//! materials of Jungle Checkers, with the 3-piece tables as oracle, in a
//! few seconds) and gives up at once on what does not, where df-pn goes
//! on ([`crate::manager`]).

use crate::known::{self, leaf, Cost};
use crate::limits::{Clock, Limits, Progress, Report};
use crate::mirror::node_key;
use crate::value::Goal;
use std::collections::VecDeque;
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle, Outcome};

pub(crate) mod index;
use index::Index;

/// Bytes the graph holds a position while it is built, for budgets: the
/// key's entry in the index, its value, distance and counter, its edges
/// both ways (about 6 moves a position in the animal endgames) and a
/// share of the queue of positions still to expand.
pub const BYTES_PER_POSITION: u64 = 96;

pub use crate::known::MAX_PROOF_NODES;

/// The value of a node for its side to move; `OPEN` until known.
const OPEN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

fn code(o: Outcome) -> u8 {
    match o {
        Outcome::Win => WIN,
        Outcome::Loss => LOSS,
        Outcome::Draw => DRAW,
    }
}

fn outcome(c: u8) -> Outcome {
    match c {
        WIN => Outcome::Win,
        LOSS => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// Why no graph was valued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// More positions are reachable than the budget allows (or memory
    /// could not be had for them): the graph is given up.
    TooLarge {
        /// Positions listed when it gave up.
        positions: u64,
    },
    /// The time limit or a stop request.
    Limit,
    /// The game's play depends on move counters: positions cannot be
    /// merged by key.
    Counters,
}

/// The reachable graph of a root, valued.
pub struct Graph<'a, G: Game> {
    root: G,
    oracle: Option<&'a dyn Oracle<G>>,
    index: Index,
    value: Vec<u8>,
    /// Plies to the end (the oracle's distance at its leaves where it
    /// knows one, else 0 there): the fewest to a win, the most to a loss.
    dist: Vec<u16>,
    expanded: u64,
    bytes: u64,
    seconds: f64,
    /// Where the proof's progress goes ([`Limits::progress`]).
    progress: Option<fn(&Progress)>,
}

/// Whether `root`'s graph is worth listing within `bytes`: a material
/// with more places than that holds positions is given up before any
/// work, as its graph is likely to be as large (the 5-piece materials of
/// Jungle Checkers hold about 5·10⁸; a game whose mirror images share a
/// node, half that). `false` where play depends on move counters.
pub fn fits<G: Game>(root: &G, bytes: u64) -> bool {
    let cap = bytes / BYTES_PER_POSITION;
    let images = if root.mirror_key().is_some() { 2 } else { 1 };
    root.counter_free() && root.material_positions().is_none_or(|p| p / images <= cap)
}

/// Grows `v` by one element, or says the memory is not there.
fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), Stop> {
    if v.len() == v.capacity() {
        v.try_reserve(v.len().max(1024))
            .map_err(|_| Stop::TooLarge {
                positions: v.len() as u64,
            })?;
    }
    v.push(x);
    Ok(())
}

/// Lists and values the graph reachable from `root`, with at most
/// `max_positions` positions (and `limits.nodes`, when given), within
/// `limits`' time.
pub fn solve<'a, G: Game>(
    root: &G,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: &Limits,
    max_positions: u64,
) -> Result<Graph<'a, G>, Stop> {
    if !root.counter_free() {
        return Err(Stop::Counters);
    }
    let start = Instant::now();
    let cap = max_positions.min(limits.nodes.unwrap_or(u64::MAX));
    if !fits(root, cap.saturating_mul(BYTES_PER_POSITION)) {
        return Err(Stop::TooLarge { positions: 0 });
    }
    let mut clock = Clock::new(limits);
    let mut index = Index::new();
    let mut value: Vec<u8> = Vec::new();
    let mut dist: Vec<u16> = Vec::new();
    // Forward edges, each node's from `first_edge[v]` (nodes are expanded
    // in the order they were found, so this is a CSR as it is filled).
    let mut first_edge: Vec<u32> = Vec::new();
    let mut edges: Vec<u32> = Vec::new();
    let mut queue: VecDeque<G> = VecDeque::new();
    let too_large = |n: usize| Stop::TooLarge {
        positions: n as u64,
    };
    index
        .get_or_insert(node_key(root), 0)
        .map_err(|_| too_large(0))?;
    push(&mut value, OPEN)?;
    push(&mut dist, 0)?;
    queue.push_back(root.clone());
    let mut moves = MoveList::new();
    let mut expanded = 0u64;
    let mut peak_queue = 0usize;
    let mut v = 0usize;
    let mut keys: Vec<u64> = Vec::new();
    while let Some(mut pos) = queue.pop_front() {
        push(&mut first_edge, edges.len() as u32)?;
        if v.is_multiple_of(65_536) {
            peak_queue = peak_queue.max(queue.len());
            let held = index.len() as u64 * BYTES_PER_POSITION;
            if clock.check(|| Progress {
                nodes: index.len() as u64,
                bytes: held,
                seconds: start.elapsed().as_secs_f64(),
                root: None,
                deriving: None,
            }) {
                return Err(Stop::Limit);
            }
        }
        match leaf(&pos, oracle, &mut moves) {
            Some((end, d)) => {
                value[v] = code(end.outcome());
                dist[v] = d;
            }
            None => {
                expanded += 1;
                // Every child's key first, its slot fetched, then the
                // lookups: their cache misses overlap.
                keys.clear();
                for &m in moves.iter() {
                    let u = pos.make(m);
                    let key = node_key(&pos);
                    keys.push(key);
                    index.prefetch(key);
                    pos.unmake(m, u);
                }
                for (&key, &m) in keys.iter().zip(moves.iter()) {
                    let next = index.len();
                    // Node numbers and edge offsets are 32-bit.
                    if next as u64 >= cap
                        || next >= u32::MAX as usize
                        || edges.len() >= u32::MAX as usize
                    {
                        return Err(too_large(next));
                    }
                    let (c, new) = index
                        .get_or_insert(key, next as u32)
                        .map_err(|_| too_large(next))?;
                    if new {
                        push(&mut value, OPEN)?;
                        push(&mut dist, 0)?;
                        queue.try_reserve(1).map_err(|_| too_large(next))?;
                        let mut child = pos.clone();
                        child.make(m);
                        queue.push_back(child);
                    }
                    push(&mut edges, c)?;
                }
            }
        }
        v += 1;
    }
    let n = value.len();
    push(&mut first_edge, edges.len() as u32)?;
    // Each node's parents (a CSR of the edges reversed) and the number of
    // its children not yet shown won for their side to move.
    let mut first_parent: Vec<u32> = Vec::new();
    first_parent
        .try_reserve_exact(n + 1)
        .map_err(|_| too_large(n))?;
    first_parent.resize(n + 1, 0);
    for &c in &edges {
        first_parent[c as usize + 1] += 1;
    }
    for i in 0..n {
        first_parent[i + 1] += first_parent[i];
    }
    let mut parents: Vec<u32> = Vec::new();
    parents
        .try_reserve_exact(edges.len())
        .map_err(|_| too_large(n))?;
    parents.resize(edges.len(), 0);
    let mut fill: Vec<u32> = Vec::new();
    fill.try_reserve_exact(n).map_err(|_| too_large(n))?;
    fill.extend_from_slice(&first_parent[..n]);
    let mut open_children: Vec<u16> = Vec::new();
    open_children
        .try_reserve_exact(n)
        .map_err(|_| too_large(n))?;
    for p in 0..n {
        let (a, b) = (first_edge[p] as usize, first_edge[p + 1] as usize);
        open_children.push((b - a).min(u16::MAX as usize) as u16);
        for &c in &edges[a..b] {
            parents[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    let bytes = (index.bytes()
        + value.capacity()
        + dist.capacity() * 2
        + (first_edge.capacity() + edges.capacity() + first_parent.capacity()) * 4
        + (parents.capacity() + fill.capacity()) * 4
        + open_children.capacity() * 2
        + peak_queue * std::mem::size_of::<G>()) as u64;
    drop((edges, first_edge, fill));
    // Backwards from the leaves won or lost, in order of distance (a
    // bucket a distance): a node's first child lost gives the fewest
    // plies to its win, its last child won the most to its loss.
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    for (i, &x) in value.iter().enumerate() {
        if x == WIN || x == LOSS {
            let d = dist[i] as usize;
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push(i as u32);
        }
    }
    let mut d = 0;
    while d < buckets.len() {
        let here = std::mem::take(&mut buckets[d]);
        for &c in &here {
            let won = value[c as usize] == WIN;
            let (a, b) = (
                first_parent[c as usize] as usize,
                first_parent[c as usize + 1] as usize,
            );
            for &p in &parents[a..b] {
                let p = p as usize;
                if value[p] != OPEN {
                    continue;
                }
                let resolved = if won {
                    open_children[p] -= 1;
                    (open_children[p] == 0).then_some(LOSS)
                } else {
                    Some(WIN)
                };
                if let Some(x) = resolved {
                    value[p] = x;
                    dist[p] = (d + 1).min(u16::MAX as usize) as u16;
                    if buckets.len() <= d + 1 {
                        buckets.push(Vec::new());
                    }
                    buckets[d + 1].push(p as u32);
                }
            }
        }
        d += 1;
        if clock.check(|| Progress {
            nodes: n as u64,
            bytes,
            seconds: start.elapsed().as_secs_f64(),
            root: None,
            deriving: None,
        }) {
            return Err(Stop::Limit);
        }
    }
    for x in value.iter_mut() {
        if *x == OPEN {
            *x = DRAW;
        }
    }
    Ok(Graph {
        root: root.clone(),
        oracle,
        index,
        value,
        dist,
        expanded,
        bytes,
        seconds: start.elapsed().as_secs_f64(),
        progress: limits.progress,
    })
}

impl<'a, G: Game> Graph<'a, G> {
    /// The root's value for its side to move.
    pub fn value(&self) -> Outcome {
        outcome(self.value[0])
    }

    /// Plies from the root to the end (see the field `dist`): the fewest
    /// to a win, the most to a loss, 0 for a draw.
    pub fn distance(&self) -> u16 {
        self.dist[0]
    }

    /// Positions in the graph.
    pub fn positions(&self) -> u64 {
        self.value.len() as u64
    }

    /// The value and distance of `pos` when it is in the graph.
    pub fn get(&self, pos: &G) -> Option<(Outcome, u16)> {
        let i = self.index.get(node_key(pos))?;
        Some((outcome(self.value[i as usize]), self.dist[i as usize]))
    }

    /// The answer to `goal` at the root, as the other algorithms report
    /// one, with its proof when `proof` asks for it.
    pub fn report(&self, goal: Goal, proof: bool) -> Report<G::Move> {
        let values = |pos: &G| self.get(pos);
        let cost = Cost {
            nodes: self.positions(),
            expansions: self.expanded,
            bytes: self.bytes,
            seconds: self.seconds,
            progress: self.progress,
        };
        known::report(
            &self.root,
            self.oracle,
            goal,
            self.value(),
            proof,
            &values,
            cost,
        )
    }
}
