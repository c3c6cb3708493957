//! Repetition policies and the game record that applies them.

use crate::ParseError;
use std::fmt;
use std::str::FromStr;

/// How repeated positions end a game (docs/rules/jungle.md §5.4).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Repetition {
    /// No repetition rule (pure move generation).
    #[default]
    None,
    /// Drawn when a position occurs for the third time.
    Threefold,
    /// Drawn as soon as a position occurs for the second time (solvers).
    First,
}

impl Repetition {
    /// Every policy, in the order the command line lists them.
    pub const ALL: [Repetition; 3] = [Repetition::None, Repetition::Threefold, Repetition::First];
    /// The stable name (`none`, `threefold`, `first`), as [`FromStr`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Repetition::None => "none",
            Repetition::Threefold => "threefold",
            Repetition::First => "first",
        }
    }
}

impl fmt::Display for Repetition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Repetition {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "none" => Ok(Repetition::None),
            "threefold" => Ok(Repetition::Threefold),
            "first" => Ok(Repetition::First),
            _ => Err(ParseError::new(
                s,
                0,
                "unknown repetition policy; expected none, threefold or first",
            )),
        }
    }
}

/// The keys of the positions of a game so far (the current one last),
/// with the piece count of each: a change of material cannot be undone, so
/// the scan for repeats stops there.
#[derive(Debug, Clone)]
pub struct History {
    policy: Repetition,
    entries: Vec<(u64, u32)>,
    /// How many recorded keys fall in each of [`FILTER`] slots (by the
    /// key's low bits): literature C's small repetition hash (its §5.9).
    /// A slot holding only the last position's own key proves it has no
    /// earlier occurrence without scanning the record.
    filter: Vec<u32>,
}

/// Slots of the repetition filter: a power of two, large enough that a
/// game's reversible stretch seldom shares a slot with the last key.
const FILTER: usize = 1024;

impl History {
    /// An empty record that applies `policy`.
    pub fn new(policy: Repetition) -> Self {
        History {
            policy,
            entries: Vec::with_capacity(256),
            filter: vec![0; FILTER],
        }
    }
    /// A record that starts at `key` (the root position).
    pub fn starting_at(policy: Repetition, key: u64, pieces: u32) -> Self {
        let mut h = History::new(policy);
        h.push(key, pieces);
        h
    }
    /// The repetition policy this record applies.
    pub fn policy(&self) -> Repetition {
        self.policy
    }
    #[inline]
    /// Records the position just reached (after a move).
    pub fn push(&mut self, key: u64, pieces: u32) {
        self.entries.push((key, pieces));
        let slot = &mut self.filter[key as usize & (FILTER - 1)];
        *slot = slot.wrapping_add(1);
    }
    #[inline]
    /// Forgets the last position (when its move is taken back).
    pub fn pop(&mut self) {
        if let Some((key, _)) = self.entries.pop() {
            let slot = &mut self.filter[key as usize & (FILTER - 1)];
            *slot = slot.wrapping_sub(1);
        }
    }
    /// Number of positions recorded.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether nothing is recorded yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// How many earlier entries equal the last one (same side to move).
    fn earlier_occurrences(&self, stop_at: usize) -> usize {
        let n = self.entries.len();
        if n < 3 {
            return 0;
        }
        let (key, pieces) = self.entries[n - 1];
        // Only the last key itself in its slot: no earlier occurrence.
        // (A count could wrap only past 2³² positions, more than memory.)
        if self.filter[key as usize & (FILTER - 1)] == 1 {
            return 0;
        }
        let mut count = 0;
        let mut i = n - 1;
        while i >= 2 {
            i -= 2;
            let (k, p) = self.entries[i];
            if p != pieces {
                break;
            }
            if k == key {
                count += 1;
                if count >= stop_at {
                    break;
                }
            }
        }
        count
    }
    /// Whether the last position is a draw by the policy.
    #[inline]
    pub fn is_draw(&self) -> bool {
        match self.policy {
            Repetition::None => false,
            Repetition::First => self.earlier_occurrences(1) >= 1,
            Repetition::Threefold => self.earlier_occurrences(2) >= 2,
        }
    }
    /// Whether the last position occurred before at all (search uses this
    /// to score repetitions as draws whatever the policy of the game).
    pub fn is_repeat(&self) -> bool {
        self.earlier_occurrences(1) >= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_count_occurrences() {
        let mut h = History::new(Repetition::Threefold);
        for k in [1, 2, 3, 4, 1] {
            h.push(k, 4);
        }
        assert!(!h.is_draw());
        assert!(h.is_repeat());
        for k in [2, 3, 4, 1] {
            h.push(k, 4);
        }
        assert!(h.is_draw());
        let mut f = History::new(Repetition::First);
        for k in [1, 2, 3, 4, 1] {
            f.push(k, 4);
        }
        assert!(f.is_draw());
        f.pop();
        assert!(!f.is_draw());
    }

    #[test]
    fn keys_sharing_a_filter_slot_are_told_apart() {
        let far = FILTER as u64;
        let mut h = History::new(Repetition::First);
        for k in [5, 7, 5 + far] {
            h.push(k, 4);
        }
        // 5 and 5 + FILTER share a slot: the scan decides, no repeat.
        assert!(!h.is_repeat());
        h.push(9, 4);
        h.push(5, 4);
        assert!(h.is_repeat());
        // Taking the moves back empties the slots again.
        h.pop();
        h.pop();
        h.pop();
        h.push(3 * far + 5, 4);
        assert!(!h.is_repeat());
        h.pop();
        h.pop();
        h.pop();
        assert!(h.filter.iter().all(|&c| c == 0));
    }

    #[test]
    fn material_change_is_a_barrier() {
        let mut h = History::new(Repetition::First);
        for (k, p) in [(1, 5), (2, 5), (3, 4), (4, 4), (1, 4)] {
            h.push(k, p);
        }
        assert!(!h.is_draw());
    }

    #[test]
    fn other_side_to_move_never_repeats() {
        let mut h = History::new(Repetition::First);
        for k in [1, 2, 1, 4] {
            h.push(k, 4);
        }
        // key 1 at index 2 matches index 0 (same side): a repeat
        h.pop();
        assert!(h.is_draw());
        let mut g = History::new(Repetition::First);
        for k in [1, 1] {
            g.push(k, 4);
        }
        assert!(!g.is_draw());
    }
}
