//! PN² (Breuker): proof-number search whose expansions are searches.
//!
//! The first-level tree is grown as by [`crate::pns`], but a node is
//! expanded by a second-level proof-number search from it, of at most as
//! many nodes as the first-level tree holds (at least [`SECOND_MIN`]);
//! then only the node's children are kept, with the numbers that search
//! gave them, and the second-level tree is thrown away. The first-level
//! tree thus grows by one node's children per expansion, with far better
//! numbers than (1, 1), and the run is bounded by memory far later than
//! PNS: a budget of `N` nodes holds a first-level tree of about `N / 2`,
//! each node standing for a search of up to as many.
//!
//! Children the second level solved keep their proof (or disproof) beside
//! the tree, so a solved run still writes a proof that the checker can
//! replay; those are the only part of the second-level trees kept.
//!
//! Repetition stays sound as in PNS: both levels are trees of paths (no
//! transpositions), and the second level starts with the first level's
//! path to its root, so a draw by repetition belongs to the path it was
//! found on.

use crate::leaf::Leaves;
use crate::limits::{Clock, Limits, Report, Sample};
use crate::pns::{bytes_per_node, node_budget, Subproofs, Tree};
pub use crate::tree_file::Resume;
use crate::tree_file::{self, Counters, TreeView};
use crate::value::{Answer, Goal};
use std::io;
use std::time::{Duration, Instant};
use zoo_core::{Game, MoveList, Oracle};

/// The smallest second-level search: early on the first-level tree is
/// tiny, and a search of a few nodes would tell nothing.
pub const SECOND_MIN: usize = 64;

/// How PN² runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Breuker's fraction: with `Some((a, b))` a second-level search of a
    /// first-level tree of `N` nodes holds at most `f(N) · N` nodes, where
    /// `f(N) = 1 / (1 + e^((a − N) / b))` (a logistic curve: small while
    /// `N` is well below `a`, one half at `a`, towards 1 beyond, `b`
    /// setting how fast). `None`: `N` itself (`f = 1`), as Allis's PN²
    /// did and this crate did before the option. Never below
    /// [`SECOND_MIN`].
    pub fraction: Option<(f64, f64)>,
    /// Whether to keep the proofs of the children the second level solves
    /// (needed for [`Report::proof`]; without them a solved run reports no
    /// proof and holds less memory).
    pub proofs: bool,
    /// Garbage collection of the first level ([`crate::gc`], as PNS's):
    /// when the first-level tree leaves a second-level search less room
    /// than it should have, cut its solved subtrees (keeping their proofs,
    /// which then count against the memory) and then its least-worked
    /// open ones, down to a third of the room, and go on. Without it the
    /// second-level searches shrink until none fits and the run stops.
    pub gc: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fraction: None,
            proofs: true,
            gc: false,
        }
    }
}

impl Options {
    /// The most nodes of a second-level search when the first-level tree
    /// holds `n`.
    pub fn second_size(&self, n: usize) -> usize {
        let size = match self.fraction {
            None => n,
            Some((a, b)) => {
                let f = 1.0 / (1.0 + ((a - n as f64) / b).exp());
                (f * n as f64) as usize
            }
        };
        size.max(SECOND_MIN)
    }
}

/// Solves `root` under `goal` by PN² within `limits` (the memory limit
/// bounds the first-level tree and the second-level tree together), as
/// [`Options::default`] says.
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

/// [`solve`] with `opts`, going on from a saved first-level tree (with the
/// proofs kept beside it) and saving it now and then and when a limit
/// stops the run ([`Resume`]); a run stopped and resumed makes the same
/// expansions as one never stopped. A saved tree that is damaged, of
/// another position or larger than the limits allow is an error; a failed
/// save stops the run.
///
/// `limits.nodes` stops the run before an expansion whose second-level
/// search could take the nodes held (with [`Options::gc`], made) past it
/// (so where it stops does not depend on the limit's value otherwise); `limits.memory_mb` is room:
/// when it runs short the second-level searches are made smaller, down to
/// none left, or with [`Options::gc`] the first level is collected
/// (`Report::nodes` then counts the nodes cut off too).
pub fn solve_with<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    resume: Resume<'_>,
) -> io::Result<Report<G::Move>> {
    let start = Instant::now();
    let budget = node_budget::<G>(limits);
    let room_budget = node_budget::<G>(&Limits {
        nodes: None,
        ..*limits
    });
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
    let (mut saver, save_every) = match resume.save {
        Some((f, every)) => (Some(f), every),
        None => (None, Duration::MAX),
    };
    let mut last_save = Instant::now();
    let mut save = |tree: &Tree<G::Move>, subs: &Subproofs<G::Move>, c: Counters| -> bool {
        let Some(f) = saver.as_mut() else {
            return true;
        };
        let write = |w: &mut dyn io::Write| tree_file::write(w, root, tree, subs, c);
        f(&TreeView {
            nodes: tree.nodes.len() as u64,
            write: &write,
        })
        .is_ok()
    };
    let mut path = Vec::new();
    let mut path2 = Vec::new();
    let mut stopped = false;
    let mut clock = Clock::new(limits);
    // Nodes made and no longer held: the second levels', and the first
    // level's that the collector cut off.
    let mut second_nodes = counters.second_nodes;
    // With collection, the proofs kept beside the tree count against it.
    let mut proof_nodes: usize = if opts.gc {
        subs.values().map(|p| p.len()).sum()
    } else {
        0
    };
    // Set once a collection freed too little to be worth another. Not in
    // the checkpoint: a resumed run may try one more.
    let mut collected_out = false;
    // The most nodes held at once: the first level and one second level.
    let mut peak = counters.peak as usize;
    let counted = |second_nodes: u64, peak: usize| Counters {
        second_nodes,
        peak: peak as u64,
    };
    while tree.nodes[0].pn != 0 && tree.nodes[0].dn != 0 {
        if clock.check(|| tree.progress::<G>(start)) {
            stopped = true;
            break;
        }
        if last_save.elapsed() >= save_every {
            last_save = Instant::now();
            if !save(&tree, &subs, counted(second_nodes, peak)) {
                stopped = true;
                break;
            }
        }
        let n = tree.select(&mut pos, &mut hist, &mut path);
        moves.clear();
        pos.legal_moves(&mut moves);
        let want = opts.second_size(tree.nodes.len());
        // The node limit: stop before a search that could pass it.
        // With collection it counts the nodes made, as PNS's does: the
        // nodes held no longer grow towards it.
        let made = if opts.gc { second_nodes } else { 0 };
        let past_limit = limits
            .nodes
            .is_some_and(|l| (tree.nodes.len() + moves.len() + want) as u64 + made > l);
        // The second level's room: what the first level leaves, after the
        // children it is about to get.
        let room = room_budget.saturating_sub(tree.nodes.len() + moves.len() + proof_nodes);
        // Only a first level of a third of the room or more is collected:
        // where kept proofs take the room, collecting a small tree again
        // and again would free nothing worth it.
        if opts.gc
            && !collected_out
            && !past_limit
            && room < want
            && tree.nodes.len() >= room_budget / 3
        {
            // Down to a third of the room, so that a second level as
            // large as the first fits again.
            tree.unwind(&mut pos, &mut hist, &mut path);
            let held = tree.nodes.len() + proof_nodes;
            let before = tree.nodes.len();
            let free = held.saturating_sub(room_budget / 3);
            crate::gc::collect(&mut tree, &mut subs, goal, free, opts.proofs);
            proof_nodes = subs.values().map(|p| p.len()).sum();
            second_nodes += (before - tree.nodes.len()) as u64;
            // Too little freed (long lines, or proofs filling the room):
            // the second levels shrink from here on, as without collection.
            collected_out = held.saturating_sub(tree.nodes.len() + proof_nodes) < room_budget / 8;
            continue;
        }
        if past_limit || room < moves.len() + 1 {
            tree.unwind(&mut pos, &mut hist, &mut path);
            stopped = true;
            break;
        }
        let size = want.min(room);
        // The second level: a tree rooted at `n`'s position, grown until
        // solved or full.
        let mut moves2 = MoveList::new();
        let mut t2 = Tree::at_root(&leaves, &pos, &hist, &mut moves2);
        while t2.nodes[0].pn != 0 && t2.nodes[0].dn != 0 {
            if !t2.step(&leaves, &mut pos, &mut hist, &mut path2, &mut moves2, size) {
                break;
            }
        }
        second_nodes += t2.nodes.len() as u64;
        peak = peak.max(tree.nodes.len() + t2.nodes.len() + proof_nodes);
        // Its root's children become `n`'s, with their numbers; those it
        // solved below themselves keep their proofs.
        let first = tree.nodes.len();
        if !tree.expand(n, &leaves, &mut pos, &mut hist, &moves, room_budget) {
            // The system refused the memory: stop as at the memory limit.
            tree.unwind(&mut pos, &mut hist, &mut path);
            stopped = true;
            break;
        }
        tree.expansions += t2.expansions;
        for (i, c) in (t2.nodes[0].first_child as usize..)
            .take(t2.nodes[0].children as usize)
            .enumerate()
        {
            let k = t2.nodes[c];
            let kept = &mut tree.nodes[first + i];
            (kept.pn, kept.dn) = (k.pn, k.dn);
            if opts.proofs && k.end.is_none() && k.children > 0 && (k.pn == 0 || k.dn == 0) {
                let answer = if k.pn == 0 {
                    Answer::Proven
                } else {
                    Answer::Disproven
                };
                let proof = t2.proof_from(c, goal, answer, &Subproofs::new());
                if opts.gc {
                    proof_nodes += proof.len();
                }
                subs.insert(first + i, proof);
            }
        }
        tree.update(n);
        tree.unwind(&mut pos, &mut hist, &mut path);
    }
    if stopped {
        save(&tree, &subs, counted(second_nodes, peak));
    }
    let r = tree.nodes[0];
    let answer = tree.answer();
    debug_assert!(stopped || answer != Answer::Unknown);
    let proof = (answer != Answer::Unknown && opts.proofs).then(|| tree.proof(goal, answer, &subs));
    Ok(Report {
        goal,
        answer,
        pn: r.pn,
        dn: r.dn,
        nodes: tree.nodes.len() as u64 + second_nodes,
        expansions: tree.expansions,
        bytes: (tree.nodes.capacity() * bytes_per_node::<G>()) as u64,
        held: (peak.max(tree.nodes.len()) * bytes_per_node::<G>()) as u64,
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
