//! `zoo census`: how many checkers positions exist per number of pieces
//! (literature C), with the tighter estimate beside the full count.

use crate::games::game_parser;
use anyhow::Result;
use clap::Args;
use zoo_app::census::checkers_census;
use zoo_app::GameKind;

#[derive(Args, Debug)]
pub struct CensusArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &CensusArgs) -> Result<()> {
    let c = checkers_census(a.game)?;
    let (rows, all, restricted) = (&c.rows, c.total, c.total_restricted);
    let (max_kings, max_difference) = (c.max_kings, c.max_difference);
    if a.json {
        return super::json::result(&c);
    }
    println!(
        "{:>6}  {:>28}  {:>28}",
        "pieces",
        "positions",
        format!("≤{max_kings} kings, diff ≤{max_difference}")
    );
    for r in rows {
        println!("{:>6}  {:>28}  {:>28}", r.pieces, r.positions, r.restricted);
    }
    println!("{:>6}  {:>28}  {:>28}", "total", all, restricted);
    println!(
        "        ≈ {:.3e}                    ≈ {:.3e}",
        all as f64, restricted as f64
    );
    Ok(())
}
