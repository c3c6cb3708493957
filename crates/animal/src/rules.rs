//! Named rule sets as data. A rule set's `name` is stable: table files and
//! match logs record it to say exactly which rules they used.

use zoo_core::{ParseError, Repetition};

#[derive(Debug, Clone, PartialEq, Eq)]
/// A named rule set of an animal game (docs/rules/jungle.md §9,
/// docs/rules/jungle-checkers.md §9).
pub struct RuleSet {
    /// The stable name (`leiden`, `common`) recorded in files and logs.
    pub name: &'static str,
    /// Strength of each kind (index as in `Board::NAMES`).
    pub strength: [u8; 8],
    /// The elephant may take the rat (leiden) or not (common).
    pub elephant_takes_rat: bool,
    /// Rats may capture across the water's edge (leiden: a rat in the water
    /// takes a rat on land and the other way round; the rat still may not take
    /// the elephant out of the water). Common: no capture across the edge.
    pub captures_across_water_edge: bool,
    /// A side with no legal move loses (common) instead of drawing.
    pub stalemate_loses: bool,
    /// Draw after this many plies without a capture (common: 200).
    pub no_capture_limit: Option<u16>,
    /// The repetition policy games under these rules use by default.
    pub repetition: Repetition,
    /// The start position (docs/rules/jungle.md §2, §9.4).
    pub start_fen: &'static str,
}

impl RuleSet {
    /// Whether `att` may capture `def` when neither stands on a trap and no
    /// water edge lies between them.
    #[inline(always)]
    pub fn beats(&self, att: usize, def: usize, elephant: usize) -> bool {
        if att == 0 && def == elephant {
            return true;
        }
        if att == elephant && def == 0 {
            return self.elephant_takes_rat;
        }
        self.strength[att] >= self.strength[def]
    }
}

/// Jungle under `leiden`, the default (docs/rules/jungle.md §9.2).
pub static JUNGLE_LEIDEN: RuleSet = RuleSet {
    name: "leiden",
    strength: [1, 2, 3, 4, 5, 6, 7, 8],
    elephant_takes_rat: true,
    captures_across_water_edge: true,
    stalemate_loses: false,
    no_capture_limit: None,
    repetition: Repetition::First,
    start_fen: "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
};

/// Jungle under `common` (docs/rules/jungle.md §10).
pub static JUNGLE_COMMON: RuleSet = RuleSet {
    name: "common",
    // Kinds: rat cat wolf dog panther tiger lion elephant; dog 3, wolf 4.
    strength: [1, 2, 4, 3, 5, 6, 7, 8],
    elephant_takes_rat: false,
    captures_across_water_edge: false,
    stalemate_loses: true,
    no_capture_limit: Some(200),
    repetition: Repetition::Threefold,
    start_fen: "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w",
};

/// Jungle Checkers under `leiden`, its only rule set (docs/rules/jungle-checkers.md §9).
pub static JUNGLE_CHECKERS_LEIDEN: RuleSet = RuleSet {
    name: "leiden",
    strength: [1, 2, 3, 4, 0, 0, 0, 0],
    elephant_takes_rat: true,
    captures_across_water_edge: true,
    stalemate_loses: false,
    no_capture_limit: None,
    repetition: Repetition::First,
    start_fen: "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w",
};

/// Jungle's rule sets, the default first. A new rule set is a `RuleSet`
/// above, listed here (and described in docs/rules/jungle.md): its name,
/// parsing, the engine, the tables' directory and the front ends all
/// follow from this list.
pub static JUNGLE_RULE_SETS: [&RuleSet; 2] = [&JUNGLE_LEIDEN, &JUNGLE_COMMON];

/// Jungle Checkers' rule sets, the default first (as [`JUNGLE_RULE_SETS`]).
pub static JUNGLE_CHECKERS_RULE_SETS: [&RuleSet; 1] = [&JUNGLE_CHECKERS_LEIDEN];

/// Finds a rule set of board `B` by its name: a named one (`leiden`), or
/// one with fields changed (`leiden+stalemate=loss`; an empty base is the
/// default rule set: `+stalemate=loss`), see [`crate::rule_overrides`].
pub fn by_name<B: crate::Board>(name: &str) -> Result<&'static RuleSet, ParseError> {
    let (base_name, changes) = match name.split_once('+') {
        Some((b, c)) => (b, Some(c)),
        None => (name, None),
    };
    let base = if base_name.is_empty() && changes.is_some() {
        B::rule_sets()[0]
    } else {
        B::rule_sets()
            .iter()
            .copied()
            .find(|r| r.name == base_name)
            .ok_or_else(|| {
                let names: Vec<&str> = B::rule_sets().iter().map(|r| r.name).collect();
                ParseError::new(
                    name,
                    0,
                    format!(
                        "unknown rule set for {}; expected one of: {} (and FIELD=VALUE changes after `+`)",
                        B::GAME,
                        names.join(", ")
                    ),
                )
            })?
    };
    match changes {
        Some(c) => crate::rule_overrides::apply(base, c, name),
        None => Ok(base),
    }
}
