//! The `--game`, `--fen` and `--rules` options of the commands, parsed into
//! the application layer's registry ([`GameKind`]) and a [`Session`].

use anyhow::{Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use zoo_app::{EngineOptions, GameKind, Session};

/// The clap parser of a game name: the registry's names, listed in `--help`.
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(GameKind::ALL.map(GameKind::name)).map(|name| {
        name.parse::<GameKind>()
            .expect("the possible values are the registry's names")
    })
}

/// The `--game`, `--fen` and `--rules` options of every command that works
/// on one position.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Named rule set (default: the game's first).
    #[arg(long)]
    pub rules: Option<String>,
}

impl PositionArgs {
    /// A session at this position with an engine of `options`.
    pub fn session(&self, options: EngineOptions) -> Result<Session> {
        let mut s = Session::new(self.game, self.rules.as_deref(), options)?;
        if let Some(fen) = &self.fen {
            s.set_position::<&str>(Some(fen), &[])
                .context("bad --fen")?;
        }
        Ok(s)
    }
}
