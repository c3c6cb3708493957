//! Saving and loading games (docs/web.md): the text is what
//! [`zoo_app::SavedGame`] writes and reads, as `zoo play` saves it — PDN
//! for the checkers games, the JSON move list of `zoo match` for the
//! animal games, each with the game's tree (comments and variations) when
//! the page sends one. The server decides; the page only moves the text.

use crate::api::{body, session, view, PositionView};
use crate::{ApiError, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use zoo_app::saved::{CheckedPly, Ply};
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

/// A game to save: a position request, and the game's tree when it has
/// one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveRequest {
    /// The game.
    pub game: String,
    /// The rule set (default: the game's first).
    #[serde(default)]
    pub rules: Option<String>,
    /// The start (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves (with `tree`: its main line, or absent).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The comment before the first move.
    #[serde(default)]
    pub comment: Option<String>,
    /// The main line with each move's comment and the variations that
    /// could replace it (`[{mv, comment?, variations?: [[…]]}]`).
    #[serde(default)]
    pub tree: Option<Vec<Ply>>,
}

/// `POST /api/game/save` `{game, rules?, fen?, moves?, comment?, tree?}`:
/// the game as text.
pub async fn save(
    State(st): State<AppState>,
    req: Result<Json<SaveRequest>, JsonRejection>,
) -> Result<Json<SaveView>, ApiError> {
    let r = body(req)?;
    let main: Vec<String> = match &r.tree {
        Some(tree) => tree.iter().map(|p| p.mv.clone()).collect(),
        None => r.moves.clone(),
    };
    if r.tree.is_some() && !r.moves.is_empty() && r.moves != main {
        return Err(ApiError::Bad(
            "moves is not the tree's main line: send the tree alone".into(),
        ));
    }
    let s = session(
        &r.game,
        r.rules.as_deref(),
        r.fen.as_deref(),
        &main,
        1,
        st.config.hash_mb,
        st.config.tables.as_deref(),
    )?;
    let saved = match r.tree {
        Some(tree) => SavedGame::of(&s).with_tree(r.comment, tree)?,
        None if r.comment.is_some() => {
            let line = SavedGame::of(&s).line().into_owned();
            SavedGame::of(&s).with_tree(r.comment, line)?
        }
        None => SavedGame::of(&s),
    };
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
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The moves again with their comments and variations, every move in
    /// both notations.
    pub tree: Vec<CheckedPly>,
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
    let tree = saved.checked_tree()?;
    let s = saved.session(EngineOptions::default())?;
    Ok(Json(LoadView {
        game: saved.game,
        rules: s.rules_name().to_string(),
        start: s.start_fen(),
        moves: s.moves().into_iter().map(|m| m.coord).collect(),
        result: saved.result,
        comment: saved.comment,
        tree,
        position: view(&s),
    }))
}
