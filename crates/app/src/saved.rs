//! Saved games: what `zoo play` saves and loads. The checkers games are
//! written as PDN, the notation their players and programs read; the
//! animal games, which have no such standard, as the JSON line `zoo match`
//! writes for each game (`game`, `rules`, `opening`, `moves`, `result`),
//! so a game of a match can be loaded and replayed.

use crate::{AppError, GameKind, Session, Status};
use zoo_checkers::pdn::{parse_pdn, write_pdn, PdnGame, PdnMove};
use zoo_core::{Outcome, Side};

/// A game: where it started, the moves played and, when over, its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGame {
    /// The game played.
    pub game: GameKind,
    /// The rule set's name.
    pub rules: String,
    /// The FEN of the start position.
    pub start: String,
    /// The moves, in a notation [`Session::play`] accepts.
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub result: String,
}

/// The animal games' format: the keys of `zoo match`'s game records that
/// a game needs (the others, when present, are ignored on reading).
#[derive(serde::Serialize, serde::Deserialize)]
struct MoveList {
    game: GameKind,
    rules: String,
    opening: String,
    moves: Vec<String>,
    #[serde(default = "unfinished")]
    result: String,
}

fn unfinished() -> String {
    "*".into()
}

/// The PDN tag that names the rule set (PDN's `GameType` numbers do not
/// tell zoo's rule sets apart).
const RULES_TAG: &str = "Rules";

impl SavedGame {
    /// The game of `session`: its start position, the moves played and the
    /// result when over.
    pub fn of(session: &Session) -> SavedGame {
        let result = match session.status() {
            Status::Playing => "*",
            Status::Over { result, .. } => {
                match (result, session.side_to_move()) {
                    (Outcome::Draw, _) => "1/2-1/2",
                    // The result is for the side to move.
                    (Outcome::Win, Side::White) | (Outcome::Loss, Side::Black) => "1-0",
                    _ => "0-1",
                }
            }
        };
        SavedGame {
            game: session.game(),
            rules: session.rules_name().to_string(),
            start: session.start_fen(),
            moves: session.moves().into_iter().map(|m| m.coord).collect(),
            result: result.to_string(),
        }
    }

    /// A session at the end of this game (its moves checked by the rules),
    /// with an engine of `options`.
    pub fn session(&self, options: crate::EngineOptions) -> Result<Session, AppError> {
        let mut s = Session::new(self.game, Some(&self.rules), options)?;
        s.set_position(Some(&self.start), &self.moves)?;
        Ok(s)
    }

    /// The game as text: PDN for the checkers games, one JSON line for the
    /// animal games.
    pub fn to_text(&self) -> String {
        match self.game {
            GameKind::ClassicalCheckers | GameKind::EnglishCheckers => {
                let game = PdnGame {
                    tags: vec![
                        ("Event".into(), "zoo play".into()),
                        (RULES_TAG.into(), self.rules.clone()),
                        ("FEN".into(), self.start.clone()),
                        ("Result".into(), self.result.clone()),
                    ],
                    comment: None,
                    moves: self
                        .moves
                        .iter()
                        .map(|m| PdnMove {
                            text: m.clone(),
                            comment: None,
                            line: 0,
                            column: 0,
                        })
                        .collect(),
                    result: Some(self.result.clone()),
                };
                write_pdn(&[game])
            }
            GameKind::Jungle | GameKind::JungleCheckers => {
                let record = MoveList {
                    game: self.game,
                    rules: self.rules.clone(),
                    opening: self.start.clone(),
                    moves: self.moves.clone(),
                    result: self.result.clone(),
                };
                serde_json::to_string(&record).expect("a record serialises") + "\n"
            }
        }
    }

    /// Reads the first game of `text`: a JSON line (`zoo match`'s records
    /// among them), which names its game, or else PDN, read as a game of
    /// `game` (a checkers game: PDN does not tell zoo's apart). The moves
    /// are checked by [`SavedGame::session`].
    pub fn parse(game: GameKind, text: &str) -> Result<SavedGame, AppError> {
        // PDN comments are in braces too: for the checkers games a first
        // line is JSON only if it reads as JSON.
        let first = text.lines().map(str::trim).find(|l| !l.is_empty());
        let checkers = matches!(
            game,
            GameKind::ClassicalCheckers | GameKind::EnglishCheckers
        );
        let json = first.is_some_and(|l| {
            l.starts_with('{')
                && (!checkers || serde_json::from_str::<serde_json::Value>(l).is_ok())
        });
        match game {
            GameKind::ClassicalCheckers | GameKind::EnglishCheckers if !json => {
                let games = parse_pdn(text).map_err(|e| AppError::Input(e.to_string()))?;
                // Loading the first of several would play a game the user
                // may not have meant, without a word.
                if games.len() > 1 {
                    return Err(AppError::Input(format!(
                        "the PDN text holds {} games; zoo loads one: keep the game to load in a file of its own",
                        games.len()
                    )));
                }
                let g = games
                    .into_iter()
                    .next()
                    .ok_or_else(|| AppError::Input("no game in the PDN text".into()))?;
                // Without tags: the game's default rule set, its start.
                let plain = Session::new(game, g.tag(RULES_TAG), Default::default())?;
                let rules = plain.rules_name().to_string();
                let start = match g.tag("FEN") {
                    Some(f) => f.to_string(),
                    None => plain.start_fen(),
                };
                Ok(SavedGame {
                    game,
                    rules,
                    start,
                    moves: g.moves.into_iter().map(|m| m.text).collect(),
                    result: g.result.unwrap_or_else(unfinished),
                })
            }
            _ => {
                let line = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .ok_or_else(|| AppError::Input("no game in the file".into()))?;
                let r: MoveList = serde_json::from_str(line).map_err(|e| {
                    AppError::Input(format!(
                        "not a game record (a JSON line with game, rules, opening, moves): {e}"
                    ))
                })?;
                Ok(SavedGame {
                    game: r.game,
                    rules: r.rules,
                    start: r.opening,
                    moves: r.moves,
                    result: r.result,
                })
            }
        }
    }
}

impl SavedGame {
    /// This game when it is of `game`; a save of another game is refused
    /// (`zoo play --game classical-checkers --load` of a Jungle save must
    /// not play Jungle without a word).
    pub fn of_game(self, game: GameKind) -> Result<SavedGame, AppError> {
        if self.game != game {
            return Err(AppError::Input(format!(
                "the saved game is {}, not {}: give --game {}",
                self.game.name(),
                game.name(),
                self.game.name()
            )));
        }
        Ok(self)
    }

    /// Writes [`SavedGame::to_text`] to `path` with [`crate::files::save`]:
    /// an existing file is replaced whole or not at all, and anything but
    /// a regular file is refused.
    pub fn save(&self, path: &std::path::Path) -> Result<(), AppError> {
        crate::files::save_bytes(path, self.to_text().as_bytes())?;
        Ok(())
    }

    /// Reads the first game of the file at `path` (see [`SavedGame::parse`]),
    /// at most [`crate::files::TEXT_LIMIT`] bytes of it.
    pub fn load(game: GameKind, path: &std::path::Path) -> Result<SavedGame, AppError> {
        let text = crate::files::read_text(path, crate::files::TEXT_LIMIT, "a saved game")?;
        SavedGame::parse(game, &text)
    }
}
