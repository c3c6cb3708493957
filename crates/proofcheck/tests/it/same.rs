//! `same J` leaves: at the position of node J only; where a draw misses
//! the claim, only where no line through them comes back.

use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
use zoo_proofcheck::check;

const HEAD: &str = "zoo-proof 1\ngame jungle-checkers\nrules leiden\nfen 7/3R3/7/7/7/7/e6 w\n";

fn checked(goal_answer: &str, nodes: &[&str]) -> Result<(), String> {
    let text = format!(
        "{HEAD}{goal_answer}nodes {}\n{}\n",
        nodes.len(),
        nodes.join("\n")
    );
    check::<JungleCheckersPos>(&text, &&JUNGLE_CHECKERS_LEIDEN, None)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// White's rat steps back and returns; where the elephant returns too,
/// play goes on "as node 0", else the rat walks into the den.
const ROUND_TRIP: [&str; 16] = [
    "0 - - -",
    "1 0 d6d5 -",
    "2 1 a1a2 -",
    "3 1 a1b1 -",
    "4 2 d5d6 -",
    "5 3 d5d6 -",
    "6 4 a2a1 same 0",
    "7 4 a2a3 -",
    "8 4 a2b2 -",
    "9 5 b1a1 same 0",
    "10 5 b1c1 -",
    "11 5 b1b2 -",
    "12 7 d6d7 terminal loss",
    "13 8 d6d7 terminal loss",
    "14 10 d6d7 terminal loss",
    "15 11 d6d7 terminal loss",
];

#[test]
fn a_same_leaf_back_to_its_own_line_misses_a_win_and_meets_a_draw() {
    // Under `win`, a line that goes round for ever is a draw: refused.
    let e = checked("goal win\nanswer proven\n", &ROUND_TRIP).unwrap_err();
    assert!(e.contains("comes back to where it was"), "{e}");
    // Under `not-lose`, the same file proves that White does not lose.
    checked("goal not-lose\nanswer proven\n", &ROUND_TRIP).unwrap();
}

#[test]
fn a_same_leaf_that_does_not_come_back_serves_a_win() {
    // Both elephant moves that reach b2 meet at one position; the second
    // goes on as the first, and every line still ends in the den.
    let mut shared = ROUND_TRIP[..6].to_vec();
    shared.extend([
        "6 4 a2a1 -",
        "7 4 a2a3 -",
        "8 4 a2b2 -",
        "9 5 b1a1 same 6",
        "10 5 b1c1 -",
        "11 5 b1b2 same 8",
        "12 6 d6d7 terminal loss",
        "13 7 d6d7 terminal loss",
        "14 8 d6d7 terminal loss",
        "15 10 d6d7 terminal loss",
    ]);
    checked("goal win\nanswer proven\n", &shared).unwrap();
}

#[test]
fn a_same_leaf_must_be_the_same_position() {
    // Under `not-lose` a draw meets the claim; but after d6c6 Black is to
    // move, which node 0 (White to move) is not.
    let e = checked(
        "goal not-lose\nanswer proven\n",
        &["0 - - -", "1 0 d6d7 terminal loss", "2 0 d6c6 same 0"],
    )
    .unwrap_err();
    assert_eq!(e, "line 10: node 0 is not the same position");
    // Pointing at a leaf is refused as it is read.
    let e = checked(
        "goal not-lose\nanswer proven\n",
        &["0 - - -", "1 0 d6d7 terminal loss", "2 0 d6c6 same 1"],
    )
    .unwrap_err();
    assert!(e.contains("node 1 is a leaf"), "{e}");
}
