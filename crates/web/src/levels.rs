//! The engine's named strength levels (docs/web.md): the one place that
//! says what `beginner`, `club`, `strong` and `max` mean. A level is a
//! depth or a time per move; the server's caps apply to it as to any
//! request.

use serde::Serialize;

/// A named strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Level {
    /// Its name in requests (`level`).
    pub name: &'static str,
    /// A few words for the page.
    pub about: &'static str,
    /// A fixed depth (plies), or `None`.
    pub depth: Option<u32>,
    /// A time per move in milliseconds; `None` with no depth: the
    /// server's longest (`Config::max_movetime_ms`).
    pub movetime_ms: Option<u64>,
}

/// The levels, weakest first.
pub const LEVELS: &[Level] = &[
    Level {
        name: "beginner",
        about: "looks two plies ahead",
        depth: Some(2),
        movetime_ms: Some(1000),
    },
    Level {
        name: "club",
        about: "looks six plies ahead",
        depth: Some(6),
        movetime_ms: Some(1000),
    },
    Level {
        name: "strong",
        about: "two seconds a move",
        depth: None,
        movetime_ms: Some(2000),
    },
    Level {
        name: "max",
        about: "the server's longest time a move",
        depth: None,
        movetime_ms: None,
    },
];

/// The level called `name`, or an error that lists the names.
pub fn level(name: &str) -> Result<&'static Level, String> {
    LEVELS.iter().find(|l| l.name == name).ok_or_else(|| {
        let names: Vec<&str> = LEVELS.iter().map(|l| l.name).collect();
        format!(
            "unknown level {name:?}; expected one of: {}",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for l in LEVELS {
            assert_eq!(level(l.name), Ok(l));
            assert!(l.depth.is_some() || l.movetime_ms.is_some() || l.name == "max");
        }
        assert!(level("grandmaster").unwrap_err().contains("beginner, club"));
    }
}
