//! The built-in test sets parse, and every position is labelled with a
//! known phase (the enhancement experiment rejects any other label).

use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_checkers::{ClassicalPos, EnglishPos};
use zoo_core::Game;
use zoo_lab::testset::{built_in, parse, PHASES};

fn check<G: Game>(per_phase: usize) {
    let set = built_in::<G>().unwrap();
    for phase in PHASES {
        let n = set.iter().filter(|(l, _)| l == phase).count();
        assert_eq!(n, per_phase, "{phase}");
    }
    assert_eq!(set.len(), 3 * per_phase);
}

#[test]
fn built_in_sets() {
    check::<JunglePos>(8);
    check::<JungleCheckersPos>(8);
    check::<ClassicalPos>(16);
}

#[test]
fn a_game_without_a_set_says_so() {
    let e = built_in::<EnglishPos>().unwrap_err().to_string();
    assert!(e.contains("no built-in test set"), "{e}");
}

#[test]
fn errors_name_the_line() {
    let e = parse::<JunglePos>("# header\nopening\n", "set.txt")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "set.txt:2: expected `phase | fen | source`");
    assert!(parse::<JunglePos>("# only a comment\n", "set.txt").is_err());
}

#[test]
fn a_made_set_parses_back() {
    let made = zoo_lab::make_testset::<JungleCheckersPos>(1, 7).unwrap();
    assert_eq!(made.found, [1, 1, 1]);
    let set = parse::<JungleCheckersPos>(&made.text, "made").unwrap();
    assert_eq!(set.len(), 3);
}
