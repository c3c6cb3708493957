//! The legal moves of positions built for one rule each, against
//! docs/rules/checkers.md. The cases are data, one per line, in
//! `tests/data/moves.txt` (its header gives the format); every failing line
//! is reported with its line number.

use zoo_checkers::{variant, Position, Variant};
use zoo_core::Game;
use zoo_testkit::cases::Case;
use zoo_testkit::{cases, moves};

const MOVES: &str = include_str!("data/moves.txt");

/// The position of a case, or why it could not be built.
fn position<V: Variant>(c: &Case<moves::Expect>) -> Result<Position<V>, String> {
    let rules = variant::by_name::<V>(c.rules).map_err(|e| e.to_string())?;
    if c.position == "start" {
        Ok(Position::<V>::start(&rules))
    } else {
        Position::<V>::from_fen(c.position, &rules).map_err(|e| e.to_string())
    }
}

#[test]
fn move_cases_from_data() {
    cases::check_all(
        "tests/data/moves.txt",
        MOVES,
        moves::Expect::parse,
        |c| match c.game {
            "classical" => {
                position::<zoo_checkers::Classical>(c).and_then(|p| moves::check(&p, &c.expect))
            }
            "english" => {
                position::<zoo_checkers::English>(c).and_then(|p| moves::check(&p, &c.expect))
            }
            other => Err(format!("unknown game {other:?}")),
        },
    );
}
