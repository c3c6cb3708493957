//! What bounds a run and what a run reports, shared by the algorithms.

use crate::proof::Proof;
use crate::value::{Answer, Goal};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

thread_local! {
    /// The stop shared by the proof manager's workers on this thread
    /// (`crate::manager`): set when one of them has decided the question,
    /// so the others' searches end at their next look at the clock. A
    /// thread-local rather than a field of [`Limits`], which is `Copy`
    /// and holds plain `fn` pointers: every search reads it where it
    /// reads the clock, and none needs to know of the workers.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// While held, the searches of this thread stop once `flag` is set.
pub(crate) struct CancelScope;

impl CancelScope {
    pub(crate) fn new(flag: Arc<AtomicBool>) -> CancelScope {
        CANCEL.with(|c| *c.borrow_mut() = Some(flag));
        CancelScope
    }
}

impl Drop for CancelScope {
    fn drop(&mut self) {
        CANCEL.with(|c| *c.borrow_mut() = None);
    }
}

/// Whether this thread's manager workers were told to stop.
pub(crate) fn cancelled() -> bool {
    CANCEL.with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Relaxed)))
}

/// Proof and disproof numbers: `INF` means proven impossible (a disproven
/// node has proof number `INF`). Sums stop one below, so that a large
/// finite sum is never read as a solved node.
pub const INF: u32 = u32::MAX;

/// Adds proof numbers: `INF` absorbs, finite sums saturate at `INF - 1`.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

/// How far a run is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// Nodes so far (PNS: in the tree; df-pn: MID calls).
    pub nodes: u64,
    /// Bytes of memory held (PNS: the tree; df-pn: the table).
    pub bytes: u64,
    /// Seconds since the start.
    pub seconds: f64,
    /// The root's proof and disproof numbers (df-pn: as the root's frame
    /// last computed them, when a call below it returned).
    pub root: Option<(u32, u32)>,
    /// df-pn, once the root is solved and its proof is being derived: the
    /// MID calls of the derivation so far (`nodes` counts them too) and
    /// the proof's nodes built so far.
    pub deriving: Option<(u64, u64)>,
}

/// How often [`Limits::progress`] is called, and the root's numbers
/// sampled for [`Report::samples`].
pub const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The root's proof and disproof numbers at one moment of a run (for the
/// plot of literature B's Figure 7.1, `zoo solve --plot`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Seconds since the start.
    pub seconds: f64,
    /// Nodes so far (as [`Progress::nodes`]).
    pub nodes: u64,
    /// The root's proof number ([`INF`]: disproven).
    pub pn: u32,
    /// The root's disproof number ([`INF`]: proven).
    pub dn: u32,
}

/// At most this many samples are kept: when full, every second one is
/// dropped and the interval doubled, so a run of weeks keeps its whole
/// curve in a few hundred kilobytes.
pub const MAX_SAMPLES: usize = 4096;

/// Bounds on a run; the first one reached stops it with [`Answer::Unknown`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Nodes: PNS, those held in the tree; df-pn, MID calls.
    pub nodes: Option<u64>,
    /// Memory in MB (PNS: the tree; df-pn: the transposition table); the
    /// run never grows past it.
    pub memory_mb: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Asked now and then (with the clock): `true` stops the run as a
    /// limit does (a Ctrl-C handler sets what it reads).
    pub stop: Option<fn() -> bool>,
    /// Called about every [`PROGRESS_EVERY`] with how far the run is.
    pub progress: Option<fn(&Progress)>,
}

/// The clock of a run: stops on time or request, reports progress and
/// samples the root's numbers.
pub(crate) struct Clock {
    start: std::time::Instant,
    time: Option<Duration>,
    stop: Option<fn() -> bool>,
    progress: Option<fn(&Progress)>,
    last: std::time::Instant,
    samples: Vec<Sample>,
    sample_every: Duration,
    last_sample: std::time::Instant,
}

impl Clock {
    pub(crate) fn new(limits: &Limits) -> Clock {
        let start = std::time::Instant::now();
        Clock {
            start,
            time: limits.time,
            stop: limits.stop,
            progress: limits.progress,
            last: start,
            samples: Vec::new(),
            sample_every: PROGRESS_EVERY,
            last_sample: start,
        }
    }

    /// When the time limit ends, if there is one.
    pub(crate) fn deadline(&self) -> Option<std::time::Instant> {
        self.time.and_then(|t| self.start.checked_add(t))
    }

    /// What a Ctrl-C handler sets, if the run was given one.
    pub(crate) fn stop_request(&self) -> Option<fn() -> bool> {
        self.stop
    }

    /// Whether to stop now (time up or asked to); reports progress and
    /// samples the root's numbers when it is due (the first call samples
    /// too, so a curve starts at the start). Called every few hundred
    /// nodes, not at every one.
    pub(crate) fn check(&mut self, now: impl FnOnce() -> Progress) -> bool {
        let elapsed = self.start.elapsed();
        let report = self.progress.is_some() && self.last.elapsed() >= PROGRESS_EVERY;
        let sample = self.samples.is_empty() || self.last_sample.elapsed() >= self.sample_every;
        if report || sample {
            let p = now();
            if report {
                self.last = std::time::Instant::now();
                if let Some(f) = self.progress {
                    f(&p);
                }
            }
            if sample {
                self.last_sample = std::time::Instant::now();
                if let Some((pn, dn)) = p.root {
                    self.push(Sample {
                        seconds: p.seconds,
                        nodes: p.nodes,
                        pn,
                        dn,
                    });
                }
            }
        }
        self.time.is_some_and(|t| elapsed >= t) || self.stop.is_some_and(|s| s()) || cancelled()
    }

    fn push(&mut self, s: Sample) {
        if self.samples.len() >= MAX_SAMPLES {
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.sample_every *= 2;
        }
        self.samples.push(s);
    }

    /// The samples of the run, ending with `last` (the root's numbers
    /// when it stopped).
    pub(crate) fn samples(mut self, last: Sample) -> Vec<Sample> {
        self.push(last);
        self.samples
    }
}

impl Limits {
    /// At most `n` nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// The number of nodes of `bytes_per_node` bytes the limits allow.
    pub fn node_budget(&self, bytes_per_node: usize) -> u64 {
        let by_memory = self
            .memory_mb
            .map_or(u64::MAX, |mb| (mb << 20) / bytes_per_node.max(1) as u64);
        self.nodes.unwrap_or(u64::MAX).min(by_memory)
    }
}

/// What deriving df-pn's proof cost, and why it stopped when it did not
/// finish.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Derivation {
    /// MID calls of the derivation.
    pub calls: u64,
    /// Its seconds.
    pub seconds: f64,
    /// `None` when the proof was derived, else why not.
    pub failed: Option<NoProof>,
}

/// Why df-pn derived no proof of an answer it decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoProof {
    /// A limit (calls, time, a stop request) ended a search.
    Stopped,
    /// More nodes than [`crate::dfpn::MAX_PROOF_NODES`], or a line longer
    /// than 1000 plies.
    TooLarge,
    /// A node did not come out as its search said: values stored for the
    /// game where endless play draws need not hold on the node's path,
    /// and [`crate::Ghi::Naive`]'s need not hold at all. The winner's
    /// next move is then tried; this is what remains when none is left.
    Inconsistent,
}

impl NoProof {
    /// Why, in words, and what to do when something can be done.
    pub fn describe(self) -> &'static str {
        match self {
            NoProof::Stopped => {
                "a limit stopped it; --time covers run and derivation, --nodes gives the \
                 derivation as many calls again as the run: raise them"
            }
            NoProof::TooLarge => {
                "the proof grew past its size bound (nodes, or a line of 1000 plies)"
            }
            NoProof::Inconsistent => "no move of the winner replayed as winning on its path",
        }
    }
}

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report<M> {
    /// The question asked.
    pub goal: Goal,
    /// Proven, disproven, or unknown when a limit stopped the run.
    pub answer: Answer,
    /// The root's proof number at the end (0: proven).
    pub pn: u32,
    /// The root's disproof number at the end (0: disproven).
    pub dn: u32,
    /// Nodes created (PNS: the tree's size).
    pub nodes: u64,
    /// Nodes expanded (their moves generated and children evaluated).
    pub expansions: u64,
    /// Bytes allocated for the nodes (PNS: the tree's capacity; df-pn:
    /// the table), never above [`Limits::memory_mb`].
    pub bytes: u64,
    /// Bytes of the nodes held at the end of the run, what the search
    /// actually used of [`Report::bytes`] (PNS: the tree's nodes; PN²: the
    /// first-level tree and the largest second-level tree it held beside
    /// it; df-pn: the table's used entries; each times
    /// [`crate::pns::bytes_per_node`] or [`crate::dfpn::bytes_per_entry_in`]).
    pub held: u64,
    /// Seconds of wall-clock time (df-pn: the run's and the proof's
    /// derivation's).
    pub seconds: f64,
    /// df-pn with [`crate::dfpn::Options::proof`]: the MID calls and
    /// seconds spent deriving the proof after the run (not in `nodes`);
    /// `None` when no derivation ran.
    pub derivation: Option<Derivation>,
    /// The proof or disproof when the answer is one.
    pub proof: Option<Proof<M>>,
    /// The root's numbers about every [`PROGRESS_EVERY`] (fewer on long
    /// runs: [`MAX_SAMPLES`]), from the start to the end.
    pub samples: Vec<Sample>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_thin_out_when_full_and_keep_the_end() {
        let mut c = Clock::new(&Limits::default());
        let at = |i: u64| Sample {
            seconds: i as f64,
            nodes: i,
            pn: 1,
            dn: 1,
        };
        // The first check samples at once, without waiting a second.
        assert!(!c.check(|| Progress {
            nodes: 0,
            bytes: 0,
            seconds: 0.0,
            root: Some((1, 1)),
            deriving: None,
        }));
        for i in 1..(MAX_SAMPLES as u64 + 10) {
            c.push(at(i));
        }
        assert!(c.sample_every > PROGRESS_EVERY);
        let s = c.samples(at(99_999));
        assert!(s.len() <= MAX_SAMPLES && s.len() > MAX_SAMPLES / 2);
        assert_eq!(s[0].nodes, 0, "the start is kept");
        assert_eq!(s.last().unwrap().nodes, 99_999, "the end is kept");
        assert!(s.windows(2).all(|w| w[0].nodes < w[1].nodes));
    }
}
