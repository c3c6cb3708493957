//! The legal moves of positions built for one rule each, against
//! docs/rules/jungle.md and docs/rules/jungle-checkers.md. The cases are
//! data, one per line, in `tests/data/moves.txt` (its header gives the
//! format); every failing line is reported with its line number.

use zoo_animal::{rules, Board, Position};
use zoo_core::Game;
use zoo_testkit::cases::Case;
use zoo_testkit::{cases, moves};

const MOVES: &str = include_str!("data/moves.txt");

/// The position of a case, or why it could not be built.
fn position<B: Board>(c: &Case<moves::Expect>) -> Result<Position<B>, String> {
    let rules = rules::by_name::<B>(c.rules).map_err(|e| e.to_string())?;
    if c.position == "start" {
        Ok(Position::<B>::start(&rules))
    } else {
        Position::<B>::from_fen(c.position, &rules).map_err(|e| e.to_string())
    }
}

#[test]
fn move_cases_from_data() {
    cases::check_all(
        "tests/data/moves.txt",
        MOVES,
        moves::Expect::parse,
        |c| match c.game {
            "jungle" => position::<zoo_animal::Jungle>(c).and_then(|p| moves::check(&p, &c.expect)),
            "jungle-checkers" => {
                position::<zoo_animal::JungleCheckers>(c).and_then(|p| moves::check(&p, &c.expect))
            }
            other => Err(format!("unknown game {other:?}")),
        },
    );
}
