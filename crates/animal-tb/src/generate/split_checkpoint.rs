//! The checkpoints of a configuration split by ranges ([`split`]): each
//! rank keeps its own range of the state and of the level marks in a file
//! of its own ([`checkpoint::path_for_rank`]), and the ranks save and load
//! them together, so a rerun never combines the levels of different saves.
//!
//! - They save only where the state of every rank is whole: before a round
//!   of a level's sweep, when the messages of every earlier round have
//!   been applied (mid-round, messages in flight would be lost). The policy
//!   is the single process's: the first chance after the forward pass,
//!   then every [`CHECKPOINT_EVERY`], and when stopped.
//! - A save is in two steps: every rank writes its file under the temporary
//!   name; only when every rank has ([`Cluster::agree`]) does each rename
//!   it, otherwise each removes its own and keeps its previous one. A rank
//!   killed between the renames leaves files of two levels, which the next
//!   run refuses (below): never mixed, at worst started over.
//! - A rerun loads when every rank has a file of its own share (the header
//!   says rank, ranks, range and material, with a checksum) at the same
//!   level; otherwise every rank starts over. The files of another number of
//!   ranks can never be used and are removed.

use super::*;
use crate::checkpoint::{Parts, Share};
use crate::cluster::Cluster;
use std::path::PathBuf;

/// The level sent by a rank that has no usable checkpoint.
const NONE: u64 = u64::MAX;

/// One rank's checkpoint of a split solve.
pub(super) struct RankCheckpoint<'a> {
    /// The checkpoint the whole configuration would have (the base name).
    whole: PathBuf,
    path: PathBuf,
    parts: Parts<'a>,
    /// When the ranks last saved (or resumed); `None` before the first.
    saved: Option<Instant>,
    /// Why the last save failed, if it did (see `Generated::unsaved`).
    pub(super) unsaved: Option<String>,
}

impl<'a> RankCheckpoint<'a> {
    /// The checkpoint of `g`'s range (`g.own`) on rank `rank` of `ranks`,
    /// beside `whole`, the configuration's own [`checkpoint::path_for`].
    pub(super) fn new<B: Board>(g: &'a Gen<B>, whole: &Path, rank: usize, ranks: usize) -> Self {
        let own = g.own.clone();
        // A rank marks only blocks of its own range (its predecessors in
        // others' go to them as messages), and a range starts on a block:
        // the words holding its blocks hold no bit of another rank's here.
        let blocks = own.start / BLOCK..own.end.div_ceil(BLOCK);
        let words = if own.is_empty() {
            0..0
        } else {
            (blocks.start / 64) as usize..blocks.end.div_ceil(64) as usize
        };
        let parts = Parts {
            material: g.layout.material,
            size: g.layout.size,
            share: Some(Share {
                rank: rank as u64,
                ranks: ranks as u64,
                start: own.start,
                end: own.end,
            }),
            state: [
                g.state[0].words_of(own.clone()),
                g.state[1].words_of(own.clone()),
            ],
            marks: g
                .marks
                .iter()
                .map(|l| [&l[0][words.clone()], &l[1][words.clone()]])
                .collect(),
        };
        RankCheckpoint {
            whole: whole.to_path_buf(),
            path: checkpoint::path_for_rank(whole, rank, ranks),
            parts,
            saved: None,
            unsaved: None,
        }
    }

    /// Loads this rank's checkpoint when every rank has one of the same
    /// level, and gives that level, the next to solve; otherwise every rank
    /// starts from a clean state. Collective.
    pub(super) fn resume(&mut self, cluster: &dyn Cluster) -> Result<Option<u64>, TbError> {
        checkpoint::remove_other_ranks(&self.whole, cluster.ranks());
        // A file that is not this rank's share, or damaged, is refused by
        // `load` on its rank, and then by every rank.
        let loaded = checkpoint::load(&self.path, &self.parts);
        cluster.agree(loaded.as_ref().map(|_| ()).map_err(Clone::clone))?;
        let mine = loaded?.unwrap_or(NONE);
        let levels = cluster.all(&[mine])?;
        if mine != NONE && levels.iter().all(|l| l[0] == mine) {
            self.saved = Some(Instant::now());
            return Ok(Some(mine));
        }
        if mine != NONE {
            // Another rank has none, or another level's: this one is of no
            // use with theirs, now or later.
            checkpoint::clear(&self.parts);
            let _ = std::fs::remove_file(&self.path);
        }
        Ok(None)
    }

    /// Whether this rank would save now: none saved yet, or
    /// [`CHECKPOINT_EVERY`] since the last. The ranks decide together
    /// (their clocks differ), see [`RankCheckpoint::save`].
    pub(super) fn due(&self) -> bool {
        self.saved.is_none_or(|t| t.elapsed() >= CHECKPOINT_EVERY)
    }

    /// Saves every rank's checkpoint with `level` next, at a point where
    /// every rank's state is whole. Collective: every rank calls it, with
    /// the same `stopping`. A save that fails while `stopping` is the
    /// error (the checkpoint is what is left of the work); otherwise the
    /// solve goes on and [`RankCheckpoint::unsaved`] says why, and the
    /// next save is tried after [`CHECKPOINT_EVERY`].
    pub(super) fn save(
        &mut self,
        cluster: &dyn Cluster,
        level: u64,
        stopping: bool,
    ) -> Result<(), TbError> {
        let prepared = checkpoint::prepare(&self.path, &self.parts, level);
        let saved = match cluster.agree(prepared) {
            Ok(()) => cluster.agree(checkpoint::commit(&self.path)),
            Err(e) => {
                // Some rank could not write its file: keep the previous
                // level everywhere.
                checkpoint::discard(&self.path);
                Err(e)
            }
        };
        self.saved = Some(Instant::now());
        match saved {
            Ok(()) => {
                self.unsaved = None;
                Ok(())
            }
            Err(e) if stopping => Err(e),
            Err(e) => {
                self.unsaved = Some(e.to_string());
                Ok(())
            }
        }
    }
}
