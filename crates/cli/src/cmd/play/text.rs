//! `zoo play`'s view for people: the board, prompts and messages as text.

use super::view::{End, Event, Refusal, Thinking, View, COMMANDS};
use crate::cmd::engine::score_text;
use anyhow::Result;
use std::io::{IsTerminal, Write};
use zoo_app::Session;

#[derive(Default)]
pub(super) struct TextView {
    /// Whether standard output is a terminal, where the engine's thinking
    /// is shown on one line that is rewritten (asked once).
    tty: Option<bool>,
}

impl TextView {
    fn tty(&mut self) -> bool {
        *self
            .tty
            .get_or_insert_with(|| std::io::stdout().is_terminal())
    }
}

impl View for TextView {
    fn show(&mut self, s: &Session, e: Event) -> Result<()> {
        match e {
            Event::Start { tables, you } => {
                if let Some(t) = tables {
                    println!("tablebase: {t}");
                }
                println!(
                    "{} ({} rules, repetition {}). You play {you}. Type a move, or `help`.",
                    s.game(),
                    s.rules_name(),
                    s.repetition(),
                );
            }
            Event::Position { view } => {
                print!("\n{}", s.render_from(view));
                println!("FEN: {}", s.fen());
            }
            Event::Over {
                resigned: Some(loser),
            } => println!(
                "Game over: {} resigns, {} wins. `undo`, `new`, `save FILE` or `quit`.",
                loser.name(),
                loser.flip().name()
            ),
            Event::Over { resigned: None } => println!(
                "Game over: {}. `undo`, `new`, `save FILE` or `quit`.",
                s.status().describe(s.side_to_move())
            ),
            Event::Example => println!("{}", how_to_move(s)),
            Event::Prompt { over } => {
                if over {
                    print!("> ");
                } else {
                    print!("your move ({})> ", s.side_to_move().name());
                }
                std::io::stdout().flush()?;
            }
            Event::EngineMove { side, mv, report } => println!(
                "engine plays {} ({})  score {} for {}  depth {}  {} nodes",
                mv.short,
                mv.coord,
                score_text(report.score, report.mate, report.table),
                side.name(),
                report.depth,
                report.stats.nodes
            ),
            Event::Played { .. } | Event::Resigned(_) => {}
            Event::HintThinking => println!("thinking..."),
            Event::Hint { side, report } => {
                if let Some(m) = &report.best {
                    println!(
                        "hint: {} ({})  score {} for {}  depth {}",
                        m.short,
                        m.coord,
                        score_text(report.score, report.mate, report.table),
                        side.name(),
                        report.depth
                    )
                }
            }
            Event::Help => println!("{} {COMMANDS}", how_to_move(s)),
            Event::Moves => {
                let ms: Vec<String> = s.legal_moves().into_iter().map(|m| m.short).collect();
                println!(
                    "{}",
                    if ms.is_empty() {
                        "No legal move.".into()
                    } else {
                        ms.join(" ")
                    }
                );
            }
            Event::ResignationTakenBack => println!("Resignation taken back."),
            Event::NewGame => println!("New game."),
            Event::Saved(file) => println!("Saved to {file}."),
            Event::Loaded(file) => println!("Loaded {file}: {} moves.", s.moves().len()),
            Event::Refused(r) => match r {
                Refusal::NotText(e) => println!("Not a move: {e}."),
                Refusal::IllegalMove(e) => println!("Not a legal move: {e}"),
                Refusal::NothingToUndo => println!("Nothing to undo."),
                Refusal::NothingToRedo => println!("Nothing to redo."),
                Refusal::GameOver => println!("The game is over."),
                Refusal::MoveAfterEnd => println!("The game is over. {COMMANDS}"),
                Refusal::NoHint => println!("No move to suggest."),
                Refusal::NotSaved(e) => println!("Not saved: {e}"),
                Refusal::NotLoaded(e) => println!("Not loaded: {e}"),
            },
            Event::End(End::Quit, _) => println!("Game abandoned."),
            Event::End(End::InputClosed, _) => println!("\nInput closed: game abandoned."),
            Event::End(End::EngineStuck, _) => println!("The engine has no move."),
        }
        Ok(())
    }

    fn thinking(&mut self, t: Thinking) {
        if !self.tty() {
            return;
        }
        match t {
            Thinking::Begins => print!("engine thinking..."),
            Thinking::Iteration(it) => print!(
                "\rengine thinking... depth {} score {}   ",
                it.depth,
                score_text(it.score, it.mate, it.table)
            ),
            Thinking::Ends => print!("\r{:60}\r", ""),
        }
        let _ = std::io::stdout().flush();
    }
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
