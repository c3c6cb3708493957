//! The closure check of [`Ghi::Closure`](super::Ghi::Closure).
//!
//! Under that mode every value is stored, as the naive mode does, but a
//! solved value resting on a repetition (or on a value that does) is marked
//! [`UNCHECKED`](super::UNCHECKED). Such a value is always the *draw
//! side's* (the side a draw helps: the defender of `win`, the attacker of
//! `not-lose`): a value that needs no draw never rests on one. It may be
//! wrong on other paths: the position it repeated may not be on them.
//!
//! When the root's answer is such a value, the check walks the marked
//! values it rests on: from a marked position where the draw side moves,
//! one child must be a leaf that meets its claim, or a value solved for
//! the draw side in the table; where the other side moves, every child
//! must. Unmarked values are sound and end the walk; marked ones are
//! walked in turn. When every marked position reached passes, they form a
//! set closed under the draw side's strategy: from any of them the draw
//! side stays inside it, or reaches a sound value or a leaf that meets its
//! claim, whatever the other side plays. A game that stays inside forever
//! is endless play, a draw, which also meets the claim. So every one of
//! them is right in the game where endless play is a draw (the game the
//! tables solve, with the same root value: docs/solve.md, "Why the root's
//! answer is right"), and all are unmarked.
//!
//! Where some do not close (a child a claim needs is solved the other
//! way, open, or no longer in the table), the check takes out those that
//! lack what their claim needs, then those that relied on them, until
//! what is left is closed: what is left is marked checked, what was taken
//! out is reopened. If the root was taken out the run searches it again;
//! the values that closed are sound from then on, so every failed check
//! leaves fewer unchecked values to fail.

use super::Search;
use crate::leaf::{End, Leaves};
use std::collections::hash_map::{Entry, HashMap};
use zoo_core::{Game, MoveList};

/// What a child is worth to the claim of its parent in the walk.
enum Status {
    /// A leaf meeting the claim, or a checked value for the draw side.
    Sound,
    /// A value for the draw side still marked: walked in turn.
    Unchecked,
    /// A leaf or value against the claim, or an open or missing one.
    Fails,
}

/// How a closure check ended.
pub(crate) enum Closed {
    /// The root's answer stands: the unchecked values it rests on close
    /// (and are marked checked).
    Yes {
        /// Positions walked.
        walked: u64,
    },
    /// Some did not close, the root among them: they were reopened, the
    /// rest marked checked.
    No {
        /// Positions walked.
        walked: u64,
        /// Of them, reopened.
        reopened: u64,
    },
}

impl<G: Game> Search<'_, G> {
    /// Whether the side a draw helps moves at `pos`: a repetition there
    /// solves it for its side to move (φ = 0).
    fn draw_side_moves(&self, pos: &G) -> bool {
        self.leaves.proves(pos, End::Repetition) == self.leaves.is_or(pos)
    }

    /// Whether the numbers `(φ, δ)` of `pos` are solved for the draw side.
    fn for_draw_side(&self, pos: &G, phi: u32, delta: u32) -> bool {
        if self.draw_side_moves(pos) {
            phi == 0
        } else {
            delta == 0
        }
    }

    /// `c`'s worth to the walk, on no path: a position repeats nothing
    /// here, since endless play inside the set is the draw the claim
    /// allows.
    fn status(&self, c: &G, scratch: &mut MoveList<G::Move>) -> Status {
        let hist = Leaves::<G>::history(c);
        if let Some(end) = self.leaves.classify(c, &hist, scratch) {
            let (phi, delta) = super::leaf_numbers(&self.leaves, c, end);
            return if self.for_draw_side(c, phi, delta) {
                Status::Sound
            } else {
                Status::Fails
            };
        }
        match self.table.get(c.key()) {
            Some(h) if self.for_draw_side(c, h.phi, h.delta) => {
                if h.unchecked() {
                    Status::Unchecked
                } else {
                    Status::Sound
                }
            }
            _ => Status::Fails,
        }
    }

    /// Checks the unchecked values the root's answer (solved for the draw
    /// side, resting on a repetition) rests on, as the module docs say:
    /// walks every unchecked value reachable through the children their
    /// claims may use, then takes out, until none is left to take, those
    /// that lack what their claim needs among the sound values and the
    /// unchecked ones still in. What is left is closed: it is marked
    /// checked; what was taken out is reopened.
    pub(crate) fn check_closure(&mut self, root: &G) -> Closed {
        let mut index: HashMap<u64, u32> = HashMap::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut keys: Vec<u64> = Vec::new();
        let mut todo: Vec<(u32, G)> = Vec::new();
        let mut add =
            |key: u64, index: &mut HashMap<u64, u32>, nodes: &mut Vec<Node>| -> (u32, bool) {
                match index.entry(key) {
                    Entry::Occupied(o) => (*o.get(), false),
                    Entry::Vacant(v) => {
                        let i = nodes.len() as u32;
                        v.insert(i);
                        nodes.push(Node::default());
                        keys.push(key);
                        (i, true)
                    }
                }
            };
        let (r, _) = add(root.key(), &mut index, &mut nodes);
        todo.push((r, root.clone()));
        let mut moves = MoveList::new();
        let mut scratch = MoveList::new();
        // Taken out as soon as found lacking, before the rest is known.
        let mut out: Vec<u32> = Vec::new();
        while let Some((i, mut pos)) = todo.pop() {
            let draw_side = self.draw_side_moves(&pos);
            nodes[i as usize].draw_side = draw_side;
            moves.clear();
            pos.legal_moves(&mut moves);
            let mut sound = false;
            let mut lacking = false;
            let mut found: Vec<G> = Vec::new();
            for &mv in &moves {
                let u = pos.make(mv);
                match self.status(&pos, &mut scratch) {
                    Status::Sound => sound = true,
                    Status::Fails => lacking = true,
                    Status::Unchecked => found.push(pos.clone()),
                }
                pos.unmake(mv, u);
                if (draw_side && sound) || (!draw_side && lacking) {
                    break;
                }
            }
            let mut unchecked: Vec<u32> = Vec::new();
            // Decided already: a sound move of the draw side, or a child
            // the other side may play that the claim cannot meet.
            let decided = if draw_side { sound } else { lacking };
            if !decided {
                for c in found {
                    let (j, new) = add(c.key(), &mut index, &mut nodes);
                    unchecked.push(j);
                    if new {
                        todo.push((j, c));
                    }
                }
            }
            let n = &mut nodes[i as usize];
            if draw_side && sound {
                // A sound move: nothing below it needs checking.
                n.support = u32::MAX;
                continue;
            }
            if !draw_side && lacking {
                out.push(i);
                continue;
            }
            // The draw side needs one of them to stay in; the other side
            // must find every one of them in.
            n.support = if draw_side { unchecked.len() as u32 } else { 1 };
            if n.support == 0 {
                out.push(i);
                continue;
            }
            for c in unchecked {
                nodes[c as usize].parents.push(i);
            }
        }
        let walked = nodes.len() as u64;
        // Take out what lacks support, and what relied on it, in turn.
        let mut gone = vec![false; nodes.len()];
        while let Some(i) = out.pop() {
            if std::mem::replace(&mut gone[i as usize], true) {
                continue;
            }
            for p in std::mem::take(&mut nodes[i as usize].parents) {
                let n = &mut nodes[p as usize];
                if gone[p as usize] || n.support == u32::MAX {
                    continue;
                }
                if n.draw_side {
                    n.support -= 1;
                    if n.support == 0 {
                        out.push(p);
                    }
                } else {
                    out.push(p);
                }
            }
        }
        let mut reopened = 0;
        for (i, &k) in keys.iter().enumerate() {
            if gone[i] {
                self.table.reopen(k);
                reopened += 1;
            } else {
                self.table.mark_checked(k);
            }
        }
        if gone[r as usize] {
            Closed::No { walked, reopened }
        } else {
            Closed::Yes { walked }
        }
    }
}

/// A position of the closure check's walk.
#[derive(Default)]
struct Node {
    /// Whether the draw side moves there.
    draw_side: bool,
    /// Where the draw side moves, its children still in (`u32::MAX`: it
    /// has a sound one); where the other side moves, 1 while it stands.
    support: u32,
    /// The walked positions whose claim may rest on this one.
    parents: Vec<u32>,
}
