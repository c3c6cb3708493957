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
//! merging positions by key across paths is sound. That game and the
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

use crate::leaf::End;
use crate::limits::{Clock, Derivation, Limits, NoProof, Progress, Report, INF};
use crate::proof::{Proof, ProofNode};
use crate::value::{Answer, Goal};
use std::collections::VecDeque;
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle, Outcome};

mod index;
use index::Index;

/// Bytes the graph holds a position while it is built, for budgets: the
/// key's entry in the index, its value, distance and counter, its edges
/// both ways (about 6 moves a position in the animal endgames) and a
/// share of the queue of positions still to expand.
pub const BYTES_PER_POSITION: u64 = 96;

/// At most this many nodes in a proof.
pub const MAX_PROOF_NODES: usize = 20_000_000;

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
}

/// Where the search stops, as the other algorithms' [`crate::Leaves`] say
/// it, without the repetition (the graph has none): `None` with the moves
/// in `moves` at an inner position.
fn leaf<G: Game>(
    pos: &G,
    oracle: Option<&dyn Oracle<G>>,
    moves: &mut MoveList<G::Move>,
) -> Option<(End, u16)> {
    moves.clear();
    if let Some(o) = pos.terminal() {
        return Some((End::Terminal(o), 0));
    }
    if let Some(oracle) = oracle {
        if pos.piece_count() <= oracle.max_pieces() {
            if let Some(v) = oracle.probe(pos) {
                return Some((End::Oracle(v.outcome), v.distance.unwrap_or(0)));
            }
        }
    }
    pos.legal_moves(moves);
    if moves.is_empty() {
        return Some((End::NoMoves(pos.no_moves_outcome()), 0));
    }
    None
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
    // A material with more places than the budget is given up before any
    // work: its graph is likely to be as large (the animal games' 5-piece
    // materials of Jungle Checkers hold about 5·10⁸).
    if root.material_positions().is_some_and(|m| m > cap) {
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
        .get_or_insert(root.key(), 0)
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
                    keys.push(pos.key());
                    index.prefetch(pos.key());
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
        let i = self.index.get(pos.key())?;
        Some((outcome(self.value[i as usize]), self.dist[i as usize]))
    }

    /// The answer to `goal` at the root, as the other algorithms report
    /// one, with its proof when `proof` asks for it.
    pub fn report(&self, goal: Goal, proof: bool) -> Report<G::Move> {
        let v = self.value();
        let holds = match goal {
            Goal::Win => v == Outcome::Win,
            Goal::NotLose => v != Outcome::Loss,
        };
        let answer = if holds {
            Answer::Proven
        } else {
            Answer::Disproven
        };
        let start = Instant::now();
        let (proof, derivation) = if proof {
            let p = self.proof(goal, answer);
            let failed = p.is_none().then_some(NoProof::TooLarge);
            (
                p,
                Some(Derivation {
                    calls: 0,
                    seconds: start.elapsed().as_secs_f64(),
                    failed,
                }),
            )
        } else {
            (None, None)
        };
        Report {
            goal,
            answer,
            pn: if holds { 0 } else { INF },
            dn: if holds { INF } else { 0 },
            nodes: self.positions(),
            expansions: self.expanded,
            bytes: self.bytes,
            held: self.bytes,
            seconds: self.seconds + start.elapsed().as_secs_f64(),
            derivation,
            proof,
            samples: Vec::new(),
        }
    }

    /// The proof of `answer` to `goal`: the side the answer favours plays
    /// a best move (the nearest win; where a draw meets its claim, a
    /// drawing move when it has no win), the other side every move. A
    /// position met again after its first inner node is a `same` leaf
    /// pointing there: where a draw meets the claim, a line through them
    /// that goes on for ever is a draw; where it does not, the distance
    /// falls along every move written, so no line returns (the checker
    /// refuses a cycle there). Breadth first, so a node's children are
    /// consecutive. `None` past [`MAX_PROOF_NODES`].
    fn proof(&self, goal: Goal, answer: Answer) -> Option<Proof<G::Move>> {
        let attacker = self.root.side_to_move();
        let chooser = if answer == Answer::Proven {
            attacker
        } else {
            attacker.flip()
        };
        // A draw meets the claim of a disproof of `win` and a proof of
        // `not-lose`.
        let draws_meet = (goal == Goal::Win) != (answer == Answer::Proven);
        let mut nodes = vec![ProofNode {
            parent: u32::MAX,
            mv: None,
            end: None,
            first_child: 0,
            children: 0,
            same: None,
        }];
        // The proof node of each graph node's inner node, once written.
        let mut inner_of: Vec<u32> = vec![u32::MAX; self.value.len()];
        let mut queue: VecDeque<(usize, G)> = VecDeque::from([(0, self.root.clone())]);
        let mut moves = MoveList::new();
        while let Some((id, pos)) = queue.pop_front() {
            if let Some((end, _)) = leaf(&pos, self.oracle, &mut moves) {
                nodes[id].end = Some(end);
                continue;
            }
            let v = self.index.get(pos.key())? as usize;
            if inner_of[v] != u32::MAX {
                nodes[id].same = Some(inner_of[v]);
                continue;
            }
            inner_of[v] = id as u32;
            let chosen: Vec<G::Move> = if pos.side_to_move() == chooser {
                // The child best for the chooser: lost for its side to
                // move the soonest, else (where draws meet) drawn.
                let mut best: Option<(u8, u16, G::Move)> = None;
                for &m in moves.iter() {
                    let mut child = pos.clone();
                    child.make(m);
                    let c = self.index.get(child.key())?;
                    let (x, d) = (self.value[c as usize], self.dist[c as usize]);
                    let rank = match x {
                        LOSS => 0,
                        DRAW if draws_meet => 1,
                        _ => continue,
                    };
                    if best.is_none_or(|(r, bd, _)| (rank, d) < (r, bd)) {
                        best = Some((rank, d, m));
                    }
                }
                vec![best?.2]
            } else {
                moves.iter().copied().collect()
            };
            nodes[id].first_child = nodes.len() as u32;
            nodes[id].children = chosen.len() as u32;
            for m in chosen {
                if nodes.len() >= MAX_PROOF_NODES {
                    return None;
                }
                let mut child = pos.clone();
                child.make(m);
                queue.push_back((nodes.len(), child));
                nodes.push(ProofNode {
                    parent: id as u32,
                    mv: Some(m),
                    end: None,
                    first_child: 0,
                    children: 0,
                    same: None,
                });
            }
        }
        Some(Proof {
            goal,
            answer,
            nodes,
        })
    }
}
