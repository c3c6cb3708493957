//! The endgame tables as the search's and the solver's oracle
//! ([`zoo_core::Oracle`]): full tables where there are some, WDL-only
//! files where there are only those (values without distances, in the
//! manner of Syzygy's WDL tables; the search finds the way to the win).

use crate::{Tablebase, TbError};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use zoo_core::{Game, Oracle, OracleValue, TableScheme};

/// The endgame tables of a game as an oracle.
pub struct TbOracle<S: TableScheme> {
    tb: Tablebase<S>,
    /// The most pieces of which every material is built.
    complete: u32,
    /// Materials up to `complete` pieces with a WDL-only file and no full
    /// table.
    wdl_only: usize,
    /// Materials up to `complete` pieces.
    materials: usize,
    /// The sizes past `complete` of which some tables are built.
    partial: Option<Partial>,
    /// Probes that found a file damaged or unreadable, and the first
    /// reason ([`Oracle::refused`]).
    refusals: AtomicU64,
    first_refusal: OnceLock<String>,
}

/// Sizes of which only some tables are built (a build of 7-piece
/// checkers slices under way): probed where their table is there. Their
/// values are as exact as any table's; a position whose table is missing
/// is simply not known, and the search goes on below it. No repetition
/// meets their leaves either: a cycle of moves never changes the
/// material, nor a slice (only kings move in one), so a cycle stays
/// inside one table, built or not.
struct Partial {
    /// By table key: whether its full table or WDL-only file is there.
    built: Vec<bool>,
    /// Each size's tables built and in all, from `complete + 1` on, to the
    /// last size with one built.
    sizes: Vec<(u32, usize, usize)>,
}

impl<S: TableScheme> TbOracle<S> {
    /// The tables of `rules` under `dir`, or `None` when no complete set
    /// exists there. Complete means every material with at most
    /// [`Oracle::complete_pieces`] pieces has its full table or its
    /// WDL-only file, so that every capture from a probed position lands
    /// in a table too. A material with both is probed in its full table.
    /// The tables of larger sizes that are there are probed too, up to
    /// the first size with none ([`Oracle::max_pieces`] is then the
    /// largest size with one).
    pub fn open(dir: &Path, rules: <S::Pos as Game>::Rules) -> Option<TbOracle<S>> {
        let tb = Tablebase::<S>::open(dir, rules);
        let (mut max, mut wdl_only, mut materials) = (0, 0, 0);
        let there = |m| tb.path_of(m).exists() || tb.wdl_path_of(m).exists();
        let mut partial = Partial {
            built: Vec::new(),
            sizes: Vec::new(),
        };
        for n in 1..=tb.scheme().max_pieces() {
            let ms = tb.scheme().stored(n);
            if ms.is_empty() && max == 0 {
                // No table this small (the animal games have none of 1 piece).
                continue;
            }
            if partial.sizes.is_empty() && ms.iter().all(|&m| there(m)) {
                max = n;
                wdl_only += ms.iter().filter(|&&m| !tb.path_of(m).exists()).count();
                materials += ms.len();
                continue;
            }
            // Past the complete sizes: each table built is marked, up to
            // the first size with none.
            partial.built.resize(S::KEYS, false);
            let mut count = 0;
            for &m in &ms {
                if there(m) {
                    partial.built[S::key(m) as usize] = true;
                    count += 1;
                }
            }
            if count == 0 {
                break;
            }
            partial.sizes.push((n, count, ms.len()));
        }
        let partial = (!partial.sizes.is_empty()).then_some(partial);
        (max > 0).then_some(TbOracle {
            tb,
            complete: max,
            wdl_only,
            materials,
            partial,
            refusals: AtomicU64::new(0),
            first_refusal: OnceLock::new(),
        })
    }

    /// Counts a probe that found a file damaged or unreadable (not one
    /// outside the tables).
    #[cold]
    fn note_refusal(&self, e: &TbError) {
        if matches!(
            e,
            TbError::Damaged(..) | TbError::DamagedChild { .. } | TbError::Io(..)
        ) {
            self.refusals.fetch_add(1, Relaxed);
            self.first_refusal.get_or_init(|| e.to_string());
        }
    }

    /// The tables behind the oracle.
    pub fn tablebase(&self) -> &Tablebase<S> {
        &self.tb
    }

    /// How many materials of the set have a WDL-only file and no full
    /// table (their positions probe without a distance).
    pub fn wdl_only(&self) -> usize {
        self.wdl_only
    }

    /// `jungle leiden tables in DIR, up to N pieces`, and how many of them
    /// are WDL-only files when some are.
    pub fn describe(&self, dir: &Path) -> String {
        let mut s = format!(
            "{} {} tables in {}, up to {} pieces",
            self.tb.scheme().game(),
            self.tb.scheme().rules_name(),
            dir.display(),
            self.complete
        );
        match self.wdl_only {
            0 => {}
            n if n == self.materials => s.push_str(" (WDL-only files: values, no distances)"),
            n => s.push_str(&format!(
                " ({n} of {} WDL-only: values, no distances)",
                self.materials
            )),
        }
        for &(pieces, count, of) in self.partial.iter().flat_map(|p| &p.sizes) {
            s.push_str(&format!(
                ", and {count} of the {of} tables of {pieces} pieces"
            ));
        }
        s
    }
}

impl<S: TableScheme> Oracle<S::Pos> for TbOracle<S> {
    fn max_pieces(&self) -> u32 {
        self.partial
            .as_ref()
            .and_then(|p| p.sizes.last())
            .map_or(self.complete, |&(pieces, _, _)| pieces)
    }
    fn complete_pieces(&self) -> u32 {
        self.complete
    }
    #[inline]
    fn probe(&self, pos: &S::Pos) -> Option<OracleValue> {
        let probed = match &self.partial {
            // A table of a size built in part: looked up in the list of
            // those built, not on disk at every probe.
            Some(p) if pos.piece_count() > self.complete => {
                self.tb.probe_value_if(pos, |m| p.built[S::key(m) as usize])
            }
            _ => self.tb.probe_value(pos).map(Some),
        };
        probed.unwrap_or_else(|e| {
            self.note_refusal(&e);
            None
        })
    }
    fn why_unknown(&self, pos: &S::Pos) -> Option<String> {
        self.tb.probe_value(pos).err().map(|e| e.to_string())
    }
    fn refused(&self) -> Option<(u64, String)> {
        let n = self.refusals.load(Relaxed);
        (n > 0).then(|| (n, self.first_refusal.get().cloned().unwrap_or_default()))
    }
}
