//! The switches of the search: every enhancement can be turned off so that
//! experiments compare them by node counts.

use crate::tt::Replacement;

/// Drafts below this are not tried by ProbCut ([`Config::probcut`]).
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// How much shallower ProbCut's predicting search is: Buro's pairing of a
/// depth-4 search predicting a depth-8 one, kept as a difference.
pub const PROBCUT_REDUCTION: i32 = 4;
/// Moves Multi-Cut tries ([`Config::multicut`]); Björnsson and Marsland's M.
pub const MULTICUT_MOVES: usize = 10;
/// Fail-highs that end the node; their C.
pub const MULTICUT_CUTS: usize = 3;
/// How much shallower the tries are searched; their R.
pub const MULTICUT_REDUCTION: i32 = 2;

/// The switches. `Config::default()` is the full engine.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Config {
    /// Alpha-beta pruning; off = plain negamax (every other switch is ignored
    /// except quiescence).
    pub alphabeta: bool,
    /// The transposition table: cutoffs from stored bounds and the stored
    /// best move searched first.
    pub tt: bool,
    /// Table size in MiB; 0 means 64 KiB (for replacement experiments).
    pub hash_mb: usize,
    /// Which entry of a full bucket a store overwrites.
    pub replacement: Replacement,
    /// Table entries keep a lower and an upper bound, each with its own
    /// draft, instead of the last bound stored (helps MTD(f), whose passes
    /// store both kinds).
    pub two_bound: bool,
    /// Entries of principal-variation nodes are kept over the others in a
    /// full bucket (literature C's PV flag).
    pub pv_flag: bool,
    /// TT cutoffs only from entries of exactly the same draft (fixed-depth
    /// values then equal plain negamax; deeper entries otherwise improve them).
    pub strict_draft: bool,
    /// Principal variation search: moves after the first are searched with a
    /// null window and searched again only if they beat alpha.
    pub pvs: bool,
    /// MTD(f) at the root: null-window passes from the previous iteration's
    /// value instead of one open-window search.
    pub mtdf: bool,
    /// Iterative deepening; off = one search at the target depth.
    pub iterative: bool,
    /// Plies between iterations (the last iteration is always the target).
    pub id_step: u32,
    /// Aspiration window half-width (0 = off).
    pub aspiration: i32,
    /// Enhanced transposition cutoffs at nodes with at least this draft (0 = off).
    pub etc_min_depth: u32,
    /// Killer moves: two quiet moves per ply that caused a cutoff, tried
    /// early in sibling nodes.
    pub killers: bool,
    /// The history heuristic: quiet moves ordered by the cutoffs they caused
    /// anywhere in the tree.
    pub history: bool,
    /// Static move ordering by the tactics hint (captures, development).
    pub ordering: bool,
    /// Quiescence search at the horizon, so that leaves are not scored in
    /// the middle of an exchange.
    pub quiescence: bool,
    /// Quiescence also searches every move one ply after each capture
    /// instead of standing pat there (literature C's slower variant).
    pub quiescence_after_capture: bool,
    /// Late move reductions (selective: values then differ from negamax).
    pub lmr: bool,
    /// Futility pruning at frontier nodes (draft 1): when the evaluation
    /// plus this margin cannot reach alpha, quiet moves after the first
    /// are not searched (0 = off; selective).
    pub futility: i32,
    /// ProbCut (Buro 1995) with this margin (0 = off; selective): at nodes
    /// of draft [`PROBCUT_MIN_DEPTH`] and more, a null-window search
    /// [`PROBCUT_REDUCTION`] plies shallower around beta plus the margin
    /// (alpha minus it) ends the node when it clears that bound.
    pub probcut: i32,
    /// ProbCut's fitted line (Buro): the deep value expected from a
    /// shallow value `v` is `slope·v + offset` (`zoo experiment
    /// probcut-fit`); the cut bounds are beta plus the margin (alpha minus
    /// it) brought back through this line. 1 and 0 compare the values
    /// themselves. Must be positive (the CLI takes 0.25 to 4).
    pub probcut_slope: f64,
    /// The line's offset, in evaluation units.
    pub probcut_offset: i32,
    /// Multi-Cut (Björnsson and Marsland; selective): at expected cut nodes
    /// (null window) of draft [`MULTICUT_REDUCTION`] + 2 and more, when
    /// [`MULTICUT_CUTS`] of the first [`MULTICUT_MOVES`] moves fail high
    /// searched [`MULTICUT_REDUCTION`] plies shallower, the node fails high.
    pub multicut: bool,
    /// Multi-Cut at every null-window node, not only at expected cut nodes
    /// (their form). Under MTD(f) every node below the root has a null
    /// window; this was zoo's first form, kept to compare. Read only when
    /// [`Config::multicut`] is on.
    pub multicut_all_nodes: bool,
    /// Single-reply extension: a position with one legal move (in checkers
    /// most often a forced capture) does not use up a ply.
    pub single_reply: bool,
    /// Search threads (Lazy SMP: they share the table and nothing else).
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            alphabeta: true,
            tt: true,
            hash_mb: 64,
            replacement: Replacement::Deep,
            two_bound: false,
            pv_flag: false,
            strict_draft: false,
            pvs: true,
            // MTD(f) halves the nodes to depth 14 from the Jungle start
            // (docs/search.md); PVS is still used below the root.
            mtdf: true,
            iterative: true,
            id_step: 1,
            aspiration: 0,
            etc_min_depth: 3,
            killers: true,
            history: true,
            ordering: true,
            quiescence: true,
            quiescence_after_capture: false,
            lmr: true,
            futility: 0,
            probcut: 0,
            probcut_slope: 1.0,
            probcut_offset: 0,
            multicut: false,
            multicut_all_nodes: false,
            single_reply: false,
            threads: 1,
        }
    }
}

impl Config {
    /// Everything off: fail-soft alpha-beta in generation order.
    pub fn plain_alphabeta() -> Config {
        Config {
            tt: false,
            pvs: false,
            mtdf: false,
            iterative: false,
            etc_min_depth: 0,
            killers: false,
            history: false,
            ordering: false,
            quiescence: false,
            lmr: false,
            ..Config::default()
        }
    }
    /// Plain negamax: no pruning, every node expanded (the reference value
    /// and node count of the experiments).
    pub fn negamax() -> Config {
        Config {
            alphabeta: false,
            ..Config::plain_alphabeta()
        }
    }
}
