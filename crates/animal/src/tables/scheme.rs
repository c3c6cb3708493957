//! How the animal games' positions are spread over table files
//! ([`AnimalScheme`], their [`zoo_core::TableScheme`]): one file per
//! colour-swapped pair of material configurations, the one with more White
//! pieces stored; a colour-symmetric configuration stores White to move
//! only (Black to move is its colour swap).

use super::index::{Layout, Material};
use crate::board::Board;
use crate::{Position, RuleSet};
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};
use zoo_core::{Game, Side, Stored, TableScheme};

/// The material layouts, built once per material on first use.
pub struct Layouts<B: Board> {
    slots: Vec<OnceLock<Arc<Layout>>>,
    _b: PhantomData<fn() -> B>,
}

impl<B: Board> Default for Layouts<B> {
    fn default() -> Self {
        Layouts {
            slots: (0..1usize << 16).map(|_| OnceLock::new()).collect(),
            _b: PhantomData,
        }
    }
}

impl<B: Board> Layouts<B> {
    /// The layout of material `m`.
    pub fn get(&self, m: Material) -> &Layout {
        self.slots[m.key()].get_or_init(|| Arc::new(Layout::new::<B>(m)))
    }
}

/// Where a position's value is stored: material (canonical), stored side
/// (0: White to move, 1: Black to move) and whether the position had to be
/// colour-swapped to get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The stored (canonical) material.
    pub material: Material,
    /// The stored side: 0 White to move, 1 Black to move.
    pub side: usize,
    /// Whether the position is stored as its colour swap.
    pub swap: bool,
}

/// Which file, which side and whether to swap, for a position of material
/// `m` with `stm` to move.
#[inline(always)]
pub fn slot_of(m: Material, stm: Side) -> Slot {
    if m.is_canonical() {
        if stm == Side::White || !m.is_symmetric() {
            Slot {
                material: m,
                side: stm.index(),
                swap: false,
            }
        } else {
            // Black to move in a symmetric material: the colour swap is a
            // White-to-move position of the same material.
            Slot {
                material: m,
                side: 0,
                swap: true,
            }
        }
    } else {
        // The swapped material is stored; the swap also switches who moves.
        Slot {
            material: m.swapped(),
            side: 1 - stm.index(),
            swap: true,
        }
    }
}

/// The side to move of stored side `side` (0: White, 1: Black).
pub fn stored_stm(side: usize) -> Side {
    if side == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// The animal games' tables of one rule set.
pub struct AnimalScheme<B: Board> {
    rules: &'static RuleSet,
    layouts: Layouts<B>,
}

impl<B: Board> AnimalScheme<B> {
    /// The layout (dense index) of material `m`.
    #[inline]
    pub fn layout(&self, m: Material) -> &Layout {
        self.layouts.get(m)
    }
}

impl<B: Board> TableScheme for AnimalScheme<B> {
    type Pos = Position<B>;
    type Material = Material;
    const KEYS: usize = 1 << 16;

    fn new(rules: &'static RuleSet) -> Self {
        AnimalScheme {
            rules,
            layouts: Layouts::default(),
        }
    }
    fn rules(&self) -> &&'static RuleSet {
        &self.rules
    }
    fn game(&self) -> &'static str {
        B::GAME
    }
    fn rules_name(&self) -> &'static str {
        self.rules.name
    }
    #[inline(always)]
    fn key(m: Material) -> u16 {
        m.key() as u16
    }
    fn name(&self, m: Material) -> String {
        m.name::<B>()
    }
    fn parse(&self, s: &str) -> Option<Material> {
        Material::parse::<B>(s)
    }
    fn pieces(m: Material) -> u32 {
        m.pieces()
    }
    fn max_pieces(&self) -> u32 {
        2 * B::KINDS as u32
    }
    fn stored(&self, pieces: u32) -> Vec<Material> {
        Material::canonical::<B>(pieces)
    }
    fn stored_sides(m: Material) -> usize {
        m.stored_sides()
    }
    fn size(&self, m: Material) -> u64 {
        self.layout(m).size
    }
    #[inline(always)]
    fn locate(&self, pos: &Position<B>) -> Stored<Material> {
        let slot = slot_of(Material::of(pos), pos.side_to_move());
        let layout = self.layout(slot.material);
        let mut sqs = [0u8; 16];
        layout.squares_of(pos, slot.swap, &mut sqs);
        Stored {
            material: slot.material,
            side: slot.side,
            entry: layout.rank(&sqs[..layout.n]),
        }
    }
    fn position(&self, m: Material, side: usize, entry: u64) -> Position<B> {
        let layout = self.layout(m);
        let mut sqs = [0u8; 16];
        layout.unrank(entry, &mut sqs);
        layout.position::<B>(&sqs[..layout.n], stored_stm(side), self.rules)
    }
}
