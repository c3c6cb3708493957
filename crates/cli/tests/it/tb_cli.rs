//! `zoo tb` end to end on the 2-piece Jungle Checkers tables (a second to
//! build), and `zoo analyse --tb` using them.

use assert_cmd::Command;
use std::path::PathBuf;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

/// Elephant against dog: White wins in 17 plies.
const FEN: &str = "7/7/3d3/7/7/7/E6 w";

/// Fresh 2-piece tables in a directory of the test's own.
fn tables(name: &str) -> PathBuf {
    tables_up_to(name, "2")
}

/// Fresh Jungle Checkers tables up to `pieces` in a directory of the test's own.
fn tables_up_to(name: &str, pieces: &str) -> PathBuf {
    tables_with(name, pieces, &[])
}

/// [`tables_up_to`] with more arguments to `zoo tb build`.
fn tables_with(name: &str, pieces: &str, more: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    zoo()
        .args([
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            pieces,
        ])
        .args(more)
        .arg("--dir")
        .arg(&dir)
        .assert()
        .success();
    dir
}

/// The result object: the last of the JSON lines (docs/json.md).
fn json(out: &[u8]) -> serde_json::Value {
    json_line(out, "result")
}

/// The first JSON line of type `kind`.
fn json_line(out: &[u8], kind: &str) -> serde_json::Value {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON object"))
        .find(|v| v["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} line"))
}

fn stdout(c: &mut Command) -> Vec<u8> {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn build_stats_probe_verify() {
    let dir = tables("basic");
    let s = json(&stdout(
        zoo()
            .args(["tb", "stats", "--game", "jungle-checkers", "--pieces", "2"])
            .args(["--json", "--dir"])
            .arg(&dir),
    ));
    assert_eq!(s["positions"], 34592);
    assert_eq!(
        s["wins"].as_u64().unwrap() + s["losses"].as_u64().unwrap() + s["draws"].as_u64().unwrap(),
        34592
    );

    let p = json(&stdout(
        zoo()
            .args(["tb", "probe", "--game", "jungle-checkers", "--fen", FEN])
            .args(["--json", "--dir"])
            .arg(&dir),
    ));
    assert_eq!(p["value"], "win");
    assert_eq!(p["distance"], 17);
    // The best move keeps the win at the same distance from here.
    let first = &p["moves"][0];
    assert_eq!(first["value"], "win");
    assert_eq!(first["distance"], 17);

    let out = stdout(
        zoo()
            .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "2"])
            .arg("--dir")
            .arg(&dir),
    );
    assert!(String::from_utf8_lossy(&out).contains(" 0 disagreements"));
}

#[test]
fn a_damaged_table_is_refused_without_a_panic() {
    let dir = tables("damaged");
    let file = dir.join("jungle-checkers/leiden/Dvd.zootb");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xFF;
    std::fs::write(&file, bytes).unwrap();
    for cmd in [
        &["verify", "--pieces", "2"][..],
        &["stats", "--pieces", "2"][..],
    ] {
        let out = zoo()
            .arg("tb")
            .args(cmd)
            .args(["--game", "jungle-checkers", "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{cmd:?} accepted a damaged table");
        assert!(
            err.contains("Dvd.zootb") && err.contains("damaged"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // A build that needs it stops before building anything, naming it.
    let out = zoo()
        .args([
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--pieces",
            "3",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the build went on");
    assert!(
        err.contains("Dvd.zootb") && err.contains("damaged"),
        "{err}"
    );
    assert!(!dir.join("jungle-checkers/leiden/RDvd.zootb").exists());
}

#[test]
fn a_table_with_bytes_appended_is_not_called_truncated() {
    // Plain: its length is fixed by its header (a zstd table's offset
    // table, read from the end, says "truncated, or bytes appended?").
    let dir = tables_with("appended", "2", &["--encoding", "plain"]);
    let file = dir.join("jungle-checkers/leiden/Dvd.zootb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(b"more");
    std::fs::write(&file, bytes).unwrap();
    let out = zoo()
        .args([
            "tb",
            "stats",
            "--pieces",
            "2",
            "--game",
            "jungle-checkers",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("Dvd.zootb") && err.contains("bytes appended after the table"),
        "{err}"
    );
    assert!(!err.contains("truncated"), "{err}");
}

#[test]
fn analyse_uses_the_tables() {
    let dir = tables("analyse");
    let out = stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", FEN])
            .args(["--depth", "2", "--tb"])
            .arg(&dir),
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("tablebase: jungle-checkers leiden tables in")
            && text.contains("up to 2 pieces; root position: win in 17"),
        "{text}"
    );
    // Depth 2 cannot see a mate in 17 without the tables.
    assert!(text.contains("score mate +17"), "{text}");
    assert!(!text.contains("tb hits 0\n"), "{text}");

    let out = stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", FEN])
            .args(["--depth", "2", "--json", "--tb"])
            .arg(&dir),
    );
    let last = String::from_utf8_lossy(&out)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let r: serde_json::Value = serde_json::from_str(&last).unwrap();
    assert_eq!(r["mate"], 17);
    assert!(r["tb_hits"].as_u64().unwrap() > 0);
    assert_eq!(r["tablebase"]["max_pieces"], 2);
    assert_eq!(r["tablebase"]["root"], "win in 17");
    assert_eq!(r["pv"].as_array().unwrap().len(), 17);

    // Without tables the same search sees no mate.
    let out = stdout(
        zoo()
            .args(["analyse", "--game", "jungle-checkers", "--fen", FEN])
            .args(["--depth", "2", "--json"]),
    );
    let last = String::from_utf8_lossy(&out)
        .lines()
        .last()
        .unwrap()
        .to_string();
    let r: serde_json::Value = serde_json::from_str(&last).unwrap();
    assert!(r["mate"].is_null());
    assert!(r["tablebase"].is_null());
}

#[test]
fn analyse_says_when_there_are_no_tables() {
    // A directory with tables of another game: reported, not an error.
    let dir = tables("other-game");
    let out = stdout(
        zoo()
            .args(["analyse", "--game", "jungle", "--depth", "1", "--tb"])
            .arg(&dir),
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("tablebase: no complete jungle leiden tables in"),
        "{text}"
    );
    // A directory that does not exist is an error.
    let out = zoo()
        .args(["analyse", "--game", "jungle", "--depth", "1", "--tb"])
        .arg(dir.join("nowhere"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such directory"));
}

#[test]
fn play_and_uci_take_the_tables() {
    let dir = tables("play");
    // `play` as Black: the engine (White) moves first, then input ends.
    let out = zoo()
        .args(["play", "--game", "jungle-checkers", "--fen", FEN])
        .args(["--as", "black", "--depth", "2", "--tb"])
        .arg(&dir)
        .write_stdin("")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("tablebase: jungle-checkers leiden tables in"),
        "{text}"
    );
    let input = format!(
        "setoption name Game value jungle-checkers\nsetoption name TB value {}\nposition fen {FEN}\ngo depth 1\nisready\nquit\n",
        dir.display()
    );
    let out = zoo().arg("uci").write_stdin(input).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("info string tablebase:"), "{text}");
    assert!(text.contains("score mate 17"), "{text}");
}

#[test]
fn verify_refuses_what_cannot_fit_in_memory() {
    // 8 pieces: 2 x 64^8 bytes for one material's arrays, far beyond any machine.
    let out = zoo()
        .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "8"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("GB") && err.contains("verify fewer pieces"),
        "{err}"
    );
}

#[test]
fn build_writes_zstd_tables_that_probe_like_plain_ones() {
    let plain = tables_with("plain", "2", &["--encoding", "plain"]);
    let zstd = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-cli-zstd");
    let _ = std::fs::remove_dir_all(&zstd);
    zoo()
        .args(["tb", "build", "--game", "jungle-checkers", "--pieces", "2"])
        .args(["--encoding", "zstd", "--dir"])
        .arg(&zstd)
        .assert()
        .success();
    let probe = |dir: &PathBuf| {
        json(&stdout(
            zoo()
                .args(["tb", "probe", "--game", "jungle-checkers", "--fen", FEN])
                .args(["--json", "--dir"])
                .arg(dir),
        ))
    };
    assert_eq!(probe(&plain), probe(&zstd));
    let size = |dir: &PathBuf| {
        std::fs::metadata(dir.join("jungle-checkers/leiden/Evd.zootb"))
            .unwrap()
            .len()
    };
    assert!(size(&zstd) < size(&plain), "compressed tables are smaller");
}

#[test]
fn verify_positions_checks_random_entries() {
    let dir = tables("positions");
    let out = stdout(
        zoo()
            .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "2"])
            .args(["--positions", "3000", "--seed", "9", "--dir"])
            .arg(&dir),
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("seed 9") && text.contains(" 0 disagreements"),
        "{text}"
    );
    let r = json_line(
        &stdout(
            zoo()
                .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "2"])
                .args(["--positions", "3000", "--seed", "9", "--json", "--dir"])
                .arg(&dir),
        ),
        "game",
    );
    let tables = r["tables"].as_array().unwrap();
    // Of the 16 two-piece configurations, 10 are stored (4 symmetric).
    assert_eq!(tables.len(), 10);
    assert_eq!(r["positions"], 30_000);
    assert_eq!(r["seed"], 9);
    assert_eq!(r["disagreements"], 0);
    assert!(r["missing"].as_array().unwrap().is_empty());
}

#[test]
fn verify_positions_reports_a_wrong_entry() {
    use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    use zoo_animal::JungleCheckers;
    use zoo_animal_tb::index::Material;
    use zoo_animal_tb::Tablebase;
    use zoo_tb::file::{write_table_with, Encoding, WDL_WIN};

    // A valid file (checksum and all) in which one White-to-move win in d
    // reads as a win in d + 2.
    let dir = tables("wrong-entry");
    let m = Material::parse::<JungleCheckers>("Evd").unwrap();
    let tb = Tablebase::<JungleCheckers>::open(&dir, &JUNGLE_CHECKERS_LEIDEN);
    let t = tb.table(m).unwrap();
    let index = (0..t.header.size)
        .find(|&i| matches!(t.get(0, i), (WDL_WIN, d) if d >= 3))
        .unwrap();
    let d = t.get(0, index).1 as u32;
    let fen = zoo_animal_tb::sample::entry_position(&tb, m, 0, index).fen();
    let fill = |s: usize, start: u64, out: &mut [u8]| {
        t.read_codes(s, start, out).unwrap();
        if s == 0 && (start..start + out.len() as u64).contains(&index) {
            out[(index - start) as usize] += 2;
        }
    };
    // Written beside and renamed over the mapped original.
    write_table_with(&tb.path_of(m), &t.header, Encoding::Plain, &fill).unwrap();

    let out = zoo()
        .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "2"])
        .args(["--positions", "20000", "--seed", "5", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}{err}");
    assert!(
        text.contains(&format!(
            "Evd side 0 entry {index}: {fen}: stored win in {}, from its moves win in {d}",
            d + 2
        )),
        "{text}"
    );
    assert!(
        err.contains("--seed 5") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn verify_positions_skips_tables_not_built_and_needs_the_smaller_ones() {
    let dir = tables_up_to("missing", "3");
    let verify = |pieces: &str, positions: &str| {
        zoo()
            .args([
                "tb",
                "verify",
                "--game",
                "jungle-checkers",
                "--pieces",
                pieces,
            ])
            .args(["--positions", positions, "--seed", "1"])
            .arg("--dir")
            .arg(&dir)
            .output()
            .unwrap()
    };
    let tdir = dir.join("jungle-checkers/leiden");
    std::fs::remove_file(tdir.join("DTvd.zootb")).unwrap();
    let out = verify("3", "200");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("23 of 24 3-piece tables")
            && text.contains("not built yet, not checked: DTvd\n")
            && text.contains(" 0 disagreements"),
        "{text}"
    );

    // Without a table the captures lead to: refused, with its name.
    std::fs::remove_file(tdir.join("Tvd.zootb")).unwrap();
    let out = verify("3", "200");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("2-piece tables missing") && err.contains(": Tvd"),
        "{err}"
    );

    // No table of the size at all, a bad count, a seed without --positions.
    let out = verify("4", "200");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("no 4-piece jungle-checkers leiden tables"),
        "{err}"
    );
    let out = verify("3", "0");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--positions must be at least 1"), "{err}");
    let out = zoo()
        .args(["tb", "verify", "--game", "jungle-checkers", "--seed", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--positions"));
}

#[test]
fn build_copies_renamed_configurations_unless_told_to_solve_all() {
    let run = |name: &str, extra: &[&str]| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-cli-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        let out = zoo()
            .args(["tb", "build", "--game", "jungle-checkers", "--pieces", "2"])
            .args(extra)
            .arg("--dir")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success());
        (dir, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (copied, log) = run("copies", &[]);
    assert!(log.contains("10 to build (8 of them copies"), "{log}");
    assert!(log.contains("Eve copied from "), "{log}");
    let (solved, log) = run("solve-all", &["--solve-all"]);
    assert!(log.contains("10 to build (0 of them copies"), "{log}");
    assert!(!log.contains("copied from"), "{log}");
    let leiden = |d: &PathBuf| d.join("jungle-checkers").join("leiden");
    for f in std::fs::read_dir(leiden(&solved)).unwrap() {
        let name = f.unwrap().file_name();
        let a = std::fs::read(leiden(&copied).join(&name)).unwrap();
        let b = std::fs::read(leiden(&solved).join(&name)).unwrap();
        assert!(a == b, "{name:?} differs");
    }
}

#[test]
fn build_over_the_memory_allowed_says_so_and_writes_the_same_tables() {
    let plain = tables("in-memory");
    let small = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-cli-small-memory");
    let _ = std::fs::remove_dir_all(&small);
    // 1 kB: no 2-piece table fits, so each is solved with its state in files.
    let out = zoo()
        .args(["tb", "build", "--game", "jungle-checkers", "--pieces", "2"])
        .args(["--memory", "0.000001", "--dir"])
        .arg(&small)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("more than the 1 kB allowed") && err.contains("state in files"),
        "{err}"
    );
    for name in ["Evd", "Rvr", "Dvd"] {
        let file = format!("jungle-checkers/leiden/{name}.zootb");
        let a = std::fs::read(plain.join(&file)).unwrap();
        let b = std::fs::read(small.join(&file)).unwrap();
        assert!(a == b, "{file} differs");
    }
}

#[test]
fn build_one_material_then_check_the_manifest() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-cli-material");
    let _ = std::fs::remove_dir_all(&dir);
    let tb = |args: &[&str]| {
        let mut c = zoo();
        c.arg("tb")
            .args(args)
            .args(["--game", "jungle-checkers", "--dir"])
            .arg(&dir);
        c
    };
    tb(&["build", "--material", "DTvd"]).assert().success();
    let tables = dir.join("jungle-checkers/leiden");
    assert!(tables.join("DTvd.zootb").exists());
    // Only what it needs: a few of the 34 tables of up to 3 pieces.
    let built = std::fs::read_dir(&tables)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension() == Some("zootb".as_ref()))
        .count();
    assert!((1..10).contains(&built), "{built} tables built");
    tb(&["manifest", "--check"]).assert().success();
    std::fs::write(tables.join("DTvd.zootb"), b"damaged").unwrap();
    let out = tb(&["manifest", "--check"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("DTvd.zootb: damaged"));
    // A manifest is not written over a damaged table: its check would pass.
    let out = tb(&["manifest"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("DTvd.zootb") && err.contains("checksum"));
    std::fs::remove_file(tables.join("DTvd.zootb")).unwrap();
    tb(&["manifest"]).assert().success();
    // A file listed twice is refused, whichever line is right.
    let path = tables.join("manifest.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text
        .lines()
        .find(|l| l.ends_with(char::is_alphanumeric) && !l.starts_with('#'));
    let name = first.unwrap().split(' ').next().unwrap();
    let wrong = format!("{name} 1 {}\n", "0".repeat(64));
    std::fs::write(&path, format!("{wrong}{text}")).unwrap();
    let out = tb(&["manifest", "--check"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("listed a second time"),
        "{err}"
    );
    // A material that cannot be.
    let out = tb(&["build", "--material", "DTXvd"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--material DTXvd"));
    // --pieces or --material, not both, not neither.
    tb(&["build"]).assert().failure();
    tb(&["build", "--pieces", "2", "--material", "Dvd"])
        .assert()
        .failure();
}

/// `zoo tb size` reports every size's bits per position; `zoo tb wdl`
/// writes the WDL-only files, `verify --wdl` finds them equal to the
/// tables, and `probe` with the WDL files alone gives values without
/// distances.
#[test]
fn size_and_wdl_files() {
    let dir = tables_up_to("wdl", "3");
    let run = |args: &[&str], dir: &PathBuf| {
        stdout(
            zoo()
                .arg("tb")
                .args(args)
                .args(["--game", "jungle-checkers", "--dir"])
                .arg(dir),
        )
    };
    let size = json(&run(&["size", "--json"], &dir));
    let fams = size["families"].as_array().unwrap();
    assert_eq!(fams.len(), 2);
    assert_eq!(fams[0]["positions"], 34592, "the 2-piece count of tb stats");
    for f in fams {
        assert_eq!(f["files"], f["materials"]);
        assert!(f["bits_per_position"].as_f64().unwrap() < 5.0, "{f}");
    }
    assert!(size["wdl_families"].as_array().unwrap().is_empty());
    let made = json(&run(&["wdl", "--pieces", "3", "--json"], &dir));
    assert_eq!(made["files"], 34);
    let manifest =
        std::fs::read_to_string(dir.join("jungle-checkers/leiden/manifest.txt")).unwrap();
    assert_eq!(
        manifest.lines().filter(|l| l.contains(".zoowdl ")).count(),
        34
    );
    run(&["manifest", "--check"], &dir);
    let checked = json(&run(&["verify", "--wdl", "--pieces", "3", "--json"], &dir));
    assert_eq!(checked["games"], 1);
    assert!(checked["failed"].as_array().unwrap().is_empty());
    let size = json(&run(&["size", "--json"], &dir));
    let wdl = size["wdl_families"].as_array().unwrap();
    assert_eq!(wdl.len(), 2);
    assert!(wdl[1]["bytes"].as_u64() < fams[1]["bytes"].as_u64());
    // The WDL files alone.
    let alone = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-cli-wdl-alone");
    let _ = std::fs::remove_dir_all(&alone);
    let (from, to) = (
        dir.join("jungle-checkers/leiden"),
        alone.join("jungle-checkers/leiden"),
    );
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        if p.extension() == Some("zoowdl".as_ref()) {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
    let full = json(&run(&["probe", "--fen", FEN, "--json"], &dir));
    let values = json(&run(&["probe", "--fen", FEN, "--json"], &alone));
    assert_eq!(
        (&full["value"], &full["distance"]),
        (&"win".into(), &17.into())
    );
    assert_eq!(values["value"], "win");
    assert_eq!(values["distance_known"], false);
    let moves = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["coord"].to_string(), m["value"].to_string()))
            .collect()
    };
    let (mut a, mut b) = (moves(&full), moves(&values));
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn advantage_mode_agrees_with_the_table_and_writes_its_wdl_file() {
    let dir = tables_up_to("advantage", "3");
    let out = stdout(
        zoo()
            .args([
                "tb",
                "advantage",
                "--game",
                "jungle-checkers",
                "--material",
                "DEvd",
                "--write",
                "--json",
                "--dir",
            ])
            .arg(&dir),
    );
    let r = json(&out);
    assert_eq!(r["material"], "DEvd");
    for p in r["passes"].as_array().unwrap() {
        assert_eq!(p["disagreements"], 0, "{p}");
    }
    assert_eq!(r["counts"][0], r["table_counts"][0]);
    let written = r["written"][0].as_str().unwrap();
    assert!(written.ends_with("DEvd.zoowdl"), "{written}");
    assert!(std::path::Path::new(written).exists());
    // Text output says it agrees; a material of one side is refused.
    let text = String::from_utf8(stdout(
        zoo()
            .args([
                "tb",
                "advantage",
                "--game",
                "jungle-checkers",
                "--material",
                "DEvd",
                "--dir",
            ])
            .arg(&dir),
    ))
    .unwrap();
    assert!(
        text.contains("equal to the table, entry by entry"),
        "{text}"
    );
    let out = zoo()
        .args([
            "tb",
            "advantage",
            "--game",
            "jungle-checkers",
            "--material",
            "DE",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pieces of both sides"), "{err}");
}

#[test]
fn recompress_makes_the_files_a_build_writes_now() {
    let plain = tables_with("recompress-plain", "3", &["--encoding", "plain"]);
    let fresh = tables_up_to("recompress-fresh", "3");
    let run = |args: &[&str]| {
        json(&stdout(
            zoo()
                .arg("tb")
                .args(args)
                .args([
                    "--game",
                    "jungle-checkers",
                    "--pieces",
                    "3",
                    "--json",
                    "--dir",
                ])
                .arg(&plain),
        ))
    };
    let manifest = plain.join("jungle-checkers/leiden/manifest.txt");
    let before = std::fs::read(&manifest).unwrap();
    let r = run(&["recompress"]);
    assert!(r["rewritten"].as_u64().unwrap() > 0, "{r}");
    assert!(
        r["bytes_after"].as_u64() < r["bytes_before"].as_u64(),
        "{r}"
    );
    // Byte for byte the tables of a build in the default encoding.
    let sub = "jungle-checkers/leiden";
    for e in std::fs::read_dir(fresh.join(sub)).unwrap() {
        let p = e.unwrap().path();
        if p.extension() == Some("zootb".as_ref()) {
            let name = p.file_name().unwrap();
            assert!(
                std::fs::read(&p).unwrap() == std::fs::read(plain.join(sub).join(name)).unwrap(),
                "{name:?}"
            );
        }
    }
    // A run stopped before it wrote the manifest (Ctrl-C) left the old
    // entries; the next run, which rewrites nothing, records them anew.
    std::fs::write(&manifest, before).unwrap();
    let again = run(&["recompress"]);
    assert_eq!(again["rewritten"], 0);
    assert_eq!(again["bytes_after"], r["bytes_after"]);
    stdout(
        zoo()
            .args([
                "tb",
                "manifest",
                "--check",
                "--game",
                "jungle-checkers",
                "--dir",
            ])
            .arg(&plain),
    );
}

#[test]
fn verify_parts_of_a_sample_cover_every_material_once() {
    let dir = tables_up_to("verify-parts", "3");
    let verify = |more: &[&str]| {
        let out = stdout(
            zoo()
                .args([
                    "tb",
                    "verify",
                    "--game",
                    "jungle-checkers",
                    "--pieces",
                    "3",
                    "--json",
                ])
                .args(more)
                .arg("--dir")
                .arg(&dir),
        );
        let r = json(&out);
        assert!(r["failed"].as_array().unwrap().is_empty(), "{r}");
        json_line(&out, "game")["materials"].as_u64().unwrap()
    };
    let all = verify(&[]);
    let below = verify(&["--sample", "1000000", "--part", "999999"]);
    let parts: u64 = (0..3)
        .map(|p| verify(&["--sample", "3", "--part", &p.to_string()]) - below)
        .sum();
    assert_eq!(parts, all - below);
    let out = zoo()
        .args(["tb", "verify", "--game", "jungle-checkers", "--pieces", "3"])
        .args(["--sample", "3", "--part", "3", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--part 3"));
}

#[test]
fn the_proving_experiment_proves_what_the_tables_say() {
    let dir = tables_up_to("proving", "3");
    let out_dir = dir.join("experiment");
    let r = json(&stdout(
        zoo()
            .args(["experiment", "proving", "--game", "jungle-checkers", "--tb"])
            .arg(&dir)
            .args(["--pieces", "2,3", "--positions", "6", "--nodes", "200000"])
            .arg("--out-dir")
            .arg(&out_dir)
            .arg("--json"),
    ));
    let rows = r["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    for row in rows {
        for m in ["ab_result", "dfpn_result"] {
            assert_ne!(row[m], "WRONG", "{row}");
        }
        assert!(
            ["win", "loss"].contains(&row["value"].as_str().unwrap()),
            "{row}"
        );
    }
    let proved = rows.iter().filter(|r| r["ab_result"] == "proved").count();
    assert!(proved >= 10, "alpha-beta proved {proved} of 12");
    let svg = std::fs::read_to_string(out_dir.join("proving-jungle-checkers.svg")).unwrap();
    assert!(svg.contains("df-pn (MID calls)") && svg.contains("alpha-beta (nodes)"));
}

#[test]
fn a_size_built_in_the_advantage_mode_has_the_wdl_files_of_the_tables() {
    let full = tables_up_to("adv-size-full", "3");
    let bits = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-cli-adv-size");
    let _ = std::fs::remove_dir_all(&bits);
    let sub = "jungle-checkers/leiden";
    std::fs::create_dir_all(bits.join(sub)).unwrap();
    for e in std::fs::read_dir(full.join(sub)).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        // The 2-piece tables: two letters and the `v`.
        if name.ends_with(".zootb") && name.len() == "Rvr.zootb".len() {
            std::fs::copy(&p, bits.join(sub).join(&name)).unwrap();
        }
    }
    let run = |dir: &PathBuf, args: &[&str]| {
        json(&stdout(
            zoo()
                .arg("tb")
                .args(args)
                .args(["--game", "jungle-checkers", "--json", "--dir"])
                .arg(dir),
        ))
    };
    let r = run(&bits, &["advantage", "--pieces", "3"]);
    let written = r["written"].as_array().unwrap();
    assert_eq!(r["present"], 0);
    assert!(!written.is_empty());
    // Run again: nothing left to write.
    let again = run(&bits, &["advantage", "--pieces", "3"]);
    assert_eq!(again["written"].as_array().unwrap().len(), 0);
    assert_eq!(again["present"].as_u64().unwrap(), written.len() as u64);
    // Beside the normal build's tables, the files pass the WDL check.
    for m in written {
        let name = format!("{}.zoowdl", m.as_str().unwrap());
        std::fs::copy(bits.join(sub).join(&name), full.join(sub).join(&name)).unwrap();
    }
    let checked = run(&full, &["verify", "--wdl", "--pieces", "3"]);
    assert!(
        checked["failed"].as_array().unwrap().is_empty(),
        "{checked}"
    );
}

/// `--generator retro` (the generator of any game with unmoves) writes
/// the bytes the animal generator writes, and refuses what it does not do.
#[test]
fn the_generic_generator_writes_the_same_tables() {
    let fast = tables_up_to("gen-fast", "3");
    let retro = tables_with("gen-retro", "3", &["--generator", "retro"]);
    let files = |d: &PathBuf| {
        let t = d.join("jungle-checkers").join("leiden");
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&t)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let (a, b) = (files(&fast), files(&retro));
    assert_eq!(a.len(), 35, "34 tables and the manifest");
    assert!(a == b, "the two generators' files differ");
    let out = zoo()
        .args([
            "tb",
            "build",
            "--game",
            "jungle-checkers",
            "--material",
            "RvR",
        ])
        .args(["--generator", "retro"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--material"));
}
