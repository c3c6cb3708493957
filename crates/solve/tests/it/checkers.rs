//! The solver is generic over `Game`: checkers positions, where having no
//! move loses, solved by both algorithms.

use zoo_checkers::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
use zoo_core::{Game, Outcome};
use zoo_solve::{dfpn, pns, value_of, Goal, Limits};

fn value<G: Game>(pos: &G) -> (Option<Outcome>, Option<Outcome>) {
    let limits = Limits::nodes(1_000_000);
    let p: Vec<_> = Goal::ALL
        .iter()
        .map(|&g| pns::solve(pos, g, None, &limits).answer)
        .collect();
    let d: Vec<_> = Goal::ALL
        .iter()
        .map(|&g| dfpn::solve(pos, g, None, &limits, &dfpn::Options::default()).answer)
        .collect();
    (value_of(p[0], p[1]), value_of(d[0], d[1]))
}

#[test]
fn checkers_captures_decide() {
    // White takes Black's last man (10x17).
    let won = ClassicalPos::from_fen("W:W10:B13", &&CLASSICAL).unwrap();
    assert_eq!(value(&won), (Some(Outcome::Win), Some(Outcome::Win)));
    // The same men, Black to move: Black takes first.
    let black = ClassicalPos::from_fen("B:W10:B13", &&CLASSICAL).unwrap();
    assert_eq!(value(&black), (Some(Outcome::Win), Some(Outcome::Win)));
    // English: Black moves down the board and takes White's last man.
    let english = EnglishPos::from_fen("B:W18:B14", &&ENGLISH).unwrap();
    assert_eq!(value(&english), (Some(Outcome::Win), Some(Outcome::Win)));
}
