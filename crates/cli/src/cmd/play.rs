//! `zoo play`: a human against the engine (or two humans) in the terminal.

use super::engine::{score_text, EngineOpts, LimitOpts};
use super::input::text_lines;
use crate::games::PositionArgs;
use anyhow::Result;
use clap::{Args, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use zoo_app::{SavedGame, SearchLimits, Session, Status};
use zoo_core::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    White,
    Black,
    /// Both sides: two people on one board, the engine only for hints.
    Both,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The side you play.
    #[arg(long = "as", value_enum, default_value = "white")]
    pub side: Colour,
    /// Start from a saved game (PDN for checkers, `zoo match`'s JSON line
    /// for the animal games) instead of --fen.
    #[arg(long, value_name = "FILE", conflicts_with = "fen")]
    pub load: Option<PathBuf>,
    /// The engine's limits (default: one second a move).
    #[command(flatten)]
    pub limits: LimitOpts,
    #[command(flatten)]
    pub engine: EngineOpts,
}

const COMMANDS: &str = "Commands: `moves` lists the legal moves; `undo`, `redo`; `hint`; \
`flip` turns the board; `new` starts again; `save FILE`, `load FILE`; `resign`; `quit`.";

/// What the player typed, other than a move.
enum Command<'a> {
    Quit,
    Help,
    Moves,
    Undo,
    Redo,
    Hint,
    Flip,
    New,
    Resign,
    Save(&'a str),
    Load(&'a str),
}

fn command(line: &str) -> Option<Command<'_>> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    Some(match (word, rest.is_empty()) {
        ("quit" | "exit", true) => Command::Quit,
        ("help" | "?", true) => Command::Help,
        ("moves", true) => Command::Moves,
        ("undo", true) => Command::Undo,
        ("redo", true) => Command::Redo,
        ("hint", true) => Command::Hint,
        ("flip", true) => Command::Flip,
        ("new", true) => Command::New,
        ("resign", true) => Command::Resign,
        ("save", false) => Command::Save(rest),
        ("load", false) => Command::Load(rest),
        _ => return None,
    })
}

pub fn run(a: &PlayArgs) -> Result<()> {
    let options = a.engine.options();
    let mut s = match &a.load {
        Some(path) => SavedGame::load(a.position.game, path)?.session(options)?,
        None => a.position.session(options)?,
    };
    let limits = a.limits.limits().or(SearchLimits {
        movetime_ms: Some(1000),
        ..SearchLimits::default()
    });
    limits.to_limits()?;
    if let Some(t) = s.engine_info()?.tables {
        println!("tablebase: {}", t.description);
    }
    let humans: &[Side] = match a.side {
        Colour::White => &[Side::White],
        Colour::Black => &[Side::Black],
        Colour::Both => &[Side::White, Side::Black],
    };
    let human = |side: Side| humans.contains(&side);
    let mut view = if a.side == Colour::Black {
        Side::Black
    } else {
        Side::White
    };
    let mut lines = text_lines(std::io::stdin().lock());
    println!(
        "{} ({} rules, repetition {}). You play {}. Type a move, or `help`.",
        s.game(),
        s.rules_name(),
        s.repetition(),
        match a.side {
            Colour::Both => "both sides".to_string(),
            _ => humans[0].name().to_string(),
        }
    );
    // The example move is one of the human's own at their first turn, so
    // it is legal whatever the game, position and side.
    let mut shown_example = false;
    let mut resigned: Option<Side> = None;
    let mut show = true;
    loop {
        if show {
            print!("\n{}", s.render_from(view));
            println!("FEN: {}", s.fen());
        }
        show = true;
        let status = s.status();
        let over = status != Status::Playing || resigned.is_some();
        if let Some(loser) = resigned {
            println!(
                "Game over: {} resigns, {} wins. `undo`, `new`, `save FILE` or `quit`.",
                loser.name(),
                loser.flip().name()
            );
        } else if over {
            println!(
                "Game over: {}. `undo`, `new`, `save FILE` or `quit`.",
                status.describe(s.side_to_move())
            );
        }
        let stm = s.side_to_move();
        if !over && !human(stm) {
            if !engine_move(&mut s, limits)? {
                return Ok(());
            }
            continue;
        }
        if !over && !shown_example {
            println!("{}", how_to_move(&s));
            shown_example = true;
        }
        if over {
            print!("> ");
        } else {
            print!("your move ({})> ", stm.name());
        }
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            println!("\nInput closed: game abandoned.");
            return Ok(());
        };
        let line = match line? {
            Ok(line) => line,
            Err(not_text) => {
                println!("Not a move: {not_text}.");
                show = false;
                continue;
            }
        };
        let t = line.trim();
        if t.is_empty() {
            show = false;
            continue;
        }
        match command(t) {
            Some(Command::Quit) => {
                println!("Game abandoned.");
                return Ok(());
            }
            Some(Command::Help) => {
                println!("{} {COMMANDS}", how_to_move(&s));
                show = false;
            }
            Some(Command::Moves) => {
                let ms: Vec<String> = s.legal_moves().into_iter().map(|m| m.short).collect();
                println!(
                    "{}",
                    if ms.is_empty() {
                        "No legal move.".into()
                    } else {
                        ms.join(" ")
                    }
                );
                show = false;
            }
            Some(Command::Undo) => {
                if resigned.take().is_some() {
                    println!("Resignation taken back.");
                } else if undo_turn(&mut s, &human).is_none() {
                    println!("Nothing to undo.");
                    show = false;
                }
            }
            Some(Command::Redo) => {
                if redo_turn(&mut s, &human).is_none() {
                    println!("Nothing to redo.");
                    show = false;
                }
            }
            Some(Command::Hint) => {
                if over {
                    println!("The game is over.");
                } else {
                    println!("thinking...");
                    let r = s.search(limits, &mut |_| {})?;
                    match r.best {
                        Some(m) => println!(
                            "hint: {} ({})  score {} for {}  depth {}",
                            m.short,
                            m.coord,
                            score_text(r.score, r.mate),
                            stm.name(),
                            r.depth
                        ),
                        None => println!("No move to suggest."),
                    }
                }
                show = false;
            }
            Some(Command::Flip) => view = view.flip(),
            Some(Command::New) => {
                let start = s.start_fen();
                s.set_position::<&str>(Some(&start), &[])?;
                s.new_game();
                resigned = None;
                println!("New game.");
            }
            Some(Command::Resign) => {
                if over {
                    println!("The game is over.");
                    show = false;
                } else {
                    resigned = Some(stm);
                }
            }
            Some(Command::Save(file)) => {
                match SavedGame::of(&s).save(Path::new(file)) {
                    Ok(()) => println!("Saved to {file}."),
                    Err(e) => println!("Not saved: {e}"),
                }
                show = false;
            }
            Some(Command::Load(file)) => {
                match SavedGame::load(s.game(), Path::new(file))
                    .and_then(|g| g.session(s.options().clone()))
                {
                    Ok(loaded) => {
                        s = loaded;
                        resigned = None;
                        println!("Loaded {file}: {} moves.", s.moves().len());
                    }
                    Err(e) => {
                        println!("Not loaded: {e}");
                        show = false;
                    }
                }
            }
            None if over => {
                println!("The game is over. {COMMANDS}");
                show = false;
            }
            None => {
                if let Err(e) = s.play(t) {
                    println!("Not a legal move: {e}");
                    show = false;
                }
            }
        }
    }
}

/// The engine moves; `false` when it has no move (which the status would
/// have said: a safeguard against a loop).
fn engine_move(s: &mut Session, limits: SearchLimits) -> Result<bool> {
    let stm = s.side_to_move();
    let tty = std::io::stdout().is_terminal();
    if tty {
        print!("engine thinking...");
        std::io::stdout().flush()?;
    }
    let r = s.search(limits, &mut |it| {
        if tty {
            print!(
                "\rengine thinking... depth {} score {}   ",
                it.depth,
                score_text(it.score, it.mate)
            );
            let _ = std::io::stdout().flush();
        }
    })?;
    if tty {
        print!("\r{:60}\r", "");
    }
    let Some(m) = r.best else {
        println!("The engine has no move.");
        return Ok(false);
    };
    println!(
        "engine plays {} ({})  score {} for {}  depth {}  {} nodes",
        m.short,
        m.coord,
        score_text(r.score, r.mate),
        stm.name(),
        r.depth,
        r.stats.nodes
    );
    s.play(&m.coord)?;
    Ok(true)
}

/// Takes back moves until a human is to move again, at least one; `None`
/// when there is nothing to take back.
fn undo_turn(s: &mut Session, human: &impl Fn(Side) -> bool) -> Option<()> {
    s.undo()?;
    while !human(s.side_to_move()) && s.undo().is_some() {}
    // Taken back to the start with the engine to move: it moves again.
    Some(())
}

/// Plays again what [`undo_turn`] took back, up to a human's turn.
fn redo_turn(s: &mut Session, human: &impl Fn(Side) -> bool) -> Option<()> {
    s.redo()?;
    while !human(s.side_to_move()) && s.redo().is_some() {}
    Some(())
}

/// How to type a move, with a legal move of the position as the example in
/// each notation the game has.
fn how_to_move(s: &Session) -> String {
    match s.legal_moves().last() {
        Some(m) if m.short != m.coord => format!(
            "Type a move as `{}` (from and to squares) or `{}` (short form).",
            m.coord, m.short
        ),
        Some(m) => format!("Type a move as `{}`.", m.coord),
        None => "There is no move to type here.".to_string(),
    }
}
