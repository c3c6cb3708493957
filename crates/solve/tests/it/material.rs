//! One piece past the tables ([`zoo_solve::material`]): the root's
//! material built in memory from the tables of one piece fewer
//! (`zoo_animal_tb::memory`) gives each root the value and distance of
//! the full tables, and proofs of both questions that a replay with the
//! smaller tables accepts. Then the proof manager, which builds the table
//! where the graph does not fit, and a 5-piece Jungle Checkers win of 87
//! plies, the longest of its size, whose value and distance the ≤ 5-piece
//! tables gave (crates/solve/experiments/decide-jungle-checkers-5.csv).

use crate::common;

use common::{jc4, jungle3, placement, replay, Fewer, Rng};
use zoo_animal::board::Board;
use zoo_animal::{JungleCheckers, JungleCheckersPos, Position, RuleSet};
use zoo_animal_tb::memory::InMemory;
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, MaterialBuilder, Oracle, Outcome};
use zoo_solve::manager::{solve_goal_sharing, GraphSlot, Method, Plan};
use zoo_solve::material::{self, Stop};
use zoo_solve::{answers_for, dfpn, Answer, Goal, Limits};

/// The root's material built from `oracle`'s tables, checked against
/// `tables`: its value and distance, and both questions' proofs.
fn check<B: Board>(
    pos: &Position<B>,
    tables: &TbOracle<B>,
    oracle: &dyn Oracle<Position<B>>,
    builder: &InMemory<B>,
) {
    let fen = pos.to_fen();
    let (value, distance) = tables.tablebase().try_probe(pos).expect("in the tables");
    let t = material::solve(pos, Some(oracle), builder, &Limits::default())
        .unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    assert_eq!((t.value(), t.distance()), (value, distance), "{fen}");
    let want = answers_for(value);
    for (goal, want) in [(Goal::Win, want.0), (Goal::NotLose, want.1)] {
        let r = t.report(goal, true);
        assert_eq!(r.answer, want, "{fen} {goal}");
        let proof = r.proof.unwrap_or_else(|| panic!("{fen} {goal}: no proof"));
        replay(pos, &proof, Some(oracle));
    }
}

fn random<B: Board>(
    rules: &'static RuleSet,
    tables: &TbOracle<B>,
    oracle: &dyn Oracle<Position<B>>,
    builder: &InMemory<B>,
    pieces: u32,
    seed: u64,
    count: usize,
) -> [u32; 3] {
    let mut rng = Rng(seed);
    let mut seen = [0u32; 3];
    for _ in 0..count {
        let pos = placement::<B>(rules, &mut rng, pieces);
        check(&pos, tables, oracle, builder);
        let (v, _) = tables.tablebase().try_probe(&pos).expect("in the tables");
        seen[v as usize] += 1;
    }
    seen
}

#[test]
fn jungle_three_pieces_from_the_two_piece_tables() {
    let rules = &zoo_animal::rules::JUNGLE_LEIDEN;
    let tables = TbOracle::open(jungle3(), rules).expect("tables");
    let two = Fewer {
        inner: &tables,
        max: 2,
    };
    let builder = InMemory::<zoo_animal::Jungle>::open(jungle3(), rules, 2);
    let seen = random(rules, &tables, &two, &builder, 3, 5, 40);
    eprintln!("jungle 3 pieces: {seen:?} (win, draw, loss)");
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn jungle_checkers_four_pieces_from_the_three_piece_tables() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc4(), rules).expect("tables");
    let three = Fewer {
        inner: &tables,
        max: 3,
    };
    let builder = InMemory::<JungleCheckers>::open(jc4(), rules, 3);
    random(rules, &tables, &three, &builder, 4, 13, 6);
    // The 4-piece sample's longest lines and a draw df-pn left open.
    let csv = include_str!("../../experiments/decide-jungle-checkers-4.csv");
    for kind in ["longest-win", "longest-loss", "draw"] {
        let line = csv
            .lines()
            .find(|l| l.split(',').nth(1) == Some(kind))
            .expect("a row of each kind");
        let fen = line.split(',').next().expect("a FEN");
        let pos = JungleCheckersPos::from_fen(fen, &rules).expect("a position");
        check(&pos, &tables, &three, &builder);
    }
    // Not one piece past the tables: no table.
    let pos = JungleCheckersPos::from_fen("7/7/d6/7/5T1/1D5/7 w", &rules).expect("a position");
    assert_eq!(builder.cost(&pos), None);
    assert!(matches!(
        material::solve(&pos, Some(&three), &builder, &Limits::default()),
        Err(Stop::Cannot(_))
    ));
}

/// The manager builds the table where the graph does not fit (a budget
/// too small for it), once for both questions, and a stop request ends
/// the build with no answer.
#[test]
fn the_manager_builds_the_material_where_the_graph_does_not_fit() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc4(), rules).expect("tables");
    let three = Fewer {
        inner: &tables,
        max: 3,
    };
    let builder = InMemory::<JungleCheckers>::open(jc4(), rules, 3);
    // The draw that needs the graph or the table for `not-lose`.
    let pos = JungleCheckersPos::from_fen("7/7/6e/7/r6/5T1/4E2 b", &rules).expect("a position");
    let plan = Plan {
        graph_mb: 16,
        ..Plan::default()
    };
    let opts = dfpn::Options {
        proof: true,
        ..dfpn::Options::default()
    };
    let mut slot = GraphSlot::with_builder(Some(&builder as &dyn MaterialBuilder<_>));
    let limits = Limits::nodes(20_000_000);
    for (goal, want) in [
        (Goal::NotLose, Answer::Proven),
        (Goal::Win, Answer::Disproven),
    ] {
        let m = solve_goal_sharing(&pos, goal, Some(&three), &limits, &opts, &plan, &mut slot)
            .expect("no table refused");
        assert_eq!((m.report.answer, m.method), (want, Method::Table), "{goal}");
        replay(
            &pos,
            m.report.proof.as_ref().expect("a proof"),
            Some(&three),
        );
    }
    fn stop() -> bool {
        true
    }
    let stopped = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    assert!(matches!(
        material::solve(&pos, Some(&three), &builder, &stopped),
        Err(Stop::Limit)
    ));
}

/// The longest 5-piece win, 87 plies, from the 4-piece tables: df-pn
/// alone leaves it open after minutes. A 5-piece material built in
/// memory: the slow step's; the default run builds 4-piece materials from
/// the 3-piece tables, here (above) and through the CLI with the proof
/// checked (`solve_cli::one_piece_past_the_tables…`).
#[test]
#[ignore = "slow: about half a minute; run by `cargo xtask test --slow`"]
fn slow_a_five_piece_win_of_87_plies() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let tables = TbOracle::open(jc4(), rules).expect("tables");
    let builder = InMemory::<JungleCheckers>::open(jc4(), rules, 4);
    let csv = include_str!("../../experiments/decide-jungle-checkers-5.csv");
    let row: Vec<&str> = csv
        .lines()
        .find(|l| l.split(',').nth(1) == Some("longest-win"))
        .expect("a longest win")
        .split(',')
        .collect();
    let pos = JungleCheckersPos::from_fen(row[0], &rules).expect("a position");
    let t = material::solve(&pos, Some(&tables), &builder, &Limits::default()).expect("a table");
    let want = match row[2] {
        "win" => Outcome::Win,
        "loss" => Outcome::Loss,
        _ => Outcome::Draw,
    };
    let distance: u16 = row[3].parse().expect("a distance");
    assert_eq!((t.value(), t.distance()), (want, distance), "{}", row[0]);
    assert_eq!(t.report(Goal::Win, false).answer, Answer::Proven);
}
