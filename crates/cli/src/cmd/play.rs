//! `zoo play`: a human against the engine in the terminal.

use super::engine::{score_text, EngineOpts};
use crate::engine_dispatch;
use crate::games::{history_at, PositionArgs};
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use zoo_core::{MoveList, Outcome, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    White,
    Black,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The side you play.
    #[arg(long = "as", value_enum, default_value = "white")]
    pub side: Colour,
    /// Engine options (default: one second a move).
    #[command(flatten)]
    pub engine: EngineOpts,
}

pub fn run(a: &PlayArgs) -> Result<()> {
    engine_dispatch!(a.position.game, play_game(a))
}

fn play_game<G: zoo_app::AppGame>(a: &PlayArgs) -> Result<()> {
    let mut pos: G = a.position.load()?;
    let (engine, tb) = a.engine.build_for::<G>(&pos)?;
    if let Some(t) = &tb {
        println!("tablebase: {}", t.description);
    }
    let mut limits = a.engine.limits(None)?;
    if limits == zoo_search::Limits::default() {
        limits.movetime = Some(std::time::Duration::from_millis(1000));
    }
    let policy = a.engine.repetition(&pos);
    let mut hist = history_at(&pos, policy);
    let human = match a.side {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!(
        "{} ({} rules, repetition {}). You play {}. Moves as `e2e3` or short form; `moves`, `help`, `quit`.",
        pos.game_name(),
        pos.rules_name(),
        policy,
        human.name()
    );
    loop {
        print!("\n{}", pos.render());
        println!("FEN: {}", pos.to_fen());
        if hist.is_draw() {
            println!("Draw by repetition ({policy}).");
            return Ok(());
        }
        if let Some(o) = pos.outcome() {
            let winner = match o {
                Outcome::Win => Some(pos.side_to_move()),
                Outcome::Loss => Some(pos.side_to_move().flip()),
                Outcome::Draw => None,
            };
            match winner {
                Some(w) if w == human => println!("Game over: you win."),
                Some(_) => println!("Game over: the engine wins."),
                None => println!("Game over: draw."),
            }
            return Ok(());
        }
        let mv = if pos.side_to_move() == human {
            loop {
                print!("your move ({})> ", human.name());
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    println!("\nInput closed: game abandoned.");
                    return Ok(());
                };
                let line = line?;
                let t = line.trim();
                match t {
                    "" => continue,
                    "quit" | "exit" => {
                        println!("Game abandoned.");
                        return Ok(());
                    }
                    "help" => {
                        println!("Type a move (`a3a4` or `Ea4`), `moves` for the legal moves, `quit` to stop.");
                        continue;
                    }
                    "moves" => {
                        let mut l = MoveList::new();
                        pos.legal_moves(&mut l);
                        let ms: Vec<String> = l.iter().map(|&m| pos.move_to_string(m)).collect();
                        println!("{}", ms.join(" "));
                        continue;
                    }
                    _ => {}
                }
                match pos.parse_move(t) {
                    Ok(m) => break m,
                    Err(e) => println!("Not a legal move: {e}"),
                }
            }
        } else {
            let r = engine.search(&pos, &hist, &limits, &mut |_| {});
            let Some(m) = r.best else {
                println!("The engine has no move.");
                return Ok(());
            };
            println!(
                "engine plays {} ({})  score {}  depth {}  {} nodes",
                pos.move_to_string(m),
                pos.move_to_coord(m),
                score_text(r.score, r.mate),
                r.depth,
                r.stats.nodes
            );
            m
        };
        pos.make(mv);
        hist.push(pos.key(), pos.piece_count());
    }
}
