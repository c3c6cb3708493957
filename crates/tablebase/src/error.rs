//! What can go wrong with tables: typed, so callers can tell a missing
//! table from a damaged one, and with messages meant for users.

use std::path::PathBuf;
use std::sync::Arc;

/// An error of the tablebase: opening, probing, building or checking.
///
/// Cheap to clone (an I/O error is shared), so a table that failed to open
/// can report the same error to every later probe.
// The fields of a variant are what its message names.
#[allow(missing_docs)]
#[derive(Clone, Debug, thiserror::Error)]
pub enum TbError {
    /// The system refused a table's arrays (free memory, a cgroup, a
    /// ulimit): an error, never an abort.
    #[error(transparent)]
    OutOfMemory(#[from] zoo_core::OutOfMemory),
    /// A file or directory could not be read, written or created.
    #[error("{0}: {1}")]
    Io(PathBuf, Arc<std::io::Error>),
    /// A position whose table is there only as its WDL file: the value is
    /// known ([`crate::Tablebase::probe_wdl`]), the distance is not.
    #[error("only the WDL file of {material} in {dir}: its value is known, not its distance")]
    WdlOnly { material: String, dir: PathBuf },
    /// A table file exists but cannot be used.
    #[error("table file {} refused: {} ({})", .0.display(), .1, remedy(.0))]
    Damaged(PathBuf, Damage),
    /// The table a position needs is not in the directory.
    #[error("no table for {material} in {dir} (build it with `zoo tb build`)")]
    Missing { material: String, dir: PathBuf },
    /// Stopped on request (a checkpoint keeps the work where there is one).
    #[error("interrupted")]
    Interrupted,
    /// A rule set whose name does not fit a table header.
    #[error("rule set name `{0}` is longer than the {max} bytes a table header holds", max = crate::file::RULES_NAME_MAX)]
    RulesNameTooLong(String),
    /// A position of one rule set probed in tables of another.
    #[error("position under rule set {position}, tables of {tables}")]
    WrongRules { position: String, tables: String },
    /// A material name that is not one of the game.
    #[error("unknown material configuration {0}")]
    UnknownMaterial(String),
    /// A material name that parses but has no table: fewer than one piece
    /// a side, or a kind twice.
    #[error("no tables of material {0}: one piece a side at least, each kind once")]
    NoSuchMaterial(String),
    /// A plan asked of machines that cannot build anything.
    #[error("{0}")]
    Plan(String),
    /// A manifest line that is not `file bytes sha256`, or names a file
    /// listed before.
    #[error("{path}, line {line}: {why}")]
    BadManifest {
        path: PathBuf,
        line: usize,
        why: String,
    },
    /// `--check` of a directory without a manifest.
    #[error("no manifest in {0} (write one with `zoo tb manifest`)")]
    NoManifest(PathBuf),
    /// A material that is stored as its colour swap was asked for as stored.
    #[error("{material} is stored as {stored}")]
    NotCanonical { material: String, stored: String },
    /// More pieces than an index can hold.
    #[error("{material}: too many pieces for a table")]
    TooManyPieces { material: String },
    /// A distance beyond what the one-byte distance format stores.
    #[error(
        "{material}: a distance of {distance} plies does not fit the one-byte distance format"
    )]
    TooLong { material: String, distance: usize },
    /// A game whose positions can be won with no move left to play: a
    /// table's value codes have no win at distance 0.
    #[error("{material}: a position is won with no move to play, which a table cannot store")]
    UnstorableWin { material: String },
    /// A smaller table gave an invalid value while a larger one was built.
    #[error("{material}: the table of {child} gave an invalid value (damaged? check it with `zoo tb manifest --check`, or remove it to build it again)")]
    DamagedChild { material: String, child: String },
    /// An entry outside the table was asked for.
    #[error("{material}: no entry {index} of side {side}")]
    NoSuchEntry {
        material: String,
        side: usize,
        index: u64,
    },
    /// Entries outside the table were asked for.
    #[error("entries {start}..{end} of side {side} outside the table")]
    OutOfRange { side: usize, start: u64, end: u64 },
    /// Values handed to the writer that do not fill the table.
    #[error("{path}: {got} values for a side of {size} entries")]
    WrongValueCount { path: PathBuf, got: u64, size: u64 },
    /// A header to write with a number of sides other than 1 or 2.
    #[error("{path}: {sides} sides")]
    BadSides { path: PathBuf, sides: usize },
    /// The compressor failed.
    #[error("{0}: zstd: {1}")]
    Zstd(PathBuf, Arc<std::io::Error>),
    /// The working memory of a build could not be allocated.
    // `why` rather than `source`: the message holds the cause, and a
    // caller that prints the error's chain would print it twice.
    #[error("cannot allocate {bytes} bytes of state: {why}")]
    Alloc {
        bytes: usize,
        why: Arc<std::io::Error>,
    },
    /// The worker threads could not be started.
    #[error("thread pool: {0}")]
    ThreadPool(String),
    /// Another rank of a build on several processes failed (it says why).
    #[error("rank {0} of the build failed; its own message says why")]
    Rank(usize),
    /// The processes of a build could not talk.
    #[error("between the ranks of the build: {0}")]
    Cluster(String),

    /// A table rewritten in another encoding did not read back as the
    /// original (which is kept).
    #[error("{0}: the rewritten table does not read back as the original, which is kept")]
    RewriteDiffers(PathBuf),
}

impl TbError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, e: std::io::Error) -> TbError {
        TbError::Io(path.into(), Arc::new(e))
    }
}

/// What makes a refused file again: `zoo tb wdl` writes the WDL-only
/// files, `zoo tb build` the tables.
fn remedy(path: &std::path::Path) -> &'static str {
    if path.extension().is_some_and(|e| e == "zoowdl") {
        "remove it to write it again with `zoo tb wdl`"
    } else {
        "remove it to build it again with `zoo tb build`"
    }
}

/// Why a table file is refused.
// Each variant's message is its documentation.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    #[error("shorter than a header")]
    ShortHeader,
    #[error("not a zoo table file (wrong magic)")]
    BadMagic,
    #[error("bad block size {0}")]
    BlockSize(u64),
    #[error("format version {found}, this program reads {}, {} and {}", .reads[0], .reads[1], .reads[2])]
    Version { found: u32, reads: [u32; 3] },
    #[error("bad number of sides")]
    Sides,
    #[error("name not UTF-8")]
    NameNotUtf8,
    #[error("a table of {found}, not {expected}")]
    WrongGame { found: String, expected: String },
    #[error("built with rule set {found}, not {expected}")]
    WrongRules { found: String, expected: String },
    #[error("holds another material configuration than its name says")]
    WrongMaterial,
    #[error("index size {found} where {expected} is expected")]
    WrongSize { found: u64, expected: u64 },
    #[error("{found} sides stored, {expected} expected")]
    WrongSides { found: usize, expected: usize },
    #[error("{len} bytes where {expected} are expected (truncated?)")]
    Truncated { len: u64, expected: u64 },
    #[error("{len} bytes where {expected} are expected: bytes appended after the table")]
    Appended { len: u64, expected: u64 },
    #[error("{len} bytes where at least {least} are expected (truncated?)")]
    TooShort { len: u64, least: u64 },
    #[error("the offset table is not increasing inside the file (truncated, or bytes appended?)")]
    OffsetsNotIncreasing,
    #[error("the offset table does not end where the blocks do (truncated, or bytes appended?)")]
    OffsetsEnd,
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
    #[error("invalid value code")]
    InvalidCode,
    #[error("invalid value code (or a block that does not decompress)")]
    InvalidValue,
    #[error("a WDL-only file (version 3) where a full table (version 1 or 2) is expected")]
    WdlOnly,
    #[error("a full table (version 1 or 2) where a WDL-only file (version 3) is expected")]
    NotWdl,
    #[error("block {block} of side {side} lies outside the file")]
    BlockOutside { side: usize, block: u64 },
    #[error("block {block} of side {side} does not decompress")]
    BlockUndecodable { side: usize, block: u64 },
}
