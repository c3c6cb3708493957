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
use crate::value::{Answer, Goal};
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle};

/// The smallest second-level search: early on the first-level tree is
/// tiny, and a search of a few nodes would tell nothing.
pub const SECOND_MIN: usize = 64;

/// Solves `root` under `goal` by PN² within `limits` (the memory limit
/// bounds the first-level tree and the second-level tree together).
pub fn solve<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
) -> Report<G::Move> {
    let start = Instant::now();
    let budget = node_budget::<G>(limits);
    let leaves = Leaves::new(root, goal, oracle);
    let (mut pos, mut hist, mut moves) =
        (root.clone(), Leaves::<G>::history(root), MoveList::new());
    let mut tree = Tree::at_root(&leaves, &pos, &hist, &mut moves);
    let mut subs: Subproofs<G::Move> = Subproofs::new();
    let mut path = Vec::new();
    let mut path2 = Vec::new();
    let mut stopped = false;
    let mut clock = Clock::new(limits);
    let mut second_nodes = 0u64;
    // The most nodes held at once: the first level and one second level.
    let mut peak = 0usize;
    while tree.nodes[0].pn != 0 && tree.nodes[0].dn != 0 {
        if clock.check(|| tree.progress::<G>(start)) {
            stopped = true;
            break;
        }
        let n = tree.select(&mut pos, &mut hist, &mut path);
        moves.clear();
        pos.legal_moves(&mut moves);
        // The second level's room: what the first level leaves, after the
        // children it is about to get.
        let room = budget.saturating_sub(tree.nodes.len() + moves.len());
        if room < moves.len() + 1 {
            tree.unwind(&mut pos, &mut hist, &mut path);
            stopped = true;
            break;
        }
        let size = tree.nodes.len().max(SECOND_MIN).min(room);
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
        peak = peak.max(tree.nodes.len() + t2.nodes.len());
        // Its root's children become `n`'s, with their numbers; those it
        // solved below themselves keep their proofs.
        let first = tree.nodes.len();
        tree.expand(n, &leaves, &mut pos, &mut hist, &moves, budget);
        tree.expansions += t2.expansions;
        for (i, c) in (t2.nodes[0].first_child as usize..)
            .take(t2.nodes[0].children as usize)
            .enumerate()
        {
            let k = t2.nodes[c];
            let kept = &mut tree.nodes[first + i];
            (kept.pn, kept.dn) = (k.pn, k.dn);
            if k.end.is_none() && k.children > 0 && (k.pn == 0 || k.dn == 0) {
                let answer = if k.pn == 0 {
                    Answer::Proven
                } else {
                    Answer::Disproven
                };
                subs.insert(first + i, t2.proof_from(c, goal, answer, &Subproofs::new()));
            }
        }
        tree.update(n);
        tree.unwind(&mut pos, &mut hist, &mut path);
    }
    let r = tree.nodes[0];
    let answer = tree.answer();
    debug_assert!(stopped || answer != Answer::Unknown);
    let proof = (answer != Answer::Unknown).then(|| tree.proof(goal, answer, &subs));
    Report {
        goal,
        answer,
        pn: r.pn,
        dn: r.dn,
        nodes: tree.nodes.len() as u64 + second_nodes,
        expansions: tree.expansions,
        bytes: (tree.nodes.capacity() * bytes_per_node::<G>()) as u64,
        held: (peak.max(tree.nodes.len()) * bytes_per_node::<G>()) as u64,
        seconds: start.elapsed().as_secs_f64(),
        proof,
        samples: clock.samples(Sample {
            seconds: start.elapsed().as_secs_f64(),
            nodes: tree.nodes.len() as u64,
            pn: r.pn,
            dn: r.dn,
        }),
    }
}
