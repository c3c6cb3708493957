//! Evaluations of the animal games, from the side to move's point of view.
//!
//! - [`Development`]: the Jungle Checkers development tables of literature A.
//! - [`Simple`]: zoo's reading of literature D's Jungle evaluation (material
//!   strength plus den distance times piece count, Manhattan distance).
//! - [`LiteratureD`]: literature D's evaluation exactly as its code computes
//!   it (its distance formula and its score of a won board).
//! - [`Strong`]: this project's own: material with the rat–elephant relation,
//!   den distance, trap danger and river control; weights in [`WEIGHTS`].

use crate::board::{bit, file_of, rank_of, Board, FILES};
use crate::Position;
use zoo_core::{Evaluator, Game, Outcome, Side};

#[inline(always)]
fn manhattan(a: u8, b: u8) -> i32 {
    (file_of(a) as i32 - file_of(b) as i32).abs() + (rank_of(a) as i32 - rank_of(b) as i32).abs()
}

/// Negates a White-minus-Black score for Black to move.
#[inline(always)]
fn for_side(white_minus_black: i32, stm: Side) -> i32 {
    if stm == Side::White {
        white_minus_black
    } else {
        -white_minus_black
    }
}

/// Literature A: per piece a development table over the board, −500/−400/
/// −600/−700 for a captured rat/dog/tiger/elephant. Published for Jungle
/// Checkers; on the 9-rank Jungle board the same rows are extended downward.
#[derive(Debug, Clone, Copy, Default)]
pub struct Development;

impl Development {
    /// White's table entry of square `s` on a board of `ranks` ranks.
    pub fn table(ranks: u8, s: u8) -> i32 {
        let (f, r) = (file_of(s) as i32, rank_of(s) as i32);
        let centre = 3 - (f - 3).abs();
        let top = ranks as i32 - 1;
        if r == top {
            [12, 13, 50, 100, 50, 13, 12][f as usize]
        } else if r == top - 1 {
            [11, 12, 13, 50, 13, 12, 11][f as usize]
        } else {
            // Rank top-2 reads 10 11 12 13 12 11 10; each lower rank one less.
            10 - (top - 2 - r) + centre
        }
    }
    /// Penalty of a captured piece by strength rank (JC: rat, dog, tiger, elephant).
    fn captured<B: Board>(kind: usize) -> i32 {
        if B::KINDS == 4 {
            [500, 400, 600, 700][kind]
        } else {
            Strong::material::<B>(kind, &crate::rules::JUNGLE_LEIDEN)
        }
    }
}

impl<B: Board> Evaluator<Position<B>> for Development {
    fn name(&self) -> &'static str {
        "development"
    }
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        let mut score = [0i32; 2];
        for side in [Side::White, Side::Black] {
            for kind in 0..B::KINDS {
                score[side.index()] += match pos.square_of(side, kind) {
                    Some(s) => {
                        // Black's table is White's turned upside down.
                        let s = if side == Side::White {
                            s
                        } else {
                            B::SQUARES - 1 - s
                        };
                        Development::table(B::RANKS, s)
                    }
                    None => -Development::captured::<B>(kind),
                };
            }
        }
        for_side(score[0] - score[1], pos.stm())
    }
}

/// Literature D's terms, for the side to move: each side's strengths, plus
/// `11 − d` per piece, where `d` is its nearest piece's `distance` to the
/// opponent's den. [`Simple`] and [`LiteratureD`] differ in `distance`.
fn material_and_den<B: Board>(pos: &Position<B>, distance: impl Fn(u8, u8) -> i32) -> i32 {
    let strength = &pos.rule_set().strength;
    let mut score = [0i32; 2];
    for side in [Side::White, Side::Black] {
        let den = B::DEN[side.flip().index()];
        let (mut material, mut count, mut nearest) = (0, 0, i32::MAX);
        for (kind, &st) in strength.iter().enumerate().take(B::KINDS) {
            if let Some(s) = pos.square_of(side, kind) {
                material += st as i32;
                count += 1;
                nearest = nearest.min(distance(s, den));
            }
        }
        score[side.index()] = material + if count > 0 { (11 - nearest) * count } else { 0 };
    }
    for_side(score[0] - score[1], pos.stm())
}

/// Literature D: material strength difference + (11 − minimal Manhattan
/// distance of any own piece to the enemy den) × number of own pieces, minus
/// the same for the opponent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simple;

impl<B: Board> Evaluator<Position<B>> for Simple {
    fn name(&self) -> &'static str {
        "simple"
    }
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        material_and_den(pos, manhattan)
    }
}

/// Literature D's evaluation as its code computes it, where it differs
/// from the description that [`Simple`] follows:
/// - the distance of square `i` to the den is `|i − den| / 7 + |i − den| mod 7`
///   on the square numbers (rank × 7 + file), not the Manhattan distance:
///   13 instead of 9 from e1 to d9, so `11 − distance` can be negative;
/// - a won board (a piece on the den, or no pieces left) scores +10 000 for
///   the side to move, which is the side that lost: its search sees a
///   winning move as the worst one.
#[derive(Debug, Clone, Copy, Default)]
pub struct LiteratureD;

/// The score literature D's code gives a finished game, for the side to move.
pub const LITERATURE_D_WON_BOARD: i32 = 10_000;

impl LiteratureD {
    /// Literature D's distance between squares `a` and `b`.
    pub fn distance(a: u8, b: u8) -> i32 {
        let d = (a as i32 - b as i32).abs();
        d / FILES as i32 + d % FILES as i32
    }
}

impl<B: Board> Evaluator<Position<B>> for LiteratureD {
    fn name(&self) -> &'static str {
        "literature-d"
    }
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        if let Some(s) = Evaluator::<Position<B>>::finished(self, pos) {
            return s;
        }
        material_and_den(pos, LiteratureD::distance)
    }
    fn finished(&self, pos: &Position<B>) -> Option<i32> {
        // The side to move has lost (the opponent stands on its den or took
        // its last piece): literature D's code scores that +10 000 for it.
        // A set-up position already won by the side to move: −10 000.
        match pos.terminal()? {
            Outcome::Loss => Some(LITERATURE_D_WON_BOARD),
            Outcome::Win => Some(-LITERATURE_D_WON_BOARD),
            Outcome::Draw => None,
        }
    }
}

/// The weights of [`Strong`], all in one place.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    /// Material by strength (1 = weakest); index 0 unused.
    pub jungle_material: [i32; 9],
    /// Material of Jungle Checkers by strength (1 = weakest); index 0 unused.
    pub jc_material: [i32; 5],
    /// The rat while the enemy elephant lives (it threatens the elephant).
    pub rat_vs_elephant: i32,
    /// The elephant while the enemy rat lives (it can be taken by the rat).
    pub elephant_vs_rat: i32,
    /// Per piece: `den_advance × (max distance − distance to the enemy den)²`.
    pub den_advance: i32,
    /// The piece nearest the enemy den: `den_nearest × (max − distance)`.
    pub den_nearest: i32,
    /// An own piece on an enemy trap next to an enemy piece: this share (‰) of its material is lost.
    pub trap_danger_permille: i32,
    /// Enemy pieces within two steps of the own den, each.
    pub den_guard: i32,
    /// A rat in the water (safe from land pieces, blocks leaps).
    pub rat_in_water: i32,
    /// A lion or tiger on a square from which it can leap a river.
    pub leaper_on_bank: i32,
    /// The nearest attacker's closeness times the number of own pieces
    /// (the shape of literature D's evaluation).
    pub den_nearest_per_piece: i32,
    /// Multiplier of literature A's development table (per piece). 0: in
    /// matches (docs/log/search.md) adding it with den_advance 0 lost to
    /// `simple` in Jungle and did not beat `development` in Jungle Checkers.
    pub development: i32,
}

/// The weights [`Strong`] plays with.
pub const WEIGHTS: Weights = Weights {
    jungle_material: [0, 450, 200, 300, 350, 500, 800, 900, 1000],
    jc_material: [0, 500, 400, 600, 700],
    rat_vs_elephant: 150,
    elephant_vs_rat: -100,
    den_advance: 2,
    den_nearest: 12,
    trap_danger_permille: 600,
    den_guard: 60,
    rat_in_water: 30,
    leaper_on_bank: 20,
    // Added after self-play matches against `simple` (docs/log/search.md).
    den_nearest_per_piece: 15,
    development: 0,
};

/// This project's evaluation with a set of weights (normally [`WEIGHTS`]).
#[derive(Debug, Clone, Copy)]
pub struct Strong(pub &'static Weights);

impl Default for Strong {
    fn default() -> Self {
        Strong(&WEIGHTS)
    }
}

impl Strong {
    fn material<B: Board>(kind: usize, rules: &crate::RuleSet) -> i32 {
        let s = rules.strength[kind] as usize;
        if B::KINDS == 4 {
            WEIGHTS.jc_material[s.min(4)]
        } else {
            WEIGHTS.jungle_material[s.min(8)]
        }
    }
}

impl<B: Board> Evaluator<Position<B>> for Strong {
    fn name(&self) -> &'static str {
        "strong"
    }
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        let w = self.0;
        let rules = pos.rule_set();
        let max_d = (FILES + B::RANKS - 2) as i32;
        let steps = &B::tables().steps;
        let mut score = [0i32; 2];
        for side in [Side::White, Side::Black] {
            let us = side.index();
            let them = 1 - us;
            let enemy_occ = pos.occupied(side.flip());
            let enemy_den = B::DEN[them];
            let own_den = B::DEN[us];
            let mut sc = 0;
            let mut nearest = max_d;
            for kind in 0..B::KINDS {
                let Some(s) = pos.square_of(side, kind) else {
                    continue;
                };
                let m = Strong::material::<B>(kind, rules);
                sc += m;
                if kind == 0 && pos.square_of(side.flip(), B::ELEPHANT).is_some() {
                    sc += w.rat_vs_elephant;
                }
                if kind == B::ELEPHANT && pos.square_of(side.flip(), 0).is_some() {
                    sc += w.elephant_vs_rat;
                }
                let d = manhattan(s, enemy_den);
                nearest = nearest.min(d);
                sc += w.den_advance * (max_d - d) * (max_d - d);
                if w.development != 0 {
                    let t = if side == Side::White {
                        s
                    } else {
                        B::SQUARES - 1 - s
                    };
                    sc += w.development * Development::table(B::RANKS, t);
                }
                if B::TRAPS[them] & bit(s) != 0 && steps[s as usize] & enemy_occ != 0 {
                    sc -= m * w.trap_danger_permille / 1000;
                }
                if B::WATER & bit(s) != 0 {
                    sc += w.rat_in_water;
                }
                if B::LEAPERS & (1 << kind) != 0
                    && B::tables().leaps[s as usize]
                        .iter()
                        .any(|l| l.to != crate::board::NONE)
                {
                    sc += w.leaper_on_bank;
                }
            }
            if pos.occupied(side) != 0 {
                sc += w.den_nearest * (max_d - nearest);
                sc += w.den_nearest_per_piece
                    * (max_d - nearest)
                    * pos.occupied(side).count_ones() as i32;
            }
            // Enemy pieces close to our den.
            let mut near = enemy_occ;
            while near != 0 {
                let s = near.trailing_zeros() as u8;
                near &= near - 1;
                if manhattan(s, own_den) <= 2 {
                    sc -= w.den_guard;
                }
            }
            score[us] = sc;
        }
        for_side(score[0] - score[1], pos.stm())
    }
}

/// The evaluations of the animal games by name; an enum so the search stays
/// monomorphised (a predictable branch, no virtual call).
#[derive(Debug, Clone, Copy)]
pub enum AnimalEval {
    /// This project's evaluation, normally with [`WEIGHTS`] (`strong`).
    Strong(Strong),
    /// zoo's reading of literature D: material and closeness to the enemy
    /// den (`simple`).
    Simple(Simple),
    /// Literature D exactly as its code computes it (`literature-d`).
    LiteratureD(LiteratureD),
    /// Literature A: a development table and material (`development`).
    Development(Development),
    /// The learned evaluation (`nnue`, `nnue:PATH`); made per board by
    /// [`AnimalEval::for_board`].
    Net(crate::nnue::NetEval),
}

impl AnimalEval {
    /// The names [`AnimalEval::for_board`] accepts (with `nnue:PATH`),
    /// Jungle's default first.
    pub const NAMES: [&'static str; 5] =
        ["nnue", "strong", "simple", "development", "literature-d"];
    /// The evaluation of this name for board `B` (`nnue:PATH` names a net
    /// file of `zoo train`), or a message listing the names.
    pub fn for_board<B: Board>(name: &str) -> Result<AnimalEval, String> {
        if name == "nnue" {
            return crate::nnue::NetEval::embedded::<B>().map(AnimalEval::Net);
        }
        if let Some(path) = name.strip_prefix("nnue:") {
            return crate::nnue::NetEval::from_file::<B>(std::path::Path::new(path))
                .map(AnimalEval::Net);
        }
        Self::by_name(name)
    }
    /// The hand-written evaluation of this name, or a message listing the
    /// names (the learned one needs its board: [`AnimalEval::for_board`]).
    pub fn by_name(name: &str) -> Result<AnimalEval, String> {
        match name {
            "strong" => Ok(AnimalEval::Strong(Strong::default())),
            "simple" => Ok(AnimalEval::Simple(Simple)),
            "development" => Ok(AnimalEval::Development(Development)),
            "literature-d" => Ok(AnimalEval::LiteratureD(LiteratureD)),
            "nnue" => {
                Err("the learned evaluation has a net per board: AnimalEval::for_board".into())
            }
            _ => Err(format!(
                "unknown evaluation {name:?}; expected one of: {}, nnue:PATH",
                Self::NAMES.join(", ")
            )),
        }
    }
}

impl<B: Board> Evaluator<Position<B>> for AnimalEval {
    fn name(&self) -> &'static str {
        match self {
            AnimalEval::Strong(e) => Evaluator::<Position<B>>::name(e),
            AnimalEval::Simple(e) => Evaluator::<Position<B>>::name(e),
            AnimalEval::Development(e) => Evaluator::<Position<B>>::name(e),
            AnimalEval::LiteratureD(e) => Evaluator::<Position<B>>::name(e),
            AnimalEval::Net(e) => Evaluator::<Position<B>>::name(e),
        }
    }
    #[inline]
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        match self {
            AnimalEval::Strong(e) => e.evaluate(pos),
            AnimalEval::Simple(e) => e.evaluate(pos),
            AnimalEval::Development(e) => e.evaluate(pos),
            AnimalEval::LiteratureD(e) => e.evaluate(pos),
            AnimalEval::Net(e) => e.evaluate(pos),
        }
    }
    #[inline]
    fn finished(&self, pos: &Position<B>) -> Option<i32> {
        match self {
            AnimalEval::LiteratureD(e) => e.finished(pos),
            _ => None,
        }
    }
}

/// The score [`zoo_core::Game::proof_guide`] gives the proof search
/// (df-pn+): literature D's material and den distance ([`Simple`]), 25 to
/// a step nearer the den, so that a pawn's worth is about 100. Cheap, and
/// about distance to the den, which is what the long wins of the small
/// endgames are made of.
pub fn proof_guide<B: Board>(pos: &Position<B>) -> i32 {
    25 * Simple.evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JungleCheckersPos, JunglePos};
    use zoo_core::Game;

    #[test]
    fn development_table_matches_literature_a() {
        let row = |r: u8| {
            (0..7)
                .map(|f| Development::table(7, r * 7 + f))
                .collect::<Vec<_>>()
        };
        assert_eq!(row(6), [12, 13, 50, 100, 50, 13, 12]);
        assert_eq!(row(5), [11, 12, 13, 50, 13, 12, 11]);
        assert_eq!(row(4), [10, 11, 12, 13, 12, 11, 10]);
        assert_eq!(row(0), [6, 7, 8, 9, 8, 7, 6]);
    }

    #[test]
    fn start_positions_are_balanced() {
        let j = JunglePos::start(&JunglePos::default_rules());
        let c = JungleCheckersPos::start(&JungleCheckersPos::default_rules());
        for e in [
            AnimalEval::Strong(Strong::default()),
            AnimalEval::Simple(Simple),
            AnimalEval::Development(Development),
            AnimalEval::LiteratureD(LiteratureD),
        ] {
            assert_eq!(e.evaluate(&j), 0, "{}", Evaluator::<JunglePos>::name(&e));
            assert_eq!(e.evaluate(&c), 0, "{}", Evaluator::<JunglePos>::name(&e));
        }
    }

    #[test]
    fn simple_eval_by_hand() {
        let rules = JunglePos::default_rules();
        // White lion (7) on d7: den distance 2; Black rat (1) on a1: distance 3 to d1.
        let p = JunglePos::from_fen("7/7/3L3/7/7/7/7/7/r6 w", &rules).unwrap();
        let white = 7 + (11 - 2);
        let black = 1 + (11 - 3);
        assert_eq!(Simple.evaluate(&p), white - black);
        let pb = JunglePos::from_fen("7/7/3L3/7/7/7/7/7/r6 b", &rules).unwrap();
        assert_eq!(Simple.evaluate(&pb), black - white);
    }

    #[test]
    fn literature_d_distance_is_its_codes() {
        // e1 (square 4) to d9 (square 59): 55 / 7 + 55 mod 7 = 13, where the
        // Manhattan distance is 9.
        assert_eq!(LiteratureD::distance(4, 59), 13);
        assert_eq!(manhattan(4, 59), 9);
        // Along a rank or a file both agree.
        assert_eq!(LiteratureD::distance(59, 3), 8);
        assert_eq!(LiteratureD::distance(56, 59), 3);
    }

    #[test]
    fn literature_d_eval_by_hand() {
        let rules = JunglePos::default_rules();
        // White lion (7) on g7 (square 48), 11 squares from d9 (59): 1 + 4 = 5
        // (Manhattan 5 too); Black rat (1) on a1 (0), 3 from d1: 0 + 3.
        // White elephant (8) on e1 (4): 13 from d9, so the lion stays nearest.
        let p = JunglePos::from_fen("7/7/6L/7/7/7/7/7/r3E2 w", &rules).unwrap();
        let white = 7 + 8 + (11 - 5) * 2;
        let black = 1 + (11 - 3);
        assert_eq!(LiteratureD.evaluate(&p), white - black);
        // The elephant alone on e1: 11 − 13 = −2 per piece.
        let q = JunglePos::from_fen("7/7/7/7/7/7/7/7/r3E2 w", &rules).unwrap();
        assert_eq!(LiteratureD.evaluate(&q), (8 - 2) - (1 + 8));
        assert_eq!(Simple.evaluate(&q), (8 + 2) - (1 + 8));
    }

    #[test]
    fn literature_d_scores_a_won_board_for_the_loser() {
        let rules = JunglePos::default_rules();
        // White's rat stands on Black's den (d9), Black to move: Black lost,
        // and literature D's code scores that +10 000 for Black.
        let p = JunglePos::from_fen("3R3/7/7/7/7/7/7/7/6r b", &rules).unwrap();
        assert_eq!(p.terminal(), Some(Outcome::Loss));
        assert_eq!(LiteratureD.evaluate(&p), LITERATURE_D_WON_BOARD);
        assert_eq!(
            AnimalEval::LiteratureD(LiteratureD).finished(&p),
            Some(LITERATURE_D_WON_BOARD)
        );
        // zoo's other evaluations leave finished games to the search.
        assert_eq!(Evaluator::<JunglePos>::finished(&Simple, &p), None);
    }

    #[test]
    fn development_counts_captured_pieces() {
        let rules = JungleCheckersPos::default_rules();
        // Only White's elephant (b1) and Black's rat (b7) remain.
        let p = JungleCheckersPos::from_fen("1r5/7/7/7/7/7/1E5 w", &rules).unwrap();
        let white = 7 - 500 - 400 - 600;
        // Black's rat on b7 reads White's table at the turned square f1: 7.
        let black = 7 - 400 - 600 - 700;
        assert_eq!(Development.evaluate(&p), white - black);
    }

    #[test]
    fn strong_eval_prefers_material() {
        let rules = JunglePos::default_rules();
        let start = JunglePos::start(&rules);
        // Remove Black's elephant: White must be better by a lot.
        let p = JunglePos::from_fen("l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L w", &rules).unwrap();
        assert!(
            Strong::default().evaluate(&p) > 700,
            "{}",
            Strong::default().evaluate(&p)
        );
        assert_eq!(Strong::default().evaluate(&start), 0);
    }
}
