//! The dense index of one endgame table, the only thing a game with
//! unmoves ([`Retro`]) must add to have tables.
//!
//! A table holds the positions of one material configuration, each side to
//! move apart. Its index numbers them `0..size` per side to move; an entry
//! may stand for a position and its left–right mirror image
//! ([`Retro::mirrored`], which keeps the value), and that is the only
//! folding allowed: a generator that takes a decided position back through
//! its unmoves tells the entries of each predecessor and of its mirror
//! image, and nothing else. Two entries may stand for the same position
//! (an index that keeps both images of some positions, so that it stays a
//! plain product of radices); they then hold the same value.

use crate::{Retro, Side};

/// The entries of one table of game `G`.
pub trait TableIndex<G: Retro>: Sync {
    /// Entries per side to move.
    fn size(&self) -> u64;
    /// The position entry `entry` stands for, with `stm` to move.
    fn position(&self, entry: u64, stm: Side) -> G;
    /// The entry of `pos` (as it is or mirrored, as the index folds it),
    /// or `None` when `pos` is not of this table's material. For every
    /// entry, `rank(&position(entry, s)) == Some(entry)`.
    fn rank(&self, pos: &G) -> Option<u64>;
    /// The entries of `pos` and of its mirror image: `[rank(pos),
    /// rank(mirror)]`, the second `None` when it is the same entry. The
    /// generator tells both of a predecessor; an index that knows when the
    /// images share an entry answers without building the mirror image.
    fn rank_images(&self, pos: &G) -> [Option<u64>; 2] {
        let a = self.rank(pos);
        let b = self.rank(&pos.mirrored());
        [a, if b == a { None } else { b }]
    }
    /// How many positions the entry stands for (2 when it folds a position
    /// and its distinct mirror image), for the counts of positions.
    fn weight(&self, entry: u64) -> u64 {
        let _ = entry;
        1
    }
}
