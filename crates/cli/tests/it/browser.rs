//! The page end to end in headless Chromium, driven by Playwright
//! (`crates/web/tests/browser/browser.mjs`) against a real `zoo serve`
//! (this package's binary, which the script starts, stops and starts
//! again): for each game a whole game against the engine and the races
//! of docs/web.md, then reload, link, keyboard, phone size and axe-core;
//! the screenshots go to target/ (to docs/web/ with
//! `ZOO_SCREENSHOTS=docs/web`). It needs Chromium and Node.js with
//! the script's package installed (`.ci/run` installs them); without them
//! it fails and says what to install, it does not skip. Plain `cargo test`
//! leaves it out (`#[ignore]`), so that any machine with Rust passes it;
//! `cargo xtask test` installs what it needs and runs it with
//! `--include-ignored`.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long the shards may take, in seconds, unless
/// `ZOO_BROWSER_TIMEOUT` says: about ten times what they take on the
/// 2-core CI machine (two minutes), so that a hung Chromium or server
/// fails the step with what the shards printed instead of holding CI
/// until its own limit.
const TIMEOUT_S: u64 = 1200;

fn need(found: bool, what: &str) {
    assert!(
        found,
        "the browser test needs {what} (`.ci/run` installs it)"
    );
}

#[test]
#[ignore = "needs Chromium and Node.js: run by `cargo xtask test`"]
fn the_page_plays_in_chromium() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/tests/browser");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    need(
        Path::new(&chromium).exists(),
        &format!("Chromium at {chromium} (Debian: apt-get install chromium; or set CHROMIUM)"),
    );
    need(
        Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success()),
        "Node.js (Debian: apt-get install nodejs)",
    );
    need(
        here.join("node_modules/playwright-core").exists(),
        "playwright-core (npm ci --prefix crates/web/tests/browser)",
    );
    // The 2-piece Jungle Checkers tables and the 3-piece English checkers
    // ones (under a second each), for the page's table values.
    let tables = std::env::temp_dir().join(format!("zoo-web-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tables);
    for (game, pieces) in [
        (zoo_app::GameKind::JungleCheckers, 2),
        (zoo_app::GameKind::EnglishCheckers, 3),
    ] {
        let set = zoo_app::TableSet::new(game, None, &tables).unwrap();
        let plan = set
            .plan(&zoo_app::BuildRequest {
                pieces,
                threads: 1,
                memory_gb: None,
                encoding: None,
                solve_all: false,
                material: None,
                checkpoint_from: None,
            })
            .unwrap();
        set.build(
            &plan,
            &|_| {},
            &|_| {},
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
    }
    // The screenshots go under target/, so that running the tests leaves
    // the checkout as it was; `ZOO_SCREENSHOTS=docs/web` (from the
    // repository's root) takes them anew where docs/web.md shows them.
    let shots: PathBuf = match std::env::var_os("ZOO_SCREENSHOTS") {
        Some(dir) => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(dir),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-screenshots"),
    };
    std::fs::create_dir_all(&shots).unwrap();
    // The script must take them anew: the old ones go first.
    for png in shot_names() {
        let _ = std::fs::remove_file(shots.join(png));
    }
    // The journeys in two shards at once (browser.mjs,
    // ZOO_BROWSER_SHARD), each against a `zoo serve` of its own on a free
    // loopback port, which its script starts, stops and starts again (the
    // server stopped mid-game). Both listeners are held until both ports
    // are known, so that the two differ.
    const SHARDS: usize = 2;
    let listeners: Vec<_> = (0..SHARDS)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let ports: Vec<u16> = listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect();
    drop(listeners);
    let runs: Vec<_> = ports
        .iter()
        .enumerate()
        .map(|(i, port)| {
            Command::new("node")
                .arg(here.join("browser.mjs"))
                .arg(env!("CARGO_BIN_EXE_zoo"))
                .arg(port.to_string())
                .arg(&tables)
                .arg(&shots)
                .env("CHROMIUM", &chromium)
                .env("ZOO_BROWSER_SHARD", format!("{i}/{SHARDS}"))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                // Its own process group, so that a shard past its time
                // is ended with the server it started.
                .process_group(0)
                .spawn()
                .expect("node runs")
        })
        .collect();
    let limit = std::env::var("ZOO_BROWSER_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(TIMEOUT_S);
    let outs = finish(runs, Instant::now() + Duration::from_secs(limit));
    let _ = std::fs::remove_dir_all(&tables);
    for (i, (status, stdout, stderr)) in outs.iter().enumerate() {
        println!("shard {i}/{SHARDS}:\n{stdout}");
        assert!(
            status.is_some_and(|s| s.success()),
            "shard {i}/{SHARDS} {}:\n{stdout}\n{stderr}",
            match status {
                Some(s) => format!("ended with {s}"),
                None =>
                    format!("did not end within {limit} s (ZOO_BROWSER_TIMEOUT) and was killed"),
            }
        );
    }
    for png in shot_names() {
        let png = shots.join(png);
        assert!(
            std::fs::metadata(&png).is_ok_and(|m| m.len() > 1000),
            "no screenshot {}",
            png.display()
        );
    }
}

/// Waits for every shard until `deadline`, reading what they print as
/// they print it (a full pipe would stop them); a shard still running
/// then is killed with its process group. Each shard's exit status (none
/// when killed), standard output and standard error.
fn finish(
    runs: Vec<Child>,
    deadline: Instant,
) -> Vec<(Option<std::process::ExitStatus>, String, String)> {
    // Every shard's pipes are read from the start, not only the one
    // waited for.
    let runs: Vec<_> = runs
        .into_iter()
        .map(|mut child| {
            let out = read_all(child.stdout.take());
            let err = read_all(child.stderr.take());
            (child, out, err)
        })
        .collect();
    runs.into_iter()
        .map(|(mut child, out, err)| {
            let status = loop {
                if let Some(status) = child.try_wait().expect("node's status") {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    let _ = Command::new("kill")
                        .args(["-KILL", "--", &format!("-{}", child.id())])
                        .status();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(200));
            };
            (status, out.join().unwrap(), err.join().unwrap())
        })
        .collect()
}

/// All that `pipe` gives, read on a thread of its own: a shard's two
/// pipes are read at once, so that neither fills while the other is read.
fn read_all<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut text);
        }
        String::from_utf8_lossy(&text).into_owned()
    })
}

/// The screenshots the script takes: every game at desktop and phone size,
/// the prove button's answer, a capture's paths, and the features
/// docs/web.md shows (several lines, the review, the clocks, a variation,
/// the editor's row of pieces).
fn shot_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "prove.png",
        "capture-paths.png",
        "multipv.png",
        "review.png",
        "clocks.png",
        "variations.png",
        "editor.png",
    ]
    .map(String::from)
    .to_vec();
    for game in [
        "jungle",
        "jungle-checkers",
        "classical-checkers",
        "english-checkers",
    ] {
        for size in ["desktop", "phone"] {
            names.push(format!("{game}-{size}.png"));
        }
    }
    names
}
