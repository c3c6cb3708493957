//! Static evaluations: `"turska"`, the eight heuristics of the 2011 master
//! thesis on Classical checkers (literature C) with weights per game phase,
//! and `"material"`, men and kings only. All weights live in [`TURSKA`].
//!
//! Definitions where the thesis leaves room (recorded in docs/checkers.md):
//! - mobility is judged per direction a piece could step to (the adjacent
//!   square; for a flying king the first square of each diagonal): a
//!   direction is *mobile* when the piece standing there could not be taken
//!   at once, *frozen* when it could; a piece with some direction but only
//!   frozen ones is frozen, a piece with no direction at all is dead;
//! - back rank: own men on the own first row;
//! - balance: men on the two halves of the board (files a–d, e–h) differ by
//!   at most one: `+w`, otherwise `-w`;
//! - bridge exploit: the opponent holds the bridge (men on its first-row
//!   squares 1 and 3 counted from its right) while we have no king yet;
//! - river control: we have a king on the long diagonal and the opponent
//!   has no piece on it;
//! - runaway man: no piece at all in the cone of squares between the man and
//!   its crowning row;
//! - triangle: men on the own first-row squares 2 and 3 and the square
//!   diagonally in front of both.
//!
//! `"turska-c"` ([`TurskaC`]) is the same but for two heuristics read as
//! literature C words them: the back rank counts only the men that guard
//! the bridge (first-row squares 1 and 3 in Classical numbering, on the
//! single-corner side, as for the bridge exploit above) and the double
//! corner (its first-row square and the second-row square beside it), and a runaway man
//! is one that can be crowned in one move (a free square ahead on the
//! crowning row). docs/checkers.md, "Heuristics as literature C defines
//! them", has the match between the two.

use crate::geometry::{bit, opposite, shift, squares, DL, DR, NONE, RAY, RIVER, STEP, UL, UR};
use crate::position::Position;
use crate::variant::Variant;
use zoo_core::{Evaluator, Side, EVAL_LIMIT};

/// Weights of one game phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhaseWeights {
    /// Each man.
    pub man: i32,
    /// Each king.
    pub king: i32,
    /// Each mobile man (see the module docs for mobile, frozen and dead).
    pub mobile_man: i32,
    /// Each mobile king.
    pub mobile_king: i32,
    /// Each frozen man.
    pub frozen_man: i32,
    /// Each frozen king.
    pub frozen_king: i32,
    /// Each dead man.
    pub dead_man: i32,
    /// Each dead king.
    pub dead_king: i32,
    /// Each own man on the own first row (`turska-c`: on the bridge and
    /// the double corner).
    pub back_rank: i32,
    /// Men balanced between the two halves of the board (`-balance` otherwise).
    pub balance: i32,
    /// The opponent holds the bridge while we have no king.
    pub bridge_exploit: i32,
    /// We have a king on the long diagonal and the opponent no piece there.
    pub river_control: i32,
    /// Each man with no piece in the cone before its crowning row
    /// (`turska-c`: each man that can be crowned in one move).
    pub runaway_man: i32,
    /// The triangle of men in front of the own first row.
    pub triangle: i32,
}

/// Literature C's weights: opening (19–24 pieces), middle game (9–18),
/// endgame (0–8).
pub const TURSKA: [PhaseWeights; 3] = [
    PhaseWeights {
        man: 100,
        king: 250,
        mobile_man: 1,
        mobile_king: 2,
        frozen_man: -5,
        frozen_king: -12,
        dead_man: -20,
        dead_king: -50,
        back_rank: 5,
        balance: 4,
        bridge_exploit: 0,
        river_control: 0,
        runaway_man: 50,
        triangle: 10,
    },
    PhaseWeights {
        man: 100,
        king: 250,
        mobile_man: 2,
        mobile_king: 3,
        frozen_man: -5,
        frozen_king: -12,
        dead_man: -20,
        dead_king: -50,
        back_rank: 5,
        balance: 6,
        bridge_exploit: -10,
        river_control: 25,
        runaway_man: 50,
        triangle: 0,
    },
    PhaseWeights {
        man: 100,
        king: 300,
        mobile_man: 3,
        mobile_king: 4,
        frozen_man: -5,
        frozen_king: -15,
        dead_man: -20,
        dead_king: -60,
        back_rank: 3,
        balance: 3,
        bridge_exploit: -15,
        river_control: 50,
        runaway_man: 60,
        triangle: 0,
    },
];

/// Phase index from the number of pieces on the board.
pub fn phase(pieces: u32) -> usize {
    match pieces {
        19.. => 0,
        9..=18 => 1,
        _ => 2,
    }
}

/// The square as seen from `side`: the first mover's squares unchanged,
/// the other side's turned half a turn (so "own first row" is row 0).
#[inline]
fn relative<V: Variant>(side: Side, s: u8) -> u8 {
    if side == V::FIRST {
        s
    } else {
        31 - s
    }
}

/// Men and kings weighted by phase.
#[derive(Debug, Clone, Copy, Default)]
pub struct Material;

/// The eight heuristics of literature C.
#[derive(Debug, Clone, Copy, Default)]
pub struct Turska;

/// [`Turska`] with literature C's own readings of the back rank and the
/// runaway man (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct TurskaC;

/// Which readings of the heuristics [`side_score`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Readings {
    /// zoo's: every first-row man, a free cone ahead.
    Zoo,
    /// Literature C's: bridge and double corner, crowned in one move.
    Thesis,
}

fn clamp(v: i32) -> i32 {
    v.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

fn material_of<V: Variant>(p: &Position<V>, side: Side, w: &PhaseWeights) -> i32 {
    p.men(side).count_ones() as i32 * w.man + p.kings_of(side).count_ones() as i32 * w.king
}

impl<V: Variant> Evaluator<Position<V>> for Material {
    fn name(&self) -> &'static str {
        "material"
    }
    fn evaluate(&self, p: &Position<V>) -> i32 {
        let w = &TURSKA[phase(p.total_pieces())];
        let us = p.side();
        clamp(material_of(p, us, w) - material_of(p, us.flip(), w))
    }
}

impl<V: Variant> Evaluator<Position<V>> for Turska {
    fn name(&self) -> &'static str {
        "turska"
    }
    fn evaluate(&self, p: &Position<V>) -> i32 {
        heuristics(p, Readings::Zoo)
    }
}

/// The eight heuristics for the side to move against the other, read as `r` says.
fn heuristics<V: Variant>(p: &Position<V>, r: Readings) -> i32 {
    let w = &TURSKA[phase(p.total_pieces())];
    let us = p.side();
    clamp(side_score(p, us, w, r) - side_score(p, us.flip(), w, r))
}

impl<V: Variant> Evaluator<Position<V>> for TurskaC {
    fn name(&self) -> &'static str {
        "turska-c"
    }
    fn evaluate(&self, p: &Position<V>) -> i32 {
        heuristics(p, Readings::Thesis)
    }
}

/// Either evaluation, chosen by name at run time (`--eval turska`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckersEval {
    /// [`Turska`]: literature C's heuristics (`turska`).
    Turska,
    /// [`Material`]: men and kings only (`material`).
    Material,
    /// [`TurskaC`]: literature C's readings of two heuristics (`turska-c`).
    TurskaC,
    /// The learned evaluation (`nnue`, `nnue:PATH`): [`crate::nnue`].
    Net(crate::nnue::NetEval),
}

impl CheckersEval {
    /// The names, the default (strongest) first.
    pub const NAMES: [&'static str; 3] = ["turska", "material", "turska-c"];

    /// The evaluation of this name for variant `V` (`nnue` is the net
    /// that comes with the variant, `nnue:PATH` a net file of `zoo
    /// train`), or a message listing the names.
    pub fn for_variant<V: Variant>(name: &str) -> Result<CheckersEval, String> {
        if name == "nnue" {
            return crate::nnue::NetEval::embedded::<V>().map(CheckersEval::Net);
        }
        if let Some(path) = name.strip_prefix("nnue:") {
            return crate::nnue::NetEval::from_file(std::path::Path::new(path))
                .map(CheckersEval::Net);
        }
        Self::by_name(name)
    }

    /// The hand-written evaluation of this name, or a message listing the
    /// names (the learned one needs its variant: [`CheckersEval::for_variant`]).
    pub fn by_name(name: &str) -> Result<CheckersEval, String> {
        match name {
            "turska" => Ok(CheckersEval::Turska),
            "material" => Ok(CheckersEval::Material),
            "turska-c" => Ok(CheckersEval::TurskaC),
            _ => Err(format!(
                "unknown checkers evaluation {name:?}; expected one of: {}, nnue, nnue:PATH",
                Self::NAMES.join(", ")
            )),
        }
    }
}

impl<V: Variant> Evaluator<Position<V>> for CheckersEval {
    fn name(&self) -> &'static str {
        match self {
            CheckersEval::Turska => "turska",
            CheckersEval::Material => "material",
            CheckersEval::TurskaC => "turska-c",
            CheckersEval::Net(e) => Evaluator::<Position<V>>::name(e),
        }
    }
    fn evaluate(&self, p: &Position<V>) -> i32 {
        match self {
            CheckersEval::Turska => Turska.evaluate(p),
            CheckersEval::Material => Material.evaluate(p),
            CheckersEval::TurskaC => TurskaC.evaluate(p),
            CheckersEval::Net(e) => e.evaluate(p),
        }
    }
}

/// Whether a piece of `side` that steps from `from` to `to` could be taken
/// there at once by the opponent.
fn exposed<V: Variant>(p: &Position<V>, side: Side, from: u8, to: u8) -> bool {
    let occ = (p.occupied() & !bit(from)) | bit(to);
    let enemy = p.pieces(side.flip());
    let enemy_up = Position::<V>::moves_up(side.flip());
    for d in [UR, UL, DR, DL] {
        // An attacker on the `d` side of `to` jumps towards `opposite(d)`.
        let land = STEP[to as usize][opposite(d)];
        if land == NONE || occ & bit(land) != 0 {
            continue;
        }
        let adj = STEP[to as usize][d];
        if adj == NONE {
            continue;
        }
        let jump_dir_up = opposite(d) < 2;
        if enemy & bit(adj) != 0 {
            let king = p.kings & bit(adj) != 0;
            if king || jump_dir_up == enemy_up {
                return true;
            }
        }
        if V::FLYING_KINGS && occ & bit(adj) == 0 {
            let blk = RAY[to as usize][d] & occ;
            if blk != 0 {
                let b = crate::geometry::nearest(blk, d);
                if enemy & p.kings & bit(b) != 0 {
                    return true;
                }
            }
        }
    }
    false
}

fn side_score<V: Variant>(p: &Position<V>, side: Side, w: &PhaseWeights, r: Readings) -> i32 {
    let occ = p.occupied();
    let up = Position::<V>::moves_up(side);
    let fwd = if up { [UR, UL] } else { [DR, DL] };
    let mut score = material_of(p, side, w);

    // Mobility.
    for (pieces, dirs, is_king) in [
        (p.men(side), &fwd[..], false),
        (p.kings_of(side), &[UR, UL, DR, DL][..], true),
    ] {
        let (mobile, frozen, dead) = if is_king {
            (w.mobile_king, w.frozen_king, w.dead_king)
        } else {
            (w.mobile_man, w.frozen_man, w.dead_man)
        };
        for s in squares(pieces) {
            let mut open = 0;
            let mut safe = 0;
            for &d in dirs {
                let t = STEP[s as usize][d];
                if t == NONE || occ & bit(t) != 0 {
                    continue;
                }
                open += 1;
                if !exposed(p, side, s, t) {
                    safe += 1;
                }
            }
            score += if open == 0 {
                dead
            } else if safe == 0 {
                frozen
            } else {
                safe * mobile
            };
        }
    }

    let men = p.men(side);
    let rel_men: u32 = squares(men).fold(0, |acc, s| acc | bit(relative::<V>(side, s)));

    // Back rank: every first-row man, or (literature C) the men on the
    // bridge (relative squares 0 and 2) and the double corner (3 and the
    // second-row 7 beside it; the long diagonal ends at 0, the single corner).
    let guards = match r {
        Readings::Zoo => 0xF,
        Readings::Thesis => bit(0) | bit(2) | bit(3) | bit(7),
    };
    score += (rel_men & guards).count_ones() as i32 * w.back_rank;

    // Balance between the two halves of the board.
    let (mut left, mut right) = (0i32, 0i32);
    for s in squares(men) {
        if crate::geometry::col(s as usize) < 4 {
            left += 1;
        } else {
            right += 1;
        }
    }
    score += if (left - right).abs() <= 1 {
        w.balance
    } else {
        -w.balance
    };

    // Bridge exploit: facing the opponent's bridge without a king.
    let their_men: u32 =
        squares(p.men(side.flip())).fold(0, |acc, s| acc | bit(relative::<V>(side.flip(), s)));
    if p.kings_of(side) == 0 && their_men & 0b101 == 0b101 {
        score += w.bridge_exploit;
    }

    // River control.
    if p.kings_of(side) & RIVER != 0 && p.pieces(side.flip()) & RIVER == 0 {
        score += w.river_control;
    }

    // Runaway men: a free cone ahead, or (literature C) a free square on
    // the crowning row one step ahead.
    for s in squares(men) {
        let runaway = match r {
            Readings::Zoo => {
                let mut frontier = bit(s);
                let mut cone = 0u32;
                while frontier != 0 {
                    frontier = shift(frontier, fwd[0]) | shift(frontier, fwd[1]);
                    cone |= frontier;
                }
                cone & occ == 0
            }
            Readings::Thesis => fwd.iter().any(|&d| {
                let t = STEP[s as usize][d];
                t != NONE && occ & bit(t) == 0 && relative::<V>(side, t) >= 28
            }),
        };
        if runaway {
            score += w.runaway_man;
        }
    }

    // Triangle: first-row squares 2 and 3 and the square in front of both.
    let tri = bit(1) | bit(2) | bit(STEP[1][UL]);
    if rel_men & tri == tri {
        score += w.triangle;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
    use zoo_core::Game;

    #[test]
    fn start_positions_are_level() {
        let c = ClassicalPos::start(&&CLASSICAL);
        let e = EnglishPos::start(&&ENGLISH);
        assert_eq!(Evaluator::evaluate(&Turska, &c), 0);
        assert_eq!(Evaluator::evaluate(&Turska, &e), 0);
        assert_eq!(Evaluator::evaluate(&Material, &c), 0);
        assert_eq!(Evaluator::<ClassicalPos>::name(&Turska), "turska");
        assert_eq!(Evaluator::<ClassicalPos>::name(&Material), "material");
    }

    #[test]
    fn evaluations_by_name() {
        let p = ClassicalPos::from_fen("W:W1,2,3:B30,31", &&CLASSICAL).unwrap();
        for name in CheckersEval::NAMES {
            let e = CheckersEval::by_name(name).unwrap();
            assert_eq!(Evaluator::<ClassicalPos>::name(&e), name);
        }
        assert_eq!(CheckersEval::Turska.evaluate(&p), Turska.evaluate(&p));
        assert_eq!(CheckersEval::Material.evaluate(&p), 100);
        assert!(CheckersEval::by_name("nope").is_err());
    }

    #[test]
    fn triangle_squares_are_f1_d1_e2() {
        // STEP[1][UL]: from internal 1 (f1) towards a8's side: e2 = square 6.
        assert_eq!(STEP[1][UL], 5);
    }

    #[test]
    fn heuristics_see_what_they_should() {
        let ev = |f: &str| {
            Evaluator::evaluate(&Turska, &ClassicalPos::from_fen(f, &&CLASSICAL).unwrap())
        };
        // A man up is better for the side that has it, whoever is to move.
        assert!(ev("W:W1,2,3:B30,31") > 0);
        assert!(ev("B:W1,2,3:B30,31") < 0);
        // A runaway man (nothing in front of it) beats a blocked one.
        assert!(ev("W:W18:BK3") > ev("W:W18:BK27"));
        // A king on the river with the river free, endgame weights.
        assert!(ev("W:WK14:BK2") > ev("W:WK15:BK2"));
        // A dead man (blocked by its own pieces) costs.
        assert!(ev("W:W4,7,8:B32") < ev("W:W4,6,9:B32"));
    }

    #[test]
    fn literature_readings_differ_where_they_should() {
        let pos = |f: &str| ClassicalPos::from_fen(f, &&CLASSICAL).unwrap();
        let (zoo, lit) = (
            |f: &str| Evaluator::evaluate(&Turska, &pos(f)),
            |f: &str| Evaluator::evaluate(&TurskaC, &pos(f)),
        );
        // A man on 27, one step from a free crowning square, is
        // a runaway for both; on 18, with the cone free, for zoo only.
        assert_eq!(zoo("W:W27:BK2") - lit("W:W27:BK2"), 0);
        assert_eq!(zoo("W:W18:BK3") - lit("W:W18:BK3"), TURSKA[2].runaway_man);
        // Back rank: square 2 (f1) is neither bridge nor double corner, 4
        // (b1) is the double corner.
        assert_eq!(zoo("W:W2:B30") - lit("W:W2:B30"), TURSKA[2].back_rank);
        assert_eq!(zoo("W:W4:B30"), lit("W:W4:B30"));
        // Colour-symmetric like the other.
        let swapped = pos("W:W4,18:BK3").colour_swapped();
        assert_eq!(Evaluator::evaluate(&TurskaC, &swapped), lit("W:W4,18:BK3"));
    }
}
