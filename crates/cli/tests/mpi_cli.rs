//! `zoo tb build` under `mpirun -np 3` on this machine: the tables of one
//! process, byte for byte, in both ways of splitting; a rank killed
//! mid-build ends the job, and the same command run again finishes it with
//! the same files. Needs a zoo built with `--features mpi` and OpenMPI's
//! `mpirun` (`.ci/run` installs it and runs these tests); without
//! `mpirun` they fail and say what to install.
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
fn mpirun(args: &[&str]) -> Command {
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
    let dir = scratch(&format!("alone-{game}-{pieces}"));
    ok(Command::new(zoo())
        .args(build_args(game, pieces, &dir, "configurations"))
        .output()
        .unwrap());
    dir
}

fn three_ranks_agree_with_one(game: &str, pieces: &str) {
    let one = alone(game, pieces);
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

#[test]
fn jungle_checkers_4_pieces_on_three_ranks_are_the_tables_of_one() {
    three_ranks_agree_with_one("jungle-checkers", "4");
}

#[test]
fn jungle_3_pieces_on_three_ranks_are_the_tables_of_one() {
    three_ranks_agree_with_one("jungle", "3");
}

/// The processes `mpirun` started (its children; OpenMPI 5 starts them
/// under a daemon, its child, so one level down too).
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
fn a_killed_rank_ends_the_job_and_a_rerun_finishes_it() {
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
    let ranks = ranks_of(&job);
    assert!(!ranks.is_empty(), "no rank found");
    let victim = ranks[ranks.len() / 2];
    assert!(Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status()
        .unwrap()
        .success());
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without a rank");
    // The same command again finishes the build where it stopped.
    let again = ok(mpirun(&args).output().unwrap());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        !err.contains(" 0 to build"),
        "nothing was left to build: {err}"
    );
    same(&one, &dir);
}
