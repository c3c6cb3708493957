//! A proof as a tree of moves that a checker can replay: at the nodes where
//! the winning side chooses, one move; where the other side chooses, every
//! legal move; each leaf says why it ends.

use crate::leaf::End;
use crate::value::{Answer, Goal};

/// One node of a [`Proof`]: the move that leads to it from its parent and,
/// at a leaf, why the line ends there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofNode<M> {
    /// The parent's index (`u32::MAX` at the root).
    pub parent: u32,
    /// The move from the parent (`None` at the root).
    pub mv: Option<M>,
    /// Why the line ends here, or `None` at an inner node.
    pub end: Option<End>,
    /// The first child's index; the children are consecutive.
    pub first_child: u32,
    /// The number of children (0 at a leaf).
    pub children: u32,
}

/// A proof (the goal holds) or disproof (it fails) of a root position.
///
/// Nodes are stored breadth first from the root (index 0), the children of
/// a node consecutive. The tree follows paths, not positions: a repetition
/// leaf is a draw because of the moves above it, which replaying the tree
/// from the root recreates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof<M> {
    /// The question.
    pub goal: Goal,
    /// [`Answer::Proven`] (the attacker chooses at OR nodes) or
    /// [`Answer::Disproven`] (the opponent chooses at AND nodes).
    pub answer: Answer,
    /// The nodes, root first.
    pub nodes: Vec<ProofNode<M>>,
}

impl<M> Proof<M> {
    /// The indices of node `i`'s children.
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first_child as usize..(n.first_child + n.children) as usize
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the proof has no node (never, for a proof built by a search).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
