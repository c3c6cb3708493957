//! A proof from df-pn: the table holds numbers, not a tree, and may have
//! lost the entries a proof needs, so the proof is derived again node by
//! node after the root is solved. At a node where the winning side
//! chooses, the moves the table shows winning come first, the one of least
//! distance (`Found::dist`) before the others, so the proof goes down
//! toward its leaves instead of wandering through proven positions; when
//! the table shows none, the node itself is searched by MID, which picks
//! among its moves by their numbers as the run did, and the move that
//! proved it comes first. Each is searched by MID until it is solved; the
//! first that wins is kept. Where the other side chooses, every move is searched and
//! must lose for it. Each search starts from the table the run left, so
//! what the table kept is found again at once and only what it lost is
//! searched again; each runs on the node's own path, with the repetitions
//! that path makes, as the proof will be replayed.
//!
//! Where a draw meets the claim (a disproof of `win`, a proof of
//! `not-lose`), a position whose proof is already in the tree is not
//! derived again: its node is a `same` leaf pointing to that proof, and
//! the proof is a graph whose endless lines are draws. Without it, the
//! tree holds every line the losing side can walk before a position
//! repeats, exponentially many (docs/solve.md, "Proof files"). Where a
//! draw misses the claim the proof stays a tree: a line that goes on
//! forever would be a draw there.
//!
//! Nothing is trusted that the independent checker (`zoo-proofcheck`)
//! would not check: a wrong extraction is a proof it refuses.

use super::{leaf_numbers, Search, INF, MAX_PROOF_NODES};
use crate::leaf::End;
use crate::proof::Tree;
use zoo_core::{Game, MoveList};

/// The longest line a derived proof may have, in plies: a line of the
/// derivation is as deep a recursion (with MID's below it), and a deeper
/// one overflowed the stack.
pub(crate) const MAX_PROOF_DEPTH: usize = 1000;

pub(crate) use crate::limits::NoProof as Failed;

impl<G: Game> Search<'_, G> {
    /// Searches the current position (not a leaf) until it is solved:
    /// `Some(true)` when its side to move achieves its aim (φ = 0),
    /// `Some(false)` when it does not (δ = 0).
    fn solve_here(&mut self) -> Result<bool, Failed> {
        loop {
            let f = self.mid(INF - 1, INF - 1, false);
            if f.phi == 0 {
                return Ok(true);
            }
            if f.delta == 0 {
                return Ok(false);
            }
            if self.stopped {
                return Err(Failed::Stopped);
            }
        }
    }

    /// The proof below the current position, a solved non-leaf whose side
    /// to move wins (`winner`) or loses the binary game. `left` counts down
    /// the nodes the proof may still have.
    pub(crate) fn extract(
        &mut self,
        winner: bool,
        left: &mut u64,
    ) -> Result<Vec<Tree<G::Move>>, Failed> {
        if self.path.len() > MAX_PROOF_DEPTH {
            // Each ply is a frame of this recursion: a line this long
            // would overflow the stack before it ended.
            return Err(Failed::TooLarge);
        }
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        // The winner needs one move after which the side to move loses;
        // the loser's every move must leave the side to move winning.
        // Ranked: a leaf that does it, a child the table shows doing it
        // (the cheapest first), a child not known, a leaf that does not.
        let mut order: Vec<((u8, u64), G::Move)> = Vec::with_capacity(moves.len());
        let mut scratch = MoveList::new();
        for &mv in &moves {
            let u = self.pos.make(mv);
            self.push();
            let rank = match self.leaves.classify(&self.pos, &self.hist, &mut scratch) {
                Some(end) => {
                    let (phi, delta) = leaf_numbers(&self.leaves, &self.pos, end);
                    if (winner && delta == 0) || (!winner && phi == 0) {
                        (0, 0)
                    } else {
                        (3, 0)
                    }
                }
                None if self.draw_ok && self.done.contains(&self.pos.key()) => (0, 0),
                None => match self.table.get(self.pos.key()) {
                    Some(h) if h.delta == 0 && self.on_path(&h.deps) => {
                        (1, self.table.dist_at(h.slot) as u64)
                    }
                    _ => (2, 0),
                },
            };
            self.pop();
            self.pos.unmake(mv, u);
            order.push((rank, mv));
        }
        if winner && !order.iter().any(|&(r, _)| r.0 <= 1) {
            // No child is known to win: searching the node itself lets
            // df-pn choose among them by their numbers, as the run did,
            // instead of solving each in turn to the end (a child that
            // does not win may cost far more than the one that does).
            if self.solve_here()? {
                if let Some(mv) = self.proving {
                    for o in order.iter_mut().filter(|o| o.1 == mv) {
                        o.0 = (1, 0);
                    }
                }
            }
        }
        if winner {
            order.sort_by_key(|&(r, _)| r);
        }
        let mut kids = Vec::new();
        for (rank, mv) in order {
            if rank.0 == 3 {
                if winner {
                    continue;
                }
                return Err(Failed::Inconsistent);
            }
            if *left == 0 {
                return Err(Failed::TooLarge);
            }
            let before = *left;
            let done_mark = self.done_log.len();
            *left -= 1;
            self.built = MAX_PROOF_NODES - *left;
            let u = self.pos.make(mv);
            self.push();
            let got = self.child_tree(mv, winner, left);
            self.pop();
            self.pos.unmake(mv, u);
            match got {
                Ok(Some(t)) => {
                    kids.push(t);
                    if winner {
                        return Ok(kids);
                    }
                }
                // The winner tries its next move: a value the table holds
                // for the game where endless play draws (docs/solve.md)
                // may not hold on this path, where a repetition draws at
                // once; the tree is built from real leaves only.
                Ok(None) | Err(Failed::Inconsistent) if winner => {
                    // The positions its subtree finished are not in the
                    // proof: no `same` leaf may point to them.
                    for k in self.done_log.drain(done_mark..) {
                        self.done.remove(&k);
                    }
                    *left = before;
                    self.built = MAX_PROOF_NODES - *left;
                }
                Ok(None) => return Err(Failed::Inconsistent),
                Err(e) => return Err(e),
            }
        }
        if winner {
            return Err(Failed::Inconsistent);
        }
        Ok(kids)
    }

    /// The subtree of the position just made by `mv` when its side to move
    /// comes out losing (the parent's `winner`) or winning (not), else
    /// `None`.
    fn child_tree(
        &mut self,
        mv: G::Move,
        winner: bool,
        left: &mut u64,
    ) -> Result<Option<Tree<G::Move>>, Failed> {
        let mut scratch = MoveList::new();
        if let Some(end) = self.leaves.classify(&self.pos, &self.hist, &mut scratch) {
            return Ok(Some(Tree {
                mv: Some(mv),
                end: Some(end),
                kids: Vec::new(),
                key: 0,
                same: None,
            }));
        }
        let key = self.pos.key();
        if self.draw_ok && self.done.contains(&key) {
            // The proof already goes on from this position: play goes on
            // there (the same side chooses, so the same strategy holds).
            return Ok(Some(Tree {
                mv: Some(mv),
                end: None,
                kids: Vec::new(),
                key: 0,
                same: Some(key),
            }));
        }
        let child_wins = self.solve_here()?;
        if child_wins == winner {
            return Ok(None);
        }
        let kids = self.extract(child_wins, left)?;
        if self.draw_ok && self.done.insert(key) {
            self.done_log.push(key);
        }
        Ok(Some(Tree {
            mv: Some(mv),
            end: None,
            kids,
            key,
            same: None,
        }))
    }
}

/// A leaf is the whole proof when the root is one.
pub(crate) fn root_leaf<M>(end: End) -> Tree<M> {
    Tree {
        mv: None,
        end: Some(end),
        kids: Vec::new(),
        key: 0,
        same: None,
    }
}
