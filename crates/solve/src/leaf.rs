//! Where the search stops: finished games, repetition draws and positions
//! the oracle knows. Every algorithm of the crate asks [`Leaves::classify`]
//! so that they all agree on what a leaf is worth.

use crate::value::Goal;
use zoo_core::{Game, History, MoveList, Oracle, Outcome, Repetition, Side};

/// Why a position is a leaf, with its result for the side to move there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// [`Game::terminal`]: a den entered, the last piece taken, a move limit.
    Terminal(Outcome),
    /// No legal move: [`Game::no_moves_outcome`].
    NoMoves(Outcome),
    /// The position repeats one on the current path: a draw (policy `first`).
    Repetition,
    /// The oracle's exact value.
    Oracle(Outcome),
    /// Where bounds from elsewhere ([`Oracle::bounds`]: a store of earlier
    /// answers) decide the goal: the end of those bounds that decides it.
    Stored(Outcome),
}

impl End {
    /// The result for the side to move at the leaf.
    pub fn outcome(self) -> Outcome {
        match self {
            End::Terminal(o) | End::NoMoves(o) | End::Oracle(o) | End::Stored(o) => o,
            End::Repetition => Outcome::Draw,
        }
    }
}

/// The leaf rules of one search: the goal, whose goal it is, and the
/// oracle if any.
pub struct Leaves<'a, G: Game> {
    goal: Goal,
    attacker: Side,
    oracle: Option<&'a dyn Oracle<G>>,
    oracle_pieces: u32,
    /// Up to this many pieces the oracle values every position
    /// ([`Oracle::complete_pieces`]); past it, up to `oracle_pieces`, only
    /// those whose table is built.
    complete_pieces: u32,
}

impl<'a, G: Game> Leaves<'a, G> {
    /// The rules for a search from `root` under `goal`.
    pub fn new(root: &G, goal: Goal, oracle: Option<&'a dyn Oracle<G>>) -> Self {
        Leaves {
            goal,
            attacker: root.side_to_move(),
            oracle,
            oracle_pieces: oracle.map_or(0, |o| o.max_pieces()),
            complete_pieces: oracle.map_or(0, |o| o.complete_pieces()),
        }
    }

    /// The goal searched for.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The side the goal belongs to (the root's side to move).
    pub fn attacker(&self) -> Side {
        self.attacker
    }

    /// Whether `pos` is an OR node: the attacker chooses the move there.
    #[inline]
    pub fn is_or(&self, pos: &G) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// A fresh path record for a search from `root` (policy `first`).
    pub fn history(root: &G) -> History {
        History::starting_at(Repetition::First, root.key(), root.piece_count())
    }

    /// Whether the leaf `end` reached at `pos` proves the goal.
    #[inline]
    pub fn proves(&self, pos: &G, end: End) -> bool {
        let o = end.outcome();
        let for_attacker = if self.is_or(pos) { o } else { o.flip() };
        self.goal.achieved_by(for_attacker)
    }

    /// `Some(end)` when `pos` (the last entry of `history`) is a leaf;
    /// otherwise `None` with its legal moves in `moves` (never empty).
    ///
    /// The order matters only for speed, since the kinds of leaf never
    /// disagree: a repetition cannot meet an oracle position below the
    /// root. Where the oracle covers fewer pieces than the root has
    /// (otherwise the root itself is the oracle's leaf), a capture is a
    /// barrier to repetition; where it covers a size only in part (some
    /// of its tables built), a cycle of moves keeps its table (the
    /// material, and a checkers slice: only kings move in a cycle), so a
    /// cycle's positions are all the oracle's leaves or none. So the
    /// oracle's values, which ignore repetition, are exact wherever the
    /// search meets them.
    pub fn classify(
        &self,
        pos: &G,
        history: &History,
        moves: &mut MoveList<G::Move>,
    ) -> Option<End> {
        moves.clear();
        if let Some(o) = pos.terminal() {
            return Some(End::Terminal(o));
        }
        if history.is_draw() {
            return Some(End::Repetition);
        }
        if let Some(end) = self.by_bounds(pos) {
            return Some(end);
        }
        // The value is all a proof needs: a WDL-only table will do.
        settled(pos, self.oracle, self.oracle_pieces, moves).map(|(end, _)| end)
    }

    /// A leaf where the oracle's [`Oracle::bounds`] decide the goal.
    ///
    /// Sound whatever the path: the bounds are of the position's value as
    /// a root (a cycle a draw), and putting any position's true value in
    /// place of its subtree leaves the root's value as it was: a winner
    /// still wins by a strategy whose distances fall (it never repeats,
    /// and every leaf it meets is a win), and a side that holds at least
    /// a draw still does by staying on positions of that value (every leaf
    /// it meets is at least a draw for it, a repetition a draw).
    #[inline]
    pub(crate) fn by_bounds(&self, pos: &G) -> Option<End> {
        let oracle = self.oracle?;
        // Below the complete size the oracle values it anyway; past it a
        // stored answer counts where the table is not built.
        if pos.piece_count() <= self.complete_pieces {
            return None;
        }
        let (lo, hi) = oracle.bounds(pos)?;
        // For the attacker: flipped (and swapped) at the defender's move.
        let or = self.is_or(pos);
        let (a_lo, a_hi) = if or { (lo, hi) } else { (hi.flip(), lo.flip()) };
        let decided = match self.goal.decided_by(a_lo, a_hi)? {
            crate::value::Answer::Proven => a_lo,
            _ => a_hi,
        };
        Some(End::Stored(if or { decided } else { decided.flip() }))
    }
}

/// The leaves after the finished game and the repetition: a position the
/// oracle knows (with its distance, 0 where it has none) or one without
/// a move; `None` with the moves in `moves` (cleared first) otherwise.
#[inline(always)]
pub(crate) fn settled<G: Game>(
    pos: &G,
    oracle: Option<&dyn Oracle<G>>,
    oracle_pieces: u32,
    moves: &mut MoveList<G::Move>,
) -> Option<(End, u16)> {
    if let Some(oracle) = oracle {
        if pos.piece_count() <= oracle_pieces {
            if let Some(v) = oracle.probe(pos) {
                return Some((End::Oracle(v.outcome), v.distance.unwrap_or(0)));
            }
        }
    }
    pos.legal_moves(moves);
    if moves.is_empty() {
        return Some((End::NoMoves(pos.no_moves_outcome()), 0));
    }
    None
}
