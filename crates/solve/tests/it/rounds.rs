//! A df-pn run stopped by its call limit and continued ([`Run::go`] again,
//! as the proof manager's rounds do) goes back down the line it stopped
//! on: stopped just before its answer, it finds it in about the calls an
//! unbroken run makes, where a fresh start from the root strayed into
//! other subtrees (11% more calls on the position below stopped at 97%, three times as
//! many on a Jungle Checkers 6-piece win: docs/log/solve.md).

use crate::common;

use common::jc3;
use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Oracle};
use zoo_solve::dfpn::{Options, Remedies, Resume, Run};
use zoo_solve::{Answer, Goal, Limits};

/// Calls to decide `goal` with stops at each of `stops` (a call count),
/// and the answer.
fn decide(
    fen: &str,
    goal: Goal,
    stops: &[u64],
    oracle: &dyn Oracle<JungleCheckersPos>,
) -> (Answer, u64) {
    let pos = JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap();
    let limits = Limits {
        memory_mb: Some(128),
        ..Limits::nodes(10_000_000)
    };
    let opts = Options {
        remedies: Remedies::NONE,
        ..Options::default()
    };
    let mut run = Run::new(&pos, goal, Some(oracle), &limits, &opts, Resume::default()).unwrap();
    for &stop in stops.iter().chain([&10_000_000]) {
        let a = run.go(stop);
        if a != Answer::Unknown {
            return (a, run.calls());
        }
    }
    (Answer::Unknown, run.calls())
}

#[test]
fn a_run_stopped_near_its_answer_finds_it_as_an_unbroken_one_does() {
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc3(), rules).expect("tables");
    // A 4-piece draw, whose `not-lose` (White holds the draw) is a long
    // question, with the 3-piece tables.
    let fen = "4r1R/7/7/7/t6/7/4E2 w";
    let (answer, unbroken) = decide(fen, Goal::NotLose, &[], &tables);
    assert_eq!(answer, Answer::Proven);
    assert!(unbroken > 100_000, "a question of some length: {unbroken}");
    // Stopped at 97% of the way: a fresh start from the root took 11%
    // more calls in all; going back down the line, 0.3%.
    let stop = unbroken * 97 / 100;
    let (a, calls) = decide(fen, Goal::NotLose, &[stop], &tables);
    assert_eq!(a, answer);
    assert!(
        calls <= unbroken + unbroken / 20,
        "stopped at 97%: {calls} calls, unbroken {unbroken}"
    );
}
