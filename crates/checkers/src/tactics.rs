//! The checkers games on the shared search: the Turska engine of literature
//! C. Captures are mandatory, so a position where the side to move has a
//! capture is never quiet: quiescence search extends it (no standing pat)
//! until the capture sequences end, and extends nothing else (literature C
//! found extending one more ply after each capture 30 times slower and no
//! stronger).

use crate::eval::CheckersEval;
use crate::{Move, Position, Variant};
use zoo_core::{EngineGame, Tactics};

/// Tactics of both checkers variants.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckersTactics;

/// Ordering weights: a capture of more pieces first, kings worth more than
/// men (the quality rule ranks them so too), then promotions. Only moves of
/// one position are compared, and in a position with a capture every legal
/// move captures the same number of pieces under the Classical majority
/// rule, so the kind of piece taken and the promotion decide among them.
const PER_PIECE: i32 = 1000;
const PER_KING: i32 = 500;
const PROMOTION: i32 = 800;

impl<V: Variant> Tactics<Position<V>> for CheckersTactics {
    #[inline]
    fn is_noisy(&self, _pos: &Position<V>, mv: Move, _qply: u32) -> bool {
        mv.captured != 0
    }

    /// A pending capture: standing pat would ignore a forced exchange.
    #[inline]
    fn in_danger(&self, pos: &Position<V>) -> bool {
        pos.has_capture()
    }

    #[inline]
    fn order_hint(&self, pos: &Position<V>, mv: Move) -> i32 {
        let us = pos.side();
        let taken = mv.captured.count_ones() as i32;
        let kings = (mv.captured & pos.kings_of(us.flip())).count_ones() as i32;
        let man = pos.men(us) & (1u32 << mv.from) != 0;
        let promotes = man && Position::<V>::far_row(us) & (1u32 << mv.to) != 0;
        taken * PER_PIECE + kings * PER_KING + if promotes { PROMOTION } else { 0 }
    }
}

impl<V: Variant> EngineGame for Position<V> {
    type Eval = CheckersEval;
    type Tactics = CheckersTactics;
    fn eval_names() -> &'static [&'static str] {
        // The learned evaluation first where the variant comes with a net:
        // English checkers' first net was ahead of `turska` by +258 ± 65
        // at 0.1 s a move over 100 games, the one shipped ahead of that
        // by +119 ± 51 (docs/checkers.md, "The learned evaluation").
        if crate::nnue::NetEval::has_embedded::<V>() {
            &["nnue", "turska", "material", "turska-c"]
        } else {
            &CheckersEval::NAMES
        }
    }
    fn eval_by_name(name: &str) -> Result<CheckersEval, String> {
        CheckersEval::for_variant::<V>(name)
    }
}
