//! The two checkers games as data: a marker type per variant with its
//! constants, and the named rule sets.

use zoo_core::{ParseError, Repetition, Side};

/// What distinguishes one checkers variant from another. Everything else
/// (board, men's moves, mandatory capture, maximal sequences, removal of
/// captured pieces at the end, crowning ends the move) is shared.
pub trait Variant: Copy + Clone + std::fmt::Debug + Default + Send + Sync + 'static {
    /// Game name on the command line.
    const GAME: &'static str;
    /// Kings move and capture along whole diagonals.
    const FLYING_KINGS: bool;
    /// Quantity rule, then quality rule (most kings) among capture sequences.
    const MAJORITY: bool;
    /// The side on squares 1–12 (internal rows 0–2), which moves first.
    const FIRST: Side;
    /// Notation numbers squares with each row read the other way round
    /// (English numbering; see [`Variant::number`]).
    const MIRRORED_NUMBERING: bool;
    fn rule_sets() -> &'static [&'static RuleSet];

    /// Square number (1–32) of an internal square (0–31).
    #[inline]
    fn number(s: u8) -> u8 {
        if Self::MIRRORED_NUMBERING {
            (s & !3) + (3 - (s & 3)) + 1
        } else {
            s + 1
        }
    }
    /// Internal square of a number 1–32 (`None` outside that range).
    #[inline]
    fn square(n: u32) -> Option<u8> {
        if !(1..=32).contains(&n) {
            return None;
        }
        let s = (n - 1) as u8;
        Some(if Self::MIRRORED_NUMBERING {
            (s & !3) + (3 - (s & 3))
        } else {
            s
        })
    }
}

/// Portuguese/Spanish checkers: flying kings, quantity then quality rule,
/// White first. Internal square `s` is square number `s + 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classical;

/// English checkers: short kings, free choice among captures, Black first
/// from 1–12. English square 1 is b8 (Black's double corner), so with the
/// first mover's back row as row 0 each row is read left to right as that
/// side sees it: the mirror image of the classical reading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Variant for Classical {
    const GAME: &'static str = "classical-checkers";
    const FLYING_KINGS: bool = true;
    const MAJORITY: bool = true;
    const FIRST: Side = Side::White;
    const MIRRORED_NUMBERING: bool = false;
    fn rule_sets() -> &'static [&'static RuleSet] {
        &CLASSICAL_RULE_SETS
    }
}

impl Variant for English {
    const GAME: &'static str = "english-checkers";
    const FLYING_KINGS: bool = false;
    const MAJORITY: bool = false;
    const FIRST: Side = Side::Black;
    const MIRRORED_NUMBERING: bool = true;
    fn rule_sets() -> &'static [&'static RuleSet] {
        &ENGLISH_RULE_SETS
    }
}

/// A named rule set. The name is stable: files and logs record it.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleSet {
    pub name: &'static str,
    pub repetition: Repetition,
}

pub static CLASSICAL: RuleSet = RuleSet {
    name: "classical",
    repetition: Repetition::Threefold,
};
pub static ENGLISH: RuleSet = RuleSet {
    name: "english",
    repetition: Repetition::Threefold,
};

/// Classical checkers' rule sets, the default first. A new rule set is a
/// `RuleSet` above, listed here (and described in docs/rules/checkers.md):
/// its name, parsing, the engine and the front ends follow from this list.
pub static CLASSICAL_RULE_SETS: [&RuleSet; 1] = [&CLASSICAL];

/// English checkers' rule sets, the default first.
pub static ENGLISH_RULE_SETS: [&RuleSet; 1] = [&ENGLISH];

pub fn by_name<V: Variant>(name: &str) -> Result<&'static RuleSet, ParseError> {
    V::rule_sets()
        .iter()
        .copied()
        .find(|r| r.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = V::rule_sets().iter().map(|r| r.name).collect();
            ParseError::new(
                name,
                0,
                format!(
                    "unknown rule set for {}; expected one of: {}",
                    V::GAME,
                    names.join(", ")
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips() {
        for n in 1..=32u32 {
            assert_eq!(Classical::number(Classical::square(n).unwrap()) as u32, n);
            assert_eq!(English::number(English::square(n).unwrap()) as u32, n);
        }
        assert_eq!(Classical::square(0), None);
        assert_eq!(English::square(33), None);
        assert!(!Classical::rule_sets().is_empty() && !English::rule_sets().is_empty());
    }
}
