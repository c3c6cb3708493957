//! `zoo show`: draws a position with its legal moves.

use crate::dispatch;
use crate::games::PositionArgs;
use anyhow::Result;
use clap::Args;
use zoo_core::{Game, MoveList};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
}

pub fn run(a: &ShowArgs) -> Result<()> {
    dispatch!(a.position.game, show_game(a))
}

fn show_game<G: Game>(a: &ShowArgs) -> Result<()> {
    let pos: G = a.position.load()?;
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
