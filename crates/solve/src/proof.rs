//! A proof as a tree of moves that a checker can replay: at the nodes where
//! the winning side chooses, one move; where the other side chooses, every
//! legal move; each leaf says why it ends.

use crate::leaf::End;
use crate::value::{Answer, Goal};
use zoo_core::{Game, Outcome};

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
    /// At a leaf, the index of an inner node with the same position, where
    /// play goes on: the proof is then a graph. Where a draw meets the
    /// claim its endless lines are repetition draws; where it misses, it
    /// has no cycle (docs/solve.md, "Proof files"). `None` elsewhere.
    pub same: Option<u32>,
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

/// The first line of a proof file: its format and version.
pub const MAGIC: &str = "zoo-proof 1";

impl<M: Copy> Proof<M> {
    /// The proof as text (docs/solve.md, "Proof files"), replayed from
    /// `root` to write each move in coordinates:
    ///
    /// ```text
    /// zoo-proof 1
    /// game jungle-checkers
    /// rules leiden
    /// fen 7/3R3/7/7/7/7/e6 w
    /// goal win
    /// answer proven
    /// nodes 2
    /// 0 - - -
    /// 1 0 d6d7 terminal win
    /// ```
    ///
    /// A node line is `id parent move end`: ids from 0 (the root, whose
    /// parent and move are `-`), each parent before its children; `end` is
    /// `-` at an inner node, else why the line ends, with the result for
    /// the side to move there: `terminal R`, `no-moves R`, `repetition`,
    /// `table R` (R: `win`, `draw`, `loss`).
    pub fn to_text<G: Game<Move = M>>(&self, root: &G) -> String {
        let mut out = format!(
            "{MAGIC}\ngame {}\nrules {}\nfen {}\ngoal {}\nanswer {}\nnodes {}\n",
            root.game_name(),
            root.rules_name(),
            root.to_fen(),
            self.goal.name(),
            self.answer.name(),
            self.nodes.len()
        );
        let mut text = vec![String::new(); self.nodes.len()];
        // Depth first with the position made along the way: a move is
        // written from the position it is played in.
        let mut pos = root.clone();
        self.write_below(0, &mut pos, &mut text);
        for (i, t) in text.iter().enumerate() {
            let n = &self.nodes[i];
            let parent = if i == 0 {
                "-".to_string()
            } else {
                n.parent.to_string()
            };
            let end = match (n.end, n.same) {
                (None, Some(j)) => format!("same {j}"),
                (None, None) => "-".to_string(),
                (Some(End::Terminal(o)), _) => format!("terminal {}", outcome_name(o)),
                (Some(End::NoMoves(o)), _) => format!("no-moves {}", outcome_name(o)),
                (Some(End::Repetition), _) => "repetition".to_string(),
                (Some(End::Oracle(o)), _) => format!("table {}", outcome_name(o)),
                // No proof is written with stored bounds as leaves (the
                // store holds answers, not their proofs): a checker
                // refuses the word.
                (Some(End::Stored(o)), _) => format!("stored {}", outcome_name(o)),
            };
            let mv = if i == 0 { "-" } else { t.as_str() };
            out.push_str(&format!("{i} {parent} {mv} {end}\n"));
        }
        out
    }

    fn write_below<G: Game<Move = M>>(&self, i: usize, pos: &mut G, text: &mut [String]) {
        for c in self.children(i) {
            let m = self.nodes[c].mv.expect("a child has a move");
            text[c] = pos.move_to_coord(m);
            let u = pos.make(m);
            self.write_below(c, pos, text);
            pos.unmake(m, u);
        }
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

/// A proof built depth first, each node owning its children: what a
/// search that re-derives the proof node by node (df-pn's extraction)
/// builds, turned into a [`Proof`] by [`Tree::into_proof`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tree<M> {
    /// The move from the parent (`None` at the root).
    pub mv: Option<M>,
    /// Why the line ends here, or `None` at an inner node.
    pub end: Option<End>,
    /// The children: one where the winning side chooses, all elsewhere.
    pub kids: Vec<Tree<M>>,
    /// The position's key at an inner node (a `same` leaf may point to it).
    pub key: u64,
    /// At a leaf that goes on as the inner node of the same position
    /// ([`ProofNode::same`]), that position's key.
    pub same: Option<u64>,
}

impl<M: Copy> Tree<M> {
    /// The proof with this tree's nodes stored breadth first, as
    /// [`Proof`] keeps them; `None` when a `same` leaf names a position
    /// no inner node of the tree has (a derivation's error).
    pub fn into_proof(self, goal: Goal, answer: Answer) -> Option<Proof<M>> {
        let mut out = Proof {
            goal,
            answer,
            nodes: vec![ProofNode {
                parent: u32::MAX,
                mv: None,
                end: self.end,
                first_child: 0,
                children: 0,
                same: None,
            }],
        };
        // Inner nodes by position, and the `same` leaves to point at them.
        let mut inner = std::collections::HashMap::new();
        let mut refs = Vec::new();
        let mut queue = std::collections::VecDeque::from([(self, 0usize)]);
        while let Some((t, i)) = queue.pop_front() {
            if let Some(key) = t.same {
                refs.push((i, key));
            }
            if t.kids.is_empty() {
                continue;
            }
            inner.entry(t.key).or_insert(i as u32);
            out.nodes[i].first_child = out.nodes.len() as u32;
            out.nodes[i].children = t.kids.len() as u32;
            for k in t.kids {
                let j = out.nodes.len();
                out.nodes.push(ProofNode {
                    parent: i as u32,
                    mv: k.mv,
                    end: k.end,
                    first_child: 0,
                    children: 0,
                    same: None,
                });
                queue.push_back((k, j));
            }
        }
        for (i, key) in refs {
            out.nodes[i].same = Some(*inner.get(&key)?);
        }
        Some(out)
    }
}
