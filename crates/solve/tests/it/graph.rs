//! The reachable graph ([`zoo_solve::graph`]) against the tables: on
//! random positions of both animal games and on the longest wins, longest
//! losses and draws of the 4-piece Jungle Checkers sample
//! (`crates/solve/experiments/decide-jungle-checkers-4.csv`), with the
//! smaller tables as oracle or none, the root's value is the table's, and
//! so is its distance (plies to the end) where the oracle gives its
//! leaves' distances; every proof of both questions is replayed. Then the
//! proof manager, which tries the graph first, on the same positions.

use crate::common;

use common::{jc4, jungle3, placement, replay, Fewer, Rng};
use zoo_animal::board::Board;
use zoo_animal::{JungleCheckers, JungleCheckersPos, Position, RuleSet};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Oracle, Outcome};
use zoo_solve::graph::{self, Stop};
use zoo_solve::manager::{solve_goal, Method, Plan};
use zoo_solve::{answers_for, dfpn, Answer, Goal, Limits};

/// The graph of one root, checked against `tables`: its value and
/// distance, and both questions' answers and proofs.
fn check<B: Board>(
    pos: &Position<B>,
    tables: &TbOracle<B>,
    oracle: Option<&dyn Oracle<Position<B>>>,
) {
    let fen = pos.to_fen();
    let (value, distance) = tables.tablebase().try_probe(pos).expect("in the tables");
    let g = graph::solve(pos, oracle, &Limits::default(), 1 << 24)
        .unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    assert_eq!(g.value(), value, "{fen}");
    if value != Outcome::Draw {
        assert_eq!(g.distance(), distance, "{fen}: distance");
    }
    let want = answers_for(value);
    for (goal, want) in [(Goal::Win, want.0), (Goal::NotLose, want.1)] {
        let r = g.report(goal, true);
        assert_eq!(r.answer, want, "{fen} {goal}");
        let proof = r.proof.unwrap_or_else(|| panic!("{fen} {goal}: no proof"));
        replay(pos, &proof, oracle);
    }
}

fn random<B: Board>(
    rules: &'static RuleSet,
    tables: &TbOracle<B>,
    oracle: Option<&dyn Oracle<Position<B>>>,
    pieces: u32,
    seed: u64,
    count: usize,
) -> [u32; 3] {
    let mut rng = Rng(seed);
    let mut seen = [0u32; 3];
    for _ in 0..count {
        let pos = placement::<B>(rules, &mut rng, pieces);
        check(&pos, tables, oracle);
        let (v, _) = tables.tablebase().try_probe(&pos).expect("in the tables");
        seen[v as usize] += 1;
    }
    seen
}

#[test]
fn jungle_three_pieces_without_tables() {
    let rules = &zoo_animal::rules::JUNGLE_LEIDEN;
    let tables = TbOracle::open(jungle3(), rules).expect("tables");
    let seen = random::<zoo_animal::Jungle>(rules, &tables, None, 3, 7, 150);
    eprintln!("jungle 3 pieces: {seen:?} (win, draw, loss)");
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// Jungle Checkers at 4 pieces, the 3-piece tables as oracle: a random
/// position and the sample's first draw df-pn left open (each root's
/// graph holds millions of positions); the rest of the sample's hardest
/// are the slow step's.
#[test]
fn jungle_checkers_four_pieces_with_the_three_piece_tables() {
    jungle_checkers_four_pieces(1, &["draw"], &[]);
}

/// The same on four random positions (the default's one again and three
/// more), the sample's longest win and longest loss, and the three draws
/// docs/solve.md follows.
#[test]
#[ignore = "slow: about a minute; run by `cargo xtask test --slow`"]
fn slow_jungle_checkers_four_pieces_hardest_with_the_three_piece_tables() {
    jungle_checkers_four_pieces(
        4,
        &["longest-win", "longest-loss"],
        &[
            "7/7/6e/7/r6/5T1/4E2 b",
            "2r4/7/7/4e2/1D3R1/7/7 w",
            "7/7/3r3/e6/2D1E2/7/7 b",
        ],
    );
}

/// `random` seeded positions (the first of them are the default run's),
/// the first row of each of `kinds` in the 4-piece sample's CSV, and
/// `fens`.
fn jungle_checkers_four_pieces(random_count: usize, kinds: &[&str], fens: &[&str]) {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc4(), rules).expect("tables");
    let three = Fewer {
        inner: &tables,
        max: 3,
    };
    let seen = random::<JungleCheckers>(rules, &tables, Some(&three), 4, 11, random_count);
    eprintln!("jungle checkers 4 pieces: {seen:?} (win, draw, loss)");
    let csv = include_str!("../../experiments/decide-jungle-checkers-4.csv");
    for kind in kinds {
        for line in csv
            .lines()
            .filter(|l| l.split(',').nth(1) == Some(*kind))
            .take(1)
        {
            let fen = line.split(',').next().expect("a FEN");
            let pos = JungleCheckersPos::from_fen(fen, &rules).expect("a position");
            check(&pos, &tables, Some(&three));
        }
    }
    for fen in fens {
        let pos = JungleCheckersPos::from_fen(fen, &rules).expect("a position");
        check(&pos, &tables, Some(&three));
    }
}

/// With too small a budget the graph gives up, and the proof manager
/// goes on with df-pn; with room, what df-pn leaves open (a draw kept by
/// repetition, `not-lose`) the graph decides, after df-pn's quick runs.
#[test]
fn the_manager_leaves_to_the_graph_what_df_pn_leaves_open() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc4(), rules).expect("tables");
    let three = Fewer {
        inner: &tables,
        max: 3,
    };
    let pos = JungleCheckersPos::from_fen("7/7/6e/7/r6/5T1/4E2 b", &rules).expect("a position");
    assert!(matches!(
        graph::solve(&pos, Some(&three), &Limits::default(), 1000),
        Err(Stop::TooLarge { .. })
    ));
    let opts = dfpn::Options {
        proof: true,
        ..dfpn::Options::default()
    };
    let ask = |plan: Plan, calls: u64| {
        let limits = Limits::nodes(calls);
        solve_goal(&pos, Goal::NotLose, Some(&three), &limits, &opts, &plan).unwrap()
    };
    let m = ask(
        Plan {
            graph_mb: 0,
            ..Plan::default()
        },
        1_000_000,
    );
    assert_eq!((m.report.answer, m.method), (Answer::Unknown, Method::Dfpn));
    let m = ask(Plan::default(), 20_000_000);
    assert_eq!((m.report.answer, m.method), (Answer::Proven, Method::Graph));
    replay(
        &pos,
        m.report.proof.as_ref().expect("a proof"),
        Some(&three),
    );
}

/// A rule set whose play depends on a move counter (the 200-ply clock)
/// is never merged by key.
#[test]
fn counters_keep_the_graph_out() {
    let rules = &zoo_animal::rules::JUNGLE_COMMON;
    assert!(rules.no_capture_limit.is_some());
    let pos = zoo_animal::JunglePos::start(&rules);
    assert!(matches!(
        graph::solve(&pos, None, &Limits::default(), 1 << 20),
        Err(Stop::Counters)
    ));
}
