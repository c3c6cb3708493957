//! Files under faults: each writing command (`tb build`, `census
//! --checkpoint`, `solve --checkpoint`, `play`'s save) killed with
//! SIGKILL at seeded random moments and run again gives what an
//! uninterrupted run gives; every kind of checkpoint damage in
//! `data/checkpoint-damage.txt` is refused with the file named (or, where
//! the damage is what a kill leaves, gives the same output); saves to
//! special files are refused and reads of them are bounded.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn zoo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_zoo"))
}

/// splitmix64: the kill moments, the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n.max(1)
    }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[String], stdin: &str) -> Output {
    use std::io::Write;
    let mut c = zoo()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = c.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    c.wait_with_output().unwrap()
}

/// Runs `args` to the end, asserting success; its stdout and how long it took.
fn whole(args: &[String], stdin: &str) -> (Vec<u8>, Duration) {
    let t = Instant::now();
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.stdout, t.elapsed())
}

/// Starts `args` and kills it (SIGKILL) after `ms` milliseconds.
fn killed_after(args: &[String], stdin: &str, ms: u64) {
    use std::io::Write;
    let mut c = zoo()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    if let Some(mut i) = c.stdin.take() {
        let _ = i.write_all(stdin.as_bytes());
    }
    std::thread::sleep(Duration::from_millis(ms));
    let _ = c.kill();
    let _ = c.wait();
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

const KILLS: usize = 4;

fn tb_args(dir: &Path) -> Vec<String> {
    let mut a = strings(&[
        "tb",
        "build",
        "--game",
        "jungle-checkers",
        "--pieces",
        "3",
        "--checkpoint-from",
        "1",
        "--threads",
        "1",
        "--dir",
    ]);
    a.push(dir.display().to_string());
    a
}

#[test]
fn a_killed_table_build_reruns_to_the_same_tables() {
    let (a, b) = (temp("tb-a"), temp("tb-b"));
    let (_, took) = whole(&tb_args(&a), "");
    let mut rng = Rng(1);
    for _ in 0..KILLS {
        killed_after(&tb_args(&b), "", rng.below(took.as_millis() as u64 + 1));
    }
    whole(&tb_args(&b), "");
    let (fa, fb) = (files_under(&a), files_under(&b));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&fa),
        names(&fb),
        "no checkpoint or temporary file left"
    );
    assert!(fa == fb, "the same bytes in every table");
    let _ = (std::fs::remove_dir_all(&a), std::fs::remove_dir_all(&b));
}

/// The window a random kill hits one run in ten: the process dies right
/// after a table's rename (the build's own test hook), here after the
/// first table, one of the 2-piece ones, the last but one and the very
/// last. Each time the run that completes the build must leave the same
/// files, the manifest naming every table among them.
#[test]
fn a_build_killed_right_after_a_table_is_renamed_completes_its_manifest() {
    let a = temp("tb-hook-a");
    whole(&tb_args(&a), "");
    let want = files_under(&a);
    let tables = want.iter().filter(|f| f.0.ends_with(".zootb")).count() as u64;
    assert!(tables > 4, "{tables} tables");
    for after in [1, 3, tables - 1, tables] {
        let b = temp(&format!("tb-hook-{after}"));
        let out = zoo()
            .args(tb_args(&b))
            .env("ZOO_TEST_KILL_AFTER_TABLES", after.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.signal(),
            Some(9),
            "killed by the hook after {after} tables"
        );
        let written = files_under(&b)
            .iter()
            .filter(|f| f.0.ends_with(".zootb"))
            .count() as u64;
        assert!(
            written >= after,
            "{written} tables written before the kill at {after}"
        );
        whole(&tb_args(&b), "");
        let got = files_under(&b);
        let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&got), names(&want), "killed after {after} tables");
        let manifest = |f: &[(String, Vec<u8>)]| {
            f.iter()
                .find(|x| x.0.ends_with("manifest.txt"))
                .map(|x| String::from_utf8_lossy(&x.1).into_owned())
                .unwrap_or_default()
        };
        assert_eq!(
            manifest(&got),
            manifest(&want),
            "the manifest after the kill at {after}"
        );
        assert!(
            got == want,
            "the same bytes everywhere after the kill at {after}"
        );
        let _ = std::fs::remove_dir_all(&b);
    }
    // A manifest removed or cut short is written whole by the next build.
    let tdir = files_under(&a)
        .iter()
        .find(|x| x.0.ends_with("manifest.txt"))
        .map(|x| a.join(&x.0))
        .unwrap();
    let full = std::fs::read_to_string(&tdir).unwrap();
    let short: String = full.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&tdir, short).unwrap();
    whole(&tb_args(&a), "");
    assert_eq!(
        std::fs::read_to_string(&tdir).unwrap(),
        full,
        "a shortened manifest mended"
    );
    std::fs::remove_file(&tdir).unwrap();
    whole(&tb_args(&a), "");
    assert_eq!(
        std::fs::read_to_string(&tdir).unwrap(),
        full,
        "a removed manifest written"
    );
    let _ = std::fs::remove_dir_all(&a);
}

fn census_args(ckpt: &Path) -> Vec<String> {
    let mut a = strings(&[
        "census",
        "--game",
        "jungle",
        "--max-pieces",
        "2",
        "--method",
        "enumerate",
        "--checkpoint",
    ]);
    a.push(ckpt.display().to_string());
    a
}

#[test]
fn a_killed_census_reruns_to_the_same_rows() {
    let d = temp("census");
    let (want, took) = whole(&census_args(&d.join("a.ckpt")), "");
    let mut rng = Rng(2);
    let ckpt = d.join("b.ckpt");
    for _ in 0..KILLS {
        killed_after(
            &census_args(&ckpt),
            "",
            rng.below(took.as_millis() as u64 + 1),
        );
    }
    let (got, _) = whole(&census_args(&ckpt), "");
    assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A Jungle Checkers loss that takes both questions some thousands of
/// calls (as in crates/app/tests/it/solve_checkpoint.rs).
const FEN: &str = "7/3e3/7/7/7/3R3/2D4 b";

fn solve_args(algo: &str, ckpt: &Path, more: &[&str]) -> Vec<String> {
    let mut a = strings(&[
        "solve",
        "--game",
        "jungle-checkers",
        "--fen",
        FEN,
        "--algo",
        algo,
        "--json",
        "--checkpoint-every",
        "0.01",
        "--checkpoint",
    ]);
    a.push(ckpt.display().to_string());
    a.extend(strings(more));
    a
}

/// What must not change: the value and each question's answer (nodes and
/// seconds do: a resumed run counts on).
fn answers(stdout: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(stdout).unwrap();
    let a: Vec<String> = v["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| format!("{} {}", x["goal"], x["answer"]))
        .collect();
    format!("{} {}", v["value"], a.join(", "))
}

#[test]
fn a_killed_solve_reruns_to_the_same_answer() {
    let d = temp("solve");
    for (i, algo) in ["dfpn", "pns"].into_iter().enumerate() {
        let (want, took) = whole(&solve_args(algo, &d.join(format!("{algo}-a")), &[]), "");
        let ckpt = d.join(format!("{algo}-b"));
        let mut rng = Rng(3 + i as u64);
        for _ in 0..KILLS {
            killed_after(
                &solve_args(algo, &ckpt, &[]),
                "",
                rng.below(took.as_millis() as u64 + 1),
            );
        }
        let (got, _) = whole(&solve_args(algo, &ckpt, &[]), "");
        assert_eq!(answers(&got), answers(&want), "{algo}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_killed_play_leaves_a_whole_save_or_none() {
    let d = temp("play");
    let file = d.join("g.json");
    let p = file.display().to_string();
    let args = strings(&[
        "play",
        "--game",
        "jungle-checkers",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    let input = format!("c2c3\nsave {p}\nundo\nd2d3\nsave {p}\nundo\ne2e3\nsave {p}\nquit\n");
    let (_, took) = whole(&args, &input);
    let want = std::fs::read(&file).unwrap();
    let mut rng = Rng(7);
    for _ in 0..KILLS {
        let _ = std::fs::remove_file(&file);
        killed_after(&args, &input, rng.below(took.as_millis() as u64 + 1));
        if file.exists() {
            // Whatever save the kill came after, a whole one: it loads.
            let out = run(
                &strings(&[
                    "play",
                    "--game",
                    "jungle-checkers",
                    "--depth",
                    "1",
                    "--load",
                    &p,
                ]),
                "quit\n",
            );
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        // A kill between writing the temporary file and renaming it
        // leaves the temporary file beside the last whole save: harmless,
        // the next save replaces it (checked below).
    }
    whole(&args, &input);
    assert_eq!(std::fs::read(&file).unwrap(), want);
    assert!(
        !d.join("g.json.tmp").exists(),
        "a whole run left a temporary file"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `bytes` with the CRC-32 of all but the trailer made right again, as an
/// editor who knows the format would: a solve checkpoint's `CRC:` and
/// sum, a table-build checkpoint's last 4 bytes.
fn resum(kind: &str, mut bytes: Vec<u8>) -> Vec<u8> {
    match kind {
        "solve" => {
            bytes.truncate(bytes.len() - 8);
            let crc = crc32fast::hash(&bytes);
            bytes.extend_from_slice(b"CRC:");
            bytes.extend_from_slice(&crc.to_le_bytes());
        }
        "tb" => {
            bytes.truncate(bytes.len() - 4);
            let crc = crc32fast::hash(&bytes);
            bytes.extend_from_slice(&crc.to_le_bytes());
        }
        // A census line's CRC (its last field) is of the CRC of the line
        // before it and the line with `crc` 0.
        "census" => {
            let text = String::from_utf8(bytes).unwrap();
            let mut prev = 0u32;
            let mut out = String::new();
            for line in text.lines() {
                let at = line.rfind("\"crc\":").unwrap();
                let zeroed = format!("{}\"crc\":0}}", &line[..at]);
                let mut h = crc32fast::Hasher::new();
                h.update(&prev.to_le_bytes());
                h.update(zeroed.as_bytes());
                prev = h.finalize();
                out.push_str(&format!("{}\"crc\":{prev}}}\n", &line[..at]));
            }
            bytes = out.into_bytes();
        }
        _ => unreachable!(),
    }
    bytes
}

/// A good checkpoint of `kind` in `d`, the command that reads it (with
/// the extra words `more`), and the output of the run that wrote it.
fn a_checkpoint(kind: &str, d: &Path, more: &[&str]) -> (PathBuf, Vec<String>, Vec<u8>) {
    match kind {
        "census" => {
            let c = d.join("census.ckpt");
            let mut args = census_args(&c);
            let (out, _) = whole(&args, "");
            args.extend(strings(more));
            (c, args, out)
        }
        "solve" => {
            let c = d.join("solve.ckpt");
            // Stopped part way: the table of the question being asked.
            let (out, _) = whole(&solve_args("dfpn", &c, &["--nodes", "1500"]), "");
            let args = solve_args("dfpn", &c, more);
            (c, args, out)
        }
        "tb" => {
            // A kill part way through a configuration leaves its checkpoint.
            // A kill between the table's write and the checkpoint's removal
            // leaves both: the next run skips the table that is there and
            // never reads that checkpoint (it once passed the damage test
            // so, in one run of many), so only a checkpoint whose table is
            // not written yet will do.
            let dir = d.join("tables");
            let mut rng = Rng(11);
            for _ in 0..200 {
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                killed_after(&tb_args(&dir), "", 50 + rng.below(400));
                let files = files_under(&dir);
                let found = files
                    .iter()
                    .find(|(n, _)| {
                        n.strip_suffix(".ckpt").is_some_and(|stem| {
                            !files.iter().any(|(t, _)| t == &format!("{stem}.zootb"))
                        })
                    })
                    .cloned();
                if let Some((n, _)) = found {
                    let mut args = tb_args(&dir);
                    args.extend(strings(more));
                    return (dir.join(n), args, Vec::new());
                }
            }
            panic!("no kill left a table-build checkpoint");
        }
        _ => unreachable!(),
    }
}

#[test]
fn every_kind_of_checkpoint_damage_is_refused() {
    let text = include_str!("../data/checkpoint-damage.txt");
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (case, want) = line.split_once("=>").expect("CASE => WANT");
        let w = common::words(case);
        let (kind, damage) = (w[0].as_str(), w[1].as_str());
        let d = temp(&format!("damage-{kind}-{damage}"));
        let more: Vec<&str> = if damage == "foreign" {
            w[2..].iter().map(String::as_str).collect()
        } else {
            vec![]
        };
        let (ckpt, args, first) = a_checkpoint(kind, &d, &more);
        let good = std::fs::read(&ckpt).unwrap();
        let bad = match damage {
            "cut" => good[..good.len() / 2].to_vec(),
            "flip" => {
                let mut b = good.clone();
                let at: f64 = w[2].parse().unwrap();
                let i = ((b.len() - 1) as f64 * at) as usize;
                b[i] ^= 0x10;
                b
            }
            "level" => {
                let mut b = good.clone();
                let n: u64 = w[2].parse().unwrap();
                b[24..32].copy_from_slice(&n.to_le_bytes());
                resum(kind, b)
            }
            "edit" => {
                let (from, to) = (w[2].replace('\'', "\""), w[3].replace('\'', "\""));
                let from = from.as_bytes();
                let at = good
                    .windows(from.len())
                    .position(|x| x == from)
                    .unwrap_or_else(|| {
                        panic!(
                            "{line}: not in the checkpoint: {}",
                            String::from_utf8_lossy(&good)
                        )
                    });
                let mut b = good[..at].to_vec();
                b.extend_from_slice(to.as_bytes());
                b.extend_from_slice(&good[at + from.len()..]);
                resum(kind, b)
            }
            "foreign" => good.clone(),
            _ => panic!("{line}: unknown damage"),
        };
        std::fs::write(&ckpt, &bad).unwrap();
        let out = run(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        let want = want.trim();
        if want == "same" {
            assert!(out.status.success(), "{line}: {err}");
            assert_eq!(out.stdout, first, "{line}");
            let _ = std::fs::remove_dir_all(&d);
            continue;
        }
        assert!(!out.status.success(), "{line}: accepted\n{err}");
        assert_eq!(
            std::fs::read(&ckpt).unwrap(),
            bad,
            "{line}: the refused file changed"
        );
        assert!(
            err.contains(want) && err.contains(&*ckpt.file_name().unwrap().to_string_lossy()),
            "{line}: {err}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn special_files_are_neither_replaced_nor_read_without_end() {
    let d = temp("special");
    // Saves: refused, the device left as it is.
    let out = run(
        &strings(&["play", "--game", "jungle-checkers", "--depth", "1"]),
        "save /dev/full\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("/dev/full is a character device"), "{text}");
    let out = run(
        &strings(&[
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            FEN,
            "--proof",
            "/dev/full",
        ]),
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("character device"),
        "{err}"
    );
    // An unwritable proof path is found before the run, not after.
    let t = Instant::now();
    let out = run(
        &strings(&[
            "solve",
            "--game",
            "jungle-checkers",
            "--fen",
            FEN,
            "--proof",
            "/nonexistent/p",
        ]),
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("/nonexistent"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    let out = run(&census_args(Path::new("/dev/full")), "");
    assert!(!out.status.success(), "census --checkpoint /dev/full");
    // Reads: /dev/zero and a FIFO are refused by their type at once.
    let out = run(
        &strings(&["play", "--game", "jungle-checkers", "--depth", "1"]),
        "load /dev/zero\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not a regular file"), "{text}");
    // A table file that is a FIFO: `tb probe` answers, it does not hang.
    let tables = d.join("tables");
    whole(
        &strings(&[
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            "2",
            "--dir",
            &tables.display().to_string(),
        ]),
        "",
    );
    let (name, _) = files_under(&tables)
        .into_iter()
        .find(|(n, _)| n.ends_with(".zootb"))
        .unwrap();
    let table = tables.join(&name);
    std::fs::remove_file(&table).unwrap();
    let status = Command::new("mkfifo").arg(&table).status().unwrap();
    assert!(status.success());
    let mut c = zoo()
        .args(["tb", "manifest", "--game", "jungle-checkers", "--dir"])
        .arg(&tables)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while c.try_wait().unwrap().is_none() {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "tb manifest hangs on a FIFO"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = c.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("FIFO"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
