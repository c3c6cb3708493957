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
    max: u32,
    /// Materials up to `max` pieces with a WDL-only file and no full table.
    wdl_only: usize,
    /// Materials up to `max` pieces.
    materials: usize,
    /// Probes that found a file damaged or unreadable, and the first
    /// reason ([`Oracle::refused`]).
    refusals: AtomicU64,
    first_refusal: OnceLock<String>,
}

impl<S: TableScheme> TbOracle<S> {
    /// The tables of `rules` under `dir`, or `None` when no complete set
    /// exists there. Complete means every material with at most `max`
    /// pieces has its full table or its WDL-only file, so that every
    /// capture from a probed position lands in a table too (the search
    /// relies on that for exactness). A material with both is probed in
    /// its full table.
    pub fn open(dir: &Path, rules: <S::Pos as Game>::Rules) -> Option<TbOracle<S>> {
        let tb = Tablebase::<S>::open(dir, rules);
        let (mut max, mut wdl_only, mut materials) = (0, 0, 0);
        for n in 1..=tb.scheme().max_pieces() {
            let (mut complete, mut only) = (true, 0);
            let ms = tb.scheme().stored(n);
            if ms.is_empty() && max == 0 {
                // No table this small (the animal games have none of 1 piece).
                continue;
            }
            for &m in &ms {
                if tb.path_of(m).exists() {
                    continue;
                }
                if tb.wdl_path_of(m).exists() {
                    only += 1;
                } else {
                    complete = false;
                    break;
                }
            }
            if !complete {
                break;
            }
            max = n;
            wdl_only += only;
            materials += ms.len();
        }
        (max > 0).then_some(TbOracle {
            tb,
            max,
            wdl_only,
            materials,
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
            self.max
        );
        match self.wdl_only {
            0 => {}
            n if n == self.materials => s.push_str(" (WDL-only files: values, no distances)"),
            n => s.push_str(&format!(
                " ({n} of {} WDL-only: values, no distances)",
                self.materials
            )),
        }
        s
    }
}

impl<S: TableScheme> Oracle<S::Pos> for TbOracle<S> {
    fn max_pieces(&self) -> u32 {
        self.max
    }
    #[inline]
    fn probe(&self, pos: &S::Pos) -> Option<OracleValue> {
        match self.tb.probe_value(pos) {
            Ok(v) => Some(v),
            Err(e) => {
                self.note_refusal(&e);
                None
            }
        }
    }
    fn why_unknown(&self, pos: &S::Pos) -> Option<String> {
        self.tb.probe_value(pos).err().map(|e| e.to_string())
    }
    fn refused(&self) -> Option<(u64, String)> {
        let n = self.refusals.load(Relaxed);
        (n > 0).then(|| (n, self.first_refusal.get().cloned().unwrap_or_default()))
    }
}
