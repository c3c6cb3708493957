//! The engine options shared by `analyse`, `play`, `uci`, `match`, `bench`
//! and `experiment` as command-line flags; they become the application
//! layer's plain [`EngineOptions`] and [`SearchLimits`], which check them.

use anyhow::{bail, Result};
use clap::{Args, Parser};
use std::path::PathBuf;
use zoo_app::{EngineOptions, SearchLimits};
use zoo_core::{Outcome, Repetition};
use zoo_search::Replacement;

/// The limits of a search as flags, apart from the engine's options:
/// `bench` sets its own limits and `uci` takes them from `go`, so neither
/// lists these.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitOpts {
    /// Search this many plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
}

impl LimitOpts {
    /// The limits given (`--depth`, `--nodes`, `--movetime`).
    pub fn limits(&self) -> SearchLimits {
        SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime,
            multipv: 0,
        }
    }
}

#[derive(Args, Debug, Clone, Default)]
pub struct EngineOpts {
    /// Evaluation by name (default: the game's strongest; `strong`, `simple`, `development`, `literature-d`).
    #[arg(long)]
    pub eval: Option<String>,
    /// Search threads (Lazy SMP; they share the table).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB (0: 64 KiB).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Repetition policy inside the search (default: the rule set's).
    #[arg(long)]
    pub repetition: Option<Repetition>,
    /// Plain negamax: no pruning at all (every other switch ignored).
    #[arg(long)]
    pub negamax: bool,
    /// Plain alpha-beta: every enhancement off (switches below turn some back on).
    #[arg(long)]
    pub plain: bool,
    /// No transposition table (no stored bounds, no stored best move).
    #[arg(long)]
    pub no_tt: bool,
    /// No principal variation search (every move with the full window).
    #[arg(long)]
    pub no_pvs: bool,
    /// No iterative deepening: one search at the target depth.
    #[arg(long)]
    pub no_id: bool,
    /// No quiescence search at the horizon.
    #[arg(long)]
    pub no_quiescence: bool,
    /// No killer moves.
    #[arg(long)]
    pub no_killers: bool,
    /// No history heuristic.
    #[arg(long)]
    pub no_history: bool,
    /// No static move ordering (captures first, development).
    #[arg(long)]
    pub no_ordering: bool,
    /// No enhanced transposition cutoffs.
    #[arg(long)]
    pub no_etc: bool,
    /// No late move reductions (selective search off).
    #[arg(long)]
    pub no_lmr: bool,
    /// Late move reductions (for --plain).
    #[arg(long)]
    pub lmr: bool,
    /// Turn on for --plain: transposition table.
    #[arg(long)]
    pub tt: bool,
    /// Principal variation search (for --plain).
    #[arg(long)]
    pub pvs: bool,
    /// Iterative deepening (for --plain).
    #[arg(long)]
    pub id: bool,
    /// Quiescence search at the horizon (for --plain).
    #[arg(long)]
    pub quiescence: bool,
    /// Quiescence also searches every move one ply after each capture
    /// instead of standing pat (literature C's slower variant).
    #[arg(long)]
    pub quiescence_after_capture: bool,
    /// Futility pruning at frontier nodes with this margin in evaluation
    /// units (0 = off): quiet moves after the first are skipped where the
    /// evaluation plus the margin cannot reach alpha.
    #[arg(long, value_name = "MARGIN")]
    pub futility: Option<i32>,
    /// ProbCut with this margin in evaluation units (0 = off): at drafts of
    /// 5 and more, a search 4 plies shallower whose value is expected
    /// (through --probcut-fit's line) to clear beta plus the margin, or to
    /// fall below alpha minus it, ends the node.
    #[arg(long, value_name = "MARGIN")]
    pub probcut: Option<i32>,
    /// ProbCut's fitted line SLOPE,OFFSET (`zoo experiment probcut-fit`'s a
    /// and b; slope 0.25 to 4, offset -1000 to 1000): a shallow value v is
    /// expected to deepen to SLOPE·v + OFFSET, and cuts where that clears
    /// beta plus the margin or alpha minus it [default: 1,0]
    #[arg(long, value_name = "SLOPE,OFFSET", value_parser = parse_fit)]
    pub probcut_fit: Option<(f64, i32)>,
    /// Multi-Cut: at expected cut nodes of draft 4 and more, 3 fail-highs
    /// among the first 10 moves searched 2 plies shallower end the node.
    #[arg(long)]
    pub multicut: bool,
    /// Multi-Cut at every null-window node, not only at expected cut
    /// nodes (implies --multicut).
    #[arg(long)]
    pub multicut_all_nodes: bool,
    /// A position with a single legal move is searched a ply deeper
    /// (single-reply extension).
    #[arg(long)]
    pub single_reply: bool,
    /// Enhanced transposition cutoffs at nodes of at least this draft.
    #[arg(long)]
    pub etc_depth: Option<u32>,
    /// MTD(f) at the root (default on; for --plain).
    #[arg(long)]
    pub mtdf: bool,
    /// Root search with PVS (or aspiration) instead of MTD(f).
    #[arg(long)]
    pub no_mtdf: bool,
    /// Aspiration window half-width (0 = off).
    #[arg(long)]
    pub aspiration: Option<i32>,
    /// Iterative deepening step.
    #[arg(long)]
    pub id_step: Option<u32>,
    /// Replacement scheme: always, deep, big (Big-All), big1 (Big-1), hits.
    #[arg(long)]
    pub replacement: Option<Replacement>,
    /// Two bounds with separate drafts per table entry.
    #[arg(long)]
    pub two_bound: bool,
    /// Keep the table entries of principal-variation nodes over the others
    /// (literature C's PV flag).
    #[arg(long)]
    pub pv_flag: bool,
    /// Table cutoffs only from entries of exactly the same draft.
    #[arg(long)]
    pub strict_draft: bool,
    /// Endgame tables directory (as built by `zoo tb build --dir`): the
    /// search takes exact values from it for positions with few enough
    /// pieces. Off unless given.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
}

/// `--a "<engine options>"` of `zoo match` (and `setoption name
/// EngineOptions` of `zoo uci`): the options and limits as a string.
#[derive(Parser, Debug)]
#[command(name = "engine", no_binary_name = true)]
pub struct EngineSpec {
    #[command(flatten)]
    pub opts: EngineOpts,
    #[command(flatten)]
    pub limits: LimitOpts,
}

impl EngineSpec {
    pub fn parse_str(s: &str) -> Result<EngineSpec> {
        match EngineSpec::try_parse_from(s.split_whitespace()) {
            Ok(spec) => Ok(spec),
            Err(e) => bail!(
                "bad engine options {s:?}: {}",
                e.render().to_string().trim()
            ),
        }
    }
}

/// A pair of `--x`/`--no-x` flags as the options' three-way choice.
fn switch(on: bool, off: bool) -> Option<bool> {
    match (on, off) {
        (_, true) => Some(false),
        (true, false) => Some(true),
        (false, false) => None,
    }
}

impl EngineOpts {
    /// The options as the application layer's data.
    pub fn options(&self) -> EngineOptions {
        EngineOptions {
            eval: self.eval.clone(),
            threads: self.threads,
            hash_mb: self.hash,
            repetition: self.repetition,
            tb: self.tb.clone(),
            negamax: self.negamax,
            plain: self.plain,
            tt: switch(self.tt, self.no_tt),
            pvs: switch(self.pvs, self.no_pvs),
            iterative: switch(self.id, self.no_id),
            quiescence: switch(self.quiescence, self.no_quiescence),
            quiescence_after_capture: self.quiescence_after_capture,
            futility: self.futility,
            probcut: self.probcut,
            probcut_fit: self.probcut_fit,
            multicut: self.multicut,
            multicut_all_nodes: self.multicut_all_nodes,
            single_reply: self.single_reply,
            killers: switch(false, self.no_killers),
            history: switch(false, self.no_history),
            ordering: switch(false, self.no_ordering),
            lmr: switch(self.lmr, self.no_lmr),
            mtdf: switch(self.mtdf, self.no_mtdf),
            etc_depth: if self.no_etc { Some(0) } else { self.etc_depth },
            aspiration: self.aspiration,
            id_step: self.id_step,
            replacement: self.replacement,
            two_bound: self.two_bound,
            pv_flag: self.pv_flag,
            strict_draft: self.strict_draft,
        }
    }
}

/// A score for people: `+1.25`-style pawns are meaningless here, so plain
/// centi-units, or `mate +N` / `mate -N`, or `table win` / `table loss`
/// (a WDL-only table's value, the distance unknown).
pub fn score_text(score: i32, mate: Option<i32>, table: Option<Outcome>) -> String {
    match (mate, table) {
        (Some(m), _) if m >= 0 => format!("mate +{m}"),
        (Some(m), _) => format!("mate {m}"),
        (None, Some(o)) => format!("table {}", o.name()),
        (None, None) => format!("{score:+}"),
    }
}

/// `SLOPE,OFFSET` of `--probcut-fit`.
fn parse_fit(s: &str) -> Result<(f64, i32), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}`: expected SLOPE,OFFSET, e.g. 1.27,4"))?;
    let slope: f64 = a
        .trim()
        .parse()
        .map_err(|_| format!("`{a}` is not a number"))?;
    let offset: i32 = b
        .trim()
        .parse()
        .map_err(|_| format!("`{b}` is not a whole number"))?;
    Ok((slope, offset))
}
