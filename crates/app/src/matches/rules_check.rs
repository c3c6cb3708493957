//! Before a match against a JCEI engine: do both sides play the same
//! rules? JCEI has no way to name a rule set, so the engine is asked for
//! its move-path counts (`perft n`) from the start, the match's first
//! openings and a few positions that tell the rule sets apart
//! (`jcei-probes.txt`), and each is compared with zoo's count of the paths
//! of the full length (JCEI's way of counting) under the match's rules.

use super::external::{Dialect, External};
use super::MatchPlan;
use crate::perft::{perft, PerftRequest};
use crate::{AppError, EngineOptions, GameKind, Session};
use zoo_core::{Counting, Repetition};

/// The probe positions and depths (see the file's opening comment).
const PROBES: &str = include_str!("jcei-probes.txt");

/// The positions a JCEI engine is checked on, with their depths: the
/// start to 4 plies, the first two openings to 3, the probes as listed.
pub fn positions(plan: &MatchPlan) -> Result<Vec<(String, u32)>, AppError> {
    let start = Session::new(plan.game, plan.rules.as_deref(), EngineOptions::default())?.fen();
    let mut v = vec![(start, 4)];
    v.extend(plan.openings.iter().take(2).map(|f| (f.clone(), 3)));
    v.extend(probes()?);
    Ok(v)
}

/// The positions of `jcei-probes.txt` with their depths.
pub fn probes() -> Result<Vec<(String, u32)>, AppError> {
    let mut v = Vec::new();
    for line in PROBES.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some((fen, depth)) = line.split_once('|') else {
            continue;
        };
        let depth = depth
            .trim()
            .parse()
            .map_err(|_| AppError::Input(format!("jcei-probes.txt: bad depth in {line:?}")))?;
        v.push((fen.trim().to_string(), depth));
    }
    Ok(v)
}

/// zoo's count of the paths of exactly `depth` plies from `fen`.
pub fn zoo_count(
    game: GameKind,
    rules: Option<&str>,
    fen: &str,
    depth: u32,
) -> Result<u64, AppError> {
    Ok(perft(&PerftRequest {
        game,
        rules: rules.map(str::to_string),
        fen: Some(fen.to_string()),
        depth,
        repetition: Repetition::None,
        counting: Counting::FullLength,
        divide: false,
        threads: 1,
        no_cap: false,
    })?
    .nodes)
}

/// Refuses the match, saying where, unless the JCEI engine `command`
/// counts as zoo does under the plan's rules.
pub fn same_rules(plan: &MatchPlan, command: &str) -> Result<(), AppError> {
    if plan.game != GameKind::Jungle {
        return Err(AppError::Option(format!(
            "JCEI engines play Jungle; this match is {}",
            plan.game.name()
        )));
    }
    same_rules_at(plan.game, plan.rules.as_deref(), command, positions(plan)?)
}

/// Refuses, saying where, unless the JCEI engine `command` counts as zoo
/// does under `rules` on each of `positions` (FEN and depth).
pub fn same_rules_at(
    game: GameKind,
    rules: Option<&str>,
    command: &str,
    positions: Vec<(String, u32)>,
) -> Result<(), AppError> {
    let session = Session::new(game, rules, EngineOptions::default())?;
    let rules_name = session.rules_name();
    let mut engine = External::start(command, game.name(), rules_name, Dialect::Jcei)?;
    for (fen, depth) in positions {
        let theirs = engine.perft(&fen, depth)?;
        let ours = zoo_count(game, rules, &fen, depth)?;
        if theirs != ours {
            return Err(AppError::External(format!(
                "the JCEI engine and zoo (rules {rules_name}) play different rules: from \
                 `{fen}`, perft({depth}) is {theirs} for the engine and {ours} for zoo \
                 (counting paths of the full length); choose the engine's rule set with \
                 --rules (docs/protocol.md, \"JCEI\")"
            )));
        }
    }
    Ok(())
}
