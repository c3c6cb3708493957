//! The features of literature E for a position of one White piece against
//! one Black piece, White to move; each is defined in docs/trees.md, in
//! two readings ([`FeatureSet`]).

use super::routes::{moves, FAR};
use zoo_animal::board::{bit, file_of, rank_of, sq, Board};
use zoo_animal::Jungle;
use zoo_core::Side;
use zoo_learn::Feature;

/// Which reading of literature E's loosely defined features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FeatureSet {
    /// Every distance Manhattan (`can_cross` aside): the first reading,
    /// kept because literature E says "distance" without more.
    #[default]
    Literature,
    /// `closest`, `unopposed_w` and `unopposed_b` by the moves a lone
    /// piece really needs (around or through the water, leaps): what
    /// "reaches first" means in play. The other features as before.
    Moves,
}

impl FeatureSet {
    /// Every set, in the order people see them.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Literature, FeatureSet::Moves];

    /// The name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Literature => "literature",
            FeatureSet::Moves => "moves",
        }
    }

    /// The set of a name, `None` for an unknown one.
    pub fn parse(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// How many features a position has.
pub const COUNT: usize = 11;

/// The features, in the order of [`features`]' values.
pub fn schema() -> Vec<Feature> {
    let yes_no = ["no", "yes"];
    let sectors = ["1-3", "4-6", "7-9"];
    vec![
        Feature::nominal("closest", &["white", "black"]),
        Feature::nominal("unopposed_w", &yes_no),
        Feature::nominal("unopposed_b", &yes_no),
        Feature::nominal("sector_w", &sectors),
        Feature::nominal("sector_b", &sectors),
        Feature::numeric("distance_d"),
        Feature::numeric("distance_p"),
        Feature::nominal("parity", &["even", "odd"]),
        Feature::nominal("adjacent", &yes_no),
        Feature::nominal("trapped", &yes_no),
        Feature::nominal("can_cross", &yes_no),
    ]
}

/// Manhattan distance between two squares.
pub fn manhattan(a: u8, b: u8) -> u32 {
    (file_of(a).abs_diff(file_of(b)) + rank_of(a).abs_diff(rank_of(b))) as u32
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// The squares of a trap bitboard.
fn squares(set: u64) -> impl Iterator<Item = u8> {
    (0..Jungle::SQUARES).filter(move |&s| set & bit(s) != 0)
}

/// Whether some trap of `traps` is nearer (Manhattan) to `own` than to
/// `enemy`.
fn unopposed(own: u8, enemy: u8, traps: u64) -> bool {
    squares(traps).any(|t| manhattan(own, t) < manhattan(enemy, t))
}

/// Moves of a lone piece, unreachable counted as more than any route
/// (only a rat's water square is out of a land piece's reach).
fn real(side: Side, kind: usize, from: u8, to: u8) -> u32 {
    match moves(side, kind, from, to) {
        FAR => u32::MAX,
        m => m as u32,
    }
}

/// [`unopposed`] by real moves: `own_side`'s `own_kind` on `own` reaches
/// some trap of `traps` in fewer moves than the enemy piece.
fn unopposed_by_moves(own_side: Side, own: (usize, u8), enemy: (usize, u8), traps: u64) -> bool {
    squares(traps)
        .any(|t| real(own_side, own.0, own.1, t) < real(own_side.flip(), enemy.0, enemy.1, t))
}

/// Rank of a square in three: 0 for ranks 1–3, 1 for 4–6, 2 for 7–9.
fn sector(s: u8) -> f64 {
    (rank_of(s) / 3) as f64
}

/// Whether White's piece reaches rank 7 before Black's piece can stand
/// there, on one of its shortest routes to Black's den (docs/trees.md).
pub fn can_cross(wk: usize, w: u8, bk: usize, b: u8) -> bool {
    const RANK_7: u8 = 6;
    if rank_of(w) >= RANK_7 {
        return true;
    }
    let den = Jungle::DEN[Side::Black.index()];
    let whole = moves(Side::White, wk, w, den);
    (0..7).map(|f| sq(f, RANK_7)).any(|s| {
        let there = moves(Side::White, wk, w, s);
        let on = moves(Side::White, wk, s, den);
        there != FAR
            && on != FAR
            && there as u32 + on as u32 == whole as u32
            // White moves first: arriving in as many moves is arriving first.
            && there <= moves(Side::Black, bk, b, s)
    })
}

/// The feature values of White's `wk` on `w` against Black's `bk` on `b`,
/// White to move, in the order of [`schema`] (a nominal value is its
/// index there).
pub fn features(set: FeatureSet, wk: usize, w: u8, bk: usize, b: u8) -> [f64; COUNT] {
    let [white_den, black_den] = Jungle::DEN;
    let [white_traps, black_traps] = Jungle::TRAPS;
    let d = manhattan(w, b);
    let (black_first, unopposed_w, unopposed_b) = match set {
        FeatureSet::Literature => (
            manhattan(w, black_den) > manhattan(b, white_den),
            unopposed(w, b, black_traps),
            unopposed(b, w, white_traps),
        ),
        FeatureSet::Moves => (
            real(Side::White, wk, w, black_den) > real(Side::Black, bk, b, white_den),
            unopposed_by_moves(Side::White, (wk, w), (bk, b), black_traps),
            unopposed_by_moves(Side::Black, (bk, b), (wk, w), white_traps),
        ),
    };
    [
        // White moves first, so it gets there first on a tie.
        flag(black_first),
        flag(unopposed_w),
        flag(unopposed_b),
        sector(w),
        sector(b),
        manhattan(w, white_den) as f64,
        d as f64,
        (d % 2) as f64,
        flag(d == 1),
        flag(white_traps & bit(b) != 0),
        flag(can_cross(wk, w, bk, b)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> u8 {
        let b = name.as_bytes();
        sq(b[0] - b'a', b[1] - b'1')
    }

    #[test]
    fn each_feature_on_a_worked_position() {
        // White cat on c7, Black cat on d2 (on White's trap): Black is a
        // step from its goal, White three; both have a trap to themselves.
        let f = features(FeatureSet::Literature, 1, at("c7"), 1, at("d2"));
        assert_eq!(f, [1.0, 1.0, 1.0, 2.0, 0.0, 7.0, 6.0, 0.0, 0.0, 1.0, 1.0]);
        // The elephant stands on d7, the only rank-7 square of the cat's
        // shortest route up the d-file.
        assert!(!can_cross(1, at("d3"), 7, at("d7")));
        // From a9 the elephant needs 5 moves to d7, the cat 4.
        assert!(can_cross(1, at("d3"), 7, at("a9")));
        // From d8 the elephant needs 1.
        assert!(!can_cross(1, at("d3"), 7, at("d8")));
        let g = features(FeatureSet::Literature, 1, at("d3"), 7, at("d4"));
        assert_eq!((g[6], g[7], g[8]), (1.0, 1.0, 1.0));
    }

    #[test]
    fn moves_reading_counts_the_river() {
        // White's cat on b3, Black's lion on f7. Manhattan: 8 to d9 for
        // the cat, 8 to d1 for the lion, a tie, so White is closest. By
        // moves the cat walks up the d-file (8 moves) while the lion
        // leaps the river (f7-f3, then f2 f1 e1 d1: 5 moves), so Black is
        // closest.
        let (lit, mov) = (
            features(FeatureSet::Literature, 1, at("b3"), 6, at("f7")),
            features(FeatureSet::Moves, 1, at("b3"), 6, at("f7")),
        );
        assert_eq!(manhattan(at("b3"), at("d9")), 8);
        assert_eq!(manhattan(at("f7"), at("d1")), 8);
        assert_eq!(moves(Side::White, 1, at("b3"), at("d9")), 8);
        assert_eq!(moves(Side::Black, 6, at("f7"), at("d1")), 5);
        assert_eq!((lit[0], mov[0]), (0.0, 1.0));
        // The other features do not change with the reading.
        assert_eq!(lit[3..], mov[3..]);
    }
}
