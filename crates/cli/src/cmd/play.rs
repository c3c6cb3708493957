//! `zoo play`: a human against the engine in the terminal.

use super::engine::{score_text, EngineOpts, LimitOpts};
use super::input::text_lines;
use crate::games::PositionArgs;
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::io::Write;
use zoo_app::{SearchLimits, Status};
use zoo_core::{Outcome, Side};

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
    /// The engine's limits (default: one second a move).
    #[command(flatten)]
    pub limits: LimitOpts,
    #[command(flatten)]
    pub engine: EngineOpts,
}

pub fn run(a: &PlayArgs) -> Result<()> {
    let mut s = a.position.session(a.engine.options())?;
    let limits = a.limits.limits().or(SearchLimits {
        movetime_ms: Some(1000),
        ..SearchLimits::default()
    });
    limits.to_limits()?;
    if let Some(t) = s.engine_info()?.tables {
        println!("tablebase: {}", t.description);
    }
    let human = match a.side {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    };
    let mut lines = text_lines(std::io::stdin().lock());
    println!(
        "{} ({} rules, repetition {}). You play {}. `moves` lists your moves; `help`, `quit`.",
        s.game(),
        s.rules_name(),
        s.repetition(),
        human.name()
    );
    // The example move is one of the human's own at their first turn, so
    // it is legal whatever the game, position and side.
    let mut shown_example = false;
    loop {
        print!("\n{}", s.render());
        println!("FEN: {}", s.fen());
        match s.status() {
            Status::Playing => {}
            Status::Over {
                result: Outcome::Draw,
                reason: zoo_app::EndReason::Repetition,
            } => {
                println!("Draw by repetition ({}).", s.repetition());
                return Ok(());
            }
            over => {
                match over.winner(s.side_to_move()) {
                    Some(w) if w == human => println!("Game over: you win."),
                    Some(_) => println!("Game over: the engine wins."),
                    None => println!("Game over: draw."),
                }
                return Ok(());
            }
        }
        if s.side_to_move() == human {
            if !shown_example {
                println!("{}", how_to_move(&s));
                shown_example = true;
            }
            loop {
                print!("your move ({})> ", human.name());
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else {
                    println!("\nInput closed: game abandoned.");
                    return Ok(());
                };
                let line = match line? {
                    Ok(line) => line,
                    Err(not_text) => {
                        println!("Not a move: {not_text}.");
                        continue;
                    }
                };
                let t = line.trim();
                match t {
                    "" => continue,
                    "quit" | "exit" => {
                        println!("Game abandoned.");
                        return Ok(());
                    }
                    "help" => {
                        println!(
                            "{} `moves` lists the legal moves, `quit` stops.",
                            how_to_move(&s)
                        );
                        continue;
                    }
                    "moves" => {
                        let ms: Vec<String> =
                            s.legal_moves().into_iter().map(|m| m.short).collect();
                        println!("{}", ms.join(" "));
                        continue;
                    }
                    _ => {}
                }
                match s.play(t) {
                    Ok(_) => break,
                    Err(e) => println!("Not a legal move: {e}"),
                }
            }
        } else {
            let r = s.search(limits, &mut |_| {})?;
            let Some(m) = r.best else {
                println!("The engine has no move.");
                return Ok(());
            };
            println!(
                "engine plays {} ({})  score {}  depth {}  {} nodes",
                m.short,
                m.coord,
                score_text(r.score, r.mate),
                r.depth,
                r.stats.nodes
            );
            s.play(&m.coord)?;
        }
    }
}

/// How to type a move, with a legal move of the position as the example in
/// each notation the game has.
fn how_to_move(s: &zoo_app::Session) -> String {
    match s.legal_moves().last() {
        Some(m) if m.short != m.coord => format!(
            "Type a move as `{}` (from and to squares) or `{}` (short form).",
            m.coord, m.short
        ),
        Some(m) => format!("Type a move as `{}`.", m.coord),
        None => "There is no move to type here.".to_string(),
    }
}
