//! PNS on its own: limits, a repetition draw, a proof's shape.

use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckersPos;
use zoo_core::Game;
use zoo_solve::{pns, Answer, End, Goal, Limits};

fn jc(fen: &str) -> JungleCheckersPos {
    JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap()
}

/// A drawn position that needs millions of nodes (see docs/solve.md).
const HARD: &str = "5e1/6T/7/7/7/7/1E5 b";

#[test]
fn memory_limit_is_never_exceeded() {
    let pos = jc(HARD);
    let limits = Limits {
        memory_mb: Some(1),
        ..Limits::default()
    };
    let r = pns::solve(&pos, Goal::NotLose, None, &limits);
    assert_eq!(r.answer, Answer::Unknown);
    assert!(r.proof.is_none());
    let budget = (1u64 << 20) / pns::bytes_per_node::<JungleCheckersPos>() as u64;
    assert!(r.nodes <= budget, "{} nodes, budget {budget}", r.nodes);
    assert!(r.bytes <= 1 << 20, "{} bytes allocated", r.bytes);
    // What it holds is its nodes, within what it allocated.
    let per = pns::bytes_per_node::<JungleCheckersPos>() as u64;
    assert_eq!(r.held, r.nodes * per);
    assert!(r.held <= r.bytes);
    assert!(
        r.nodes > budget / 2,
        "stopped early: {} of {budget}",
        r.nodes
    );
    assert!(r.pn > 0 && r.dn > 0);
}

#[test]
fn dfpn_table_fits_the_memory_limit() {
    let pos = jc(HARD);
    let limits = Limits {
        memory_mb: Some(1),
        nodes: Some(100_000),
        ..Limits::default()
    };
    // A mode that leaves the question open at this many calls (the
    // default, `path`, decides it).
    let opts = zoo_solve::dfpn::Options {
        ghi: zoo_solve::Ghi::NoRepetitionStore,
        ..Default::default()
    };
    let r = zoo_solve::dfpn::solve(&pos, Goal::NotLose, None, &limits, &opts);
    assert!(r.bytes <= 1 << 20 && r.bytes > 1 << 19, "{} bytes", r.bytes);
    assert_eq!(r.answer, Answer::Unknown);
    // Stopped by the call limit, or earlier where its root's numbers
    // saturated (`Run::stuck`: no call could do more).
    assert!(r.nodes > 0 && r.nodes <= 100_000, "{} calls", r.nodes);
    // The used entries: some, at most one per call, within the table.
    let per = zoo_solve::dfpn::bytes_per_entry() as u64;
    assert!(r.held > 0 && r.held % per == 0, "{} bytes held", r.held);
    assert!(r.held <= r.bytes && r.held / per <= r.nodes);
}

#[test]
fn node_and_time_limits_stop_the_run() {
    let pos = jc(HARD);
    let r = pns::solve(&pos, Goal::NotLose, None, &Limits::nodes(1000));
    assert_eq!(r.answer, Answer::Unknown);
    assert!(r.nodes <= 1000);
    let limits = Limits {
        time: Some(std::time::Duration::from_millis(50)),
        ..Limits::default()
    };
    let r = pns::solve(&pos, Goal::NotLose, None, &limits);
    assert_eq!(r.answer, Answer::Unknown);
    assert!(r.seconds < 5.0);
}

#[test]
fn a_finished_root_is_its_own_proof() {
    // Black's elephant stands in White's den: White to move has lost.
    let pos = jc("7/3R3/7/7/7/7/3e3 w");
    for goal in Goal::ALL {
        let r = pns::solve(&pos, goal, None, &Limits::nodes(10));
        assert_eq!(r.answer, Answer::Disproven);
        assert_eq!(r.nodes, 1);
        let proof = r.proof.unwrap();
        assert_eq!(proof.len(), 1);
        assert!(matches!(proof.nodes[0].end, Some(End::Terminal(_))));
    }
}

#[test]
fn a_win_needs_no_more_than_the_shortest_line() {
    // The rat walks into the den: one expansion, one move in the proof.
    let pos = jc("7/3R3/7/7/7/7/e6 w");
    let r = pns::solve(&pos, Goal::Win, None, &Limits::nodes(100));
    assert_eq!(r.answer, Answer::Proven);
    assert_eq!(r.expansions, 1);
    let proof = r.proof.unwrap();
    let kids: Vec<_> = proof.children(0).collect();
    assert_eq!(kids.len(), 1);
    assert!(matches!(proof.nodes[kids[0]].end, Some(End::Terminal(_))));
    assert_eq!(pos.move_to_string(proof.nodes[kids[0]].mv.unwrap()), "Rd7");
}
