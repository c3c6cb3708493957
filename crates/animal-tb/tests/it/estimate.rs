//! The planner of whole sizes (`zoo tb plan`): its counts against the
//! layouts and the data file, and against a build of the same size.

use crate::common::{jc3, options};
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::estimate::{estimate, Estimate, Machines, Place, Rates, Request, Storage};
use zoo_animal_tb::index::{Layout, Material};
use zoo_animal_tb::Tablebase;

fn machines(count: usize, memory_bytes: u64) -> Machines {
    Machines {
        count,
        memory_bytes,
        disk_bytes: None,
        threads: 2,
    }
}

fn plan_of<B: Board>(rules: &RuleSet, pieces: u32, only: bool, m: Machines) -> Estimate {
    let req = Request {
        pieces,
        only,
        machines: m,
        copies: true,
        encoding: None,
    };
    estimate::<B>(rules, &req, &Rates::example(), &Storage::default()).expect("a plan")
}

/// Every size's configurations, copies and positions as the data file
/// says, each configuration's positions its layout's, and the sums.
fn check_sizes<B: Board>(rules: &RuleSet, game: &str) {
    let data = include_str!("../data/plan.txt");
    let rows: Vec<Vec<&str>> = data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .filter(|w: &Vec<&str>| w[0] == game)
        .collect();
    assert!(!rows.is_empty());
    for w in rows {
        let n: u32 = w[1].parse().unwrap();
        // Only this size: the larger ones are never enumerated whole here.
        let e = plan_of::<B>(rules, n, true, machines(1, u64::MAX));
        assert_eq!(e.sizes.len(), 1);
        let s = &e.sizes[0];
        assert_eq!(
            s.configurations,
            w[2].parse::<usize>().unwrap(),
            "{game} {n}"
        );
        assert_eq!(
            s.copies,
            w[3].parse::<usize>().unwrap(),
            "{game} {n} copies"
        );
        if w[4] != "-" {
            assert_eq!(s.positions, w[4].parse::<u64>().unwrap(), "{game} {n}");
        }
        let mut sum = 0u64;
        for c in &e.configs {
            let size = Layout::new::<B>(c.material).size;
            assert_eq!(c.positions, 2 * size);
            assert_eq!(c.stored, size * c.material.stored_sides() as u64);
            sum += c.positions;
        }
        assert_eq!(s.positions, sum);
        assert_eq!(e.positions(), sum);
        assert_eq!(
            Material::canonical::<B>(n).len(),
            e.configs.len(),
            "{game} {n}"
        );
    }
}

#[test]
fn the_planner_counts_what_the_layouts_hold() {
    check_sizes::<JungleCheckers>(&JUNGLE_CHECKERS_LEIDEN, "jungle-checkers");
    check_sizes::<Jungle>(&JUNGLE_LEIDEN, "jungle");
}

#[test]
fn a_plan_of_3_pieces_is_what_the_build_made() {
    let dir = jc3();
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    let e = plan_of::<JungleCheckers>(rules, 3, false, machines(1, u64::MAX));
    // The build's own plan of an empty directory: the same tables, the
    // same copies.
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-no-tables");
    let p = zoo_animal_tb::plan::plan::<JungleCheckers>(&empty, rules, &options(3)).unwrap();
    assert_eq!(e.configs.len(), p.jobs.len());
    let copies = p.jobs.iter().filter(|j| j.source.is_some()).count();
    assert_eq!(e.copies(), copies);
    assert_eq!(e.positions(), p.positions());
    for c in &e.configs {
        let j = p.jobs.iter().find(|j| j.material == c.material).unwrap();
        assert_eq!(c.source, j.source.map(|r| r.source));
        assert_eq!(c.working_bytes, j.working_bytes);
    }
    // The tables the build wrote: one per configuration, their stored
    // entries those planned, and their bytes those estimated from them.
    let tb = Tablebase::<JungleCheckers>::open(dir, rules);
    let storage = Storage::measure(&tb, 3).unwrap();
    let req = Request {
        pieces: 3,
        only: false,
        machines: machines(1, u64::MAX),
        copies: true,
        encoding: None,
    };
    let e = estimate::<JungleCheckers>(rules, &req, &Rates::example(), &storage).unwrap();
    let mut bytes = 0u64;
    for c in &e.configs {
        let t = tb.table(c.material).unwrap();
        assert_eq!(t.header.size * t.header.sides as u64, c.stored);
        bytes += t.file_len();
    }
    let planned = e.table_bytes() as i64;
    assert!(
        (planned - bytes as i64).abs() <= e.configs.len() as i64,
        "{planned} {bytes}"
    );
}

#[test]
fn configurations_larger_than_a_machine_are_split_or_kept_in_files() {
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    // A 6-piece configuration needs 17.2 GB: on machines of 8 GB three
    // hold it; with two it goes to files.
    let gb = 1_000_000_000;
    let three = plan_of::<JungleCheckers>(rules, 6, true, machines(3, 8 * gb));
    let two = plan_of::<JungleCheckers>(rules, 6, true, machines(2, 8 * gb));
    for c in three.configs.iter().filter(|c| c.source.is_none()) {
        assert_eq!(c.machines_needed, 3);
        assert_eq!(c.place, Place::Split);
        // Two boundaries between three ranges.
        assert_eq!(
            c.messages,
            zoo_animal_tb::estimate::split_messages(c.told, 3)
        );
        assert_eq!(c.messages, (c.told as f64 * 0.05) as u64);
    }
    assert!(two
        .configs
        .iter()
        .filter(|c| c.source.is_none())
        .all(|c| matches!(c.place, Place::StateInFiles(_))));
    // Copies hold their source and themselves (8.6 GB): solved instead.
    assert_eq!(three.copies(), 0);
    // On machines that hold one each, the 16 are shared out: with 16 of
    // them at least as fast as with one, and no message.
    let one = plan_of::<JungleCheckers>(rules, 6, true, machines(1, 32 * gb));
    let many = plan_of::<JungleCheckers>(rules, 6, true, machines(16, 32 * gb));
    assert_eq!(many.messages(), 0);
    assert!(many.secs() * 8.0 < one.secs());
    assert!((many.thread_secs() - one.thread_secs()).abs() < 1e-6 * one.thread_secs());
}

#[test]
fn machines_that_cannot_build_are_refused() {
    let req = Request {
        pieces: 3,
        only: false,
        machines: machines(0, 1 << 30),
        copies: true,
        encoding: None,
    };
    let r = estimate::<JungleCheckers>(
        &JUNGLE_CHECKERS_LEIDEN,
        &req,
        &Rates::example(),
        &Storage::default(),
    );
    assert!(r.is_err());
}
