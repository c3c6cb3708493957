//! A learned tree: nodes that keep the class counts of the rows that
//! reached them, tests on one feature each, and what a tree is asked
//! (classify, size, errors).

use crate::{Dataset, Schema};

/// The test of an inner node.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    /// A nominal feature, one branch per value seen at the node, in this
    /// order (value indices). A value not seen there takes the node's
    /// majority class.
    Nominal(Vec<u32>),
    /// A numeric feature: the first branch `x <= t`, the second `x > t`.
    /// `t` is a value of the training rows (as in C4.5), so it reads as
    /// data.
    Threshold(f64),
}

/// An inner node's question and its branches.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// The feature asked.
    pub feature: usize,
    /// How its value picks a branch.
    pub test: Test,
    /// One subtree per branch.
    pub children: Vec<Node>,
}

/// A node: the class counts of the training rows that reached it and,
/// unless it is a leaf, its split.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Training rows of each class that reached this node.
    pub counts: Vec<u64>,
    /// `None` for a leaf.
    pub split: Option<Split>,
    /// A leaf whose rows all have the same values but not the same class:
    /// no tree over these features can tell them apart.
    pub conflict: bool,
}

impl Node {
    pub(crate) fn leaf(counts: Vec<u64>) -> Node {
        Node {
            counts,
            split: None,
            conflict: false,
        }
    }
    /// Rows that reached the node.
    pub fn rows(&self) -> u64 {
        self.counts.iter().sum()
    }
    /// The majority class (the lowest index on a tie): a leaf's answer.
    pub fn class(&self) -> usize {
        let mut best = 0;
        for (c, &n) in self.counts.iter().enumerate() {
            if n > self.counts[best] {
                best = c;
            }
        }
        best
    }
    /// Training rows the node would misclassify as a leaf.
    pub fn leaf_errors(&self) -> u64 {
        self.rows() - self.counts.get(self.class()).copied().unwrap_or(0)
    }
    /// Whether it is a leaf.
    pub fn is_leaf(&self) -> bool {
        self.split.is_none()
    }
    /// Leaves of the subtree.
    pub fn leaves(&self) -> usize {
        match &self.split {
            None => 1,
            Some(s) => s.children.iter().map(Node::leaves).sum(),
        }
    }
    /// Edges on the longest path down to a leaf.
    pub fn depth(&self) -> usize {
        match &self.split {
            None => 0,
            Some(s) => 1 + s.children.iter().map(Node::depth).max().unwrap_or(0),
        }
    }
    /// Training rows the subtree misclassifies.
    pub fn errors(&self) -> u64 {
        match &self.split {
            None => self.leaf_errors(),
            Some(s) => s.children.iter().map(Node::errors).sum(),
        }
    }
    /// Nodes of the subtree.
    pub fn nodes(&self) -> usize {
        1 + self
            .split
            .as_ref()
            .map_or(0, |s| s.children.iter().map(Node::nodes).sum())
    }
}

/// A decision tree with the schema it was learned on.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// The features and classes.
    pub schema: Schema,
    /// The root.
    pub root: Node,
}

impl Tree {
    /// The class of a row of values (as [`Dataset::push`] takes them).
    pub fn classify(&self, row: &[f64]) -> usize {
        let mut n = &self.root;
        while let Some(s) = &n.split {
            let v = row[s.feature];
            let next = match &s.test {
                Test::Nominal(values) => values.iter().position(|&x| x as f64 == v),
                Test::Threshold(t) => Some(if v <= *t { 0 } else { 1 }),
            };
            match next {
                Some(i) => n = &s.children[i],
                None => break,
            }
        }
        n.class()
    }
    /// Leaves.
    pub fn leaves(&self) -> usize {
        self.root.leaves()
    }
    /// Edges on the longest path from the root to a leaf (0: one leaf).
    pub fn depth(&self) -> usize {
        self.root.depth()
    }
    /// Training rows the tree misclassifies (from the counts it keeps).
    pub fn training_errors(&self) -> u64 {
        self.root.errors()
    }
    /// Training rows.
    pub fn rows(&self) -> u64 {
        self.root.rows()
    }
    /// Rows of `data` the tree misclassifies.
    pub fn errors_on(&self, data: &Dataset) -> u64 {
        (0..data.len())
            .filter(|&i| self.classify(data.row(i)) != data.label(i))
            .count() as u64
    }
    /// The leaves whose rows have equal values and different classes, and
    /// the rows in them.
    pub fn conflicts(&self) -> (usize, u64) {
        fn go(n: &Node, acc: &mut (usize, u64)) {
            match &n.split {
                None if n.conflict => {
                    acc.0 += 1;
                    acc.1 += n.rows();
                }
                None => {}
                Some(s) => s.children.iter().for_each(|c| go(c, acc)),
            }
        }
        let mut acc = (0, 0);
        go(&self.root, &mut acc);
        acc
    }
    /// The features the tree asks, each once, in the order of the schema.
    pub fn features_used(&self) -> Vec<usize> {
        fn go(n: &Node, used: &mut [bool]) {
            if let Some(s) = &n.split {
                used[s.feature] = true;
                s.children.iter().for_each(|c| go(c, used));
            }
        }
        let mut used = vec![false; self.schema.features.len()];
        go(&self.root, &mut used);
        (0..used.len()).filter(|&f| used[f]).collect()
    }
}
