//! A lock-free transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64` words: `data` and `check = meta ^ data`,
//! where `meta` holds the upper 40 bits of the key with the two drafts and
//! an auxiliary byte. A reader accepts an entry only when
//! `(check ^ data)` reproduces the key bits, so an entry torn by two threads
//! writing at once reads as a miss, never as a wrong entry (the XOR trick of
//! Hyatt and Mann). No locks, no `unsafe`.
//!
//! Every entry carries two bounds, `lower` and `upper`, each with its own
//! draft. A single-bound table (the classic layout) keeps only the bound of
//! the last store (an exact value sets both); a two-bound table merges a new
//! bound into the entry of the same position (literature C, "two bounds with
//! separate depths").

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use zoo_core::memory::try_vec_with;
use zoo_core::OutOfMemory;

/// Entries per bucket: 4 × 16 bytes = one 64-byte cache line.
pub const BUCKET: usize = 4;
/// "No bound" markers of the 16-bit score fields.
pub const NO_LOWER: i16 = i16::MIN;
/// See [`NO_LOWER`].
pub const NO_UPPER: i16 = i16::MAX;
/// "No move": the move field of an entry whose every move failed low, and
/// the code of an empty killer slot.
pub const NO_MOVE: u32 = u32::MAX;
const KEY_SHIFT: u32 = 24;

/// How a full bucket picks the entry to overwrite.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Replacement {
    /// Always overwrite (one slot per key, chosen by key bits).
    Always,
    /// Keep the deepest drafts: overwrite the shallowest (stale entries first).
    #[default]
    Deep,
    /// Keep the biggest subtrees: overwrite the entry whose search visited the
    /// fewest nodes, every visit counted (a transposition met twice counts
    /// twice: Breuker's Big-All).
    Big,
    /// Keep the biggest subtrees, each position counted once: nodes the table
    /// answered do not count (Breuker's Big-1). An approximation: a position
    /// first searched outside this subtree (an earlier iteration) and
    /// answered here counts zero, not once.
    Big1,
    /// Keep the most used: overwrite the entry with the fewest probe hits.
    Hits,
}

impl Replacement {
    /// Every scheme, in the order the experiments list them.
    pub const ALL: [Replacement; 5] = [
        Replacement::Always,
        Replacement::Deep,
        Replacement::Big,
        Replacement::Big1,
        Replacement::Hits,
    ];
    /// The scheme's name on the command line and in the experiments' tables.
    pub fn name(self) -> &'static str {
        match self {
            Replacement::Always => "always",
            Replacement::Deep => "deep",
            Replacement::Big => "big",
            Replacement::Big1 => "big1",
            Replacement::Hits => "hits",
        }
    }
}

impl std::str::FromStr for Replacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Replacement::ALL
            .into_iter()
            .find(|r| r.name() == s || (s == "big-1" && *r == Replacement::Big1))
            .ok_or_else(|| {
                format!(
                    "unknown replacement scheme {s:?}; expected always, deep, big, big1 or hits"
                )
            })
    }
}

/// A decoded entry. Scores are as stored (mate scores relative to the node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound on the value ([`NO_LOWER`]: none).
    pub lower: i16,
    /// Upper bound on the value ([`NO_UPPER`]: none).
    pub upper: i16,
    /// Draft of the search that gave `lower`.
    pub lower_depth: u8,
    /// Draft of the search that gave `upper`.
    pub upper_depth: u8,
    /// Generation (3 bits) and the scheme's metric (5 bits).
    pub aux: u8,
    /// The best move's code (`Game::move_code`), or [`NO_MOVE`].
    pub mv: u32,
}

impl Entry {
    fn pack_data(&self) -> u64 {
        (self.lower as u16 as u64) | (self.upper as u16 as u64) << 16 | (self.mv as u64) << 32
    }
    fn pack_meta(&self, key: u64) -> u64 {
        (key >> KEY_SHIFT) << KEY_SHIFT
            | (self.lower_depth as u64) << 16
            | (self.upper_depth as u64) << 8
            | self.aux as u64
    }
    fn unpack(meta: u64, data: u64) -> Entry {
        Entry {
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            mv: (data >> 32) as u32,
            lower_depth: (meta >> 16) as u8,
            upper_depth: (meta >> 8) as u8,
            aux: meta as u8,
        }
    }
    /// The search that last wrote the entry (modulo 8): entries of earlier
    /// searches are replaced first.
    pub fn generation(&self) -> u8 {
        self.aux >> 5
    }
    /// The replacement scheme's measure of the entry's worth (hits, or the
    /// logarithm of the subtree size), saturating at 31.
    pub fn metric(&self) -> u8 {
        self.aux & 31
    }
    /// Whether the entry holds an exact value (a principal-variation node).
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper && self.lower != NO_LOWER
    }
}

/// What the search asks to store.
#[derive(Debug, Clone, Copy)]
pub enum Bound {
    /// The search failed high: the value is at least the score.
    Lower,
    /// The search failed low: the value is at most the score.
    Upper,
    /// The score is the value.
    Exact,
}

/// The transposition table: buckets of [`BUCKET`] entries, one cache line
/// each, shared by all threads of a search without locks.
pub struct Table {
    words: Vec<AtomicU64>,
    mask: usize,
    generation: AtomicU8,
    /// Which entry of a full bucket a store overwrites.
    pub replacement: Replacement,
    /// Entries merge lower and upper bounds instead of keeping the last one.
    pub two_bound: bool,
    /// Entries of principal-variation nodes (an exact value: both bounds
    /// equal) of the current search are overwritten only when the bucket
    /// holds nothing else (literature C's PV flag; the flag is read off the
    /// bounds, so it costs no bit).
    pub pv_flag: bool,
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two of
    /// buckets, at least one), or [`OutOfMemory`] when the system refuses
    /// the memory.
    pub fn new(
        megabytes: usize,
        replacement: Replacement,
        two_bound: bool,
    ) -> Result<Table, OutOfMemory> {
        let bytes = megabytes.clamp(1, usize::MAX >> 21) << 20;
        let mut buckets = 1usize;
        while buckets * 2 * BUCKET * 16 <= bytes {
            buckets *= 2;
        }
        Table::with_buckets(buckets, replacement, two_bound)
    }

    /// A table of exactly `buckets` buckets (rounded up to a power of two),
    /// for experiments with small tables; [`OutOfMemory`] when the system
    /// refuses the memory.
    pub fn with_buckets(
        buckets: usize,
        replacement: Replacement,
        two_bound: bool,
    ) -> Result<Table, OutOfMemory> {
        let buckets = buckets.next_power_of_two();
        let words = try_vec_with(buckets * BUCKET * 2, "search table", || AtomicU64::new(0))?;
        Ok(Table {
            words,
            mask: buckets - 1,
            generation: AtomicU8::new(0),
            replacement,
            two_bound,
            pv_flag: false,
        })
    }

    /// The number of buckets.
    pub fn buckets(&self) -> usize {
        self.mask + 1
    }

    /// Empties every entry (a new game).
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the entries written so far as older (a new search begins).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 7
    }

    #[inline(always)]
    fn base(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET * 2
    }

    #[inline(always)]
    fn read(&self, i: usize) -> (u64, u64) {
        let check = self.words[i].load(Ordering::Relaxed);
        let data = self.words[i + 1].load(Ordering::Relaxed);
        (check ^ data, data)
    }

    #[inline(always)]
    fn write(&self, i: usize, key: u64, e: &Entry) {
        let data = e.pack_data();
        self.words[i].store(e.pack_meta(key) ^ data, Ordering::Relaxed);
        self.words[i + 1].store(data, Ordering::Relaxed);
    }

    #[inline(always)]
    fn matches(meta: u64, key: u64) -> bool {
        meta >> KEY_SHIFT == key >> KEY_SHIFT && meta != 0
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.base(key);
        for s in 0..BUCKET {
            let i = b + 2 * s;
            let (meta, data) = self.read(i);
            if Self::matches(meta, key) {
                let mut e = Entry::unpack(meta, data);
                if self.replacement == Replacement::Hits && e.metric() < 31 {
                    // Counting hits costs a write; only this scheme pays it.
                    e.aux += 1;
                    self.write(i, key, &e);
                }
                return Some(e);
            }
        }
        None
    }

    /// Stores a search result. `subtree` is the number of nodes the search
    /// of this position took (the Big scheme keeps the largest).
    pub fn store(&self, key: u64, bound: Bound, score: i16, depth: u32, mv: u32, subtree: u64) {
        let depth = depth.min(255) as u8;
        let gen = self.current_generation();
        let b = self.base(key);
        // Find the entry of this position, else the victim.
        let mut same = None;
        let mut victim = 0usize;
        let mut victim_worth = i64::MAX;
        let mut worths = [0i64; BUCKET];
        for (s, slot_worth) in worths.iter_mut().enumerate() {
            let (meta, data) = self.read(b + 2 * s);
            if Self::matches(meta, key) {
                same = Some((s, Entry::unpack(meta, data)));
                break;
            }
            let worth = if meta == 0 {
                i64::MIN
            } else {
                let e = Entry::unpack(meta, data);
                let stale = if e.generation() != gen { -1000 } else { 0 };
                // Above any draft (≤ 255) or metric; only this search's.
                let pv = if self.pv_flag && e.is_exact() && e.generation() == gen {
                    500
                } else {
                    0
                };
                stale
                    + pv
                    + match self.replacement {
                        Replacement::Always => 0,
                        Replacement::Deep => e.lower_depth.max(e.upper_depth) as i64,
                        Replacement::Big | Replacement::Big1 | Replacement::Hits => {
                            e.metric() as i64
                        }
                    }
            };
            *slot_worth = worth;
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let slot = (key >> 62) as usize % BUCKET;
        if same.is_none()
            && self.replacement == Replacement::Always
            && victim_worth > i64::MIN
            && (worths[slot] < 500 || victim_worth >= 500)
        {
            // Always replace: the slot is a function of the key alone
            // (unless it holds a flagged PV entry of this search and
            // another entry does not).
            victim = slot;
        }
        let metric = match self.replacement {
            Replacement::Big | Replacement::Big1 => (64 - subtree.leading_zeros()).min(31) as u8,
            Replacement::Hits => same.map(|(_, e)| e.metric()).unwrap_or(0),
            _ => 0,
        };
        let mut e = Entry {
            lower: NO_LOWER,
            upper: NO_UPPER,
            lower_depth: 0,
            upper_depth: 0,
            aux: gen << 5 | metric,
            mv,
        };
        if let (true, Some((_, old))) = (self.two_bound, same) {
            e.lower = old.lower;
            e.upper = old.upper;
            e.lower_depth = old.lower_depth;
            e.upper_depth = old.upper_depth;
            if mv == NO_MOVE {
                e.mv = old.mv;
            }
        } else if let (Some((_, old)), true) = (same, mv == NO_MOVE) {
            e.mv = old.mv;
        }
        match bound {
            Bound::Lower => {
                e.lower = score;
                e.lower_depth = depth;
            }
            Bound::Upper => {
                e.upper = score;
                e.upper_depth = depth;
            }
            Bound::Exact => {
                e.lower = score;
                e.upper = score;
                e.lower_depth = depth;
                e.upper_depth = depth;
            }
        }
        // Two bounds that cross (from searches of different drafts) cannot
        // both be kept: the newer wins.
        if e.lower != NO_LOWER && e.upper != NO_UPPER && e.lower > e.upper {
            match bound {
                Bound::Lower => {
                    e.upper = NO_UPPER;
                    e.upper_depth = 0;
                }
                _ => {
                    e.lower = NO_LOWER;
                    e.lower_depth = 0;
                }
            }
        }
        let slot = same.map(|(s, _)| s).unwrap_or(victim);
        self.write(b + 2 * slot, key, &e);
    }

    /// Per mille of the sampled entries written in this search (UCI hashfull).
    pub fn hashfull(&self) -> u32 {
        let gen = self.current_generation();
        let n = (1000 * BUCKET).min(self.words.len() / 2);
        let used = (0..n)
            .filter(|&i| {
                let (meta, data) = self.read(2 * i);
                meta != 0 && Entry::unpack(meta, data).generation() == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::with_buckets(16, Replacement::Deep, false).unwrap();
        let k = 0xDEAD_BEEF_1234_5678u64;
        assert!(t.probe(k).is_none());
        t.store(k, Bound::Exact, -123, 7, 42, 100);
        let e = t.probe(k).unwrap();
        assert_eq!(
            (e.lower, e.upper, e.lower_depth, e.upper_depth, e.mv),
            (-123, -123, 7, 7, 42)
        );
        // A different key in the same bucket is not confused with it.
        assert!(t.probe(k ^ (1 << 40)).is_none());
        t.store(k, Bound::Lower, 50, 3, NO_MOVE, 1);
        let e = t.probe(k).unwrap();
        assert_eq!(
            (e.lower, e.upper, e.mv),
            (50, NO_UPPER, 42),
            "single-bound table keeps the last bound only"
        );
    }

    #[test]
    fn two_bound_entries_merge() {
        let t = Table::with_buckets(16, Replacement::Deep, true).unwrap();
        let k = 0x0123_4567_89AB_CDEFu64;
        t.store(k, Bound::Lower, 10, 4, 7, 1);
        t.store(k, Bound::Upper, 30, 6, NO_MOVE, 1);
        let e = t.probe(k).unwrap();
        assert_eq!(
            (e.lower, e.lower_depth, e.upper, e.upper_depth, e.mv),
            (10, 4, 30, 6, 7)
        );
        // A crossing bound replaces the other.
        t.store(k, Bound::Lower, 40, 5, 9, 1);
        let e = t.probe(k).unwrap();
        assert_eq!((e.lower, e.upper, e.mv), (40, NO_UPPER, 9));
    }

    #[test]
    fn deep_scheme_keeps_deep_entries() {
        let t = Table::with_buckets(1, Replacement::Deep, false).unwrap();
        // Five keys into one bucket of four: the shallowest goes.
        let keys: Vec<u64> = (1..=5u64).map(|i| i << 40).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, Bound::Exact, 0, [9, 2, 8, 7, 6][i], 0, 1);
        }
        assert!(t.probe(keys[1]).is_none());
        for i in [0, 2, 3, 4] {
            assert!(t.probe(keys[i]).is_some(), "entry {i}");
        }
    }

    #[test]
    fn big_scheme_keeps_big_subtrees() {
        let t = Table::with_buckets(1, Replacement::Big, false).unwrap();
        let keys: Vec<u64> = (1..=5u64).map(|i| i << 40).collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, Bound::Exact, 0, 1, 0, [1000, 10, 5000, 100_000, 7][i]);
        }
        assert!(t.probe(keys[1]).is_none());
        assert!(t.probe(keys[4]).is_some());
    }

    #[test]
    fn pv_flag_keeps_exact_entries() {
        for replacement in Replacement::ALL {
            let mut t = Table::with_buckets(1, replacement, false).unwrap();
            t.pv_flag = true;
            // One exact (PV) entry, shallow and small, then four bounds
            // deeper and bigger: the PV entry stays, a bound goes.
            // Key bits 62–63 pick `always`'s slot: the PV entry's own is
            // asked for again by the fourth bound.
            let keys: Vec<u64> = [0u64, 1, 2, 3, 0]
                .iter()
                .enumerate()
                .map(|(i, &slot)| (i as u64 + 1) << 40 | slot << 62)
                .collect();
            t.store(keys[0], Bound::Exact, 3, 1, 0, 1);
            for &k in &keys[1..] {
                t.store(k, Bound::Lower, 0, 9, 0, 1 << 20);
            }
            assert!(t.probe(keys[0]).is_some(), "{replacement:?}");
            assert_eq!(
                keys[1..].iter().filter(|&&k| t.probe(k).is_some()).count(),
                3,
                "{replacement:?}"
            );
            // Without the flag the deep scheme lets the shallow entry go.
            if replacement == Replacement::Deep {
                t.pv_flag = false;
                t.clear();
                t.store(keys[0], Bound::Exact, 3, 1, 0, 1);
                for &k in &keys[1..] {
                    t.store(k, Bound::Lower, 0, 9, 0, 1 << 20);
                }
                assert!(t.probe(keys[0]).is_none());
            }
        }
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let t = Table::with_buckets(1, Replacement::Deep, false).unwrap();
        let k = 5u64 << 40;
        t.store(k, Bound::Exact, 1, 1, 0, 1);
        // Simulate a half-finished write of another entry over the data word.
        t.words[1].store(0xFFFF_0000_1111_2222, Ordering::Relaxed);
        assert!(t.probe(k).is_none());
    }
}

#[cfg(test)]
mod allocation {
    use super::*;

    #[test]
    fn a_table_too_large_is_an_error_not_an_abort() {
        let e = Table::new(usize::MAX >> 22, Replacement::Deep, false)
            .err()
            .expect("a table of petabytes cannot be allocated");
        assert_eq!(e.what, "search table");
    }
}
