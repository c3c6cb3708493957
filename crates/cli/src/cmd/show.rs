//! `zoo show`: draws a position with its legal moves.

use crate::dispatch;
use crate::games::{load_position, GameKind};
use anyhow::Result;
use clap::Args;
use zoo_core::{Game, MoveList};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[arg(long, value_enum)]
    pub game: GameKind,
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long)]
    pub rules: Option<String>,
}

pub fn run(a: &ShowArgs) -> Result<()> {
    dispatch!(a.game, show_game(a))
}

fn show_game<G: Game>(a: &ShowArgs) -> Result<()> {
    let pos: G = load_position(a.rules.as_deref(), a.fen.as_deref())?;
    print!("{}", pos.render());
    println!("FEN: {}", pos.to_fen());
    match pos.outcome() {
        Some(o) => println!("Game over: {:?} for {}", o, pos.side_to_move().name()),
        None => {
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let ms: Vec<String> = l.iter().map(|&m| pos.move_to_string(m)).collect();
            println!("{} legal moves: {}", ms.len(), ms.join(" "));
        }
    }
    Ok(())
}
