//! `zoo play`: a human against the engine (or two humans) in the
//! terminal, or a scripted game with `--json`. This file is the game loop:
//! it reads what is typed and tells a view what happened ([`Event`]); the
//! text view (`text.rs`) and the JSON view (`json.rs`) print it, both
//! through the events of `view.rs`.

mod json;
mod text;
mod view;

use super::engine::{EngineOpts, LimitOpts};
use super::input::{text_lines, NotText};
use crate::games::PositionArgs;
use anyhow::Result;
use clap::{Args, ValueEnum};
use json::JsonView;
use std::path::{Path, PathBuf};
use text::TextView;
use view::{End, Event, Refusal, Thinking, View};
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
    /// A scripted game: moves and commands on stdin as for people, JSON
    /// lines on stdout (each position, each engine move, each error) and a
    /// final object with the result and the moves (docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Take a --movetime over the cap of one hour (docs/limits.md).
    #[arg(long)]
    pub no_cap: bool,
}
/// What the player typed, other than a move.
pub(super) enum Command<'a> {
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
    if a.json {
        game(a, &mut JsonView)
    } else {
        game(a, &mut TextView::default())
    }
}

fn game(a: &PlayArgs, out: &mut dyn View) -> Result<()> {
    let options = a.engine.options();
    let mut s = match &a.load {
        Some(path) => SavedGame::load(a.position.game, path)?
            .of_game(a.position.game)?
            .session(options)?,
        None => a.position.session(options)?,
    };
    let limits = a.limits.limits().or(SearchLimits {
        movetime_ms: Some(1000),
        ..SearchLimits::default()
    });
    limits.to_limits()?;
    limits.check_cap(a.no_cap)?;
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
    let tables = s.engine_info()?.tables.map(|t| t.description);
    let you = match a.side {
        Colour::Both => "both sides".to_string(),
        _ => humans[0].name().to_string(),
    };
    out.show(
        &s,
        Event::Start {
            tables: tables.as_deref(),
            you: &you,
        },
    )?;
    // The example move is one of the human's own at their first turn, so
    // it is legal whatever the game, position and side.
    let mut shown_example = false;
    let mut resigned: Option<Side> = None;
    let mut show = true;
    loop {
        if show {
            out.show(&s, Event::Position { view })?;
        }
        show = true;
        let status = s.status();
        let over = status != Status::Playing || resigned.is_some();
        if over {
            out.show(&s, Event::Over { resigned })?;
        }
        let stm = s.side_to_move();
        if !over && !human(stm) {
            if !engine_move(&mut s, limits, out)? {
                return out.show(&s, Event::End(End::EngineStuck, resigned));
            }
            continue;
        }
        if !over && !shown_example {
            out.show(&s, Event::Example)?;
            shown_example = true;
        }
        out.show(&s, Event::Prompt { over })?;
        let Some(line) = lines.next() else {
            return out.show(&s, Event::End(End::InputClosed, resigned));
        };
        let line = match line? {
            Ok(line) => line,
            Err(not_text) => {
                out.show(&s, Event::Refused(Refusal::NotText(&not_text)))?;
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
                return out.show(&s, Event::End(End::Quit, resigned));
            }
            Some(Command::Help) => {
                out.show(&s, Event::Help)?;
                show = false;
            }
            Some(Command::Moves) => {
                out.show(&s, Event::Moves)?;
                show = false;
            }
            Some(Command::Undo) => {
                if resigned.take().is_some() {
                    out.show(&s, Event::ResignationTakenBack)?;
                } else if undo_turn(&mut s, &human).is_none() {
                    out.show(&s, Event::Refused(Refusal::NothingToUndo))?;
                    show = false;
                }
            }
            Some(Command::Redo) => {
                if redo_turn(&mut s, &human).is_none() {
                    out.show(&s, Event::Refused(Refusal::NothingToRedo))?;
                    show = false;
                }
            }
            Some(Command::Hint) => {
                if over {
                    out.show(&s, Event::Refused(Refusal::GameOver))?;
                } else {
                    out.show(&s, Event::HintThinking)?;
                    let r = s.search(limits, &mut |_| {})?;
                    match r.best {
                        Some(_) => out.show(
                            &s,
                            Event::Hint {
                                side: stm,
                                report: &r,
                            },
                        )?,
                        None => out.show(&s, Event::Refused(Refusal::NoHint))?,
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
                out.show(&s, Event::NewGame)?;
            }
            Some(Command::Resign) => {
                if over {
                    out.show(&s, Event::Refused(Refusal::GameOver))?;
                    show = false;
                } else {
                    resigned = Some(stm);
                    out.show(&s, Event::Resigned(stm))?;
                }
            }
            Some(Command::Save(file)) => {
                match SavedGame::of(&s).save(Path::new(file)) {
                    Ok(()) => out.show(&s, Event::Saved(file))?,
                    Err(e) => out.show(&s, Event::Refused(Refusal::NotSaved(&e)))?,
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
                        out.show(&s, Event::Loaded(file))?;
                    }
                    Err(e) => {
                        out.show(&s, Event::Refused(Refusal::NotLoaded(&e)))?;
                        show = false;
                    }
                }
            }
            None if over => {
                out.show(&s, Event::Refused(Refusal::MoveAfterEnd))?;
                show = false;
            }
            None => match s.play(t) {
                Ok(mv) => out.show(&s, Event::Played { side: stm, mv: &mv })?,
                Err(e) => {
                    out.show(&s, Event::Refused(Refusal::IllegalMove(&e)))?;
                    show = false;
                }
            },
        }
    }
}

/// The engine moves; `false` when it has no move (which the status would
/// have said: a safeguard against a loop).
fn engine_move(s: &mut Session, limits: SearchLimits, out: &mut dyn View) -> Result<bool> {
    let stm = s.side_to_move();
    out.thinking(Thinking::Begins);
    let r = s.search(limits, &mut |it| out.thinking(Thinking::Iteration(it)))?;
    out.thinking(Thinking::Ends);
    let Some(m) = r.best.clone() else {
        return Ok(false);
    };
    out.show(
        s,
        Event::EngineMove {
            side: stm,
            mv: &m,
            report: &r,
        },
    )?;
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
