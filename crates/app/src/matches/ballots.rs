//! The federation's 3-move ballots of English checkers
//! (`english-ballots.txt`), the openings English matches play by default,
//! as tournaments do: each ballot's three moves from the start.

use crate::options::EngineOptions;
use crate::{AppError, GameKind, Session, Status};

/// The list as data, with its source in its opening comment.
const BALLOTS: &str = include_str!("english-ballots.txt");

/// One ballot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ballot {
    /// Its ACF number (1–174).
    pub number: u32,
    /// Its three moves (`9-13 21-17 5-9`).
    pub moves: Vec<String>,
    /// Barred: not played.
    pub barred: bool,
}

/// Every ballot of the list, barred ones included.
pub fn english_ballots() -> Result<Vec<Ballot>, AppError> {
    let mut v = Vec::new();
    for (i, line) in BALLOTS.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || AppError::Input(format!("english-ballots.txt:{}: {line:?}", i + 1));
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let (number, moves, barred) = match fields.as_slice() {
            [n, m] => (n, m, false),
            [n, m, "barred"] => (n, m, true),
            _ => return Err(bad()),
        };
        v.push(Ballot {
            number: number.parse().map_err(|_| bad())?,
            moves: moves.split_whitespace().map(str::to_string).collect(),
            barred,
        });
    }
    Ok(v)
}

/// The positions after the ballots that are played (not barred), in the
/// list's order, under English checkers' rule set `rules`.
pub fn ballot_openings(rules: Option<&str>) -> Result<Vec<String>, AppError> {
    let mut s = Session::new(GameKind::EnglishCheckers, rules, EngineOptions::default())?;
    let mut v = Vec::new();
    for b in english_ballots()?.into_iter().filter(|b| !b.barred) {
        s.set_position(None, &b.moves).map_err(|e| {
            AppError::Input(format!("ballot {} ({}): {e}", b.number, b.moves.join(" ")))
        })?;
        if s.status() == Status::Playing {
            v.push(s.fen());
        }
    }
    Ok(v)
}
