//! What the command line needs to build an engine for a game: its named
//! evaluations and its tactics. A game without an implementation has no
//! engine (the CLI says so instead of failing to build).

use crate::eval::AnimalEval;
use crate::tactics::{AnimalTactics, Tactics};
use zoo_animal::board::Board;
use zoo_animal::Position;
use zoo_core::{Evaluator, Game};

pub trait EngineGame: Game {
    type Eval: Evaluator<Self> + Clone + 'static;
    type Tactics: Tactics<Self>;
    /// The evaluation names; the default (strongest) first.
    fn eval_names() -> &'static [&'static str];
    fn eval_by_name(name: &str) -> Result<Self::Eval, String>;
    /// The endgame tables of this game and rule set under `dir`: `Ok(None)`
    /// when the directory holds none, `Err` when the game has no tables.
    fn open_oracle(
        _dir: &std::path::Path,
        _rules: &Self::Rules,
    ) -> Result<Option<crate::oracle::OracleInfo<Self>>, String> {
        Err(format!(
            "{} has no endgame tables",
            Self::start(&Self::default_rules()).game_name()
        ))
    }
    fn default_eval() -> Self::Eval {
        Self::eval_by_name(Self::eval_names()[0]).expect("the default evaluation exists")
    }
}

impl<B: Board> EngineGame for Position<B> {
    type Eval = AnimalEval;
    type Tactics = AnimalTactics;
    fn eval_names() -> &'static [&'static str] {
        // The strongest measured first (docs/search.md, self-play matches):
        // our `strong` in Jungle, literature A's tables in Jungle Checkers.
        if B::KINDS == 4 {
            &["development", "strong", "simple"]
        } else {
            &AnimalEval::NAMES
        }
    }
    fn eval_by_name(name: &str) -> Result<AnimalEval, String> {
        AnimalEval::by_name(name)
    }
    fn open_oracle(
        dir: &std::path::Path,
        rules: &&'static zoo_animal::RuleSet,
    ) -> Result<Option<crate::oracle::OracleInfo<Self>>, String> {
        Ok(crate::oracle::open_animal::<B>(dir, rules))
    }
}
