//! The table commands of the application layer on the 2-piece Jungle
//! Checkers tables (a second to build).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use zoo_app::{AppError, BuildOutcome, BuildRequest, GameKind, TableSet};
use zoo_core::Outcome;

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-app-tables-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn built(name: &str) -> TableSet {
    let set = TableSet::new(GameKind::JungleCheckers, None, &fresh(name)).unwrap();
    let req = BuildRequest {
        pieces: 2,
        ..Default::default()
    };
    let plan = set.plan(&req).unwrap();
    let out = set
        .build(&plan, &|_| {}, &|_| {}, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(
        out,
        BuildOutcome::Done {
            built: plan.tables.len()
        }
    );
    // Built once: nothing left to plan.
    assert!(set.plan(&req).unwrap().tables.is_empty());
    set
}

#[test]
fn a_probe_values_each_move_from_the_movers_view() {
    let set = built("probe");
    // Elephant against dog, White to move.
    let r = set.probe("7/7/3d3/7/7/7/E6 w").unwrap();
    assert_eq!((r.value, r.game_over), (Outcome::Win, false));
    let best = &r.moves[0];
    // The best move keeps the win, one ply shorter than the position's.
    assert_eq!((best.value, best.distance), (Outcome::Win, r.distance));
    assert!(r
        .moves
        .iter()
        .all(|m| m.value != Outcome::Win || m.distance >= r.distance));
}

#[test]
fn stats_count_what_the_build_made() {
    let set = built("stats");
    let s = set.stats(2).unwrap();
    assert_eq!(s.positions, s.wins + s.losses + s.draws);
    assert!(s.positions > 0);
}

#[test]
fn commands_checkers_tables_lack_and_bad_requests_are_refused() {
    let dir = fresh("refused");
    // Checkers tables have the generic generator's commands, not the
    // animal ones' (WDL-only files here).
    let checkers = TableSet::new(GameKind::ClassicalCheckers, None, &dir).unwrap();
    assert!(matches!(
        checkers.wdl(3, false, &|_, _| {}),
        Err(AppError::NoTables(_))
    ));
    assert!(TableSet::new(GameKind::EnglishCheckers, Some("nonsense"), &dir).is_err());
    assert!(TableSet::new(GameKind::Jungle, Some("nonsense"), &dir).is_err());
    let set = TableSet::new(GameKind::Jungle, None, &dir).unwrap();
    for req in [
        BuildRequest {
            pieces: 1,
            ..Default::default()
        },
        BuildRequest {
            pieces: 17,
            ..Default::default()
        },
        BuildRequest {
            memory_gb: Some(-1.0),
            ..Default::default()
        },
        BuildRequest {
            memory_gb: Some(f64::NAN),
            ..Default::default()
        },
    ] {
        assert!(matches!(set.plan(&req), Err(AppError::Input(_))), "{req:?}");
    }
    // No table there: the error names it rather than guessing a value.
    assert!(matches!(set.stats(2), Err(AppError::Tables(_))));
    assert!(matches!(
        set.verify_positions(2, zoo_app::tables::Sample::ALL, 0, None, 1),
        Err(AppError::Input(_))
    ));
}

/// Ranks of one checkers build (threads here, processes under `mpirun`)
/// each plan the directory, then build. A rank that plans late must not
/// find a table another rank has written already: the plans would differ
/// and so would the ranks' waves. Here ranks 1 and 2 plan after rank 0
/// could have written its first tables; the build agrees before writing.
#[test]
fn checkers_ranks_that_plan_late_build_the_same_tables() {
    use zoo_animal_tb::build::Ranks;
    use zoo_tb::cluster::{Cluster, Split, Threads};
    let dir = fresh("ranks-late");
    let req = BuildRequest {
        pieces: 3,
        ..Default::default()
    };
    let outcomes = Threads::run(3, |c| {
        if c.rank() > 0 {
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
        let set = TableSet::new(GameKind::EnglishCheckers, None, &dir).unwrap();
        let plan = set.plan(&req).unwrap();
        let ranks = Ranks {
            cluster: c,
            split: Split::Configurations,
        };
        set.build_on(&plan, &ranks, &|_| {}, &|_| {}, &AtomicBool::new(false))
            .map(|_| plan.tables.len())
    });
    for o in &outcomes {
        assert_eq!(o.as_ref().unwrap(), &16, "{outcomes:?}");
    }
    let set = TableSet::new(GameKind::EnglishCheckers, None, &dir).unwrap();
    assert_eq!(set.probe("W:WK1:BK32").unwrap().value, Outcome::Draw);
}

/// English checkers tables up to 4 pieces built twice: each colour swap
/// copied from the table built before it (the default), and every table
/// solved (`solve_all`). Every entry of every table agrees.
#[test]
fn checkers_tables_copied_from_their_colour_swaps_equal_those_solved() {
    let build = |name: &str, solve_all: bool| {
        let dir = fresh(name);
        let set = TableSet::new(GameKind::EnglishCheckers, None, &dir).unwrap();
        let req = BuildRequest {
            pieces: 4,
            solve_all,
            ..Default::default()
        };
        let plan = set.plan(&req).unwrap();
        // What the build says it copied, beside what the plan said.
        let copied = std::sync::atomic::AtomicUsize::new(0);
        let out = set
            .build(
                &plan,
                &|_| {},
                &|b| {
                    if b.copied_from.is_some() {
                        copied.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                },
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(
            out,
            BuildOutcome::Done {
                built: plan.tables.len()
            }
        );
        assert_eq!(copied.into_inner(), plan.copies());
        (dir, plan.tables.len(), plan.copies())
    };
    let (copied, n, copies) = build("copied", false);
    let (solved, m, none) = build("solved", true);
    assert_eq!((n, none), (m, 0));
    // Every material but those that are their own swap (KvK, MvM, KKvKK,
    // KMvKM, MMvMM) has one built before it or after it.
    assert_eq!(copies, (n - 5) / 2, "{n} tables");
    type Scheme = zoo_checkers::tables::EnglishScheme;
    use zoo_core::TableScheme;
    let open = |dir: &PathBuf| zoo_tb::Tablebase::<Scheme>::open(dir, &zoo_checkers::ENGLISH);
    let (a, b) = (open(&copied), open(&solved));
    let mut compared = 0u64;
    for pieces in 2..=4 {
        for m in a.scheme().stored(pieces) {
            for side in 0..2 {
                let mut left = Vec::new();
                a.read_values(m, side, |_, v| left.push(v)).unwrap();
                let mut right = Vec::new();
                b.read_values(m, side, |_, v| right.push(v)).unwrap();
                assert!(left == right, "{} side {side}", a.scheme().name(m));
                compared += left.len() as u64;
            }
            let header = |t: &zoo_tb::Tablebase<Scheme>| t.table(m).unwrap().header.clone();
            assert_eq!(header(&a), header(&b), "{}", a.scheme().name(m));
        }
    }
    assert!(compared > 1_000_000, "{compared}");
}
