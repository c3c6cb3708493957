//! A build shared by several ranks (here threads of one process, through
//! `cluster::Threads`; the MPI runs are the CLI's tests) writes the files
//! of a build by one process, byte for byte, in both ways of splitting;
//! split by ranges, stopped and run again, it resumes from the ranks'
//! checkpoints, and only from a set of one level.

use crate::common::{build_into, build_with, jc3, options, StopAt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::build::{build_on, BuildOptions, Built, Ranks};
use zoo_animal_tb::generate::split::generate_split;
use zoo_animal_tb::generate::{generate, Solve, Work};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::cluster::{Split, Threads};
use zoo_tb::TbError;

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
    let plan = zoo_animal_tb::plan::plan::<B>(&dir, rules, &opts).expect("a plan");
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
    // The tables of one process: those the other tests read where they
    // are the same build (leiden at the size they hold).
    let alone = match crate::common::shared::<B>(rules, pieces) {
        Some(dir) => files(dir),
        None => files(&build_into::<B>(&format!("alone-{name}"), rules, pieces)),
    };
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

/// What rank 0 of a split solve gives: its header, values and work.
struct Solved {
    header: zoo_tb::file::Header,
    values: [Vec<u8>; 2],
    work: Work,
}

/// `m` of the 3-piece Jungle Checkers tables solved split by ranges across
/// `ranks` thread ranks, with checkpoints beside `ckpt` (the whole
/// configuration's) if given, stopped once `stop_at` steps are done.
fn solve_split(
    m: Material,
    ranks: usize,
    ckpt: Option<&Path>,
    stop_at: u64,
) -> Result<Solved, TbError> {
    let tb = Tablebase::<JungleCheckers>::open(jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let size = tb.scheme().layout(m).size as usize;
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let solve = Solve {
        parallel: false,
        checkpoint: ckpt,
        state_dir: None,
    };
    let s = StopAt::new(stop_at);
    let mut by_rank = Threads::run(ranks, |c| {
        let a = generate_split(&tb, m, &solve, c, &scratch, &|k| s.progress(k), &s.stop)?;
        Ok(a.writes().then(|| Solved {
            header: a.header.clone(),
            values: [0, 1].map(|side| {
                let mut v = vec![0; size];
                a.fill(side, 0, &mut v);
                v
            }),
            work: a.work,
        }))
    });
    // The ranks end together, the same way.
    let first = by_rank.remove(0);
    for r in &by_rank {
        assert_eq!(r.is_ok(), first.is_ok(), "{:?}", r.as_ref().err());
    }
    first.map(|s| s.expect("rank 0 holds the values"))
}

fn same_values(a: &Solved, b: &Solved) {
    assert_eq!(a.header, b.header);
    for side in 0..2 {
        assert!(a.values[side] == b.values[side], "side {side}");
    }
}

/// The rank checkpoints beside `ckpt`, by name.
fn rank_files(ckpt: &Path) -> Vec<String> {
    let stem = ckpt.file_stem().unwrap().to_str().unwrap().to_string();
    let mut v: Vec<String> = std::fs::read_dir(ckpt.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(&format!("{stem}.r")))
        .collect();
    v.sort();
    v
}

const DTVE: &str = "DTve";

/// Solved by one process, and split without checkpoints.
fn references(m: Material) -> (Solved, Solved) {
    let tb = Tablebase::<JungleCheckers>::open(jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let g = generate(&tb, m, &Solve::default(), &|_| {}, &AtomicBool::new(false)).unwrap();
    let alone = Solved {
        header: g.header.clone(),
        values: [g.values(0), g.values(1)],
        work: g.work,
    };
    let split = solve_split(m, 3, None, u64::MAX).expect("split");
    same_values(&alone, &split);
    // Every decided position is taken back once, whoever owns it.
    assert_eq!(alone.work.taken_back, split.work.taken_back);
    (alone, split)
}

#[test]
fn a_stopped_split_solve_resumes_from_every_ranks_checkpoint() {
    let m = Material::parse::<JungleCheckers>(DTVE).unwrap();
    let (alone, _) = references(m);
    let size = alone.values[0].len() as u64;
    let ckpt = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-split-resumed-DTve.ckpt");
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    // Stopped in the backward pass, twice, each run resuming from the last.
    for stop_at in [2 * size + size / 4, 2 * size + size / 2] {
        let r = solve_split(m, 3, Some(&ckpt), stop_at);
        assert!(matches!(r, Err(TbError::Interrupted)), "{:?}", r.err());
        assert_eq!(
            rank_files(&ckpt),
            (0..3)
                .map(|r| format!("zoo-tb-split-resumed-DTve.r{r}of3.ckpt"))
                .collect::<Vec<_>>()
        );
    }
    let resumed = solve_split(m, 3, Some(&ckpt), u64::MAX).expect("resumed");
    same_values(&alone, &resumed);
    // The work since the checkpoint only.
    let (done, all) = (resumed.work.taken_back, alone.work.taken_back);
    assert!(0 < done && done < all, "{done} of {all}");
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    assert!(rank_files(&ckpt).is_empty());
}

#[test]
fn split_checkpoints_of_other_ranks_levels_or_damaged_are_not_used() {
    let m = Material::parse::<JungleCheckers>(DTVE).unwrap();
    let (alone, _) = references(m);
    let size = alone.values[0].len() as u64;
    let all = alone.work.taken_back;
    let ckpt = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-split-refused-DTve.ckpt");
    let rank = |r: usize, k: usize| zoo_animal_tb::checkpoint::path_for_rank(&ckpt, r, k);
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    let stopped = |ranks, at| {
        let r = solve_split(m, ranks, Some(&ckpt), at);
        assert!(matches!(r, Err(TbError::Interrupted)), "{:?}", r.err());
    };
    let from_the_start = |ranks| {
        let s = solve_split(m, ranks, Some(&ckpt), u64::MAX).expect("solved");
        same_values(&alone, &s);
        assert_eq!(s.work.taken_back, all, "started over");
    };

    // Another number of ranks: the files of three are removed, unused.
    stopped(3, 2 * size + size / 3);
    from_the_start(2);
    assert!((0..3).all(|r| !rank(r, 3).exists()));

    // One rank's file damaged (its checksum fails): refused by every rank,
    // and kept; once removed, every rank starts over.
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    stopped(3, 2 * size + size / 3);
    let mut bytes = std::fs::read(rank(1, 3)).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(rank(1, 3), &bytes).unwrap();
    let r = solve_split(m, 3, Some(&ckpt), u64::MAX);
    assert!(r.is_err(), "a damaged rank checkpoint was resumed from");
    assert_eq!(
        std::fs::read(rank(1, 3)).unwrap(),
        bytes,
        "the damaged file changed"
    );
    std::fs::remove_file(rank(1, 3)).unwrap();
    from_the_start(3);

    // One rank's file of an earlier level than the others': never mixed.
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    stopped(3, 2 * size + size / 4);
    let earlier = std::fs::read(rank(2, 3)).unwrap();
    stopped(3, 2 * size + size / 2);
    assert!(
        std::fs::read(rank(2, 3)).unwrap() != earlier,
        "a later level saved"
    );
    std::fs::write(rank(2, 3), &earlier).unwrap();
    from_the_start(3);

    // One rank without a file: the same.
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
    stopped(3, 2 * size + size / 3);
    std::fs::remove_file(rank(0, 3)).unwrap();
    from_the_start(3);
    zoo_animal_tb::checkpoint::remove_all(&ckpt);
}

#[test]
fn a_range_split_build_stopped_mid_table_resumes_and_writes_the_tables_of_one() {
    let rules = &JUNGLE_CHECKERS_LEIDEN;
    let (alone_dir, alone) =
        build_with::<JungleCheckers>("alone-jc3-for-resume", rules, &options(3));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-ranks-resumed");
    let _ = std::fs::remove_dir_all(&dir);
    // Every table keeps checkpoints.
    let opts = BuildOptions {
        checkpoint_from: Some(0),
        ..options(3)
    };
    let tables = zoo_tb::file::table_dir(&dir, JungleCheckers::GAME, rules.name);
    let saved = || {
        std::fs::read_dir(&tables).is_ok_and(|d| {
            d.filter_map(|e| e.ok())
                .any(|e| e.file_name().to_string_lossy().ends_with(".r0of3.ckpt"))
        })
    };
    let run = |stop_once_saved: bool| {
        let plan = zoo_animal_tb::plan::plan::<JungleCheckers>(&dir, rules, &opts).expect("a plan");
        let stop = AtomicBool::new(false);
        // Stopped once the first table split by ranges has saved its
        // checkpoints: the ranks stop at the next round and save again.
        let progress = |_| {
            if stop_once_saved && saved() {
                stop.store(true, Relaxed);
            }
        };
        let on_ranks = Threads::run(3, |c| {
            let on = Ranks {
                cluster: c,
                split: Split::Ranges,
            };
            build_on::<JungleCheckers>(&dir, rules, &opts, &plan, &on, &progress, &|_| {}, &stop)
        });
        (plan.jobs.len(), on_ranks)
    };
    let (_, stopped) = run(true);
    for r in &stopped {
        assert!(
            matches!(r, Err(TbError::Interrupted)),
            "{:?}",
            r.as_ref().err()
        );
    }
    assert!(saved(), "the checkpoints stay");
    let (left, again) = run(false);
    let again: Vec<Built> = again
        .into_iter()
        .flat_map(|r| r.expect("a rank's build").built)
        .collect();
    assert_eq!(again.len(), left);
    // The table stopped in its levels resumed: less work than alone.
    let resumed = again.iter().filter(|b| {
        let a = alone
            .built
            .iter()
            .find(|a| a.name == b.name)
            .expect("built alone");
        b.traffic.is_some() && b.work.taken_back < a.work.taken_back
    });
    assert_eq!(resumed.count(), 1);
    // No checkpoint left (the names would differ), the same bytes.
    let (a, b) = (files(&alone_dir), files(&dir));
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (x, y) in a.iter().zip(&b) {
        assert!(x.1 == y.1, "{} differs", x.0);
    }
}
