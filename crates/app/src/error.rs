//! The application layer's errors: each says what the user gave and what
//! was wrong with it.

/// What went wrong in a request to the application layer.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// `--game` named no game zoo knows.
    #[error("unknown game {0:?}; expected one of: jungle, jungle-checkers, classical-checkers, english-checkers")]
    UnknownGame(String),
    /// The table command is one only the animal games' tables have.
    #[error("this table command is for the animal games' tables; {0} tables have build, plan, stats, probe, verify, size and manifest")]
    NoTables(&'static str),
    /// A position, move or rule set that did not parse.
    #[error(transparent)]
    Parse(#[from] zoo_core::ParseError),
    /// An engine option out of range or unknown.
    #[error("{0}")]
    Option(String),
    /// A move that is not legal in the position.
    #[error("move {mv:?}: {why}")]
    Move {
        /// The move as given.
        mv: String,
        /// Why it was refused.
        why: zoo_core::ParseError,
    },
    /// A move given after the game ended.
    #[error("move {mv:?} refused: the game is over ({reason})")]
    GameOver {
        /// The move as given.
        mv: String,
        /// Why the game is over.
        reason: &'static str,
    },
    /// An external engine that failed to start, answer or move.
    #[error("{0}")]
    External(String),
    /// Input read from a file or a request that is not what it must be.
    #[error("{0}")]
    Input(String),
    /// The endgame tables failed: missing, damaged, or a file that could
    /// not be written.
    #[error(transparent)]
    Tables(#[from] zoo_tb::TbError),
    /// A directory or file the user named that is not there.
    #[error("{0}")]
    Path(String),
    /// The system refused a large allocation (free memory, the cgroup or
    /// the ulimit): an error and a non-zero exit, never an abort.
    #[error(transparent)]
    OutOfMemory(#[from] zoo_core::OutOfMemory),
    /// A file that could not be saved or read ([`crate::files`]).
    #[error(transparent)]
    File(#[from] zoo_core::files::FileError),
    /// Stopped by the user (Ctrl-C) before the end.
    #[error("stopped before the end")]
    Interrupted,
}
