//! What a session reports, with moves already written out: the front ends
//! print these and need no game type to do it.

use zoo_core::{Outcome, Side};
use zoo_search::{Config, Stats};

/// A move in both notations.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MoveInfo {
    /// The coordinate form for programs (`e2e3`, `11-14`).
    pub coord: String,
    /// The short form for people (`Txe5`, `11-14`).
    pub short: String,
}

/// Why a game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// By the rules before any move: a den entered, the last piece taken,
    /// a move limit reached.
    Rules,
    /// The side to move has no legal move.
    NoMoves,
    /// A position repeated under the repetition policy in force.
    Repetition,
}

impl EndReason {
    /// A few words for people.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Rules => "by the rules",
            EndReason::NoMoves => "no legal move",
            EndReason::Repetition => "repetition",
        }
    }
}

/// Whether play goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Status {
    /// The side to move has a move to make.
    Playing,
    /// The game is over: `result` for the side to move.
    Over {
        /// Win, draw or loss of the side to move.
        result: Outcome,
        /// Why.
        reason: EndReason,
    },
}

impl Status {
    /// The result for people, with `side_to_move` the side to move in the
    /// final position: `white wins (no legal move)`, `draw (repetition)`,
    /// `play goes on`.
    pub fn describe(self, side_to_move: Side) -> String {
        match self {
            Status::Playing => "play goes on".into(),
            Status::Over { reason, .. } => match self.winner(side_to_move) {
                Some(w) => format!("{} wins ({})", w.name(), reason.describe()),
                None => format!("draw ({})", reason.describe()),
            },
        }
    }

    /// The winner, `None` for a draw or a game still going on.
    pub fn winner(self, side_to_move: Side) -> Option<Side> {
        match self {
            Status::Over {
                result: Outcome::Win,
                ..
            } => Some(side_to_move),
            Status::Over {
                result: Outcome::Loss,
                ..
            } => Some(side_to_move.flip()),
            _ => None,
        }
    }
}

/// What became of the endgame tables asked for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TablesStatus {
    /// `jungle leiden tables in DIR, up to N pieces`, or why none are used.
    pub description: String,
    /// The largest complete piece count, when tables are used.
    pub max_pieces: Option<u32>,
}

/// The engine a session searches with.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EngineInfo {
    /// The evaluation's name.
    pub eval: &'static str,
    /// The search switches.
    pub config: Config,
    /// The tables, when some were asked for.
    pub tables: Option<TablesStatus>,
}

/// One completed iteration of a search.
#[derive(Debug, Clone, serde::Serialize)]
pub struct IterationReport {
    /// Its depth in plies.
    pub depth: u32,
    /// Score for the side to move.
    pub score: i32,
    /// +N: the side to move wins with its final move on ply N; −N: loses.
    pub mate: Option<i32>,
    /// `win` or `loss` when the score is a table win or loss: a WDL-only
    /// table says so, the distance unknown and no mate found (see
    /// `zoo_search::TB_WIN`); `None` otherwise.
    pub table: Option<Outcome>,
    /// The principal variation, coordinate form.
    pub pv: Vec<String>,
    /// The principal variation, short form.
    pub pv_short: Vec<String>,
    /// Nodes of all threads so far.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub ms: u64,
    /// nodes(this iteration) / nodes(previous iteration).
    pub ebf: Option<f64>,
    /// Statistics of the main thread so far.
    pub stats: Stats,
    /// Multi-PV ([`crate::SearchLimits::multipv`] above 1): every line of
    /// the iteration, best first; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineReport>,
}

/// One line of a multi-PV iteration.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LineReport {
    /// Score for the side to move.
    pub score: i32,
    /// Mate distance, as in [`IterationReport::mate`].
    pub mate: Option<i32>,
    /// A table win or loss, as in [`IterationReport::table`].
    pub table: Option<Outcome>,
    /// The line, coordinate form.
    pub pv: Vec<String>,
    /// The line, short form.
    pub pv_short: Vec<String>,
}

/// A finished search.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SearchReport {
    /// The move to play; `None` when the game is over.
    pub best: Option<MoveInfo>,
    /// Score for the side to move.
    pub score: i32,
    /// Mate distance, as in [`IterationReport::mate`].
    pub mate: Option<i32>,
    /// A table win or loss, as in [`IterationReport::table`].
    pub table: Option<Outcome>,
    /// The deepest completed depth.
    pub depth: u32,
    /// The principal variation, coordinate form.
    pub pv: Vec<String>,
    /// The principal variation, short form.
    pub pv_short: Vec<String>,
    /// Statistics summed over all threads.
    pub stats: Stats,
    /// Seconds the search took.
    pub seconds: f64,
    /// Nodes per second.
    pub nodes_per_second: f64,
}

/// The tables' value of a position for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct TableValue {
    /// Win, draw or loss for the side to move.
    pub value: Outcome,
    /// Plies to the end, the final winning move counted; `None` when only
    /// the WDL-only file of the position's table is there.
    pub distance: Option<u16>,
}
