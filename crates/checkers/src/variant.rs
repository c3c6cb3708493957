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
    /// The named rule sets of the variant, the default first.
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
    /// The stable name (`classical`, `english`) recorded in files and logs.
    pub name: &'static str,
    /// The repetition policy games are played with (docs/rules/checkers.md §4.2).
    pub repetition: Repetition,
    /// A federation's move limit: the game is drawn once this many moves
    /// of each side in a row have been played without a capture or a man
    /// moving (docs/rules/checkers.md §4.3; `+draw=N`); `None`: no limit.
    pub draw_moves: Option<u16>,
}

/// Classical checkers' rule set (docs/rules/checkers.md §8).
pub static CLASSICAL: RuleSet = RuleSet {
    name: "classical",
    repetition: Repetition::Threefold,
    draw_moves: None,
};
/// English checkers' rule set (docs/rules/checkers.md §7, §8).
pub static ENGLISH: RuleSet = RuleSet {
    name: "english",
    repetition: Repetition::Threefold,
    draw_moves: None,
};

/// Classical checkers' rule sets, the default first. A new rule set is a
/// `RuleSet` above, listed here (and described in docs/rules/checkers.md):
/// its name, parsing, the engine and the front ends follow from this list.
pub static CLASSICAL_RULE_SETS: [&RuleSet; 1] = [&CLASSICAL];

/// English checkers' rule sets, the default first.
pub static ENGLISH_RULE_SETS: [&RuleSet; 1] = [&ENGLISH];

/// The rule set of variant `V` with this name, or an error listing the
/// names. As for the animal games (`zoo_animal::rules`), a field
/// may be changed after `+`: checkers has two, `repetition` (`none`,
/// `threefold`, `first`), so `classical+repetition=first`, and `draw`
/// (a move limit, `english+draw=40`); the name with
/// its change is the rule set's name in files and logs, and each distinct
/// one is made once per process and kept (`&'static`, as the named ones).
pub fn by_name<V: Variant>(name: &str) -> Result<&'static RuleSet, ParseError> {
    let (base_name, change) = match name.split_once('+') {
        Some((b, c)) => (b, Some(c)),
        None => (name, None),
    };
    let base = if base_name.is_empty() && change.is_some() {
        V::rule_sets()[0]
    } else {
        V::rule_sets()
            .iter()
            .copied()
            .find(|r| r.name == base_name)
            .ok_or_else(|| {
                let names: Vec<&str> = V::rule_sets().iter().map(|r| r.name).collect();
                ParseError::new(
                    name,
                    0,
                    format!(
                        "unknown rule set for {}; expected one of: {} (and repetition=none|threefold|first after `+`)",
                        V::GAME,
                        names.join(", ")
                    ),
                )
            })?
    };
    let Some(change) = change else {
        return Ok(base);
    };
    let mut repetition = base.repetition;
    let mut draw_moves = base.draw_moves;
    for c in change.split('+') {
        let bad = |m: String| ParseError::new(name, name.find(c).unwrap_or(0), m);
        match c.split_once('=') {
            Some(("repetition", v)) => {
                repetition = v.parse().map_err(|_| {
                    bad(format!("repetition: `{v}` is not none, threefold or first"))
                })?
            }
            Some(("draw", "none")) => draw_moves = None,
            Some(("draw", v)) => {
                draw_moves = Some(
                    v.parse()
                        .ok()
                        .filter(|n| (1..=1000).contains(n))
                        .ok_or_else(|| {
                            bad(format!(
                                "draw: `{v}` is not a number of moves from 1 to 1000, or none"
                            ))
                        })?,
                )
            }
            _ => {
                return Err(bad(format!(
                    "`{c}`: checkers rules change repetition=none|threefold|first or draw=N|none"
                )))
            }
        }
    }
    if repetition == base.repetition && draw_moves == base.draw_moves {
        return Ok(base);
    }
    // One name for each rule set, its changes in a fixed order.
    let mut full = base.name.to_string();
    if repetition != base.repetition {
        full += &format!("+repetition={}", repetition.name());
    }
    if draw_moves != base.draw_moves {
        full += &format!(
            "+draw={}",
            draw_moves.map_or("none".to_string(), |n| n.to_string())
        );
    }
    static MADE: std::sync::Mutex<Vec<&'static RuleSet>> = std::sync::Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = made.iter().find(|m| m.name == full) {
        return Ok(known);
    }
    let leaked: &'static RuleSet = Box::leak(Box::new(RuleSet {
        name: Box::leak(full.into_boxed_str()),
        repetition,
        draw_moves,
    }));
    made.push(leaked);
    Ok(leaked)
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
