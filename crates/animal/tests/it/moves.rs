//! The legal moves of positions built for one rule each, against
//! docs/rules/jungle.md and docs/rules/jungle-checkers.md. The cases are
//! data, one per line, in `tests/data/moves.txt` (its header gives the
//! format); every failing line is reported with its line number.

use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_testkit::cases::position;
use zoo_testkit::{cases, moves};

const MOVES: &str = include_str!("../data/moves.txt");

#[test]
fn move_cases_from_data() {
    cases::check_all(
        "tests/data/moves.txt",
        MOVES,
        moves::Expect::parse,
        |c| match c.game {
            "jungle" => position::<JunglePos, _>(c).and_then(|p| moves::check(&p, &c.expect)),
            "jungle-checkers" => {
                position::<JungleCheckersPos, _>(c).and_then(|p| moves::check(&p, &c.expect))
            }
            other => Err(format!("unknown game {other:?}")),
        },
    );
}
