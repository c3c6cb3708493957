//! Proof-number search (Allis): the whole tree in memory, grown one
//! most-proving node at a time.
//!
//! The tree is an arena of nodes, each with its proof and disproof numbers,
//! its parent, the move that leads to it and the range of its children.
//! An iteration walks from the root to the most-proving node (at OR nodes
//! the child with the smallest proof number, at AND nodes the one with the
//! smallest disproof number) making the moves, expands it (every legal move
//! becomes a child, evaluated at once when it is a leaf), and updates the
//! ancestors' numbers until one does not change.
//!
//! **Repetition is sound here.** The tree has no transpositions: a node
//! stands for a path from the root, not for a position, and its value is
//! the value of that path. So a repetition draw, which depends on the path,
//! belongs to the node it was found at and is never reused elsewhere (the
//! graph-history interaction cannot happen). The price is that a position
//! reached by two paths is searched twice.

use crate::leaf::{End, Leaves};
use crate::limits::{add, Clock, Limits, Progress, Report, Sample, INF};
use crate::proof::{Proof, ProofNode};
use crate::tree_file::{self, Counters, TreeView};
pub use crate::tree_file::{Resume, TreeSaver};
use crate::value::{Answer, Goal};
use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};
use zoo_core::{Game, History, MoveList, Oracle};

/// One node of the tree: a path from the root.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<M> {
    pub(crate) pn: u32,
    pub(crate) dn: u32,
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    /// 0 until expanded (a leaf is never expanded; an inner node has moves).
    pub(crate) children: u32,
    /// The move from the parent (`None` at the root).
    pub(crate) mv: Option<M>,
    /// Why the line ends here, when it does.
    pub(crate) end: Option<End>,
    /// The attacker moves here.
    pub(crate) or: bool,
}

/// The bytes one tree node takes for a game (what `--hash` is divided by).
pub fn bytes_per_node<G: Game>() -> usize {
    std::mem::size_of::<Node<G::Move>>()
}

/// The most nodes a tree may hold under `limits`.
pub(crate) fn node_budget<G: Game>(limits: &Limits) -> usize {
    limits
        .node_budget(bytes_per_node::<G>())
        .min(u32::MAX as u64 - 1) as usize
}

/// A node's numbers once its value is known: (0, INF) proves, (INF, 0)
/// disproves (df-pn: (φ, δ) = (0, INF) when its side to move wins).
pub(crate) fn solved(proves: bool) -> (u32, u32) {
    if proves {
        (0, INF)
    } else {
        (INF, 0)
    }
}

/// Solves `root` under `goal` by proof-number search within `limits`, with
/// `oracle`'s positions as leaves when one is given.
///
/// The tree never grows past [`Limits::node_budget`] nodes (of
/// [`bytes_per_node`] bytes each): when an expansion would, the run stops
/// with [`Answer::Unknown`] and the root's numbers at that point.
pub fn solve<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
) -> Report<G::Move> {
    solve_with(
        root,
        goal,
        oracle,
        limits,
        &Options::default(),
        Resume::default(),
    )
    .expect("nothing is read without a saved tree")
}

/// How PNS runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Garbage collection ([`crate::gc`]): when the tree fills the memory
    /// limit, cut solved subtrees (keeping their proofs) and then the
    /// least-worked open ones, and go on. The memory then holds
    /// `memory / (bytes_per_node + gc::SCRATCH_BYTES)` nodes, and
    /// [`Limits::nodes`] bounds the nodes made in all (as
    /// [`Report::nodes`] counts them), no longer the nodes held. Without
    /// it a full tree ends the run.
    pub gc: bool,
    /// With `gc`: keep the proofs of the solved subtrees cut (their nodes
    /// count against the memory), so that a solved run still gives its
    /// proof. Without, [`Report::proof`] is `None` once one was cut.
    pub proofs: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gc: false,
            proofs: true,
        }
    }
}

/// [`solve`] with `opts`, going on from a saved tree and saving it now and
/// then and when a limit stops the run ([`Resume`]). The tree goes on
/// growing from where it was, so a run stopped and resumed any number of
/// times makes the same expansions, in the same order, as one that was
/// never stopped. A saved tree that is damaged, of another position, or
/// larger than the limits allow is an error; a failed save stops the run.
pub fn solve_with<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    resume: Resume<'_>,
) -> io::Result<Report<G::Move>> {
    let start = Instant::now();
    // With collection, the nodes limit counts work, the memory room.
    let (budget, work_limit) = if opts.gc {
        let room = Limits {
            nodes: None,
            ..*limits
        }
        .node_budget(bytes_per_node::<G>() + crate::gc::SCRATCH_BYTES)
        .min(u32::MAX as u64 - 1) as usize;
        (room, limits.nodes)
    } else {
        (node_budget::<G>(limits), None)
    };
    let leaves = Leaves::new(root, goal, oracle);
    let (mut pos, mut hist, mut moves) =
        (root.clone(), Leaves::<G>::history(root), MoveList::new());
    let (mut tree, mut subs, counters) = match resume.from {
        Some(r) => tree_file::read(r, root, goal, budget)?,
        None => (
            Tree::at_root(&leaves, &pos, &hist, &mut moves),
            Subproofs::new(),
            Counters::default(),
        ),
    };
    // Nodes made and since cut off by the collector.
    let mut freed = counters.second_nodes;
    let mut proof_nodes: usize = subs.values().map(|p| p.len()).sum();
    let (mut saver, save_every) = match resume.save {
        Some((f, every)) => (Some(f), every),
        None => (None, Duration::MAX),
    };
    let mut last_save = Instant::now();
    // Hands the tree to the saver; `false` when that failed.
    let mut save = |tree: &Tree<G::Move>, subs: &Subproofs<G::Move>, freed: u64| -> bool {
        let Some(f) = saver.as_mut() else {
            return true;
        };
        let c = Counters {
            second_nodes: freed,
            peak: 0,
        };
        let write = |w: &mut dyn io::Write| tree_file::write(w, root, tree, subs, c);
        f(&TreeView {
            nodes: tree.nodes.len() as u64,
            write: &write,
        })
        .is_ok()
    };

    let mut path: Vec<(G::Move, G::Undo)> = Vec::new();
    let mut stopped = false;
    // Whether a solved subtree was cut without its proof.
    let mut unproved = freed > 0 && !opts.proofs;
    let mut clock = Clock::new(limits);
    while tree.nodes[0].pn != 0 && tree.nodes[0].dn != 0 {
        if tree.expansions.is_multiple_of(256) {
            if clock.check(|| tree.progress::<G>(start)) {
                stopped = true;
                break;
            }
            if last_save.elapsed() >= save_every {
                last_save = Instant::now();
                if !save(&tree, &subs, freed) {
                    stopped = true;
                    break;
                }
            }
        }
        if work_limit.is_some_and(|l| tree.nodes.len() as u64 + freed >= l) {
            stopped = true;
            break;
        }
        let room = budget.saturating_sub(proof_nodes);
        if tree.step(&leaves, &mut pos, &mut hist, &mut path, &mut moves, room) {
            continue;
        }
        if opts.gc {
            let held = tree.nodes.len() + proof_nodes;
            let before = tree.nodes.len();
            crate::gc::collect(&mut tree, &mut subs, goal, budget / 2, opts.proofs);
            proof_nodes = subs.values().map(|p| p.len()).sum();
            freed += (before - tree.nodes.len()) as u64;
            unproved |= !opts.proofs;
            // The tree's allocation gives back the room the proofs took
            // (a shrink in place), so the two stay within the memory.
            if proof_nodes > 0 {
                tree.nodes.shrink_to(budget.saturating_sub(proof_nodes));
            }
            // Too little freed (a tree of long lines, or proofs filling
            // the room): stop as without collection.
            if held.saturating_sub(tree.nodes.len() + proof_nodes) >= budget / 8 {
                continue;
            }
        }
        stopped = true;
        break;
    }
    if stopped {
        save(&tree, &subs, freed);
    }
    let r = tree.nodes[0];
    let answer = tree.answer();
    debug_assert!(stopped || answer != Answer::Unknown);
    let proof = (answer != Answer::Unknown && !unproved).then(|| tree.proof(goal, answer, &subs));
    let held = tree.nodes.len() + proof_nodes;
    Ok(Report {
        goal,
        answer,
        pn: r.pn,
        dn: r.dn,
        nodes: tree.nodes.len() as u64 + freed,
        expansions: tree.expansions,
        bytes: (tree.nodes.capacity() * bytes_per_node::<G>()) as u64,
        held: (held * bytes_per_node::<G>()) as u64,
        seconds: start.elapsed().as_secs_f64(),
        derivation: None,
        proof,
        samples: clock.samples(Sample {
            seconds: start.elapsed().as_secs_f64(),
            nodes: tree.nodes.len() as u64,
            pn: r.pn,
            dn: r.dn,
        }),
    })
}

/// The tree of one search (PN² has two levels of them).
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node<M>>,
    pub(crate) expansions: u64,
}

/// Proofs of nodes solved by a second-level search (PN²), by node: their
/// subtrees are gone from the tree.
pub(crate) type Subproofs<M> = std::collections::HashMap<usize, Proof<M>>;

impl<M: Copy> Tree<M> {
    /// A tree of one node, the root of a search from `pos` (its path in
    /// `hist`): a leaf already decided, or open at (1, 1). `moves` is
    /// scratch.
    pub(crate) fn at_root<G: Game<Move = M>>(
        leaves: &Leaves<'_, G>,
        pos: &G,
        hist: &History,
        moves: &mut MoveList<M>,
    ) -> Self {
        let end = leaves.classify(pos, hist, moves);
        let (pn, dn) = match end {
            Some(e) => solved(leaves.proves(pos, e)),
            None => (1, 1),
        };
        Tree {
            nodes: vec![Node {
                pn,
                dn,
                parent: u32::MAX,
                first_child: 0,
                children: 0,
                mv: None,
                end,
                or: leaves.is_or(pos),
            }],
            expansions: 0,
        }
    }

    /// The root's answer so far.
    pub(crate) fn answer(&self) -> Answer {
        match (self.nodes[0].pn, self.nodes[0].dn) {
            (0, _) => Answer::Proven,
            (_, 0) => Answer::Disproven,
            _ => Answer::Unknown,
        }
    }

    /// How far a search is, for its progress line.
    pub(crate) fn progress<G: Game<Move = M>>(&self, start: Instant) -> Progress {
        Progress {
            nodes: self.nodes.len() as u64,
            bytes: (self.nodes.capacity() * bytes_per_node::<G>()) as u64,
            seconds: start.elapsed().as_secs_f64(),
            root: Some((self.nodes[0].pn, self.nodes[0].dn)),
            deriving: None,
        }
    }

    /// One iteration from the root at `pos`: to the most-proving node,
    /// expanded, the numbers updated, back at the root. `false` (and
    /// nothing done) when the expansion would take the tree past `budget`
    /// nodes.
    pub(crate) fn step<G: Game<Move = M>>(
        &mut self,
        leaves: &Leaves<'_, G>,
        pos: &mut G,
        hist: &mut History,
        path: &mut Vec<(M, G::Undo)>,
        moves: &mut MoveList<M>,
        budget: usize,
    ) -> bool {
        let n = self.select(pos, hist, path);
        // legal_moves appends.
        moves.clear();
        pos.legal_moves(moves);
        if self.nodes.len() + moves.len() > budget {
            self.unwind(pos, hist, path);
            return false;
        }
        if !self.expand(n, leaves, pos, hist, moves, budget) {
            // The system refused the memory: the tree is full, as at the budget.
            self.unwind(pos, hist, path);
            return false;
        }
        self.update(n);
        self.unwind(pos, hist, path);
        true
    }

    /// Walks from the root to the most-proving node, making the moves on
    /// `pos` and `hist`; returns its index.
    pub(crate) fn select<G: Game<Move = M>>(
        &self,
        pos: &mut G,
        hist: &mut History,
        path: &mut Vec<(M, G::Undo)>,
    ) -> usize {
        let mut n = 0usize;
        while self.nodes[n].children > 0 {
            let node = &self.nodes[n];
            let kids = node.first_child as usize..(node.first_child + node.children) as usize;
            // The child that decides the node's number: the smallest proof
            // number at OR nodes, the smallest disproof number at AND nodes
            // (the first of equals).
            let mut best = kids.start;
            if node.or {
                for c in kids {
                    if self.nodes[c].pn < self.nodes[best].pn {
                        best = c;
                    }
                }
            } else {
                for c in kids {
                    if self.nodes[c].dn < self.nodes[best].dn {
                        best = c;
                    }
                }
            }
            let mv = self.nodes[best].mv.expect("a child has a move");
            let u = pos.make(mv);
            hist.push(pos.key(), pos.piece_count());
            path.push((mv, u));
            n = best;
        }
        n
    }

    /// Takes back the moves [`Tree::select`] made.
    pub(crate) fn unwind<G: Game<Move = M>>(
        &self,
        pos: &mut G,
        hist: &mut History,
        path: &mut Vec<(M, G::Undo)>,
    ) {
        while let Some((mv, u)) = path.pop() {
            hist.pop();
            pos.unmake(mv, u);
        }
    }

    /// Gives node `n` (at `pos`, with legal `moves`) its children, each
    /// evaluated at once when it is a leaf; `false` (nothing done) when the
    /// system refuses the memory for them (a ulimit, a cgroup, a full
    /// machine): the run then stops as at its memory limit, never aborts.
    pub(crate) fn expand<G: Game<Move = M>>(
        &mut self,
        n: usize,
        leaves: &Leaves<'_, G>,
        pos: &mut G,
        hist: &mut History,
        moves: &MoveList<M>,
        budget: usize,
    ) -> bool {
        let first = self.nodes.len();
        let need = first + moves.len();
        if self.nodes.capacity() < need {
            // Grow by doubling, as a Vec does, but never past the budget
            // (the caller checked that `need` fits): the memory limit
            // holds for the allocation, not only for the nodes in use.
            // Refused, the exact need is asked for before giving up.
            let want = (self.nodes.capacity() * 2).max(need).min(budget);
            if self.nodes.try_reserve_exact(want - first).is_err()
                && self.nodes.try_reserve_exact(need - first).is_err()
            {
                return false;
            }
        }
        let or = !self.nodes[n].or;
        let mut child_moves = MoveList::new();
        for &mv in moves {
            let u = pos.make(mv);
            hist.push(pos.key(), pos.piece_count());
            let end = leaves.classify(pos, hist, &mut child_moves);
            let (pn, dn) = match end {
                Some(e) => solved(leaves.proves(pos, e)),
                None => (1, 1),
            };
            hist.pop();
            pos.unmake(mv, u);
            self.nodes.push(Node {
                pn,
                dn,
                parent: n as u32,
                first_child: 0,
                children: 0,
                mv: Some(mv),
                end,
                or,
            });
        }
        self.nodes[n].first_child = first as u32;
        self.nodes[n].children = moves.len() as u32;
        self.expansions += 1;
        true
    }

    /// Recomputes the numbers of `n` and its ancestors, stopping at the
    /// first that does not change (those above cannot change either).
    pub(crate) fn update(&mut self, mut n: usize) {
        loop {
            let node = self.nodes[n];
            let kids = node.first_child as usize..(node.first_child + node.children) as usize;
            let (mut pn, mut dn);
            if node.or {
                pn = INF;
                dn = 0;
                for c in kids {
                    pn = pn.min(self.nodes[c].pn);
                    dn = add(dn, self.nodes[c].dn);
                }
            } else {
                pn = 0;
                dn = INF;
                for c in kids {
                    pn = add(pn, self.nodes[c].pn);
                    dn = dn.min(self.nodes[c].dn);
                }
            }
            // A solved node's other number is meaningless; keep it at INF
            // so that solved nodes compare alike.
            if pn == 0 {
                dn = INF;
            }
            if dn == 0 {
                pn = INF;
            }
            if (pn, dn) == (node.pn, node.dn) && n != 0 {
                // Unchanged: the ancestors' numbers stand.
                return;
            }
            self.nodes[n].pn = pn;
            self.nodes[n].dn = dn;
            if n == 0 {
                return;
            }
            n = node.parent as usize;
        }
    }

    /// The proof (or disproof) below the solved node `start`, breadth
    /// first, with the subtrees of `subs` in place of their nodes.
    pub(crate) fn proof_from(
        &self,
        start: usize,
        goal: Goal,
        answer: Answer,
        subs: &Subproofs<M>,
    ) -> Proof<M> {
        let proven = answer == Answer::Proven;
        let mut out = Proof {
            goal,
            answer,
            nodes: Vec::new(),
        };
        /// Where a node of the proof comes from.
        enum From {
            Tree(usize),
            Sub(usize, usize),
        }
        let mut queue = VecDeque::new();
        out.nodes.push(ProofNode {
            parent: u32::MAX,
            mv: None,
            end: self.nodes[start].end,
            first_child: 0,
            children: 0,
            same: None,
        });
        queue.push_back((From::Tree(start), 0usize));
        while let Some((from, p)) = queue.pop_front() {
            // The children to write: from a subproof, or chosen in the tree.
            let kids: Vec<(From, Option<M>, Option<End>)> = match from {
                From::Tree(t) if subs.contains_key(&t) => {
                    let sub = &subs[&t];
                    sub.children(0)
                        .map(|i| (From::Sub(t, i), sub.nodes[i].mv, sub.nodes[i].end))
                        .collect()
                }
                From::Sub(t, i) => {
                    let sub = &subs[&t];
                    sub.children(i)
                        .map(|j| (From::Sub(t, j), sub.nodes[j].mv, sub.nodes[j].end))
                        .collect()
                }
                From::Tree(t) => {
                    let node = &self.nodes[t];
                    if node.end.is_some() {
                        continue;
                    }
                    let range =
                        node.first_child as usize..(node.first_child + node.children) as usize;
                    let solved_kid = |c: usize| {
                        if proven {
                            self.nodes[c].pn == 0
                        } else {
                            self.nodes[c].dn == 0
                        }
                    };
                    // The winning side chooses one move; the other side's every
                    // move is answered.
                    let chooser = node.or == proven;
                    let chosen: Vec<usize> = if chooser {
                        vec![range
                            .clone()
                            .find(|&c| solved_kid(c))
                            .expect("a solved child")]
                    } else {
                        debug_assert!(range.clone().all(solved_kid));
                        range.collect()
                    };
                    chosen
                        .into_iter()
                        .map(|c| (From::Tree(c), self.nodes[c].mv, self.nodes[c].end))
                        .collect()
                }
            };
            out.nodes[p].first_child = out.nodes.len() as u32;
            out.nodes[p].children = kids.len() as u32;
            for (from, mv, end) in kids {
                queue.push_back((from, out.nodes.len()));
                out.nodes.push(ProofNode {
                    parent: p as u32,
                    mv,
                    end,
                    first_child: 0,
                    children: 0,
                    same: None,
                });
            }
        }
        out
    }

    /// The proof (or disproof) below the solved root.
    pub(crate) fn proof(&self, goal: Goal, answer: Answer, subs: &Subproofs<M>) -> Proof<M> {
        self.proof_from(0, goal, answer, subs)
    }
}
