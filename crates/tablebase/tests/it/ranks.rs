//! A build shared by several ranks (here threads of one process, through
//! `cluster::Threads`; the MPI runs are the CLI's tests) writes the files
//! of a build by one process, byte for byte, in both ways of splitting.

use crate::common::{build_into, options};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_tb::build::{build_on, Ranks};
use zoo_tb::cluster::{Split, Threads};

/// The files of a directory of tables (the manifest included), by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for game in std::fs::read_dir(dir).unwrap() {
        for rules in std::fs::read_dir(game.unwrap().path()).unwrap() {
            for f in std::fs::read_dir(rules.unwrap().path()).unwrap() {
                let p = f.unwrap().path();
                out.push((
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn build_ranked<B: Board>(
    name: &str,
    rules: &'static RuleSet,
    pieces: u32,
    ranks: usize,
    split: Split,
) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-ranks-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = options(pieces);
    let plan = zoo_tb::plan::plan::<B>(&dir, rules, &opts).expect("a plan");
    let stop = AtomicBool::new(false);
    let built = Threads::run(ranks, |c| {
        let on = Ranks { cluster: c, split };
        build_on::<B>(&dir, rules, &opts, &plan, &on, &|_| {}, &|_| {}, &stop)
            .map(|r| r.built.len())
    });
    let built: Vec<usize> = built
        .into_iter()
        .map(|r| r.expect("a rank's build"))
        .collect();
    assert_eq!(built.iter().sum::<usize>(), plan.jobs.len(), "{built:?}");
    dir
}

fn same_files<B: Board>(name: &str, rules: &'static RuleSet, pieces: u32) {
    let alone = files(&build_into::<B>(&format!("alone-{name}"), rules, pieces));
    for split in [Split::Configurations, Split::Ranges] {
        let dir = build_ranked::<B>(&format!("{name}-{split:?}"), rules, pieces, 3, split);
        let shared = files(&dir);
        assert_eq!(
            shared.iter().map(|f| &f.0).collect::<Vec<_>>(),
            alone.iter().map(|f| &f.0).collect::<Vec<_>>(),
            "{split:?}"
        );
        for (a, b) in alone.iter().zip(&shared) {
            assert!(a.1 == b.1, "{} differs when split by {split:?}", a.0);
        }
    }
}

#[test]
fn three_ranks_write_the_tables_of_one_jungle_checkers() {
    same_files::<JungleCheckers>("jc", &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 4);
}

#[test]
fn three_ranks_write_the_tables_of_one_jungle() {
    same_files::<Jungle>("jungle", &zoo_animal::rules::JUNGLE_LEIDEN, 3);
}
