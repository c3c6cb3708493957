//! The checkers count of literature C, with its tighter estimate beside it.

use crate::{AppError, GameKind};
use zoo_checkers::census::{census, totals, CensusRow, MAX_DIFFERENCE, MAX_KINGS};

/// A census and its bounds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CensusReport {
    /// The game counted.
    pub game: GameKind,
    /// The kings allowed in the tighter estimate.
    pub max_kings: u32,
    /// The difference of the sides' pieces allowed in the tighter estimate.
    pub max_difference: u32,
    /// One row per number of pieces.
    pub rows: Vec<CensusRow>,
    /// Every arrangement.
    pub total: u128,
    /// Those within the bounds.
    pub total_restricted: u128,
}

/// The census of `game`; a checkers game only (the same board for both).
pub fn checkers_census(game: GameKind) -> Result<CensusReport, AppError> {
    match game {
        GameKind::ClassicalCheckers | GameKind::EnglishCheckers => {}
        other => {
            return Err(AppError::Input(format!(
                "census counts checkers positions; {other} is not a checkers game"
            )))
        }
    }
    let rows = census();
    let (total, total_restricted) = totals(&rows);
    Ok(CensusReport {
        game,
        max_kings: MAX_KINGS,
        max_difference: MAX_DIFFERENCE,
        rows,
        total,
        total_restricted,
    })
}
