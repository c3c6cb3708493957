//! `zoo play --json`'s view for programs (docs/json.md): a JSON line for
//! each position (`position`: as `show --json` writes one), each move
//! (`move`: the player's, or the engine's with its score, depth and
//! nodes), each refused line (`error`, and the game goes on), and at the
//! end the final object (`result`) with the outcome and the moves.

use super::view::{Event, Refusal, Thinking, View};
use anyhow::Result;
use serde_json::json;
use zoo_app::{Session, Status};
use zoo_core::Side;

pub(super) struct JsonView;

/// The winner, by the rules or by a resignation.
fn winner(s: &Session, resigned: Option<Side>) -> Option<&'static str> {
    match resigned {
        Some(loser) => Some(loser.flip().name()),
        None => s.status().winner(s.side_to_move()).map(|w| w.name()),
    }
}

fn position(s: &Session) -> serde_json::Value {
    let status = s.status();
    json!({
        "game": s.game(), "rules": s.rules_name(), "fen": s.fen(),
        "side": s.side_to_move().name(),
        "status": status,
        "winner": status.winner(s.side_to_move()).map(|w| w.name()),
        "legal": s.legal_moves(),
        "ply": s.moves().len(),
    })
}

fn error(why: String) -> Result<()> {
    crate::cmd::json::line("error", &json!({ "error": why }))
}

impl View for JsonView {
    fn show(&mut self, s: &Session, e: Event) -> Result<()> {
        match e {
            // The position line follows at once; the board is for people.
            Event::Start { .. } | Event::Over { .. } | Event::Example | Event::Prompt { .. } => {}
            Event::HintThinking | Event::NewGame => {}
            Event::Position { .. } | Event::Moves => {
                crate::cmd::json::line("position", &position(s))?
            }
            Event::Played { side, mv } => crate::cmd::json::line(
                "move",
                &json!({ "by": "player", "side": side.name(), "coord": mv.coord, "short": mv.short }),
            )?,
            Event::EngineMove { side, mv, report } => crate::cmd::json::line(
                "move",
                &json!({
                    "by": "engine", "side": side.name(), "coord": mv.coord, "short": mv.short,
                    "score": report.score, "mate": report.mate, "table": report.table,
                    "depth": report.depth,
                    "nodes": report.stats.nodes, "seconds": report.seconds,
                    "pv": report.pv, "pv_short": report.pv_short,
                }),
            )?,
            Event::Hint { side, report } => {
                let best = report.best.as_ref();
                crate::cmd::json::line(
                    "hint",
                    &json!({
                        "side": side.name(),
                        "coord": best.map(|m| &m.coord), "short": best.map(|m| &m.short),
                        "score": report.score, "mate": report.mate, "table": report.table,
                    "depth": report.depth,
                        "nodes": report.stats.nodes, "seconds": report.seconds,
                        "pv": report.pv, "pv_short": report.pv_short,
                    }),
                )?
            }
            Event::Help => {
                crate::cmd::json::line("help", &json!({ "commands": super::view::COMMANDS }))?
            }
            Event::Resigned(side) => {
                crate::cmd::json::line("resigned", &json!({ "side": side.name() }))?
            }
            Event::ResignationTakenBack => {
                crate::cmd::json::line("resignation_taken_back", &json!({}))?
            }
            Event::Saved(file) => crate::cmd::json::line("saved", &json!({ "file": file }))?,
            Event::Loaded(file) => {
                crate::cmd::json::line("loaded", &json!({ "file": file, "ply": s.moves().len() }))?
            }
            Event::Refused(r) => error(match r {
                Refusal::NotText(e) => format!("not a move: {e}"),
                Refusal::IllegalMove(e) => format!("not a legal move: {e}"),
                Refusal::NothingToUndo => "nothing to undo".into(),
                Refusal::NothingToRedo => "nothing to redo".into(),
                Refusal::GameOver | Refusal::MoveAfterEnd => "the game is over".into(),
                Refusal::NoHint => "no move to suggest".into(),
                Refusal::NotSaved(e) => format!("not saved: {e}"),
                Refusal::NotLoaded(e) => format!("not loaded: {e}"),
            })?,
            Event::End(end, resigned) => {
                let status = s.status();
                let moves = s.moves();
                crate::cmd::json::result(&json!({
                    "game": s.game(), "rules": s.rules_name(),
                    "start_fen": s.start_fen(), "fen": s.fen(),
                    "side": s.side_to_move().name(),
                    "status": status,
                    "game_over": status != Status::Playing || resigned.is_some(),
                    "winner": winner(s, resigned),
                    "resigned": resigned.map(|r| r.name()),
                    "end": end,
                    "moves": moves,
                    "ply": moves.len(),
                }))?
            }
        }
        Ok(())
    }

    fn thinking(&mut self, _: Thinking) {}
}
