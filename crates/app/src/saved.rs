//! Saved games: what `zoo play` saves and loads. The checkers games are
//! written as PDN, the notation their players and programs read; the
//! animal games, which have no such standard, as the JSON line `zoo match`
//! writes for each game (`game`, `rules`, `opening`, `moves`, `result`),
//! so a game of a match can be loaded and replayed. A game may carry a
//! tree (docs/web.md, "Save and load"): comments on its moves and
//! variations, in PDN's braces and brackets, in the JSON line as `tree`.

use crate::{AppError, EngineOptions, GameKind, Session, Status};
use std::borrow::Cow;
use zoo_checkers::pdn::parse_pdn;
use zoo_core::{Outcome, Side};

mod pdn_tree;
#[cfg(test)]
mod tests;

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
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The moves again, each with its comment and the variations that
    /// could replace it; empty when there is nothing but the moves (a
    /// game saved by `zoo play`). Its main line is `moves`
    /// ([`SavedGame::checked_tree`] refuses a tree that says otherwise).
    pub tree: Vec<Ply>,
}

/// A move of a game's tree: the move, the comment after it, and the
/// variations that could be played instead of it (from the position
/// before it), each a line of its own.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ply {
    /// The move, in a notation [`Session::play`] accepts.
    pub mv: String,
    /// The comment on the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The lines that could replace this move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<Ply>>,
    /// Where the move stands in a PDN text (line, column), for errors.
    #[serde(skip)]
    pub at: Option<(usize, usize)>,
}

/// Two moves are the same whatever their place in a text.
impl PartialEq for Ply {
    fn eq(&self, o: &Ply) -> bool {
        self.mv == o.mv && self.comment == o.comment && self.variations == o.variations
    }
}
impl Eq for Ply {}

impl Ply {
    /// A move without comment or variations.
    pub fn plain(mv: &str) -> Ply {
        Ply {
            mv: mv.to_string(),
            ..Ply::default()
        }
    }
}

/// A move of a tree checked by the rules: its coordinate form, its short
/// form for people, its comment and its variations, checked too.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckedPly {
    /// The coordinate form (`c2c3`, `11-15`).
    pub mv: String,
    /// The short form (`Rc3`, `11-15`).
    pub short: String,
    /// The comment on the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The lines that could replace it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<CheckedPly>>,
}

impl CheckedPly {
    /// The tree back as [`Ply`]s, in coordinate form.
    fn plain(line: &[CheckedPly]) -> Vec<Ply> {
        line.iter()
            .map(|p| Ply {
                mv: p.mv.clone(),
                comment: p.comment.clone(),
                variations: p.variations.iter().map(|v| CheckedPly::plain(v)).collect(),
                at: None,
            })
            .collect()
    }
}

/// A comment as kept: trimmed, and none when nothing is left.
fn clean(c: Option<String>) -> Option<String> {
    c.map(|c| c.trim().to_string()).filter(|c| !c.is_empty())
}

/// The move number PDN gives ply `j` of a game (0: the first move):
/// `3.` for the first mover's, `3...` for the reply.
fn move_number(j: usize) -> String {
    format!(
        "{}{}",
        j / 2 + 1,
        if j.is_multiple_of(2) { "." } else { "..." }
    )
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
    /// Only when the game has comments or variations: a plain game is
    /// written as `zoo match` writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tree: Vec<Ply>,
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
            comment: None,
            tree: Vec::new(),
        }
    }

    /// A session at the end of this game's main line, with an engine of
    /// `options`; every move of the tree, variations too, is checked by
    /// the rules first ([`SavedGame::checked_tree`]).
    pub fn session(&self, options: crate::EngineOptions) -> Result<Session, AppError> {
        self.checked_tree()?;
        let mut s = Session::new(self.game, Some(&self.rules), options)?;
        s.set_position(Some(&self.start), &self.moves)?;
        Ok(s)
    }

    /// The tree to write or check: `tree`, or the moves when it is empty.
    pub fn line(&self) -> Cow<'_, [Ply]> {
        if self.tree.is_empty() {
            Cow::Owned(self.moves.iter().map(|m| Ply::plain(m)).collect())
        } else {
            Cow::Borrowed(&self.tree)
        }
    }

    /// This game with `tree` as its moves (its main line replaces
    /// `moves`) and `comment` before the first move; every move is
    /// checked and kept in coordinate form. The result stays: the caller
    /// gives the game whose main line this is.
    pub fn with_tree(self, comment: Option<String>, tree: Vec<Ply>) -> Result<SavedGame, AppError> {
        let mut g = SavedGame {
            moves: tree.iter().map(|p| p.mv.clone()).collect(),
            comment: clean(comment),
            tree,
            ..self
        };
        let checked = g.checked_tree()?;
        g.moves = checked.iter().map(|p| p.mv.clone()).collect();
        g.tree = CheckedPly::plain(&checked);
        Ok(g)
    }

    /// Every move of the tree played by the rules from the start, each
    /// variation from the position before the move it replaces. An
    /// illegal move is named with its number and, read from PDN, its line
    /// and column; so is a tree whose main line is not `moves`, or whose
    /// variations nest too deep.
    pub fn checked_tree(&self) -> Result<Vec<CheckedPly>, AppError> {
        if !self.tree.is_empty() {
            let main: Vec<&str> = self.tree.iter().map(|p| p.mv.as_str()).collect();
            if main != self.moves {
                return Err(AppError::Input(format!(
                    "the tree's main line ({}) is not the game's moves ({})",
                    main.join(" "),
                    self.moves.join(" ")
                )));
            }
        }
        let mut s = Session::new(self.game, Some(&self.rules), EngineOptions::default())?;
        s.set_position::<&str>(Some(&self.start), &[])?;
        check_line(&mut s, &self.line(), 0, 0)
    }

    /// The game as text: PDN for the checkers games, one JSON line for the
    /// animal games.
    pub fn to_text(&self) -> String {
        match self.game {
            GameKind::ClassicalCheckers | GameKind::EnglishCheckers => pdn_tree::write(
                &[
                    ("Event", "zoo play"),
                    (RULES_TAG, &self.rules),
                    ("FEN", &self.start),
                    ("Result", &self.result),
                ],
                self.comment.as_deref(),
                &self.line(),
                &self.result,
            ),
            GameKind::Jungle | GameKind::JungleCheckers => {
                let annotated = |p: &Ply| p.comment.is_some() || !p.variations.is_empty();
                let record = MoveList {
                    game: self.game,
                    rules: self.rules.clone(),
                    opening: self.start.clone(),
                    moves: self.moves.clone(),
                    result: self.result.clone(),
                    comment: self.comment.clone(),
                    tree: if self.tree.iter().any(annotated) {
                        self.tree.clone()
                    } else {
                        Vec::new()
                    },
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
                // The tree: the same moves, with the variations the PDN
                // reader skips.
                let (comment, tree) = pdn_tree::read(text)?;
                Ok(SavedGame {
                    game,
                    rules,
                    start,
                    moves: tree.iter().map(|p| p.mv.clone()).collect(),
                    result: g.result.unwrap_or_else(unfinished),
                    comment: clean(comment),
                    tree,
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
                    comment: clean(r.comment),
                    tree: r.tree,
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

/// Plays `line` in `s`, its first move being ply `first` of the game, and
/// takes it back: each move checked, each variation played from the
/// position before the move it replaces. `depth`: how deep in variations
/// the line is (bounded: the recursion is).
fn check_line(
    s: &mut Session,
    line: &[Ply],
    first: usize,
    depth: usize,
) -> Result<Vec<CheckedPly>, AppError> {
    if depth > pdn_tree::MAX_NESTING {
        return Err(AppError::Input(format!(
            "variations nested more than {} deep",
            pdn_tree::MAX_NESTING
        )));
    }
    let mut out = Vec::with_capacity(line.len());
    let mut played = 0;
    let result = (|| {
        for (k, p) in line.iter().enumerate() {
            let j = first + k;
            let variations = p
                .variations
                .iter()
                .map(|v| check_line(s, v, j, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            let info = s.play(&p.mv).map_err(|e| {
                let place =
                    p.at.map(|(l, c)| format!("PDN line {l}, column {c}: "))
                        .unwrap_or_default();
                let why = match e {
                    AppError::Move { why, .. } => why.message,
                    AppError::GameOver { reason, .. } => format!("the game is over ({reason})"),
                    e => e.to_string(),
                };
                let within = if depth > 0 { " in a variation" } else { "" };
                AppError::Input(format!(
                    "{place}move {} {}{within} is not legal: {why}",
                    move_number(j),
                    p.mv
                ))
            })?;
            played += 1;
            out.push(CheckedPly {
                mv: info.coord,
                short: info.short,
                comment: clean(p.comment.clone()),
                variations,
            });
        }
        Ok(())
    })();
    for _ in 0..played {
        s.undo();
    }
    result.map(|()| out)
}
