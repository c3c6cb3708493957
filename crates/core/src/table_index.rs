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
    /// Whether `pos` is of this table: `rank(pos).is_some()`, which an
    /// index can often say without ranking (a table build asks it of
    /// every child of every entry).
    fn holds(&self, pos: &G) -> bool {
        self.rank(pos).is_some()
    }
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
    /// Whether an entry may stand for a position and its distinct mirror
    /// image. An index that never folds (one entry per position) lets the
    /// generic generator count each entry's undecided moves instead of
    /// looking at them all again each time one of them is decided, and
    /// call an entry lost when the last is found won: the game's unmoves
    /// must then match the legal moves that stay in the table one to one
    /// (each such move's position leads back to the entry by exactly one
    /// unmove, and no unmove leads to a position without that move).
    fn folds(&self) -> bool {
        true
    }
}

/// Where a position's value is stored: which table, which stored side to
/// move (0 or 1), which entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stored<M> {
    /// The material of the table that holds it (a stored one).
    pub material: M,
    /// The stored side to move: 0 or 1 (a table may store one side only,
    /// when the other is its colour swap).
    pub side: usize,
    /// The entry in that side's values.
    pub entry: u64,
}

/// How a game's positions are spread over table files: one table per
/// material configuration, each storing one or two sides to move, each
/// side numbered `0..size`. With [`TableIndex`] (the entries of one table,
/// which the generators walk), it is all a game with unmoves needs to have
/// its tables built, written, probed and verified by `zoo-tb`.
///
/// A scheme may store fewer tables than there are materials: a material
/// whose colour swap is stored has no file of its own, and
/// [`TableScheme::locate`] says where its positions went.
pub trait TableScheme: Send + Sync + Sized + 'static {
    /// The positions.
    type Pos: Retro;
    /// A material configuration: what names a table.
    type Material: Copy + Eq + Ord + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static;
    /// Material keys are below this (per-material arrays are this long).
    const KEYS: usize;

    /// The scheme of the tables of one rule set.
    fn new(rules: <Self::Pos as crate::Game>::Rules) -> Self;
    /// The rule set the tables are built with.
    fn rules(&self) -> &<Self::Pos as crate::Game>::Rules;
    /// The game's name (the directory and the file header name it).
    fn game(&self) -> &'static str;
    /// The rule set's name, as positions give it (`Game::rules_name`).
    fn rules_name(&self) -> &'static str;
    /// A dense key below [`TableScheme::KEYS`], also the file header's
    /// material field.
    fn key(m: Self::Material) -> u16;
    /// The material's name (its file name without the extension).
    fn name(&self, m: Self::Material) -> String;
    /// Reads [`TableScheme::name`]'s form back.
    fn parse(&self, s: &str) -> Option<Self::Material>;
    /// How many pieces.
    fn pieces(m: Self::Material) -> u32;
    /// The most pieces a table can have.
    fn max_pieces(&self) -> u32;
    /// The stored materials with `pieces` pieces, in a fixed order.
    fn stored(&self, pieces: u32) -> Vec<Self::Material>;
    /// How many sides to move a stored material's table holds (1 or 2).
    fn stored_sides(m: Self::Material) -> usize;
    /// Entries per stored side of a stored material's table.
    fn size(&self, m: Self::Material) -> u64;
    /// Where the value of `pos` (not finished: [`crate::Game::terminal`]
    /// is `None`) is stored.
    fn locate(&self, pos: &Self::Pos) -> Stored<Self::Material>;
    /// The position entry `entry` of stored side `side` of stored material
    /// `m` stands for; [`TableScheme::locate`] of it is that entry again.
    fn position(&self, m: Self::Material, side: usize, entry: u64) -> Self::Pos;
}
