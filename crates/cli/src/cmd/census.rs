//! `zoo census`: how many checkers positions exist per number of pieces
//! (literature C), with the tighter estimate beside the full count.

use crate::games::game_parser;
use anyhow::{bail, Result};
use clap::Args;
use zoo_app::GameKind;
use zoo_checkers::census::{census, totals, MAX_DIFFERENCE, MAX_KINGS};

#[derive(Args, Debug)]
pub struct CensusArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &CensusArgs) -> Result<()> {
    match a.game {
        GameKind::ClassicalCheckers | GameKind::EnglishCheckers => {}
        other => bail!("census counts checkers positions; {other} is not a checkers game"),
    }
    let rows = census();
    let (all, restricted) = totals(&rows);
    if a.json {
        // u128 does not fit JSON numbers exactly: counts are decimal strings.
        let lines: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "pieces": r.pieces,
                    "positions": r.positions.to_string(),
                    "restricted": r.restricted.to_string(),
                })
            })
            .collect();
        let o = serde_json::json!({
            "game": a.game.name(),
            "max_kings": MAX_KINGS,
            "max_difference": MAX_DIFFERENCE,
            "rows": lines,
            "total": all.to_string(),
            "total_restricted": restricted.to_string(),
        });
        println!("{o}");
        return Ok(());
    }
    println!(
        "{:>6}  {:>28}  {:>28}",
        "pieces",
        "positions",
        format!("≤{MAX_KINGS} kings, diff ≤{MAX_DIFFERENCE}")
    );
    for r in &rows {
        println!("{:>6}  {:>28}  {:>28}", r.pieces, r.positions, r.restricted);
    }
    println!("{:>6}  {:>28}  {:>28}", "total", all, restricted);
    println!(
        "        ≈ {:.3e}                    ≈ {:.3e}",
        all as f64, restricted as f64
    );
    Ok(())
}
