//! The 3-move ballots of English checkers: the list is whole, every line
//! is legal, and they are English matches' default openings.

use std::collections::HashSet;
use zoo_app::matches::ballots::{ballot_openings, english_ballots};
use zoo_app::matches::default_openings;
use zoo_app::GameKind;

#[test]
fn the_list_is_whole_and_every_ballot_is_legal() {
    let all = english_ballots().unwrap();
    assert_eq!(all.len(), 174);
    assert!(all
        .iter()
        .enumerate()
        .all(|(i, b)| b.number == i as u32 + 1));
    assert!(all.iter().all(|b| b.moves.len() == 3), "three moves each");
    assert_eq!(all.iter().filter(|b| b.barred).count(), 18);
    let openings = ballot_openings(None).unwrap();
    assert_eq!(openings.len(), 156, "every ballot played is legal");
    // Black, White, Black: White is to move after each.
    assert!(openings.iter().all(|f| f.starts_with("W:")), "{openings:?}");
    let distinct: HashSet<&String> = openings.iter().collect();
    assert_eq!(distinct.len(), 156);
    assert_eq!(
        default_openings(GameKind::EnglishCheckers, None).unwrap(),
        openings
    );
}
