//! Issue 17's experiment 5: the endgame positions of a game's built-in
//! test set (literature C's for Classical Checkers: fewer than half the
//! pieces) solved with no tables, play going to the end of the game: how
//! many each solver decides within a node limit, with what work, whether
//! the solvers agree, and alpha-beta's mates as an independent check of
//! the wins and losses. Literature C's appendix describes proof-number
//! search for checkers; it reports no solved positions to compare with.

use crate::testset::built_in;
use crate::with_tables::{report, run, Sizes, METHODS};
use crate::Report;
use anyhow::{bail, Result};
use std::sync::Arc;
use zoo_core::Oracle;
use zoo_search::EngineGame;

/// Solves the endgame phase of `G`'s built-in test set with each solver
/// of [`METHODS`] and alpha-beta within `sizes`' limits (its `pieces` and
/// `positions` are filled in from the set); `progress` hears of each
/// position.
pub fn endgames<G: EngineGame>(sizes: &Sizes, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    endgames_with::<G>(sizes, None, progress)
}

/// [`endgames`] with `tables` as every solver's oracle and alpha-beta's
/// (`None`: none, play to the end of the game); `tables` names them in
/// the report.
pub fn endgames_with<G: EngineGame>(
    sizes: &Sizes,
    tables: Option<(&Arc<dyn Oracle<G>>, &str)>,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let positions: Vec<G> = built_in::<G>()?
        .into_iter()
        .filter(|(phase, _)| phase == "endgame")
        .map(|(_, p)| p)
        .collect();
    if positions.is_empty() {
        bail!("the built-in test set has no endgame positions");
    }
    let mut pieces: Vec<u32> = positions.iter().map(|p| p.piece_count()).collect();
    pieces.sort_unstable();
    pieces.dedup();
    let sizes = Sizes {
        pieces,
        positions: positions.len(),
        ..sizes.clone()
    };
    let rows = run(
        &positions,
        tables.map(|(o, _)| o),
        &METHODS,
        sizes.nodes,
        sizes.seconds,
        sizes.ab_nodes,
        progress,
    )?;
    match tables {
        None => report(
            "endgames",
            "the test set's endgames without tables",
            positions[0].game_name(),
            "no tables: play goes to the end of the game",
            &rows,
            &sizes,
        ),
        Some((_, name)) => report(
            "endgames-tables",
            "the test set's endgames with endgame tables",
            positions[0].game_name(),
            &format!("{name} as the oracle"),
            &rows,
            &sizes,
        ),
    }
}
