//! What a game brings to the search besides its rules: its named
//! evaluations and its tactics. The rules crates implement it, so the
//! search and every front end name no game.

use crate::{Evaluator, Game, Tactics};

/// A game the search can play: its evaluations by name and its tactics.
pub trait EngineGame: Game {
    /// The game's evaluations, one value naming each.
    type Eval: Evaluator<Self> + Clone + 'static;
    /// What quiescence follows and how moves are ordered before search.
    type Tactics: Tactics<Self>;
    /// The evaluation names; the default (strongest) first.
    fn eval_names() -> &'static [&'static str];
    /// The evaluation with this name, or a message listing the names.
    fn eval_by_name(name: &str) -> Result<Self::Eval, String>;
    /// The game's strongest evaluation.
    fn default_eval() -> Self::Eval {
        Self::eval_by_name(Self::eval_names()[0]).expect("the default evaluation exists")
    }
    /// The game's first hand-written evaluation (the first name other
    /// than the learned `nnue`): where a result must not move when a net
    /// is retrained or made the default — test sets, self-play data, the
    /// solver's first guess.
    fn hand_written_eval() -> Self::Eval {
        let name = Self::eval_names()
            .iter()
            .find(|n| !n.starts_with("nnue"))
            .expect("a hand-written evaluation exists");
        Self::eval_by_name(name).expect("listed names exist")
    }
}
