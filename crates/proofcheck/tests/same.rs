//! `same J` leaves: accepted only where a draw meets the claim, and only
//! at the position of node J.

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

#[test]
fn a_same_leaf_is_a_draw_and_misses_a_win() {
    // The rat's extra move d6c6 goes on "as node 0": a draw at best,
    // which a proof of `win` cannot have.
    let e = checked(
        "goal win\nanswer proven\n",
        &["0 - - -", "1 0 d6d7 terminal loss", "2 0 d6c6 same 0"],
    )
    .unwrap_err();
    assert!(e.starts_with("line 10: a draw"), "{e}");
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
