//! Analysis by an external engine (`zoo analyse --engine jcei:PROGRAM`):
//! a position searched by a JCEI engine (jungine) or another program
//! speaking zoo's protocol, its `info` lines read as they come and its
//! move checked against zoo's legal moves. A JCEI engine is first checked
//! to play the rules asked, by perft, as before a match
//! ([`crate::matches::rules_check`]).

use crate::matches::external::{Dialect, External, Info};
use crate::matches::rules_check;
use crate::options::SearchLimits;
use crate::report::MoveInfo;
use crate::{AppError, EngineOptions, GameKind, Session, Status};

/// An analysis to run.
#[derive(Debug, Clone)]
pub struct ExternalAnalysis {
    /// The game.
    pub game: GameKind,
    /// Its rule set (`None`: the default).
    pub rules: Option<String>,
    /// The position (`None`: the start).
    pub fen: Option<String>,
    /// Moves played from it first.
    pub moves: Vec<String>,
    /// `jcei:PROGRAM ARGS…` or `cmd:PROGRAM ARGS…` (zoo's protocol).
    pub engine: String,
    /// The search's limits (none: a second).
    pub limits: SearchLimits,
}

/// What the external engine found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ExternalReport {
    /// The position searched.
    pub fen: String,
    /// The engine's move, both notations (checked legal).
    pub best: MoveInfo,
    /// Its last `info` line with a depth or a score, if it wrote one.
    pub last: Option<Info>,
}

/// Runs `r`, giving each `info` line of the engine to `on_info`.
pub fn analyse_external(
    r: &ExternalAnalysis,
    on_info: &mut dyn FnMut(&Info),
) -> Result<ExternalReport, AppError> {
    let (dialect, command) = if let Some(c) = r.engine.strip_prefix("jcei:") {
        (Dialect::Jcei, c)
    } else if let Some(c) = r.engine.strip_prefix("cmd:") {
        (Dialect::Zoo, c)
    } else {
        return Err(AppError::Option(format!(
            "--engine {:?}: give jcei:PROGRAM or cmd:PROGRAM",
            r.engine
        )));
    };
    let mut session = Session::new(r.game, r.rules.as_deref(), EngineOptions::default())?;
    session.set_position(r.fen.as_deref(), &r.moves)?;
    if session.status() != Status::Playing {
        return Err(AppError::Input(format!(
            "the game is over in {}: nothing to analyse",
            session.fen()
        )));
    }
    let fen = session.fen();
    if dialect == Dialect::Jcei {
        if r.game != GameKind::Jungle {
            return Err(AppError::Option(format!(
                "JCEI engines play Jungle; this is {}",
                r.game.name()
            )));
        }
        let start = Session::new(r.game, r.rules.as_deref(), EngineOptions::default())?.fen();
        let mut at = vec![(start, 4), (fen.clone(), 3)];
        at.extend(rules_check::probes()?);
        rules_check::same_rules_at(r.game, r.rules.as_deref(), command, at)?;
    }
    let limits = r.limits.or(SearchLimits {
        movetime_ms: Some(1000),
        ..SearchLimits::default()
    });
    let mut engine = External::start(command, r.game.name(), session.rules_name(), dialect)?;
    let mut last = None;
    let mv = engine.analyse(&fen, &[], &limits, &mut |i| {
        on_info(i);
        last = Some(i.clone());
    })?;
    let best = session
        .legal_moves()
        .into_iter()
        .find(|m| m.coord == mv || m.short == mv)
        .ok_or_else(|| {
            AppError::External(format!(
                "the engine's move {mv:?} is not legal in {fen} (zoo's rules {})",
                session.rules_name()
            ))
        })?;
    Ok(ExternalReport { fen, best, last })
}
