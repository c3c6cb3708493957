//! What a build is asked for: the sizes, threads, memory, encoding and
//! checkpoints, shared by the plan and the build.

use crate::file::Encoding;

#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub pieces: u32,
    pub threads: usize,
    /// Bound on the working set of the configurations solved at once. A
    /// configuration larger than it is solved alone with its state in
    /// files ([`crate::generate::Solve::state_dir`]); a copy that does not fit is solved.
    pub memory_bytes: Option<u64>,
    /// How tables are stored; `None`: [`crate::build::default_encoding`] (the smaller
    /// of zstd and plain, per table).
    pub encoding: Option<Encoding>,
    /// Copy the tables of configurations that are another's renamed
    /// ([`crate::isomorph`]) instead of solving them; off to check the copies.
    pub copies: bool,
    /// Working sets from which a configuration keeps a checkpoint; `None`:
    /// [`CHECKPOINT_FROM`]. Lower only to see checkpoints at work on small
    /// tables (tests).
    pub checkpoint_from: Option<u64>,
}

impl BuildOptions {
    /// `memory_bytes`, or no bound.
    pub fn budget(&self) -> u64 {
        self.memory_bytes.unwrap_or(u64::MAX)
    }

    /// Whether a configuration of `working_bytes` keeps a checkpoint.
    pub fn checkpoints(&self, working_bytes: u64) -> bool {
        working_bytes >= self.checkpoint_from.unwrap_or(CHECKPOINT_FROM)
    }
}

/// Working sets from which a configuration saves checkpoints (the 6-piece
/// Jungle Checkers ones take half an hour each; below a gigabyte a
/// configuration is solved again in less time than a checkpoint costs).
pub const CHECKPOINT_FROM: u64 = 1 << 30;
