//! The counts per size of docs/checkers.md ("Endgame tables"), kept in
//! tests/data/table-counts.txt, against the tables the tests build.

use super::build::{classical, english, test_pieces, Built};
use zoo_checkers::Variant;

const COUNTS: &str = include_str!("../../data/table-counts.txt");

/// The line of the data file for every size built, as the tables give it.
fn lines<V: Variant>(b: &Built<V>, game: &str) -> Vec<String> {
    (2..=test_pieces())
        .map(|pieces| {
            let s = b.size(pieces);
            let longest = s.longest.expect("tables");
            format!(
                "{game} {pieces} {} {} {} {} {} {} {}",
                s.tables, s.entries, s.wins, s.draws, s.losses, longest.longest_win, longest.name
            )
        })
        .collect()
}

/// The data file's lines for `game` up to the sizes built, spaces squeezed.
fn expected(game: &str) -> Vec<String> {
    COUNTS
        .lines()
        .map(|l| {
            l.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
        })
        .filter(|w| w.first() == Some(&game))
        .filter(|w| w.get(1).and_then(|p| p.parse::<u32>().ok()) <= Some(test_pieces()))
        .map(|w| w.join(" "))
        .collect()
}

#[test]
fn english_counts_are_the_documented_ones() {
    assert_eq!(lines(english(), "english"), expected("english"));
}

#[test]
fn classical_counts_are_the_documented_ones() {
    assert_eq!(lines(classical(), "classical"), expected("classical"));
}
