//! The graph-history interaction: positions where df-pn that stores every
//! value (`Ghi::Naive`) answers wrongly, because a draw by repetition found
//! on one path is stored under the position and reused on another path
//! that reaches it by transposition, where nothing repeats. The workaround
//! (`Ghi::NoRepetitionStore`), `Ghi::LocalRepetition`, `Ghi::Path`, the
//! closure check (`Ghi::Closure`, which must refuse the naive answer where
//! it is wrong), the proof manager over `Ghi::Path` (`zoo solve`'s default) and PNS (no
//! transpositions) answer as the tables do. The naive mode is what a
//! reuse of a stored draw on a path where it does not hold amounts to, so
//! these positions are the ones that catch such a reuse.
//!
//! The positions were found by running the naive mode over 300 seeded
//! random 3-piece placements of each game against the tables (1 wrong
//! answer in Jungle Checkers, 2 in Jungle; the rest right or unknown).

use crate::common;

use common::{jc3, jungle3};
use zoo_animal::board::Board;
use zoo_animal::{Position, RuleSet};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Outcome};
use zoo_solve::manager::{solve_goal, Plan};
use zoo_solve::{answers_for, dfpn, pns, Answer, Ghi, Goal, Limits};

/// (FEN, goal, the table's value for the side to move).
const JC: [(&str, Goal, Outcome); 1] = [("1d2r2/7/7/7/7/5T1/7 b", Goal::NotLose, Outcome::Loss)];
const JUNGLE: [(&str, Goal, Outcome); 2] = [
    ("7/7/1e5/7/7/3W3/5P1/7/7 b", Goal::Win, Outcome::Win),
    ("7/7/6p/7/3C3/7/7/7/5R1 b", Goal::Win, Outcome::Win),
];

fn answer(goal: Goal, value: Outcome) -> Answer {
    let (w, n) = answers_for(value);
    if goal == Goal::Win {
        w
    } else {
        n
    }
}

/// Returns how many of `cases` the naive mode got wrong.
fn check<B: Board>(
    rules: &'static RuleSet,
    dir: &std::path::Path,
    cases: &[(&str, Goal, Outcome)],
) -> usize {
    let tables = TbOracle::<B>::open(dir, rules).expect("tables");
    let mut naive_wrong = 0;
    for &(fen, goal, value) in cases {
        let pos = Position::<B>::from_fen(fen, &rules).unwrap();
        let (v, _) = tables.tablebase().try_probe(&pos).unwrap();
        assert_eq!(v, value, "{fen}: the tables changed");
        let want = answer(goal, value);
        let limits = Limits::nodes(1_000_000);
        let sound = dfpn::Options {
            ghi: Ghi::NoRepetitionStore,
            ..Default::default()
        };
        let r = dfpn::solve(&pos, goal, None, &limits, &sound);
        assert_eq!(r.answer, want, "{fen} {goal}: no-repetition-store");
        let local = dfpn::Options {
            ghi: Ghi::LocalRepetition,
            ..Default::default()
        };
        let r = dfpn::solve(&pos, goal, None, &Limits::nodes(4_000_000), &local);
        // Never wrong; it may run out of calls.
        assert!(
            r.answer == want || r.answer == Answer::Unknown,
            "{fen} {goal}: local-repetition"
        );
        eprintln!(
            "{fen} {goal}: local-repetition {} in {} calls",
            r.answer.name(),
            r.nodes
        );
        // Literature B's chain check: the draws it stores are reused only
        // where the positions they return to are on the path.
        let path = dfpn::Options {
            ghi: Ghi::Path,
            ..Default::default()
        };
        let r = dfpn::solve(&pos, goal, None, &Limits::nodes(4_000_000), &path);
        eprintln!(
            "{fen} {goal}: path {} in {} calls",
            r.answer.name(),
            r.nodes
        );
        assert_eq!(r.answer, want, "{fen} {goal}: path");
        // Parallel df-pn: threads share one table, and every value one of
        // them reads is one that holds on its path. The helpers' choices
        // differ from run to run, so each is tried a few times: never
        // wrong, and decided in most tries. A try used to end open now
        // and then (about 3 in 1,000 on the first Jungle win: the restarts
        // after a saturated root saturated again, 64 times in a row),
        // until every third restart forgot the solved values too (none
        // open in 6,000 tries; docs/solve.md, "Parallel df-pn"). One open
        // try of four is still let pass: the rate is measured, not proven
        // nought.
        for (threads, remedies) in [(2, dfpn::Remedies::NONE), (3, dfpn::Remedies::ALL)] {
            let mut decided = 0;
            for _ in 0..4 {
                let opts = dfpn::Options {
                    threads,
                    remedies,
                    ..path
                };
                let r = dfpn::solve(&pos, goal, None, &Limits::nodes(4_000_000), &opts);
                assert!(
                    r.answer == want || r.answer == Answer::Unknown,
                    "{fen} {goal}: path on {threads} threads, remedies {}: {:?}",
                    remedies.name(),
                    r.answer
                );
                decided += usize::from(r.answer == want);
            }
            assert!(
                decided >= 3,
                "{fen} {goal}: path on {threads} threads, remedies {}: decided {decided} of 4 tries",
                remedies.name()
            );
        }
        let r = pns::solve(&pos, goal, None, &Limits::nodes(4_000_000));
        // PNS may run out of nodes on some; it is never wrong.
        assert!(
            r.answer == want || r.answer == Answer::Unknown,
            "{fen} {goal}: pns"
        );
        // Kishimoto's remedies store open numbers whatever repetitions
        // they rest on, never solved ones the mode would not store: the
        // sound modes stay right with them on.
        for ghi in [
            Ghi::NoRepetitionStore,
            Ghi::LocalRepetition,
            Ghi::Path,
            Ghi::Closure,
        ] {
            let opts = dfpn::Options {
                ghi,
                remedies: dfpn::Remedies::ALL,
                ..Default::default()
            };
            let r = dfpn::solve(&pos, goal, None, &Limits::nodes(4_000_000), &opts);
            eprintln!(
                "{fen} {goal}: {} with remedies {} in {} calls",
                ghi.name(),
                r.answer.name(),
                r.nodes
            );
            assert!(
                r.answer == want || r.answer == Answer::Unknown,
                "{fen} {goal}: {} with remedies",
                ghi.name()
            );
        }
        // The default of `zoo solve`: the proof manager over `path`, with
        // and without the remedies, here on two threads. It must decide,
        // and rightly.
        let m = solve_goal(
            &pos,
            goal,
            None,
            &Limits {
                memory_mb: Some(16),
                ..Limits::nodes(4_000_000)
            },
            &dfpn::Options {
                threads: 2,
                ..Default::default()
            },
            &Plan::default(),
        )
        .expect("a 16 MB table");
        eprintln!(
            "{fen} {goal}: the manager {} in {} calls",
            m.report.answer.name(),
            m.report.nodes
        );
        assert_eq!(m.report.answer, want, "{fen} {goal}: the manager");
        let naive = dfpn::Options {
            ghi: Ghi::Naive,
            ..Default::default()
        };
        let r = dfpn::solve(&pos, goal, None, &limits, &naive);
        eprintln!("{fen} {goal}: naive {}, tables {value:?}", r.answer.name());
        let naive_is_wrong = r.answer != want && r.answer != Answer::Unknown;
        if naive_is_wrong {
            naive_wrong += 1;
        }
        // The closure check searches as the naive mode does until the root
        // is solved: where the naive answer is wrong, the check must refuse
        // it (a reuse of a draw off its path would pass otherwise), and
        // the search go on to the right answer.
        let closure = dfpn::Options {
            ghi: Ghi::Closure,
            ..Default::default()
        };
        let mut run = dfpn::Run::new(&pos, goal, None, &limits, &closure, Default::default())
            .expect("a 16 MB table");
        let answer = run.go(1_000_000);
        let checks = run.closure();
        eprintln!(
            "{fen} {goal}: closure {} in {} calls, {checks:?}",
            answer.name(),
            run.calls()
        );
        assert_eq!(answer, want, "{fen} {goal}: closure");
        if naive_is_wrong {
            assert!(
                checks.failed >= 1,
                "{fen} {goal}: the check refused nothing"
            );
        }
    }
    naive_wrong
}

#[test]
fn naive_storing_is_wrong_where_the_workaround_is_right() {
    let wrong =
        check::<zoo_animal::JungleCheckers>(&zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, jc3(), &JC)
            + check::<zoo_animal::Jungle>(&zoo_animal::rules::JUNGLE_LEIDEN, jungle3(), &JUNGLE);
    // The naive mode's mistakes depend on the order of the search; one of
    // them is enough to show the difference.
    assert!(wrong >= 1, "the naive mode answered all right");
}
