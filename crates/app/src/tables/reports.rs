//! What each table command reports (`zoo tb stats | probe | verify`, the
//! JSON API): plain data, serialised as it is.

use serde::Serialize;
use zoo_core::Outcome;

/// Positions of one size, White to move, as the tables' headers count them.
#[derive(Clone, Debug, Serialize)]
pub struct TableStats {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Pieces on the board.
    pub pieces: u32,
    /// Which positions are counted, in words.
    pub counted: &'static str,
    /// Positions counted.
    pub positions: u64,
    /// Won for White.
    pub wins: u64,
    /// Lost for White.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest win or loss, in plies.
    pub longest: u64,
    /// Tables of this size not built (a build under way): the counts are
    /// those of the others. 0 when every table is there.
    pub missing: usize,
}

/// The tables' value of a position and of each of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// The position.
    pub fen: String,
    /// Its value for the side to move.
    pub value: Outcome,
    /// Plies to the end (0 for a draw or a finished game, and when not
    /// known).
    pub distance: u16,
    /// False when the values come from WDL-only files (`zoo tb wdl`): the
    /// position's and the moves' distances are then unknown, reported as 0.
    pub distance_known: bool,
    /// Whether the game is over in this position.
    pub game_over: bool,
    /// Every legal move, best first, valued from the mover's view.
    pub moves: Vec<ProbedMove>,
}

/// One move of a probed position, valued for the side that makes it.
#[derive(Clone, Debug, Serialize)]
pub struct ProbedMove {
    /// The move in coordinates (`a3a4`).
    pub coord: String,
    /// The move in the game's short notation (named as in `MoveInfo`).
    #[serde(rename = "short")]
    pub san: String,
    /// What it leads to for the mover.
    pub value: Outcome,
    /// Plies to the end after the move, the move counted (0 for a draw).
    pub distance: u16,
}

/// The exhaustive check of the tables against an independent solver.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Up to this many pieces.
    pub pieces: u32,
    /// Materials checked.
    pub materials: usize,
    /// Positions checked.
    pub positions: u64,
    /// How long it took.
    pub seconds: f64,
    /// Disagreements found.
    #[serde(rename = "disagreements")]
    pub mismatch_count: u64,
    /// The first of them, each as one line.
    #[serde(rename = "listed")]
    pub mismatches: Vec<String>,
}

/// The one-ply check of random entries against their moves.
#[derive(Clone, Debug, Serialize)]
pub struct SampleCheck {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Tables of this many pieces.
    pub pieces: u32,
    /// The seed of the entries drawn: the same seed draws the same entries.
    pub seed: u64,
    /// Entries drawn per table.
    pub positions_per_table: u64,
    /// Entries checked in all.
    pub positions: u64,
    /// How long it took.
    pub seconds: f64,
    /// Each table checked.
    pub tables: Vec<SampledTable>,
    /// Tables of that size not built yet (not checked).
    pub missing: Vec<String>,
    /// Disagreements found: an entry whose stored value is not what its
    /// moves give, or not its colour swap's.
    pub disagreements: u64,
    /// Entries whose colour swap (board turned, colours swapped) was
    /// looked up too; 0 for games whose tables store a colour swap once.
    pub colour_swaps: u64,
    /// The first of them.
    pub listed: Vec<SampleDisagreement>,
}

/// One table of a [`SampleCheck`].
#[derive(Clone, Debug, Serialize)]
pub struct SampledTable {
    /// Its material.
    pub table: String,
    /// Entries checked.
    pub positions: u64,
    /// Disagreements found.
    pub disagreements: u64,
}

/// An entry whose stored value is not the value of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct SampleDisagreement {
    /// The table's material.
    pub table: String,
    /// The stored side (0: White to move).
    pub side: usize,
    /// The entry's index.
    pub index: u64,
    /// The entry's position.
    pub fen: String,
    /// The value stored.
    pub stored: EntryValue,
    /// The value of its moves.
    pub recomputed: EntryValue,
    /// The whole disagreement as one line.
    #[serde(skip)]
    pub text: String,
}

/// A value read or computed, or why there is none.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum EntryValue {
    /// A value and its distance.
    Value {
        /// Win, draw or loss for the side to move.
        value: Outcome,
        /// Plies to the end.
        distance: u16,
    },
    /// Why no value could be had.
    Error {
        /// The reason.
        error: String,
    },
}
