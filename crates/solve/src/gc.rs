//! Garbage collection of a PNS tree that has filled its memory
//! ([`crate::pns::Options::gc`]): subtrees are cut off so that the search
//! goes on in the room they held.
//!
//! Two kinds of subtree go, in this order:
//! 1. **Solved ones**: below a solved node whose parent is open, nothing is
//!    searched again (selection never enters a solved node). The node stays
//!    with its numbers; its proof (or disproof) is kept beside the tree,
//!    as PN² keeps its second level's, so the final proof is whole. A proof
//!    has one child at the chooser's nodes and is usually far smaller than
//!    the subtree; its nodes count against the memory as tree nodes do.
//! 2. **The least-worked open ones**: if that freed too little, every open
//!    subtree of at most `T` nodes (the smallest `T` that frees enough) is
//!    cut to its root, which keeps its proof and disproof numbers and is
//!    expanded again when it is most-proving (Allis's and Breuker's idea:
//!    what took little work to build is cheap to build again).
//!
//! Cutting changes no value: solved nodes keep theirs, and an open node's
//! numbers only guide the search. Repetition stays sound: the tree is
//! still one of paths. The tree is compacted in place, keeping the order
//! of the nodes (children stay consecutive and after their parent), with
//! 5 bytes a node of scratch while it runs ([`SCRATCH_BYTES`], which the
//! node budget leaves room for).

use crate::pns::{Subproofs, Tree};
use crate::value::{Answer, Goal};

/// Scratch bytes per node while collecting (a subtree size, then a new
/// index, and a state byte).
pub const SCRATCH_BYTES: usize = 5;

const KEEP: u8 = 0;
const CUT: u8 = 1;
const GONE: u8 = 2;

/// Frees at least `want` nodes of `tree` (tree nodes removed less proof
/// nodes added) if it can, keeping the proofs of cut solved nodes in
/// `subs` when `keep_proofs` says so.
pub(crate) fn collect<M: Copy>(
    tree: &mut Tree<M>,
    subs: &mut Subproofs<M>,
    goal: Goal,
    want: usize,
    keep_proofs: bool,
) {
    let n = tree.nodes.len();
    let solved = |i: usize| tree.nodes[i].pn == 0 || tree.nodes[i].dn == 0;
    let mut sizes = vec![1u32; n];
    for i in (1..n).rev() {
        let p = tree.nodes[i].parent as usize;
        sizes[p] += sizes[i];
    }
    let mut state = vec![KEEP; n];
    // 1. Solved subtrees under open parents.
    let mut freed = 0usize;
    let mut proof_nodes = 0usize;
    for (i, s) in state.iter_mut().enumerate().skip(1) {
        let p = tree.nodes[i].parent as usize;
        if tree.nodes[i].children > 0 && solved(i) && !solved(p) {
            *s = CUT;
        }
    }
    spread(tree, &mut state);
    let mut proofs = Vec::new();
    for i in 0..n {
        if state[i] == CUT && !keep_proofs {
            freed += sizes[i] as usize - 1;
        } else if state[i] == CUT {
            let answer = if tree.nodes[i].pn == 0 {
                Answer::Proven
            } else {
                Answer::Disproven
            };
            let proof = tree.proof_from(i, goal, answer, subs);
            freed += sizes[i] as usize - 1;
            proof_nodes += proof.len();
            proofs.push((i, proof));
        }
    }
    // 2. The smallest open subtrees, if that was not enough.
    let open_freed = |t: u32, state: &[u8]| -> usize {
        (1..n)
            .filter(|&i| {
                let p = tree.nodes[i].parent as usize;
                state[i] == KEEP
                    && state[p] == KEEP
                    && tree.nodes[i].children > 0
                    && sizes[i] <= t
                    && sizes[p] > t
            })
            .map(|i| sizes[i] as usize - 1)
            .sum()
    };
    if freed.saturating_sub(proof_nodes) < want {
        let need = want - freed.saturating_sub(proof_nodes);
        // The smallest threshold that frees enough (freed nodes grow with
        // it); below the root's size, so the root stays expanded.
        let (mut lo, mut hi) = (1u32, sizes[0].saturating_sub(1).max(1));
        if open_freed(hi, &state) >= need {
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if open_freed(mid, &state) >= need {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
        }
        let t = hi;
        for i in 1..n {
            let p = tree.nodes[i].parent as usize;
            if state[i] == KEEP
                && state[p] == KEEP
                && tree.nodes[i].children > 0
                && sizes[i] <= t
                && sizes[p] > t
            {
                state[i] = CUT;
            }
        }
        spread(tree, &mut state);
    }
    // New indices (in `sizes`, no longer needed), then the nodes moved
    // down in order.
    let mut next = 0u32;
    for i in 0..n {
        sizes[i] = next;
        if state[i] != GONE {
            next += 1;
        }
    }
    for i in 0..n {
        if state[i] == GONE {
            continue;
        }
        let mut node = tree.nodes[i];
        if i > 0 {
            node.parent = sizes[node.parent as usize];
        }
        if state[i] == CUT {
            node.first_child = 0;
            node.children = 0;
        } else if node.children > 0 {
            node.first_child = sizes[node.first_child as usize];
        }
        tree.nodes[sizes[i] as usize] = node;
    }
    tree.nodes.truncate(next as usize);
    let old = std::mem::take(subs);
    for (k, p) in old {
        if state[k] != GONE {
            subs.insert(sizes[k] as usize, p);
        }
    }
    for (i, p) in proofs {
        subs.insert(sizes[i] as usize, p);
    }
}

/// Marks every node below a cut or gone node gone (parents come before
/// their children).
fn spread<M>(tree: &Tree<M>, state: &mut [u8]) {
    for i in 0..tree.nodes.len() {
        if state[i] != KEEP {
            let node = &tree.nodes[i];
            for c in node.first_child..node.first_child + node.children {
                state[c as usize] = GONE;
            }
        }
    }
}
