//! What a search reports: counters, completed iterations and the result.

use std::time::Duration;
use zoo_core::Outcome;

/// Counters of a search, the measure of the experiments (nodes, not time,
/// so that results repeat exactly).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Every visited position, quiescence included.
    pub nodes: u64,
    /// Positions scored without expanding them (evaluated, or over).
    pub leaves: u64,
    /// Nodes of the quiescence search (included in `nodes`).
    pub qnodes: u64,
    /// Table look-ups, ETC's included.
    pub tt_probes: u64,
    /// Look-ups that found the position.
    pub tt_hits: u64,
    /// Nodes ended by a stored bound.
    pub tt_cutoffs: u64,
    /// Nodes whose best move was the table's move.
    pub tt_move_hits: u64,
    /// Nodes ended by an enhanced transposition cutoff.
    pub etc_cutoffs: u64,
    /// Quiet moves left out by futility pruning.
    pub futility_prunes: u64,
    /// Nodes ended by ProbCut's shallow search ([`crate::Config::probcut`]).
    pub probcut_cuts: u64,
    /// Nodes ended by Multi-Cut ([`crate::Config::multicut`]).
    pub multicut_cuts: u64,
    /// Single replies searched a ply deeper ([`crate::Config::single_reply`]).
    pub extensions: u64,
    /// PVS, aspiration and MTD(f) passes beyond the first.
    pub re_searches: u64,
    /// Positions below the root valued by the endgame oracle.
    pub tb_hits: u64,
}

impl Stats {
    /// Adds a helper thread's counters.
    pub(crate) fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.qnodes += o.qnodes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_move_hits += o.tt_move_hits;
        self.etc_cutoffs += o.etc_cutoffs;
        self.futility_prunes += o.futility_prunes;
        self.probcut_cuts += o.probcut_cuts;
        self.multicut_cuts += o.multicut_cuts;
        self.extensions += o.extensions;
        self.re_searches += o.re_searches;
        self.tb_hits += o.tb_hits;
    }
}

/// One completed iteration, as reported to the caller.
#[derive(Debug, Clone)]
pub struct Iteration<M> {
    /// The iteration's depth (plies).
    pub depth: u32,
    /// Its value for the side to move (see [`crate::MATE`] for won games).
    pub score: i32,
    /// +N: the side to move wins with its final move on ply N; −N: loses on ply N.
    pub mate: Option<i32>,
    /// `Win` or `Loss` when the score is a table win or loss: a WDL-only
    /// table says so and the search has not found the mate (see
    /// [`crate::TB_WIN`]); `None` otherwise, a mate included.
    pub table: Option<Outcome>,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Statistics of the main thread so far (all iterations).
    pub stats: Stats,
    /// Nodes of all threads so far.
    pub total_nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// nodes(this iteration) / nodes(previous iteration).
    pub ebf: Option<f64>,
    /// With [`crate::Limits::multipv`] above 1: every line of the
    /// iteration, best first (the first is `score` and `pv`); empty
    /// otherwise. Fewer when the position has fewer moves or a limit
    /// stopped the iteration's later lines.
    pub lines: Vec<Line<M>>,
}

/// One line of a multi-PV iteration.
#[derive(Debug, Clone, PartialEq)]
pub struct Line<M> {
    /// Its value for the side to move.
    pub score: i32,
    /// Its mate distance (see [`Iteration::mate`]).
    pub mate: Option<i32>,
    /// A table win or loss (see [`Iteration::table`]).
    pub table: Option<Outcome>,
    /// The line, starting with its move.
    pub pv: Vec<M>,
}

/// What a search returns: the last completed iteration's move, value and
/// line, with the counters of all threads.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    /// The move to play; `None` when the game is over at the root.
    pub best: Option<M>,
    /// The value for the side to move.
    pub score: i32,
    /// The mate distance of `score` (see [`Iteration::mate`]).
    pub mate: Option<i32>,
    /// Whether `score` is a table win or loss (see [`Iteration::table`]).
    pub table: Option<Outcome>,
    /// The depth of the last completed iteration (0 when the game is over).
    pub depth: u32,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Sum over all threads.
    pub stats: Stats,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration<M>>,
}

impl<M> SearchResult<M> {
    /// Nodes per second over all threads.
    pub fn nps(&self) -> f64 {
        self.stats.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
