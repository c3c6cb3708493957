//! Which game a command runs on, and the dispatch from the `--game` name to
//! the monomorphised generic command (no dynamic dispatch below this point).

use anyhow::{Context, Result};
use clap::ValueEnum;
use zoo_core::{Game, History, Repetition};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameKind {
    Jungle,
    JungleCheckers,
    ClassicalCheckers,
    EnglishCheckers,
}

/// Calls `$f::<PositionType>($args...)` for the chosen game.
#[macro_export]
macro_rules! dispatch {
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {
        match $kind {
            $crate::games::GameKind::Jungle => $f::<zoo_animal::JunglePos>($($arg),*),
            $crate::games::GameKind::JungleCheckers => $f::<zoo_animal::JungleCheckersPos>($($arg),*),
            $crate::games::GameKind::ClassicalCheckers => $f::<zoo_checkers::ClassicalPos>($($arg),*),
            $crate::games::GameKind::EnglishCheckers => $f::<zoo_checkers::EnglishPos>($($arg),*),
        }
    };
}

/// The `--game`, `--fen` and `--rules` options of every command that works
/// on one position.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    #[arg(long, value_enum)]
    pub game: GameKind,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Named rule set (default: the game's first).
    #[arg(long)]
    pub rules: Option<String>,
}

impl PositionArgs {
    pub fn load<G: Game>(&self) -> Result<G> {
        load_position(self.rules.as_deref(), self.fen.as_deref())
    }
}

/// The position named by `--rules` and `--fen` (the start when no FEN).
pub fn load_position<G: Game>(rules: Option<&str>, fen: Option<&str>) -> Result<G> {
    let rules = match rules {
        Some(name) => G::rules_by_name(name)?,
        None => G::default_rules(),
    };
    match fen {
        Some(f) => G::from_fen(f, &rules).with_context(|| "bad --fen"),
        None => Ok(G::start(&rules)),
    }
}

/// A game record that starts at `pos`.
pub fn history_at<G: Game>(pos: &G, policy: Repetition) -> History {
    History::starting_at(policy, pos.key(), pos.piece_count())
}
