//! Move-path counts against the published figures (docs/rules/jungle.md §8,
//! docs/rules/jungle-checkers.md §7). The cases are data, one
//! per line, in `tests/data/perft.txt` (its header gives the format); every
//! failing line is reported with its line number.

use zoo_animal::{rules, Board, Position};
use zoo_core::Game;
use zoo_testkit::cases::Case;
use zoo_testkit::{cases, perft};

const PERFT: &str = include_str!("data/perft.txt");

/// perft of one case, or why it could not be run.
fn run<B: Board>(c: &Case<perft::Expect>) -> Result<(), String> {
    let rules = rules::by_name::<B>(c.rules).map_err(|e| e.to_string())?;
    let pos = if c.position == "start" {
        Position::<B>::start(&rules)
    } else {
        Position::<B>::from_fen(c.position, &rules).map_err(|e| e.to_string())?
    };
    perft::check(pos, &c.expect)
}

#[test]
fn perft_cases_from_data() {
    cases::check_all(
        "tests/data/perft.txt",
        PERFT,
        perft::Expect::parse,
        |c| match c.game {
            "jungle" => run::<zoo_animal::Jungle>(c),
            "jungle-checkers" => run::<zoo_animal::JungleCheckers>(c),
            other => Err(format!("unknown game {other:?}")),
        },
    );
}
