//! Test sets: positions by game phase, one per line as
//! `phase | FEN | source`. The published sets are built into the crate, so
//! the experiments run from any directory and always on the same positions.

use anyhow::{bail, Context, Result};
use zoo_core::Game;

/// The phases of a test set, in the order the tables list them.
pub const PHASES: [&str; 3] = ["opening", "middle", "endgame"];

/// The built-in test sets, by game name (`Game::game_name`).
const BUILT_IN: [(&str, &str); 3] = [
    ("jungle", include_str!("../data/jungle.txt")),
    (
        "jungle-checkers",
        include_str!("../data/jungle-checkers.txt"),
    ),
    (
        "classical-checkers",
        include_str!("../data/classical-checkers.txt"),
    ),
];

/// The text of the built-in test set of the game named `game`, if there is
/// one.
pub fn built_in_text(game: &str) -> Option<&'static str> {
    BUILT_IN.iter().find(|(g, _)| *g == game).map(|(_, t)| *t)
}

/// The built-in test set of game `G`, parsed.
pub fn built_in<G: Game>() -> Result<Vec<(String, G)>> {
    let name = G::start(&G::default_rules()).game_name();
    let Some(text) = built_in_text(name) else {
        bail!("no built-in test set for {name}; give one with --testset");
    };
    parse(text, &format!("crates/lab/data/{name}.txt"))
}

/// Parses a test set: `(phase, position)` pairs. Blank lines and lines
/// starting with `#` are skipped; `origin` names the text in errors
/// (`origin:line: …`).
pub fn parse<G: Game>(text: &str, origin: &str) -> Result<Vec<(String, G)>> {
    let rules = G::default_rules();
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('|').map(str::trim);
        let (Some(label), Some(fen)) = (parts.next(), parts.next()) else {
            bail!("{origin}:{}: expected `phase | fen | source`", i + 1);
        };
        let p = G::from_fen(fen, &rules).with_context(|| format!("{origin}:{}", i + 1))?;
        v.push((label.to_string(), p));
    }
    if v.is_empty() {
        bail!("{origin}: no positions");
    }
    Ok(v)
}
