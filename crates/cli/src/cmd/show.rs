//! `zoo show`: draws a position with its legal moves.

use crate::games::PositionArgs;
use anyhow::Result;
use clap::Args;
use zoo_app::{EngineOptions, Status};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
}

pub fn run(a: &ShowArgs) -> Result<()> {
    let s = a.position.session(EngineOptions::default())?;
    print!("{}", s.render());
    println!("FEN: {}", s.fen());
    match s.status() {
        over @ Status::Over { .. } => {
            println!("Game over: {}.", over.describe(s.side_to_move()))
        }
        Status::Playing => {
            let ms: Vec<String> = s.legal_moves().into_iter().map(|m| m.short).collect();
            println!("{} legal moves: {}", ms.len(), ms.join(" "));
        }
    }
    Ok(())
}
