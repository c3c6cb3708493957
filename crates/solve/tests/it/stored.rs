//! Bounds from elsewhere (`Oracle::bounds`, what a proof store gives) as
//! leaves: on 3-piece positions with the 2-piece tables as the oracle and
//! true bounds for some 3-piece positions (some exact, some one-sided),
//! every answer is still the tables' value, under PNS (proofs replayed,
//! each stored leaf checked against its bounds) and df-pn, whose
//! transposition table meets the same bounded position by many paths.

use crate::common::{jc3, Bounded, Fewer};
use crate::tables::{check_positions, summary, Algo, MAX_UNKNOWN};
use zoo_animal::JungleCheckers;
use zoo_animal_tb::TbOracle;
use zoo_core::Outcome;
use zoo_solve::dfpn::Remedies;
use zoo_solve::Ghi;

#[test]
fn stored_bounds_leave_every_answer_right() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc3(), rules).expect("tables");
    let bounded = Bounded {
        fewer: Fewer {
            inner: &tables,
            max: 2,
        },
    };
    let draw = Some(Outcome::Draw);
    for (name, algo, seed, only) in [
        ("PNS", Algo::Pns, 4, None),
        (
            "df-pn path",
            Algo::Dfpn(Ghi::Path, Remedies::ALL, 1),
            5,
            None,
        ),
        (
            "df-pn path, draws",
            Algo::Dfpn(Ghi::Path, Remedies::ALL, 1),
            7,
            draw,
        ),
        (
            "df-pn two threads",
            Algo::Dfpn(Ghi::Path, Remedies::NONE, 2),
            6,
            None,
        ),
    ] {
        let t =
            check_positions::<JungleCheckers>(algo, rules, &tables, Some(&bounded), seed, 20, only);
        summary(&format!("stored bounds, {name}"), &t, MAX_UNKNOWN);
        assert!(only.is_some() || (t.wins > 0 && t.losses > 0), "{name}");
    }
}

/// Tables of a size built only in part (`Oracle::complete_pieces` below
/// `max_pieces`): where a position's table is missing, a stored answer
/// still makes it a leaf.
#[test]
fn a_stored_answer_counts_where_a_size_built_in_part_has_no_table() {
    use zoo_animal::JungleCheckersPos;
    use zoo_core::{Game, MoveList, Oracle, OracleValue};
    use zoo_solve::{End, Goal, Leaves};
    /// Complete to 2 pieces; of 3 no table, but a stored win for each.
    struct Partial;
    impl Oracle<JungleCheckersPos> for Partial {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn complete_pieces(&self) -> u32 {
            2
        }
        fn probe(&self, _: &JungleCheckersPos) -> Option<OracleValue> {
            None
        }
        fn bounds(&self, pos: &JungleCheckersPos) -> Option<(Outcome, Outcome)> {
            (pos.piece_count() == 3).then_some((Outcome::Win, Outcome::Win))
        }
    }
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let root = JungleCheckersPos::from_fen("7/3d3/7/7/7/2R4/1E5 w", &rules).unwrap();
    let leaves = Leaves::new(&root, Goal::Win, Some(&Partial));
    let history = Leaves::history(&root);
    let mut moves = MoveList::new();
    assert_eq!(
        leaves.classify(&root, &history, &mut moves),
        Some(End::Stored(Outcome::Win))
    );
}
