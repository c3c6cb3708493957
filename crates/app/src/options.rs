//! Engine options as plain data, and their mapping to the search's
//! [`Config`] and [`Limits`]. Front ends fill an [`EngineOptions`] from
//! their own syntax (command-line flags, protocol options, JSON); the
//! checks and the mapping live here once.

use crate::machine;
use crate::AppError;
use std::path::PathBuf;
use std::time::Duration;
use zoo_core::Repetition;
use zoo_search::{Config, Limits, Replacement, MAX_DEPTH};

/// The most threads a search may use.
pub const MAX_THREADS: usize = 256;

/// Refuses a thread count outside 1 to [`MAX_THREADS`]: every command
/// that starts threads checks it here, before any work.
pub fn check_threads(threads: usize) -> Result<(), AppError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(AppError::Option(format!(
            "threads {threads} is not between 1 and {MAX_THREADS}"
        )))
    }
}

/// What an engine is made of: evaluation, table size, threads, tables,
/// and every enhancement switch of the search. `Default` is the full
/// engine with the game's strongest evaluation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct EngineOptions {
    /// Evaluation by name (`None`: the game's strongest).
    pub eval: Option<String>,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Transposition table size in MiB (0: 64 KiB).
    pub hash_mb: usize,
    /// Repetition policy inside the search and of the game record (`None`:
    /// the rule set's).
    pub repetition: Option<Repetition>,
    /// Endgame tables directory; the search takes exact values from it.
    pub tb: Option<PathBuf>,
    /// Plain negamax: no pruning (every switch below ignored).
    pub negamax: bool,
    /// Plain alpha-beta: every enhancement off unless turned on below.
    pub plain: bool,
    /// The transposition table. This and the switches below: `Some(true)`
    /// on, `Some(false)` off, `None` the preset's choice.
    pub tt: Option<bool>,
    /// Principal variation search.
    pub pvs: Option<bool>,
    /// Iterative deepening (off: one search at the target depth).
    pub iterative: Option<bool>,
    /// Quiescence search at the horizon.
    pub quiescence: Option<bool>,
    /// Quiescence searches every move one ply after each capture.
    pub quiescence_after_capture: bool,
    /// Futility pruning margin at frontier nodes (0: off).
    pub futility: Option<i32>,
    /// ProbCut margin (0: off).
    pub probcut: Option<i32>,
    /// ProbCut's fitted line `(slope, offset)`.
    pub probcut_fit: Option<(f64, i32)>,
    /// Multi-Cut at expected cut nodes.
    pub multicut: bool,
    /// Multi-Cut at every null-window node (implies `multicut`).
    pub multicut_all_nodes: bool,
    /// Single-reply extension.
    pub single_reply: bool,
    /// Killer moves.
    pub killers: Option<bool>,
    /// The history heuristic.
    pub history: Option<bool>,
    /// Static move ordering (captures first, development).
    pub ordering: Option<bool>,
    /// Late move reductions.
    pub lmr: Option<bool>,
    /// MTD(f) at the root.
    pub mtdf: Option<bool>,
    /// Enhanced transposition cutoffs from this draft (`Some(0)`: off).
    pub etc_depth: Option<u32>,
    /// Aspiration window half-width (0: off).
    pub aspiration: Option<i32>,
    /// Iterative deepening step.
    pub id_step: Option<u32>,
    /// Table replacement scheme.
    pub replacement: Option<Replacement>,
    /// Two bounds with separate drafts per table entry.
    pub two_bound: bool,
    /// Table entries of principal-variation nodes kept first.
    pub pv_flag: bool,
    /// Table cutoffs only from entries of exactly the same draft.
    pub strict_draft: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            eval: None,
            threads: 1,
            hash_mb: 64,
            repetition: None,
            tb: None,
            negamax: false,
            plain: false,
            tt: None,
            pvs: None,
            iterative: None,
            quiescence: None,
            quiescence_after_capture: false,
            futility: None,
            probcut: None,
            probcut_fit: None,
            multicut: false,
            multicut_all_nodes: false,
            single_reply: false,
            killers: None,
            history: None,
            ordering: None,
            lmr: None,
            mtdf: None,
            etc_depth: None,
            aspiration: None,
            id_step: None,
            replacement: None,
            two_bound: false,
            pv_flag: false,
            strict_draft: false,
        }
    }
}

/// The largest table the process can hold, in MiB: half the memory it may
/// use ([`machine::usable_memory`]: free memory, its cgroup and its ulimit),
/// so that a search never takes the memory the rest of the system needs
/// (8 GiB where the memory cannot be read).
pub fn max_hash_mb() -> usize {
    machine::usable_memory().map_or(8 << 10, |b| ((b / 2) >> 20).max(1) as usize)
}

/// Checks that `searches` searches at once, each with a table of `hash_mb`
/// MiB, fit in what [`max_hash_mb`] allows (the server's `--max-searches ×
/// --hash`); `searches` 1 checks one table.
pub fn check_hash(searches: usize, hash_mb: usize) -> Result<(), AppError> {
    let max = max_hash_mb();
    if hash_mb == 0 {
        return Err(AppError::Option("hash must be at least 1 MiB".into()));
    }
    let total = searches.saturating_mul(hash_mb);
    if total > max {
        let what = if searches == 1 {
            format!("hash {hash_mb} MiB is")
        } else {
            format!("{searches} searches × hash {hash_mb} MiB = {total} MiB are")
        };
        return Err(AppError::Option(format!(
            "{what} more than this process can give its tables ({max} MiB, half the memory it may \
             use: free memory, cgroup and ulimit)"
        )));
    }
    Ok(())
}

impl EngineOptions {
    /// The search configuration these options describe, checked.
    pub fn config(&self) -> Result<Config, AppError> {
        let bad = |s: String| Err(AppError::Option(s));
        let mut c = if self.negamax {
            Config::negamax()
        } else if self.plain {
            Config::plain_alphabeta()
        } else {
            Config::default()
        };
        check_threads(self.threads)?;
        if self.hash_mb > 0 {
            check_hash(1, self.hash_mb)?;
        }
        c.hash_mb = self.hash_mb;
        c.threads = self.threads;
        let set = |field: &mut bool, choice: Option<bool>| {
            if let Some(on) = choice {
                *field = on;
            }
        };
        set(&mut c.tt, self.tt);
        set(&mut c.pvs, self.pvs);
        set(&mut c.iterative, self.iterative);
        set(&mut c.quiescence, self.quiescence);
        if let Some(f) = self.futility {
            if f < 0 {
                return bad("futility must be 0 (off) or a positive margin".into());
            }
            c.futility = f;
        }
        if let Some(m) = self.probcut {
            if m < 0 {
                return bad("probcut must be 0 (off) or a positive margin".into());
            }
            c.probcut = m;
        }
        if let Some((slope, offset)) = self.probcut_fit {
            if c.probcut == 0 {
                return bad("probcut-fit is read by ProbCut: give --probcut MARGIN too".into());
            }
            if !(slope.is_finite() && (0.25..=4.0).contains(&slope)) {
                return bad(format!(
                    "probcut-fit: slope {slope} is not between 0.25 and 4"
                ));
            }
            if !(-1000..=1000).contains(&offset) {
                return bad(format!(
                    "probcut-fit: offset {offset} is not between -1000 and 1000"
                ));
            }
            c.probcut_slope = slope;
            c.probcut_offset = offset;
        }
        c.multicut |= self.multicut || self.multicut_all_nodes;
        c.multicut_all_nodes |= self.multicut_all_nodes;
        c.single_reply |= self.single_reply;
        if self.quiescence_after_capture {
            // A form of quiescence: asking for it turns quiescence on (under --plain too).
            c.quiescence = true;
            c.quiescence_after_capture = true;
        }
        set(&mut c.lmr, self.lmr);
        set(&mut c.killers, self.killers);
        set(&mut c.history, self.history);
        set(&mut c.ordering, self.ordering);
        set(&mut c.mtdf, self.mtdf);
        if let Some(d) = self.etc_depth {
            c.etc_min_depth = d;
        }
        if let Some(a) = self.aspiration {
            if a < 0 {
                return bad("aspiration must be 0 (off) or positive".into());
            }
            c.aspiration = a;
        }
        if let Some(s) = self.id_step {
            if s == 0 {
                return bad("id-step must be at least 1".into());
            }
            c.id_step = s;
        }
        if let Some(r) = self.replacement {
            c.replacement = r;
        }
        c.two_bound |= self.two_bound;
        c.pv_flag |= self.pv_flag;
        c.strict_draft |= self.strict_draft;
        Ok(c)
    }
}

/// The longest `--movetime` `zoo play` takes without `--no-cap`: one hour
/// a move.
pub const MAX_MOVETIME_MS: u64 = 3_600_000;

/// When a search stops, as plain data; all `None` means "no limit given".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SearchLimits {
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds.
    pub movetime_ms: Option<u64>,
    /// Lines to report (multi-PV; 0 and 1: one). Not a limit: it leaves
    /// [`SearchLimits::is_empty`] alone.
    pub multipv: u32,
}

/// The time a move may take by a clock: a thirtieth of what is left plus
/// the increment (a common rule of thumb), never more than half of what is
/// left (a large increment would otherwise lose on time), at least 1 ms.
/// `go wtime/btime` of the protocol and the web page's clocks spend by it.
pub fn movetime_by_clock(left_ms: u64, inc_ms: u64) -> u64 {
    (left_ms / 30)
        .saturating_add(inc_ms)
        .min(left_ms / 2)
        .max(1)
}

/// The most lines a multi-PV search reports.
pub const MAX_MULTIPV: u32 = 16;

impl SearchLimits {
    /// No limit was given.
    pub fn is_empty(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime_ms.is_none()
    }

    /// These limits, or `fallback`'s when none was given, with this
    /// request's lines either way.
    pub fn or(self, fallback: SearchLimits) -> SearchLimits {
        if self.is_empty() {
            SearchLimits {
                multipv: self.multipv.max(fallback.multipv),
                ..fallback
            }
        } else {
            self
        }
    }

    /// Refuses a `--movetime` over [`MAX_MOVETIME_MS`] unless `no_cap`
    /// (`zoo play --no-cap`): a mistyped time would leave the game waiting
    /// for days, as the server's `--max-movetime` caps its searches.
    pub fn check_cap(&self, no_cap: bool) -> Result<(), AppError> {
        match self.movetime_ms {
            Some(ms) if ms > MAX_MOVETIME_MS && !no_cap => Err(AppError::Option(format!(
                "movetime {ms} ms is more than the cap of {MAX_MOVETIME_MS} ms (one hour a move); \
                 give --no-cap to wait that long"
            ))),
            _ => Ok(()),
        }
    }

    /// The search's limits, checked.
    pub fn to_limits(&self) -> Result<Limits, AppError> {
        match self.depth {
            Some(0) => return Err(AppError::Option("depth must be at least 1".into())),
            Some(d) if d > MAX_DEPTH => {
                return Err(AppError::Option(format!(
                    "depth {d} is more than the maximum {MAX_DEPTH}"
                )))
            }
            _ => {}
        }
        // A search of no nodes has no move to give; "about N nodes" is
        // checked every so many nodes, so 0 would search a thousand.
        if self.nodes == Some(0) {
            return Err(AppError::Option("nodes must be at least 1".into()));
        }
        if self.multipv > MAX_MULTIPV {
            return Err(AppError::Option(format!(
                "multipv {} is more than the maximum {MAX_MULTIPV}",
                self.multipv
            )));
        }
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime_ms.map(Duration::from_millis),
            multipv: self.multipv,
        })
    }
}
