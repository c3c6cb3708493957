//! Multi-PV (`Limits::multipv`): each line's score is the value of its
//! first move, no move left out of the lines is better than the last
//! line, the lines' first moves differ, and there are as many lines as
//! asked or as the position has moves. Checked against each move's own
//! negamax value at a fixed depth, with the full engine configured to
//! give negamax's values (as in equivalence.rs: exact table drafts, no
//! repetition, no quiescence).

use crate::equivalence::walk;
use proptest::prelude::*;
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::{Game, History, MoveList, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits, MATE_BOUND};

fn engine<G: EngineGame>(cfg: Config) -> Engine<G, G::Eval, G::Tactics> {
    Engine::new(cfg, G::default_eval(), G::Tactics::default())
}

fn history<G: Game>(pos: &G) -> History {
    History::starting_at(Repetition::None, pos.key(), pos.piece_count())
}

fn check<G: EngineGame>(pos: &G, depth: u32, wanted: u32) {
    let top = Config {
        quiescence: false,
        strict_draft: true,
        hash_mb: 4,
        ..Config::ladder().last().unwrap().1.clone()
    };
    let limits = Limits {
        multipv: wanted,
        ..Limits::depth(depth)
    };
    let r = engine::<G>(top).search(pos, &history(pos), &limits, &mut |_| {});
    let last = r.iterations.last().unwrap();
    let lines = &last.lines;
    // The search stops early only where every line is a mate within the
    // draft; otherwise the lines are those of the depth asked for.
    assert!(
        last.depth == depth
            || lines
                .iter()
                .all(|l| l.mate.is_some_and(|m| m.unsigned_abs() <= last.depth)),
        "{}: stopped at depth {} with a line not mated",
        pos.to_fen(),
        last.depth
    );
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let fen = pos.to_fen();
    assert_eq!(lines.len(), (wanted as usize).min(legal.len()), "{fen}");
    assert_eq!(lines[0].pv, r.pv, "{fen}: the first line is the search's");
    assert_eq!(lines[0].score, r.score);
    // Each move's value searched on its own, where it is not a finished
    // game or a mate (whose distances count from another root).
    let negamax = engine::<G>(Config::negamax());
    let value_of = |m: G::Move| -> Option<i32> {
        let mut c = pos.clone();
        c.make(m);
        if c.terminal().is_some() {
            return None;
        }
        let v = -negamax
            .search(&c, &history(&c), &Limits::depth(depth - 1), &mut |_| {})
            .score;
        (v.abs() < MATE_BOUND).then_some(v)
    };
    let firsts: Vec<G::Move> = lines.iter().map(|l| l.pv[0]).collect();
    for (k, l) in lines.iter().enumerate() {
        assert!(
            !firsts[..k].contains(&firsts[k]),
            "{fen}: line {k} repeats a move"
        );
        if k > 0 {
            assert!(l.score <= lines[k - 1].score, "{fen}: lines out of order");
        }
        if let Some(v) = value_of(l.pv[0]) {
            assert_eq!(
                l.score,
                v,
                "{fen}: line {} ({})",
                k + 1,
                pos.move_to_string(l.pv[0])
            );
        }
    }
    let last = lines.last().unwrap().score;
    for &m in legal.iter().filter(|m| !firsts.contains(m)) {
        if let Some(v) = value_of(m) {
            assert!(
                v <= last,
                "{fen}: {} ({v}) left out, better than the last line ({last})",
                pos.move_to_string(m)
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn jungle_checkers_lines_are_the_best_moves_in_order(picks in prop::collection::vec(0usize..64, 0..40), depth in 2u32..=4, wanted in 2u32..=5) {
        let pos = walk(&JungleCheckersPos::start(&JungleCheckersPos::default_rules()), &picks);
        check(&pos, depth, wanted);
    }

    #[test]
    fn jungle_lines_are_the_best_moves_in_order(picks in prop::collection::vec(0usize..64, 0..60), depth in 2u32..=3, wanted in 2u32..=4) {
        let pos = walk(&JunglePos::start(&JunglePos::default_rules()), &picks);
        check(&pos, depth, wanted);
    }
}

#[test]
fn one_line_reports_no_lines_and_every_move_can_be_a_line() {
    let pos =
        JungleCheckersPos::from_fen("7/7/2e4/7/4R2/7/7 w", &JungleCheckersPos::default_rules())
            .unwrap();
    let r = engine::<JungleCheckersPos>(Config::default()).search(
        &pos,
        &history(&pos),
        &Limits::depth(4),
        &mut |_| {},
    );
    assert!(r.iterations.iter().all(|it| it.lines.is_empty()));
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    check(&pos, 4, legal.len() as u32 + 3);
}

/// Found by the proptest above in a fresh-clone CI run: the first line
/// mates in one, and the search stopped at depth 1 with the other lines'
/// depth-1 values (Dxc6 524, where depth 4 gives 523; Rd5 53, a mate).
#[test]
fn a_second_line_keeps_its_exact_value() {
    let pos = JungleCheckersPos::from_fen(
        "t5e/2rD3/4R1d/7/4T2/2E4/7 w 34",
        &JungleCheckersPos::default_rules(),
    )
    .unwrap();
    check(&pos, 4, 2);
}
