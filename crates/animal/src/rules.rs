//! Named rule sets as data, and rule sets with single fields changed by
//! name (`leiden+stalemate=loss`, [`apply`]). A rule set's `name` is
//! stable: table files and match logs record it to say exactly which rules
//! they used.

use std::collections::HashMap;
use std::sync::Mutex;
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

// Rule sets with changes.
//
// Rule sets with single fields changed by name: `leiden+stalemate=loss`
// is `leiden` where a side with no legal move loses. The name with its
// changes is the rule set's name, recorded in table headers, table
// directories and match logs like any other, so a result always says
// which rules it used.
//
// The changes are written in a fixed order and a change that changes
// nothing is dropped, so one set of rules has one name (and one table
// directory). Each distinct rule set is made once per process and kept
// for its lifetime (`&'static`, like the named ones: positions and tables
// hold a `&'static RuleSet` and compare rule sets by address). So that a
// long-running process (`zoo serve`) asked for millions of distinct names
// neither grows without bound nor slows down, the made ones are found by
// name in a hash map and at most [`MAX_MADE`] are made; a new one past
// that is refused with an error that says so.
/// The fields that may be changed, in the order names are written, with
/// the values each takes.
pub const FIELDS: [(&str, &str); 5] = [
    ("stalemate", "draw | loss"),
    ("elephant-takes-rat", "yes | no"),
    ("water-edge-captures", "yes | no"),
    ("no-capture-limit", "a number of plies | none"),
    ("repetition", "none | threefold | first"),
];

/// The most rule sets with changes one process makes (each about 100
/// bytes, kept for the process's lifetime). A person or a table build uses
/// a handful; there are about 3 million names.
pub const MAX_MADE: usize = 4096;

/// The rule sets made so far, by name.
static MADE: Mutex<Option<HashMap<String, &'static RuleSet>>> = Mutex::new(None);

/// `base` with the changes of `changes` (`field=value` joined by `+`).
pub fn apply(
    base: &'static RuleSet,
    changes: &str,
    whole: &str,
) -> Result<&'static RuleSet, ParseError> {
    let mut r = base.clone();
    for change in changes.split('+') {
        let column = whole.find(change).unwrap_or(0);
        let bad = |msg: String| ParseError::new(whole, column, msg);
        let (field, value) = change.split_once('=').ok_or_else(|| {
            bad(format!(
                "`{change}` is not FIELD=VALUE; fields: {}",
                field_list()
            ))
        })?;
        let yes_no = |v: &str| match v {
            "yes" => Ok(true),
            "no" => Ok(false),
            _ => Err(bad(format!("{field}: `{v}` is not yes or no"))),
        };
        match field {
            "stalemate" => {
                r.stalemate_loses = match value {
                    "loss" => true,
                    "draw" => false,
                    _ => return Err(bad(format!("stalemate: `{value}` is not draw or loss"))),
                }
            }
            "elephant-takes-rat" => r.elephant_takes_rat = yes_no(value)?,
            "water-edge-captures" => r.captures_across_water_edge = yes_no(value)?,
            "no-capture-limit" => {
                r.no_capture_limit = match value {
                    "none" => None,
                    n => Some(n.parse::<u16>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        bad(format!(
                        "no-capture-limit: `{n}` is not a number of plies from 1 to 65535, or none"
                    ))
                    })?),
                }
            }
            "repetition" => {
                r.repetition = value.parse::<Repetition>().map_err(|_| {
                    bad(format!(
                        "repetition: `{value}` is not none, threefold or first"
                    ))
                })?
            }
            _ => {
                return Err(bad(format!(
                    "unknown rule field `{field}`; fields: {}",
                    field_list()
                )))
            }
        }
    }
    let name = canonical_name(base, &r);
    if name == base.name {
        return Ok(base);
    }
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let made = made.get_or_insert_with(HashMap::new);
    if let Some(&known) = made.get(&name) {
        return Ok(known);
    }
    if made.len() >= MAX_MADE {
        return Err(ParseError::new(
            whole,
            0,
            format!(
                "this process has made {MAX_MADE} rule sets with changes, the most it makes; \
                 use one of those or restart it"
            ),
        ));
    }
    r.name = Box::leak(name.clone().into_boxed_str());
    let leaked: &'static RuleSet = Box::leak(Box::new(r));
    made.insert(name, leaked);
    Ok(leaked)
}

fn field_list() -> String {
    FIELDS
        .iter()
        .map(|(f, v)| format!("{f} ({v})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `base`'s name and, in the order of [`FIELDS`], each field `r` changes.
fn canonical_name(base: &RuleSet, r: &RuleSet) -> String {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let mut name = base.name.to_string();
    if r.stalemate_loses != base.stalemate_loses {
        name += if r.stalemate_loses {
            "+stalemate=loss"
        } else {
            "+stalemate=draw"
        };
    }
    if r.elephant_takes_rat != base.elephant_takes_rat {
        name += &format!("+elephant-takes-rat={}", yes_no(r.elephant_takes_rat));
    }
    if r.captures_across_water_edge != base.captures_across_water_edge {
        name += &format!(
            "+water-edge-captures={}",
            yes_no(r.captures_across_water_edge)
        );
    }
    if r.no_capture_limit != base.no_capture_limit {
        name += &match r.no_capture_limit {
            Some(n) => format!("+no-capture-limit={n}"),
            None => "+no-capture-limit=none".into(),
        };
    }
    if r.repetition != base.repetition {
        name += &format!("+repetition={}", r.repetition.name());
    }
    name
}
