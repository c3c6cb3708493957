//! Every table built by the generator (`zoo_tb::retro::solve`) against
//! the forward verifier (`zoo_tb::verify`), which shares no code with it:
//! equal values everywhere. And the colour-swap symmetry of the values.

use super::build::{classical, english, Built};
use zoo_checkers::tables::CheckersScheme;
use zoo_checkers::Variant;
use zoo_core::{Outcome, Retro, TableScheme};
use zoo_tb::verify::verify_table;

fn every_table_passes_the_verifier<V: Variant>(b: &Built<V>) {
    assert!(b.rows.len() >= 16, "every table of up to 3 pieces");
    for r in &b.rows {
        let report = verify_table(&b.tb, r.material).expect("verified");
        assert_eq!(report.entries, r.entries, "{}", r.name);
        assert_eq!(report.wrong, 0, "{}: {:?}", r.name, report.examples);
    }
    // The check means something: wins, losses and draws all occur.
    let sum = |f: fn(&super::build::Row) -> u64| b.rows.iter().map(f).sum::<u64>();
    assert!(sum(|r| r.wins) > 0 && sum(|r| r.losses) > 0 && sum(|r| r.draws) > 0);
}

/// Every entry's value is its colour swap's: the board turned, the
/// colours and the side to move swapped.
fn values_survive_the_colour_swap<V: Variant>(b: &Built<V>) {
    let scheme: &CheckersScheme<V> = b.tb.scheme();
    let mut checked = 0u64;
    for r in &b.rows {
        for side in 0..2 {
            b.tb.walk(r.material, side, |_, pos, value| {
                let swapped = Retro::colour_swapped(pos);
                assert_eq!(Retro::colour_swapped(&swapped), *pos);
                assert_eq!(scheme.locate(&swapped).material, r.material.swapped());
                assert_eq!(b.tb.lookup(&swapped).expect("probed"), value, "{pos:?}");
                checked += 1;
            })
            .expect("walked");
        }
    }
    assert_eq!(checked, b.rows.iter().map(|r| r.entries).sum::<u64>());
}

/// A table's values are those its moves give (the probe's own check).
fn values_are_what_the_moves_give<V: Variant>(b: &Built<V>) {
    for r in b.rows.iter().filter(|r| r.material.pieces() == 3) {
        b.tb.walk(r.material, 1, |x, pos, value| {
            if x % 7 == 0 {
                assert_eq!(b.tb.value_from_children(pos).expect("probed"), value);
                if value.0 == Outcome::Win {
                    assert!(value.1 % 2 == 1, "a win is an odd number of plies");
                }
            }
        })
        .expect("walked");
    }
}

#[test]
fn english_tables_pass_the_forward_verifier() {
    every_table_passes_the_verifier(english());
}

#[test]
fn classical_tables_pass_the_forward_verifier() {
    every_table_passes_the_verifier(classical());
}

#[test]
fn english_values_survive_the_colour_swap() {
    values_survive_the_colour_swap(english());
    values_are_what_the_moves_give(english());
}

#[test]
fn classical_values_survive_the_colour_swap() {
    values_survive_the_colour_swap(classical());
    values_are_what_the_moves_give(classical());
}
