//! `zoo tb` for the checkers games, end to end: the tables of up to 3
//! pieces built (a second), probed on the hand-checked cases of
//! crates/checkers/tests/data/table-probes.txt, counted, sized, verified,
//! listed in the manifest; a build stopped by Ctrl-C and resumed; and the
//! engine and the solver using the tables (`--tb`).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

/// The games' names on the command line, by the name the probe file uses.
fn game(name: &str) -> &'static str {
    match name {
        "english" => "english-checkers",
        "classical" => "classical-checkers",
        other => panic!("no checkers game {other}"),
    }
}

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-checkers-tb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Fresh tables of `game` up to `pieces` in a directory of the test's own.
fn built(name: &str, game: &str, pieces: &str) -> PathBuf {
    let dir = fresh(name);
    zoo()
        .args(["tb", "build", "--game", game, "--pieces", pieces, "--dir"])
        .arg(&dir)
        .assert()
        .success();
    dir
}

/// The last JSON line of a command: its result.
fn result(out: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(out);
    let last = text.lines().last().expect("output");
    serde_json::from_str(last).expect("a JSON object")
}

fn json_of(args: &[&str], dir: &Path) -> serde_json::Value {
    json_with(args, "--dir", dir)
}

/// A command's JSON result, `flag` naming the tables' directory.
fn json_with(args: &[&str], flag: &str, dir: &Path) -> serde_json::Value {
    let out = zoo()
        .args(args)
        .arg(flag)
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    result(&out.stdout)
}

/// The cases of the probe file: game, position, value, distance.
fn probes() -> Vec<(String, String, String, u64)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../checkers/tests/data/table-probes.txt"
    );
    std::fs::read_to_string(path)
        .expect("probe file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (case, want) = l.split_once('|').expect("a `|` in each case");
            let case: Vec<&str> = case.split_whitespace().collect();
            let want: Vec<&str> = want.split_whitespace().collect();
            (
                case[0].to_string(),
                case[2].to_string(),
                want[0].to_string(),
                want.get(1).map_or(0, |d| d.parse().expect("a distance")),
            )
        })
        .collect()
}

#[test]
fn hand_checked_positions_probe_to_their_values() {
    let dirs = [
        ("english", built("probe-english", "english-checkers", "3")),
        (
            "classical",
            built("probe-classical", "classical-checkers", "3"),
        ),
    ];
    let mut checked = 0;
    for (g, fen, value, distance) in probes() {
        // `W:W6,K9:B1`: the squares after each side's letter.
        let pieces: usize = fen
            .split(':')
            .skip(1)
            .map(|side| side[1..].split(',').filter(|s| !s.is_empty()).count())
            .sum();
        let dir = &dirs.iter().find(|(n, _)| *n == g).expect("a game").1;
        let out = zoo()
            .args([
                "tb",
                "probe",
                "--game",
                game(&g),
                "--fen",
                &fen,
                "--json",
                "--dir",
            ])
            .arg(dir)
            .output()
            .unwrap();
        if !out.status.success() {
            // Cases of more pieces than the 3 built here are the library
            // tests' (under ZOO_CHECKERS_TB_PIECES=4).
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(pieces > 3 && err.contains("no table for"), "{fen}: {err}");
            continue;
        }
        let r = result(&out.stdout);
        assert_eq!(r["value"], value.as_str(), "{fen}: {r}");
        assert_eq!(r["distance"], distance, "{fen}: {r}");
        // The best move is valued one ply over what it leads to.
        if let Some(best) = r["moves"].as_array().and_then(|m| m.first()) {
            assert_eq!(best["value"], value.as_str(), "{fen}: {r}");
            assert_eq!(best["distance"].as_u64(), Some(distance), "{fen}: {r}");
        }
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} cases of ≤ 3 pieces");
}

#[test]
fn stats_size_verify_and_manifest_agree_on_the_tables() {
    let dir = built("checks", "english-checkers", "3");
    let g = "english-checkers";
    let stats = json_of(&["tb", "stats", "--game", g, "--pieces", "3"], &dir);
    let positions = stats["positions"].as_u64().unwrap();
    assert!(positions > 0);
    assert_eq!(
        positions,
        ["wins", "losses", "draws"]
            .iter()
            .map(|k| stats[k].as_u64().unwrap())
            .sum::<u64>()
    );
    // Every 3-piece material has a file, each of its entries stored.
    let size = json_of(&["tb", "size", "--game", g], &dir);
    let three = &size["families"][1];
    assert_eq!(three["pieces"], 3, "{size}");
    assert_eq!(three["files"], three["materials"], "{size}");
    assert!(three["entries"].as_u64().unwrap() >= positions, "{size}");
    let verify = json_of(&["tb", "verify", "--game", g, "--pieces", "3"], &dir);
    assert_eq!(
        verify["failed"].as_array().map(Vec::len),
        Some(0),
        "{verify}"
    );
    let sample = json_of(
        &[
            "tb",
            "verify",
            "--game",
            g,
            "--pieces",
            "3",
            "--positions",
            "200",
            "--seed",
            "5",
        ],
        &dir,
    );
    assert_eq!(
        sample["failed"].as_array().map(Vec::len),
        Some(0),
        "{sample}"
    );
    // Every entry drawn was compared with its colour swap too: every
    // 3-piece table is there.
    let out = zoo()
        .args(["tb", "verify", "--game", g, "--pieces", "3"])
        .args(["--positions", "200", "--seed", "5", "--json", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let game: serde_json::Value = text
        .lines()
        .find(|l| l.contains(r#""type":"game""#))
        .map(|l| serde_json::from_str(l).unwrap())
        .expect("the game's report");
    assert!(game["colour_swaps"].as_u64() > Some(0), "{game}");
    assert_eq!(game["colour_swaps"], game["positions"], "{game}");
    zoo()
        .args(["tb", "manifest", "--game", g, "--dir"])
        .arg(&dir)
        .assert()
        .success();
    zoo()
        .args(["tb", "manifest", "--game", g, "--check", "--dir"])
        .arg(&dir)
        .assert()
        .success();
    // A table changed after the manifest is named by the check.
    let file = dir.join("english-checkers/english/KvKK.zootb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let out = zoo()
        .args(["tb", "manifest", "--game", g, "--check", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("KvKK"));
}

#[test]
fn what_checkers_tables_cannot_do_is_refused_with_the_reason() {
    let dir = fresh("refused");
    for (args, want) in [
        (
            vec!["tb", "build", "--game", "english-checkers", "--pieces", "9"],
            "2 to",
        ),
        (
            vec![
                "tb",
                "build",
                "--game",
                "english-checkers",
                "--material",
                "KKKKKvKKKK",
            ],
            "not a material",
        ),
        (
            vec!["tb", "wdl", "--game", "english-checkers", "--pieces", "3"],
            "animal games",
        ),
        (
            vec![
                "tb",
                "build",
                "--game",
                "classical-checkers",
                "--rules",
                "nonsense",
                "--pieces",
                "2",
            ],
            "nonsense",
        ),
    ] {
        let out = zoo().args(&args).arg("--dir").arg(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // The start position is no table's.
    let dir = built("start", "english-checkers", "2");
    let out = zoo()
        .args(["tb", "probe", "--game", "english-checkers", "--fen"])
        .arg("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("24 pieces"));
}

/// One material and what it needs: `KKvK` reads `KvK` and `KKvK` itself
/// only.
#[test]
fn a_material_is_built_with_the_tables_it_needs() {
    let dir = fresh("material");
    let built = json_of(
        &[
            "tb",
            "build",
            "--game",
            "english-checkers",
            "--material",
            "KKvK",
        ],
        &dir,
    );
    assert_eq!(built["built"], 2);
    let mut names: Vec<String> = std::fs::read_dir(dir.join("english-checkers/english"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["KKvK.zootb", "KvK.zootb"]);
}

/// Ctrl-C ends a build between two levels of a table; the tables written
/// stay whole, and the same command finishes the rest.
#[cfg(unix)]
#[test]
fn a_build_stopped_by_ctrl_c_resumes() {
    let dir = fresh("resume");
    let args = |d: &Path| -> Vec<String> {
        [
            "tb",
            "build",
            "--game",
            "classical-checkers",
            "--pieces",
            "4",
            "--threads",
            "1",
            "--dir",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([d.display().to_string()])
        .collect()
    };
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("zoo"))
        .args(args(&dir))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    crate::common::signal(child.id(), "INT");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let files = |d: &Path| {
        std::fs::read_dir(d.join("classical-checkers/classical"))
            .map(|r| r.count())
            .unwrap_or(0)
    };
    let before = files(&dir);
    assert!(before < 41, "the build ended before it was stopped");
    // No temporary file is left as a table.
    zoo()
        .args(["tb", "build"])
        .args(&args(&dir)[2..])
        .assert()
        .success();
    assert_eq!(files(&dir), 41);
    let v = json_of(
        &[
            "tb",
            "verify",
            "--game",
            "classical-checkers",
            "--pieces",
            "4",
        ],
        &dir,
    );
    assert_eq!(v["failed"].as_array().map(Vec::len), Some(0), "{v}");
}

/// The engine reads the tables in its search, and the solver takes them
/// as its oracle: two kings against one is a win in 33 plies.
#[test]
fn the_engine_and_the_solver_use_the_tables() {
    let dir = built("use", "english-checkers", "3");
    let fen = "W:WK3,K4:BK16";
    let out = zoo()
        .args([
            "analyse",
            "--game",
            "english-checkers",
            "--fen",
            fen,
            "--depth",
            "4",
            "--tb",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("mate +33"), "{text}");
    assert!(!text.contains("tb hits 0"), "{text}");
    let out = zoo()
        .args([
            "solve",
            "--game",
            "english-checkers",
            "--fen",
            fen,
            "--goal",
            "value",
            "--tb",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("value: win"), "{text}");
}

/// A size built only in part (as the 7-piece slices are, a build at a
/// time): the engine and the solver use the tables of it that are there
/// and search where one is missing. Here the tables up to 3 pieces and
/// one of 4, `KKKvK`.
#[test]
fn a_size_built_in_part_is_used_where_its_tables_are() {
    let dir = built("partial", "english-checkers", "3");
    zoo()
        .args([
            "tb",
            "build",
            "--game",
            "english-checkers",
            "--material",
            "KKKvK",
            "--dir",
        ])
        .arg(&dir)
        .assert()
        .success();
    let analyse = |fen: &str| {
        let args = [
            "analyse",
            "--game",
            "english-checkers",
            "--fen",
            fen,
            "--depth",
            "3",
        ];
        json_with(&args, "--tb", &dir)
    };
    let probe = |fen: &str| {
        let out = zoo()
            .args([
                "tb",
                "probe",
                "--game",
                "english-checkers",
                "--fen",
                fen,
                "--dir",
            ])
            .arg(&dir)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines().nth(1).expect("the value line").to_string()
    };
    let fen = "W:WK1,K2,K3:BK32";
    let a = analyse(fen);
    let tables = &a["tablebase"];
    // Complete up to 3 pieces; the 4-piece table there is named.
    assert_eq!(tables["max_pieces"], 3, "{a}");
    let text = tables["description"].as_str().unwrap();
    assert!(text.contains("up to 3 pieces, and 1 of the"), "{text}");
    assert!(text.ends_with("tables of 4 pieces"), "{text}");
    // The root and the search's leaves are the table's.
    let want = probe(fen);
    assert!(want.starts_with("win in "), "{want}");
    assert!(want.contains(tables["root"].as_str().unwrap()), "{a}");
    let plies: u64 = want["win in ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(a["mate"], plies, "{a}");
    assert!(a["tb_hits"].as_u64().unwrap() > 0, "{a}");
    // The solver takes the table's value at the root: no search.
    let out = zoo()
        .args(["solve", "--game", "english-checkers", "--fen", fen])
        .args(["--goal", "value", "--json", "--tb"])
        .arg(&dir)
        .output()
        .unwrap();
    let s = result(&out.stdout);
    assert_eq!(s["value"], "win", "{s}");
    assert_eq!(s["answers"][0]["nodes"], 0, "{s}");
    // The size's stats count the table there and say how many are not.
    let of: usize = text
        .split("and 1 of the ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let st = json_of(
        &["tb", "stats", "--game", "english-checkers", "--pieces", "4"],
        &dir,
    );
    assert_eq!(st["missing"], of - 1, "{st}");
    assert!(st["positions"].as_u64().unwrap() > 0, "{st}");
    // A material of 4 pieces not built: searched, the missing table said.
    let a = analyse("W:WK1,K2:BK31,K32");
    let root = a["tablebase"]["root"].as_str().unwrap();
    assert!(root.contains("no table for KKvKK"), "{a}");
    assert_eq!(a["tb_hits"], 0, "{a}");
}

/// The plan of every checkers table up to 7 pieces: the counts of the
/// index, each size's tables, the 7-piece tables by slices, each within
/// a 24 GB machine; the rates measured once are read back. Then the
/// 8-piece plan: on one such machine its largest slices are named too
/// large, across 16 machines of 512 GB every one has a place.
#[test]
fn the_plan_counts_every_table_and_slices_seven_pieces() {
    let dir = fresh("plan");
    std::fs::create_dir_all(&dir).unwrap();
    let measured = json_of(
        &[
            "tb",
            "plan",
            "--game",
            "classical-checkers",
            "--pieces",
            "4",
        ],
        &dir,
    );
    assert_eq!(measured["generator"], "generic");
    assert!(measured["calibration"]["seconds"].as_f64().unwrap() > 0.0);
    let rates = dir.join("rates.json");
    std::fs::write(&rates, measured.to_string()).unwrap();
    let p = json_of(
        &[
            "tb",
            "plan",
            "--game",
            "classical-checkers",
            "--pieces",
            "7",
            "--memory-per-machine",
            "19",
            "--rates",
            rates.to_str().unwrap(),
        ],
        &dir,
    );
    let sizes = p["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 6, "{p}");
    // 2–5 pieces: the tables and entries the library's tests count
    // (crates/checkers/tests/data/table-counts.txt).
    let counts = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../checkers/tests/data/table-counts.txt"
    ))
    .unwrap();
    let mut compared = 0;
    for line in counts.lines().filter(|l| l.starts_with("classical")) {
        let w: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        let s = &sizes[w[0] as usize - 2];
        assert_eq!(s["configurations"].as_u64(), Some(w[1]), "{line}");
        assert_eq!(s["positions"].as_u64(), Some(w[2]), "{line}");
        compared += 1;
    }
    assert_eq!(compared, 4);
    // 7 pieces are planned by slices: every one fits 19 GB (whole, the
    // largest 7-piece tables needed about 45 GB), each named for its
    // material and leads.
    let configs = p["configurations"].as_array().unwrap();
    assert!(
        configs.iter().all(|c| c["placement"] != "does_not_fit"),
        "{p}"
    );
    assert_eq!(sizes[5]["in_files"], 0, "{p}");
    assert_eq!(sizes[4]["in_files"], 0, "a 6-piece table does not fit: {p}");
    let sevens: Vec<&str> = configs
        .iter()
        .filter(|c| c["pieces"] == 7)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        sevens.len() as u64,
        sizes[5]["configurations"].as_u64().unwrap()
    );
    for n in &sevens {
        let (m, leads) = n.split_once('-').expect("a slice's name");
        assert_eq!(
            m.chars().filter(|&c| c == 'K' || c == 'M').count(),
            7,
            "{n}"
        );
        assert!(
            leads.len() == 2 && leads.bytes().all(|b| (b'0'..=b'7').contains(&b)),
            "{n}"
        );
    }
    let largest = configs
        .iter()
        .filter(|c| c["pieces"] == 7)
        .map(|c| c["working_bytes"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(largest < 12_000_000_000, "a slice needs {largest} bytes");

    // 8 pieces are planned (not built): every material of 8 pieces, one
    // a side at least, (w + 1)·(8 − w + 1) of them for w pieces White's;
    // on 16 machines of 512 GB every table finds one.
    let plan8 = |machines: &[&str]| {
        let mut args = vec![
            "tb",
            "plan",
            "--game",
            "classical-checkers",
            "--pieces",
            "8",
            "--only",
            "--rates",
            rates.to_str().unwrap(),
        ];
        args.extend_from_slice(machines);
        json_of(&args, &dir)
    };
    let p8 = plan8(&["--machines", "16", "--memory-per-machine", "512"]);
    let eight = &p8["sizes"].as_array().unwrap()[0];
    let materials: u64 = (1..8).map(|w| (w + 1) * (8 - w + 1)).sum();
    assert_eq!(eight["pieces"], 8, "{p8}");
    let named: std::collections::HashSet<&str> = p8["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().split('-').next().unwrap())
        .collect();
    assert_eq!(
        named.len() as u64,
        materials,
        "every material, by slices: {p8}"
    );
    assert!(eight["configurations"].as_u64().unwrap() > materials);
    assert!(p8["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["placement"] != "does_not_fit"));
    let one = plan8(&["--memory-per-machine", "19"]);
    let too_large = one["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["placement"] == "does_not_fit")
        .count();
    assert!(too_large > 0, "{one}");
    assert_eq!(one["sizes"][0]["in_files"].as_u64(), Some(too_large as u64));
}
