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
    /// The game.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `--rules NAME` and `--rule FIELD=VALUE …`: a named rule set with single
/// fields changed (docs/rules/README.md, "Changing one rule").
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// Named rule set (default: the game's first).
    #[arg(long = "rules")]
    pub base: Option<String>,
    /// Change one field of the rule set, e.g. `stalemate=loss` (repeatable;
    /// the fields are listed in docs/rules/README.md). The changed rules
    /// are named `BASE+FIELD=VALUE` in tables, logs and reports.
    #[arg(long = "rule", value_name = "FIELD=VALUE")]
    pub changes: Vec<String>,
}

impl RulesArgs {
    /// The rule set's full name, `None` for the game's default.
    pub fn name(&self) -> Option<String> {
        if self.changes.is_empty() {
            return self.base.clone();
        }
        let mut name = self.base.clone().unwrap_or_default();
        for c in &self.changes {
            name.push('+');
            name.push_str(c);
        }
        Some(name)
    }

    /// Whether either option was given.
    pub fn given(&self) -> bool {
        self.base.is_some() || !self.changes.is_empty()
    }
}

impl PositionArgs {
    /// A session at this position with an engine of `options`.
    pub fn session(&self, options: EngineOptions) -> Result<Session> {
        self.session_after(options, &[])
    }

    /// A session at this position with `moves` (`--moves`, in any notation;
    /// several in one argument may be separated by spaces) played from it,
    /// so that the game's history (repetitions) comes along.
    pub fn session_after(&self, options: EngineOptions, moves: &[String]) -> Result<Session> {
        let mut s = Session::new(self.game, self.rules.name().as_deref(), options)?;
        if let Some(fen) = &self.fen {
            s.set_position::<&str>(Some(fen), &[])
                .context("bad --fen")?;
        }
        let moves: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
        if !moves.is_empty() {
            s.set_position(self.fen.as_deref(), &moves)
                .context("bad --moves")?;
        }
        Ok(s)
    }
}
