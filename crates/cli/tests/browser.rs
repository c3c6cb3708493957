//! The page end to end in headless Chromium, driven by Playwright
//! (`tests/browser/browser.mjs`): clicks a move, sees the engine answer,
//! undoes it, sets a FEN and finishes a game, streams an analysis, reads a
//! table value, and takes screenshots. It needs Chromium and Node.js with
//! the script's package installed (`.ci/run` installs them); without them
//! it fails and says what to install, it does not skip. Plain `cargo test`
//! leaves it out (`#[ignore]`), so that any machine with Rust passes it;
//! `cargo xtask test` installs what it needs and runs it with
//! `--include-ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

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
    // The 2-piece Jungle Checkers tables, for the page's table value.
    let tables = std::env::temp_dir().join(format!("zoo-web-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tables);
    let set = zoo_app::TableSet::new(zoo_app::GameKind::JungleCheckers, None, &tables).unwrap();
    let plan = set
        .plan(&zoo_app::BuildRequest {
            pieces: 2,
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
    let config = zoo_web::Config {
        tables: Some(tables.clone()),
        max_movetime_ms: 2000,
        ..zoo_web::Config::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        zoo_web::serve("127.0.0.1:0", config, |addr| tx.send(addr).unwrap()).unwrap();
    });
    let addr = rx.recv().unwrap();
    let shots: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let out = Command::new("node")
        .arg(here.join("browser.mjs"))
        .arg(format!("http://{addr}/"))
        .arg(&shots)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    println!("{stdout}");
    let _ = std::fs::remove_dir_all(&tables);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for game in [
        "jungle",
        "jungle-checkers",
        "classical-checkers",
        "english-checkers",
        "prove",
    ] {
        let png = shots.join(format!("{game}.png"));
        assert!(
            std::fs::metadata(&png).is_ok_and(|m| m.len() > 1000),
            "no screenshot {}",
            png.display()
        );
    }
}
