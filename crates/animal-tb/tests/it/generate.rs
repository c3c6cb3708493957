//! The generator gives the same tables whether a configuration is solved by
//! one thread (plain state updates) or by several at once (atomic ones),
//! with its state in memory or in files, stopped and resumed or not.

use crate::common::{build_with, jc3, jungle3, options, StopAt};
use std::sync::atomic::AtomicBool;
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::build::BuildOptions;
use zoo_animal_tb::generate::{generate, Solve};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::plan::plan;
use zoo_animal_tb::Tablebase;

fn same_both_ways<B: Board>(dir: &std::path::Path, rules: &'static RuleSet, every: usize) {
    let tb = Tablebase::<B>::open(dir, rules);
    let stop = AtomicBool::new(false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let parallel = Solve {
        parallel: true,
        ..Solve::default()
    };
    for m in Material::canonical::<B>(3).into_iter().step_by(every) {
        let one = generate(&tb, m, &Solve::default(), &|_| {}, &stop).expect("one thread");
        let many = pool
            .install(|| generate(&tb, m, &parallel, &|_| {}, &stop))
            .expect("two threads");
        assert_eq!(one.header, many.header, "{}", m.name::<B>());
        for side in 0..2 {
            assert!(
                one.values(side) == many.values(side),
                "{} side {side}",
                m.name::<B>()
            );
        }
    }
}

#[test]
fn parallel_generation_equals_sequential() {
    same_both_ways::<JungleCheckers>(jc3(), &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 1);
    same_both_ways::<Jungle>(jungle3(), &zoo_animal::rules::JUNGLE_LEIDEN, 7);
}

/// In memory, on one thread or all the pool's, with a checkpoint at `ckpt`.
fn checkpointed(ckpt: &std::path::Path, parallel: bool) -> Solve<'_> {
    Solve {
        parallel,
        checkpoint: Some(ckpt),
        state_dir: None,
    }
}

#[test]
fn a_stopped_generation_resumes_from_its_checkpoint() {
    let dir = jc3();
    let tb = Tablebase::<JungleCheckers>::open(dir, &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN);
    let m = Material::parse::<JungleCheckers>("DTve").expect("material");
    let size = tb.scheme().layout(m).size;
    let ckpt = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-DTve.ckpt");
    let _ = std::fs::remove_file(&ckpt);
    let with = |parallel| checkpointed(&ckpt, parallel);
    let plain =
        generate(&tb, m, &Solve::default(), &|_| {}, &AtomicBool::new(false)).expect("plain");
    // Stop once the forward pass is done (the next level saves), then in
    // the middle of the backward pass (saved between two blocks of a
    // level's sweep), resuming each time; the last run goes to the end.
    for (i, stop_at) in [2 * size, 2 * size + size / 3].into_iter().enumerate() {
        let s = StopAt::new(stop_at);
        let r = generate(&tb, m, &with(i == 1), &|k| s.progress(k), &s.stop);
        assert!(matches!(r, Err(zoo_tb::TbError::Interrupted)), "run {i}");
        assert!(ckpt.exists(), "run {i} saved a checkpoint");
    }
    let resumed = generate(&tb, m, &with(true), &|_| {}, &AtomicBool::new(false)).expect("resumed");
    assert_eq!(plain.header, resumed.header);
    for side in 0..2 {
        assert!(plain.values(side) == resumed.values(side), "side {side}");
    }
    let _ = std::fs::remove_file(&ckpt);
}

#[test]
fn a_checkpoint_that_cannot_be_saved_does_not_stop_the_solve() {
    let tb = Tablebase::<JungleCheckers>::open(jc3(), &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN);
    let m = Material::parse::<JungleCheckers>("DTve").expect("material");
    let plain =
        generate(&tb, m, &Solve::default(), &|_| {}, &AtomicBool::new(false)).expect("plain");
    assert_eq!(plain.unsaved, None);
    // A directory that does not exist stands for a full disk.
    let ckpt = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-dir/DTve.ckpt");
    let with = |parallel| checkpointed(&ckpt, parallel);
    let g = generate(&tb, m, &with(false), &|_| {}, &AtomicBool::new(false))
        .expect("solved without its checkpoint");
    assert!(
        g.unsaved
            .as_deref()
            .is_some_and(|w| w.contains("DTve.ckpt.tmp")),
        "{:?}",
        g.unsaved
    );
    assert_eq!(plain.header, g.header);
    for side in 0..2 {
        assert!(plain.values(side) == g.values(side), "side {side}");
    }
    // Stopped after the forward pass, the checkpoint is what is left of
    // the work: its failure is the error.
    let s = StopAt::new(2 * tb.scheme().layout(m).size);
    let r = generate(&tb, m, &with(false), &|k| s.progress(k), &s.stop);
    assert!(matches!(r, Err(zoo_tb::TbError::Io(..))), "{:?}", r.err());
}

#[test]
fn a_build_over_the_memory_allowed_keeps_the_state_in_files() {
    // One byte allowed: no configuration fits, so every one is solved
    // (a copy would hold its source in memory), alone, with its state in
    // files beside the tables.
    let opts = BuildOptions {
        memory_bytes: Some(1),
        ..options(3)
    };
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-no-tables");
    let planned = plan::<JungleCheckers>(&empty, rules, &opts).unwrap().jobs;
    assert!(planned
        .iter()
        .all(|p| p.state_in_file && p.source.is_none()));
    let (dir, report) = build_with::<JungleCheckers>("jc3-state-in-files", rules, &opts);
    assert!(report.built.iter().all(|b| b.copied_from.is_none()));
    let tables = |d: &std::path::Path| zoo_tb::file::table_dir(d, JungleCheckers::GAME, rules.name);
    let mut files = 0;
    for e in std::fs::read_dir(tables(&dir)).expect("table directory") {
        let name = e.expect("entry").file_name();
        let name = name.to_str().expect("a name");
        if name == zoo_tb::manifest::NAME {
            continue;
        }
        // The state files went when their maps did.
        assert!(name.ends_with(".zootb"), "{name} left behind");
        let a = std::fs::read(tables(&dir).join(name)).expect("table");
        let b = std::fs::read(tables(jc3()).join(name)).expect("table in memory");
        assert!(a == b, "{name} differs");
        files += 1;
    }
    assert_eq!(files, report.built.len());
}
