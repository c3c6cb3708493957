//! Issue 17's experiments 3 and 4 on a few positions: the 3-piece Jungle
//! Checkers tables are built once, random positions valued by them (drawn
//! ones included) are solved by every method without tables, and by PNS,
//! df-pn and alpha-beta with the 2-piece part of the tables as the oracle;
//! every sound answer must be the table's. Release mode: `cargo test
//! --release -p zoo-lab --test it solvers::`.

use rand::rngs::StdRng;
use rand::SeedableRng;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::TbOracle;
use zoo_core::{Oracle, OracleValue, Outcome};
use zoo_lab::positions::random_valued;
use zoo_lab::solvers::{self, Budget, Method, METHODS};
use zoo_lab::with_tables::{self, mate_value};
use zoo_solve::Ghi;

/// The 3-piece Jungle Checkers tables, built once in a fresh directory.
fn tables() -> Arc<TbOracle<JungleCheckers>> {
    static T: OnceLock<Arc<TbOracle<JungleCheckers>>> = OnceLock::new();
    T.get_or_init(build).clone()
}

fn build() -> Arc<TbOracle<JungleCheckers>> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-lab-solvers-jc3");
    let _ = std::fs::remove_dir_all(&dir);
    let opts = zoo_animal_tb::build::BuildOptions {
        pieces: 3,
        threads: 2,
        memory_bytes: None,
        encoding: None,
        copies: true,
        checkpoint_from: None,
    };
    let stop = AtomicBool::new(false);
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    let plan = zoo_animal_tb::plan::plan::<JungleCheckers>(&dir, rules, &opts).expect("a plan");
    zoo_animal_tb::build::build::<JungleCheckers>(
        &dir,
        rules,
        &opts,
        &plan,
        &|_| {},
        &|_| {},
        &stop,
    )
    .expect("tables build");
    Arc::new(TbOracle::open(&dir, rules).expect("tables open"))
}

/// The tables' values up to `max` pieces only.
struct Fewer {
    inner: Arc<TbOracle<JungleCheckers>>,
    max: u32,
}

impl Oracle<JungleCheckersPos> for Fewer {
    fn max_pieces(&self) -> u32 {
        self.max
    }
    fn probe(&self, pos: &JungleCheckersPos) -> Option<OracleValue> {
        (pos.piece_count() <= self.max)
            .then(|| self.inner.probe(pos))
            .flatten()
    }
}

/// Six 3-piece positions of any value and two drawn ones.
fn positions(tables: &TbOracle<JungleCheckers>) -> Vec<(JungleCheckersPos, Outcome)> {
    let rules = &&JUNGLE_CHECKERS_LEIDEN;
    let mut rng = StdRng::seed_from_u64(5);
    let mut p = random_valued(rules, tables, 3, 6, &|_| true, &mut rng).unwrap();
    p.extend(random_valued(rules, tables, 3, 2, &|o| o == Outcome::Draw, &mut rng).unwrap());
    p
}

#[test]
fn the_solvers_agree_with_the_tables() {
    let tables = tables();
    let pos = positions(&tables);
    let budget = Budget {
        nodes: 300_000,
        pn2_seconds: 4.0,
    };
    let rows = solvers::run(&pos, &METHODS, &budget, &mut |l| eprintln!("{l}"));
    assert_eq!(rows.len(), pos.len());
    for m in METHODS {
        let k = METHODS.iter().position(|&x| x == m).unwrap();
        let decided = rows
            .iter()
            .filter(|r| r.solved[k].1.value == Some(r.value))
            .count();
        // Repetition draws without transpositions are hard: most, not all.
        assert!(decided >= pos.len() / 2, "{}: {decided} decided", m.name());
        if m == Method::DfPn(Ghi::Naive) {
            continue;
        }
        for r in &rows {
            let s = &r.solved[k].1;
            assert!(!s.wrong(r.value), "{} on {}: {:?}", m.name(), r.fen, s);
            assert!(s.held > 0 && s.nodes > 0, "{} on {}", m.name(), r.fen);
        }
    }
    let report = solvers::report("jungle-checkers", &rows, &budget).unwrap();
    let csv = &report.files[1].1;
    assert_eq!(csv.lines().count(), 1 + rows.len() * METHODS.len());
    assert_eq!(report.files.len(), 4, "md, csv and two plots");
    assert!(report.files[2].1.starts_with("<svg") && report.files[3].1.starts_with("<svg"));
}

#[test]
fn with_two_piece_tables_the_three_piece_values_come_out() {
    let tables = tables();
    let pos = positions(&tables);
    let oracle: Arc<dyn Oracle<JungleCheckersPos>> = Arc::new(Fewer {
        inner: tables.clone(),
        max: 2,
    });
    let only: Vec<JungleCheckersPos> = pos.iter().map(|(p, _)| p.clone()).collect();
    let rows = with_tables::run(
        &only,
        Some(&oracle),
        &with_tables::METHODS,
        300_000,
        20.0,
        200_000,
        &mut |l| eprintln!("{l}"),
    )
    .unwrap();
    let mut decided = 0;
    for (r, (_, truth)) in rows.iter().zip(&pos) {
        assert!(
            r.disagreements().is_empty(),
            "{}: {:?}",
            r.fen,
            r.disagreements()
        );
        for (m, s) in &r.solved {
            if let Some(v) = s.value {
                assert_eq!(v, *truth, "{} on {}", m.name(), r.fen);
                decided += 1;
            }
        }
        if let Some(m) = r.alpha_beta.and_then(|a| a.mate) {
            assert_eq!(mate_value(m), *truth, "alpha-beta on {}", r.fen);
        }
    }
    assert!(decided >= rows.len() * with_tables::METHODS.len() / 2);
    // Asking for positions the tables hold is refused.
    let e = with_tables::with_tables::<JungleCheckersPos>(
        &&JUNGLE_CHECKERS_LEIDEN,
        oracle,
        "the 2-piece tables",
        &with_tables::Sizes {
            pieces: vec![2],
            positions: 1,
            nodes: 10,
            seconds: 1.0,
            ab_nodes: 0,
        },
        1,
        &mut |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("in the tables already"), "{e}");
}

/// Experiment 5 on Classical Checkers' endgame positions with small
/// budgets: every position is reported, and where two methods (or a
/// method and alpha-beta's mate) both decide, they agree.
#[test]
fn the_checkers_endgames_are_solved_without_disagreement() {
    let sizes = with_tables::Sizes {
        pieces: Vec::new(),
        positions: 0,
        nodes: 50_000,
        seconds: 5.0,
        ab_nodes: 50_000,
    };
    let report =
        zoo_lab::endgames::endgames::<zoo_checkers::ClassicalPos>(&sizes, &mut |_| {}).unwrap();
    let csv = &report
        .files
        .iter()
        .find(|(n, _)| n == "endgames-classical-checkers.csv")
        .expect("the CSV")
        .1;
    // Every solver and alpha-beta for each of the 16 endgame positions.
    let methods = with_tables::METHODS.len() + 1;
    assert_eq!(csv.lines().count(), 1 + 16 * methods, "{csv}");
    let md = report.summary.expect("a summary");
    assert!(!md.contains("Disagreements"), "{md}");
    assert!(
        csv.lines()
            .any(|l| l.contains(",win,") || l.contains(",loss,")),
        "nothing decided: {csv}"
    );
}
