//! `zoo show`: draws a position with its legal moves.

use crate::games::PositionArgs;
use anyhow::Result;
use clap::Args;
use zoo_app::{EngineOptions, Status};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves played from the position first, in any notation (as `zoo
    /// solve --moves`): `--moves a3a4 a7a6` or `--moves "a3a4 a7a6"`.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// One JSON object: the position, whose move, the status and the legal
    /// moves in both notations (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &ShowArgs) -> Result<()> {
    let s = a
        .position
        .session_after(EngineOptions::default(), &a.moves)?;
    let status = s.status();
    if a.json {
        let stm = s.side_to_move();
        return super::json::result(&serde_json::json!({
            "game": s.game(), "rules": s.rules_name(), "fen": s.fen(),
            "side": stm.name(),
            "status": status,
            "winner": status.winner(stm).map(|w| w.name()),
            "legal": s.legal_moves(),
            "board": s.render(),
        }));
    }
    print!("{}", s.render());
    println!("FEN: {}", s.fen());
    match status {
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
