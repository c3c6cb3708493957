//! Saving and loading games (docs/web.md): the text is what
//! [`zoo_app::SavedGame`] writes and reads, as `zoo play` saves it — PDN
//! for the checkers games, the JSON move list of `zoo match` for the
//! animal games. The server decides; the page only moves the text.

use crate::api::{body, session, view, PositionRequest, PositionView};
use crate::{ApiError, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use zoo_app::{EngineOptions, GameKind, SavedGame};

/// The saved text of a game.
#[derive(Debug, Serialize)]
pub struct SaveView {
    /// `pdn` (checkers games) or `moves` (the animal games' JSON line).
    pub format: &'static str,
    /// A file name to offer: `<game>.pdn` or `<game>.json`.
    pub filename: String,
    /// The text.
    pub text: String,
}

fn is_checkers(g: GameKind) -> bool {
    matches!(g, GameKind::ClassicalCheckers | GameKind::EnglishCheckers)
}

/// `POST /api/game/save` `{game, rules?, fen?, moves?}`: the game as text.
pub async fn save(
    State(st): State<AppState>,
    req: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<SaveView>, ApiError> {
    let r = body(req)?;
    let s = session(
        &r.game,
        r.rules.as_deref(),
        r.fen.as_deref(),
        &r.moves,
        1,
        st.config.hash_mb,
        st.config.tables.as_deref(),
    )?;
    let saved = SavedGame::of(&s);
    let (format, ext) = if is_checkers(saved.game) {
        ("pdn", "pdn")
    } else {
        ("moves", "json")
    };
    Ok(Json(SaveView {
        format,
        filename: format!("{}.{ext}", saved.game.name()),
        text: saved.to_text(),
    }))
}

/// A saved game's text to read.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The game the text is read as when it does not say (PDN does not
    /// tell the checkers games apart); a move list names its own game.
    pub game: String,
    /// The text: PDN, or a JSON move list.
    pub text: String,
}

/// A game read back.
#[derive(Debug, Serialize)]
pub struct LoadView {
    /// The game.
    pub game: GameKind,
    /// The rule set.
    pub rules: String,
    /// The start position.
    pub start: String,
    /// The moves, coordinate form, as the page sends them back.
    pub moves: Vec<String>,
    /// The result the text gives (`*` while the game goes on).
    pub result: String,
    /// The position after the moves.
    pub position: PositionView,
}

/// `POST /api/game/load` `{game, text}`: the game in the text, its moves
/// checked by the rules.
pub async fn load(
    State(_st): State<AppState>,
    req: Result<Json<LoadRequest>, JsonRejection>,
) -> Result<Json<LoadView>, ApiError> {
    let r = body(req)?;
    let kind: GameKind = r.game.parse()?;
    let json = r.text.trim_start().starts_with('{');
    if !json && !is_checkers(kind) {
        return Err(ApiError::Bad(format!(
            "{} games are saved as a JSON move list (a line with game, rules, opening, moves); \
             PDN is read as a checkers game: choose classical-checkers or english-checkers first",
            kind.name()
        )));
    }
    let saved = SavedGame::parse(kind, &r.text)?;
    let s = saved.session(EngineOptions::default())?;
    Ok(Json(LoadView {
        game: saved.game,
        rules: s.rules_name().to_string(),
        start: s.start_fen(),
        moves: s.moves().into_iter().map(|m| m.coord).collect(),
        result: saved.result,
        position: view(&s),
    }))
}
