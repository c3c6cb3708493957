//! `zoo tb build` under `mpirun -np 3` on this machine: the tables of one
//! process, byte for byte, in both ways of splitting; a rank killed
//! mid-build ends the job, and the same command run again finishes it with
//! the same files, resuming a table split by ranges from the ranks'
//! checkpoints. Needs a zoo built with `--features mpi` and OpenMPI's
//! `mpirun` (`.ci/run` installs it and runs these tests, those marked
//! `slow_` in its slow step); without `mpirun` they fail and say what to
//! install.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn zoo() -> PathBuf {
    assert_cmd::cargo::cargo_bin("zoo")
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-mpi-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `mpirun --oversubscribe -np 3 zoo ARGS` (also as root, as in CI).
pub(crate) fn mpirun(args: &[&str]) -> Command {
    let which = Command::new("mpirun").arg("--version").output();
    assert!(
        which.as_ref().is_ok_and(|o| o.status.success()),
        "mpirun not found: install OpenMPI (Debian: apt-get install openmpi-bin libopenmpi-dev), \
         as .ci/run does"
    );
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", "3"])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .arg(zoo())
        .args(args);
    c
}

fn build_args<'a>(game: &'a str, pieces: &'a str, dir: &'a Path, split: &'a str) -> Vec<&'a str> {
    vec![
        "tb",
        "build",
        "--game",
        game,
        "--pieces",
        pieces,
        "--threads",
        "1",
        "--split",
        split,
        "--dir",
        dir.to_str().unwrap(),
    ]
}

fn ok(o: Output) -> Output {
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Every file under `dir` (tables and manifest), by path.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(d: &Path, base: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let name = p.strip_prefix(base).unwrap().display().to_string();
                out.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn same(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert_eq!(
        fa.iter().map(|f| &f.0).collect::<Vec<_>>(),
        fb.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (x, y) in fa.iter().zip(&fb) {
        assert!(x.1 == y.1, "{} differs", x.0);
    }
}

fn alone(game: &str, pieces: &str) -> PathBuf {
    alone_logged(game, pieces, "").0
}

/// [`alone`] into a directory of its own (`tag`: tests run side by side),
/// with what the build said (a line per table).
fn alone_logged(game: &str, pieces: &str, tag: &str) -> (PathBuf, String) {
    let dir = scratch(&format!("alone-{game}-{pieces}{tag}"));
    let o = ok(Command::new(zoo())
        .args(build_args(game, pieces, &dir, "configurations"))
        .output()
        .unwrap());
    (dir, String::from_utf8_lossy(&o.stderr).into_owned())
}

fn three_ranks_agree_with_one(game: &str, pieces: &str) {
    // A directory of its own: the killed-rank tests, beside this one in
    // the slow step, build the same tables alone.
    let one = alone_logged(game, pieces, "-three-ranks").0;
    for split in ["configurations", "ranges"] {
        let dir = scratch(&format!("{game}-{pieces}-{split}"));
        let o = ok(mpirun(&build_args(game, pieces, &dir, split))
            .output()
            .unwrap());
        let err = String::from_utf8_lossy(&o.stderr);
        for r in 0..3 {
            assert!(
                err.contains(&format!("rank {r}: ")),
                "rank {r} built nothing: {err}"
            );
        }
        if split == "ranges" {
            assert!(err.contains("through another rank"), "{err}");
        }
        same(&one, &dir);
    }
}

/// Checkers tables (the generic generator) are shared out table by table,
/// wave by wave: each rank builds some, and the files are those of one
/// process.
#[test]
fn english_checkers_4_pieces_on_three_ranks_are_the_tables_of_one() {
    let one = alone("english-checkers", "4");
    let dir = scratch("english-checkers-4");
    let o = ok(
        mpirun(&build_args("english-checkers", "4", &dir, "configurations"))
            .output()
            .unwrap(),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    for r in 0..3 {
        assert!(
            err.contains(&format!("rank {r}: ")),
            "rank {r} built nothing: {err}"
        );
    }
    same(&one, &dir);
}

/// Both splits at 3 pieces: every table shared out whole, and every
/// table's ranges shared out, through the same code as at any size; the
/// animal-tb crate's `ranks` tests split 4-piece tables in process.
#[test]
fn jungle_checkers_3_pieces_on_three_ranks_are_the_tables_of_one() {
    three_ranks_agree_with_one("jungle-checkers", "3");
}

/// The same at 4 pieces: tables large enough that a rank's range spans
/// several of another rank's checkpoints.
#[test]
#[ignore = "slow: about three minutes of three ranks; run by `cargo xtask test --slow`"]
fn slow_jungle_checkers_4_pieces_on_three_ranks_are_the_tables_of_one() {
    three_ranks_agree_with_one("jungle-checkers", "4");
}

#[test]
#[ignore = "slow: about 40 s of three ranks (the same split in process: zoo-animal-tb's ranks tests); run by `cargo xtask test --slow`"]
fn slow_jungle_3_pieces_on_three_ranks_are_the_tables_of_one() {
    three_ranks_agree_with_one("jungle", "3");
}

/// The processes `mpirun` started (its children; OpenMPI 5 starts them
/// under a daemon, its child, so one level down too).
/// Kills one rank of the job `mpirun` runs with SIGKILL; `mpirun` must
/// then end the job with a failure.
fn kill_a_rank(job: Child) {
    let ranks = ranks_of(&job);
    assert!(!ranks.is_empty(), "no rank found");
    let victim = ranks[ranks.len() / 2];
    crate::common::signal(victim, "9");
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without a rank");
}

fn ranks_of(launcher: &Child) -> Vec<u32> {
    let children = |pid: u32| -> Vec<u32> {
        let out = Command::new("pgrep")
            .args(["-P", &pid.to_string()])
            .output()
            .expect("pgrep (Debian: procps)");
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    };
    let is_zoo =
        |pid: &u32| std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|e| e == zoo());
    let mine = children(launcher.id());
    let direct: Vec<u32> = mine.iter().copied().filter(is_zoo).collect();
    if !direct.is_empty() {
        return direct;
    }
    mine.into_iter().flat_map(children).filter(is_zoo).collect()
}

#[test]
#[ignore = "slow: about 45 s of three ranks; run by `cargo xtask test --slow`"]
fn slow_a_killed_rank_ends_the_job_and_a_rerun_finishes_it() {
    let game = "jungle-checkers";
    let one = alone(game, "4");
    let dir = scratch("killed");
    let args = build_args(game, "4", &dir, "ranges");
    let mut job = mpirun(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kill one rank once the 3-piece tables are written and the 4-piece
    // ones are being made.
    let tables = dir.join("jungle-checkers").join("leiden");
    let t0 = Instant::now();
    let three_done = || {
        std::fs::read_dir(&tables).is_ok_and(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().ends_with(".zootb"))
                .any(|e| e.file_name().len() == "DEvde.zootb".len())
        })
    };
    while !three_done() {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "no 3-piece table came"
        );
        assert!(
            job.try_wait().unwrap().is_none(),
            "the build ended before a rank was killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    kill_a_rank(job);
    // The same command again finishes the build where it stopped.
    let again = ok(mpirun(&args).output().unwrap());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        !err.contains(" 0 to build"),
        "nothing was left to build: {err}"
    );
    same(&one, &dir);
}

/// The positions taken back by the line of `table` in a build's log.
fn taken_back(log: &str, table: &str) -> Option<u64> {
    let line = log
        .lines()
        .find(|l| l.split_whitespace().any(|w| w == table) && l.contains(" built "))?;
    let (_, rest) = line.split_once('(')?;
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
#[ignore = "slow: about 45 s of three ranks; run by `cargo xtask test --slow`"]
fn slow_a_rank_killed_in_a_range_split_table_resumes_from_the_checkpoints() {
    let game = "jungle-checkers";
    let (one, log) = alone_logged(game, "4", "-logged");
    let dir = scratch("killed-checkpointed");
    let mut args = build_args(game, "4", &dir, "ranges");
    // Every table keeps checkpoints (from 1 GiB of working set otherwise).
    args.extend(["--checkpoint-from", "0"]);
    let mut job = mpirun(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kill one rank once every rank has saved its checkpoint of a 4-piece
    // table (after its forward pass, before its levels).
    let tables = dir.join("jungle-checkers").join("leiden");
    let t0 = Instant::now();
    let saved = || -> Option<String> {
        let names: Vec<String> = std::fs::read_dir(&tables)
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.iter().find_map(|n| {
            let stem = n.strip_suffix(".r0of3.ckpt")?;
            let all = (1..3).all(|r| names.contains(&format!("{stem}.r{r}of3.ckpt")));
            (stem.len() == "DTvde".len() && all).then(|| stem.to_string())
        })
    };
    let table = loop {
        if let Some(t) = saved() {
            break t;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "no checkpoint of a 4-piece table came"
        );
        assert!(
            job.try_wait().unwrap().is_none(),
            "the build ended before a rank was killed"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    kill_a_rank(job);
    assert!(
        !tables.join(format!("{table}.zootb")).exists(),
        "{table} was written before the kill"
    );
    // The same command again resumes that table from the checkpoints.
    let again = ok(mpirun(&args).output().unwrap());
    let err = String::from_utf8_lossy(&again.stderr);
    let line = err
        .lines()
        .find(|l| l.contains(&format!("{table} built by every rank")))
        .unwrap_or_else(|| panic!("no line of {table}: {err}"));
    assert!(
        line.contains("resumed from its checkpoint at level"),
        "{line}"
    );
    // At most the work of a build alone: none done twice.
    let (since, all) = (taken_back(&err, &table), taken_back(&log, &table));
    assert!(since.is_some() && since <= all, "{since:?} of {all:?}");
    // No checkpoint left (the names would differ), the same bytes.
    same(&one, &dir);
}
