//! Move-path counts against the published figures (docs/rules/jungle.md §8,
//! docs/rules/jungle-checkers.md §7). The cases are data, one
//! per line, in `tests/data/perft.txt` (its header gives the format); every
//! failing line is reported with its line number.

use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_testkit::cases::position;
use zoo_testkit::{cases, perft};

const PERFT: &str = include_str!("../data/perft.txt");

#[test]
fn perft_cases_from_data() {
    cases::check_all(
        "tests/data/perft.txt",
        PERFT,
        perft::Expect::parse,
        |c| match c.game {
            "jungle" => position::<JunglePos, _>(c).and_then(|p| perft::check(p, &c.expect)),
            "jungle-checkers" => {
                position::<JungleCheckersPos, _>(c).and_then(|p| perft::check(p, &c.expect))
            }
            other => Err(format!("unknown game {other:?}")),
        },
    );
}
