//! What a search reports: counters, completed iterations and the result.

use std::time::Duration;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Every visited position, quiescence included.
    pub nodes: u64,
    /// Positions scored without expanding them (evaluated, or over).
    pub leaves: u64,
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    /// Nodes whose best move was the table's move.
    pub tt_move_hits: u64,
    pub etc_cutoffs: u64,
    /// PVS, aspiration and MTD(f) passes beyond the first.
    pub re_searches: u64,
    /// Positions below the root valued by the endgame oracle.
    pub tb_hits: u64,
}

impl Stats {
    pub(crate) fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.qnodes += o.qnodes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_move_hits += o.tt_move_hits;
        self.etc_cutoffs += o.etc_cutoffs;
        self.re_searches += o.re_searches;
        self.tb_hits += o.tb_hits;
    }
}

/// One completed iteration, as reported to the caller.
#[derive(Debug, Clone)]
pub struct Iteration<M> {
    pub depth: u32,
    pub score: i32,
    /// +N: the side to move wins with its final move on ply N; −N: loses on ply N.
    pub mate: Option<i32>,
    pub pv: Vec<M>,
    /// Statistics of the main thread so far (all iterations).
    pub stats: Stats,
    /// Nodes of all threads so far.
    pub total_nodes: u64,
    pub elapsed: Duration,
    /// nodes(this iteration) / nodes(previous iteration).
    pub ebf: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: i32,
    pub mate: Option<i32>,
    pub depth: u32,
    pub pv: Vec<M>,
    /// Sum over all threads.
    pub stats: Stats,
    pub elapsed: Duration,
    pub iterations: Vec<Iteration<M>>,
}

impl<M> SearchResult<M> {
    pub fn nps(&self) -> f64 {
        self.stats.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
