//! Smaller trees from a grown one: C4.5's pessimistic pruning, a bound on
//! depth, and the weakest-link sequence that trades leaves for errors.

use crate::tree::{Node, Split, Tree};
use crate::LearnError;
use serde::Serialize;

/// C4.5's table of confidence levels and normal deviates, from which the
/// deviate of the chosen confidence is interpolated (Quinlan 1993).
const CONF: [f64; 9] = [0.0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00];
const DEV: [f64; 9] = [4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00];

/// The errors C4.5 adds to `e` errors seen among `n` rows: the upper
/// bound of the binomial error rate at confidence `cf`, times `n`, minus
/// `e` (C4.5's `AddErrs`, normal approximation above one error).
pub fn added_errors(n: f64, e: f64, cf: f64) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    let i = CONF
        .iter()
        .position(|&v| cf <= v)
        .unwrap_or(CONF.len() - 1)
        .max(1);
    let z = DEV[i - 1] + (DEV[i] - DEV[i - 1]) * (cf - CONF[i - 1]) / (CONF[i] - CONF[i - 1]);
    let coeff = z * z;
    if e < 1e-6 {
        n * (1.0 - (cf.ln() / n).exp())
    } else if e < 0.9999 {
        let v0 = n * (1.0 - (cf.ln() / n).exp());
        v0 + e * (added_errors(n, 1.0, cf) - v0)
    } else if e + 0.5 >= n {
        0.67 * (n - e)
    } else {
        let pr = (e
            + 0.5
            + coeff / 2.0
            + (coeff * ((e + 0.5) * (1.0 - (e + 0.5) / n) + coeff / 4.0)).sqrt())
            / (n + coeff);
        n * pr - e
    }
}

/// One tree of the weakest-link sequence: its leaves and training errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TradeOff {
    /// Leaves of the tree.
    pub leaves: usize,
    /// Training rows it misclassifies.
    pub errors: u64,
}

impl Tree {
    /// C4.5's pessimistic pruning at confidence `cf` (0.25 is C4.5's
    /// default; smaller prunes more): bottom-up, a subtree becomes a leaf
    /// when the leaf's estimated errors (seen errors plus
    /// [`added_errors`]) are at most the subtree's plus 0.1. C4.5's
    /// subtree raising is not done.
    pub fn pruned(&self, cf: f64) -> Result<Tree, LearnError> {
        if !(cf > 0.0 && cf < 1.0) {
            return Err(LearnError::Confidence(cf));
        }
        fn go(n: &mut Node, cf: f64) -> f64 {
            let e = n.leaf_errors() as f64;
            let as_leaf = e + added_errors(n.rows() as f64, e, cf);
            let Some(s) = &mut n.split else {
                return as_leaf;
            };
            let below: f64 = s.children.iter_mut().map(|c| go(c, cf)).sum();
            if as_leaf <= below + 0.1 {
                n.split = None;
                as_leaf
            } else {
                below
            }
        }
        let mut t = self.clone();
        go(&mut t.root, cf);
        Ok(t)
    }

    /// The tree cut at `depth` edges below the root: deeper subtrees
    /// become leaves (the same tree as growing no deeper, since growth is
    /// greedy from the top).
    pub fn cut_to_depth(&self, depth: usize) -> Tree {
        fn go(n: &mut Node, left: usize) {
            if left == 0 {
                n.split = None;
            } else if let Some(s) = &mut n.split {
                s.children.iter_mut().for_each(|c| go(c, left - 1));
            }
        }
        let mut t = self.clone();
        go(&mut t.root, depth);
        t
    }

    /// The largest tree of the weakest-link sequence (see
    /// [`Tree::trade_off`]) with at most `leaves` leaves (at least one).
    pub fn limit_leaves(&self, leaves: usize) -> Tree {
        let mut w = WeakestLink::new(&self.root);
        while w.leaves() > leaves.max(1) {
            w.collapse_weakest();
        }
        Tree {
            schema: self.schema.clone(),
            root: w.rebuild(&self.root),
        }
    }

    /// Size against errors: the tree itself, then each tree made from the
    /// one before by turning into a leaf the inner node that adds the
    /// fewest training errors per leaf removed, down to the root alone.
    pub fn trade_off(&self) -> Vec<TradeOff> {
        let mut w = WeakestLink::new(&self.root);
        let mut out = vec![w.point()];
        while w.leaves() > 1 {
            w.collapse_weakest();
            out.push(w.point());
        }
        out
    }
}

/// The tree flattened in preorder, with each subtree's leaves and errors
/// kept up to date as nodes are collapsed.
struct WeakestLink {
    parent: Vec<Option<usize>>,
    size: Vec<usize>,
    leaf_errors: Vec<u64>,
    leaves: Vec<usize>,
    errors: Vec<u64>,
    collapsed: Vec<bool>,
    inner: Vec<bool>,
}

impl WeakestLink {
    fn new(root: &Node) -> WeakestLink {
        let mut w = WeakestLink {
            parent: Vec::new(),
            size: Vec::new(),
            leaf_errors: Vec::new(),
            leaves: Vec::new(),
            errors: Vec::new(),
            collapsed: Vec::new(),
            inner: Vec::new(),
        };
        w.add(root, None);
        w
    }

    /// Adds `n`'s subtree; gives its (leaves, errors).
    fn add(&mut self, n: &Node, parent: Option<usize>) -> (usize, u64) {
        let id = self.parent.len();
        self.parent.push(parent);
        self.size.push(1);
        self.leaf_errors.push(n.leaf_errors());
        self.leaves.push(1);
        self.errors.push(n.leaf_errors());
        self.collapsed.push(false);
        self.inner.push(n.split.is_some());
        if let Some(s) = &n.split {
            let (mut l, mut e) = (0, 0);
            for c in &s.children {
                let (cl, ce) = self.add(c, Some(id));
                l += cl;
                e += ce;
            }
            self.size[id] = self.parent.len() - id;
            self.leaves[id] = l;
            self.errors[id] = e;
        }
        (self.leaves[id], self.errors[id])
    }

    fn leaves(&self) -> usize {
        self.leaves[0]
    }

    fn point(&self) -> TradeOff {
        TradeOff {
            leaves: self.leaves[0],
            errors: self.errors[0],
        }
    }

    /// Collapses the live inner node with the fewest added errors per
    /// leaf removed (the earliest in preorder on a tie).
    fn collapse_weakest(&mut self) {
        let mut best: Option<(usize, u64, usize)> = None;
        let mut i = 0;
        while i < self.parent.len() {
            if self.collapsed[i] || !self.inner[i] {
                // A collapsed node's subtree is gone: skip it.
                i += if self.collapsed[i] { self.size[i] } else { 1 };
                continue;
            }
            let added = self.leaf_errors[i] - self.errors[i];
            let removed = self.leaves[i] - 1;
            // added / removed < best's, compared without division.
            if best.is_none_or(|(_, a, r)| {
                (added as u128) * (r as u128) < (a as u128) * (removed as u128)
            }) {
                best = Some((i, added, removed));
            }
            i += 1;
        }
        let Some((v, added, removed)) = best else {
            return;
        };
        self.collapsed[v] = true;
        self.leaves[v] = 1;
        self.errors[v] = self.leaf_errors[v];
        let mut p = self.parent[v];
        while let Some(u) = p {
            self.leaves[u] -= removed;
            self.errors[u] += added;
            p = self.parent[u];
        }
    }

    /// The original tree with the collapsed nodes made leaves.
    fn rebuild(&self, root: &Node) -> Node {
        fn go(w: &WeakestLink, n: &Node, id: &mut usize) -> Node {
            let me = *id;
            *id += 1;
            if w.collapsed[me] {
                *id = me + w.size[me];
                return Node::leaf(n.counts.clone());
            }
            let mut out = Node {
                counts: n.counts.clone(),
                split: None,
                conflict: n.conflict,
            };
            if let Some(s) = &n.split {
                out.split = Some(Split {
                    feature: s.feature,
                    test: s.test.clone(),
                    children: s.children.iter().map(|c| go(w, c, id)).collect(),
                });
            }
            out
        }
        go(self, root, &mut 0)
    }
}
