//! A search that cannot stop must not stop the server (issue 33, finding
//! 1). The trigger reported was a table file replaced by a FIFO, which
//! blocked the search opening it; such a file is now refused, so the
//! first test checks that it is (the search answers, without the table),
//! and the second makes searches slow to stop with the server's test hook
//! (`stall_ms`). The client leaves; the server must go on answering at
//! once, answer a client that stays within the cap and a second, free the
//! search's slot at its deadline, bound the searches so abandoned, and
//! take searches again once they end.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use zoo_app::{BuildRequest, GameKind, TableSet};
use zoo_web::client::request;
use zoo_web::Config;

/// 2-piece tables with every file a FIFO nobody writes.
fn fifo_tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-web-fifo-tables");
    let _ = std::fs::remove_dir_all(&dir);
    let set = TableSet::new(GameKind::JungleCheckers, None, &dir).unwrap();
    let req = BuildRequest {
        pieces: 2,
        ..Default::default()
    };
    let plan = set.plan(&req).unwrap();
    set.build(&plan, &|_| {}, &|_| {}, &AtomicBool::new(false))
        .unwrap();
    let mut replaced = 0;
    replace_with_fifos(&set.table_dir().unwrap(), &mut replaced);
    assert!(replaced > 0, "no table file to replace");
    dir
}

fn replace_with_fifos(dir: &Path, replaced: &mut usize) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "zootb") {
            std::fs::remove_file(&p).unwrap();
            let ok = std::process::Command::new("mkfifo")
                .arg(&p)
                .status()
                .unwrap()
                .success();
            assert!(ok, "mkfifo {}", p.display());
            *replaced += 1;
        }
    }
}

/// The server on a runtime of its own (one worker, as a small machine
/// has), so that a blocked worker shows as a server that stops answering.
fn start(config: Config) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            zoo_web::serve_on(listener, config, std::future::pending())
                .await
                .unwrap();
        })
    });
    rx.recv().unwrap()
}

const STUCK: &str = r#"{"game":"jungle-checkers","fen":"7/7/3d3/7/7/7/E6 w","movetime_ms":500}"#;

/// `STUCK` asked of the server at `addr`: the answer's status and body,
/// and how long it took.
async fn ask_stuck(addr: SocketAddr) -> (u16, String, Duration) {
    let t = Instant::now();
    let (status, body) = request(addr, "POST", "/api/analyse", Some(STUCK))
        .await
        .unwrap();
    (status, body, t.elapsed())
}

async fn games_answers_quickly(addr: SocketAddr) {
    let t = Instant::now();
    let r = tokio::time::timeout(
        Duration::from_secs(3),
        request(addr, "GET", "/api/games", None),
    )
    .await;
    assert!(
        matches!(r, Ok(Ok((200, _)))),
        "GET /api/games did not answer: {r:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_among_the_tables_is_refused_not_opened() {
    let _alone = crate::common::alone().await;
    let addr = start(Config {
        tables: Some(fifo_tables()),
        max_searches: 2,
        max_movetime_ms: 1000,
        ..Config::default()
    });
    let (status, body, took) = ask_stuck(addr).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"table\":null"), "{body}");
    assert!(took < Duration::from_millis(500 + 1000), "{took:?}");
    games_answers_quickly(addr).await;
}

/// How long each search of the second test ignores "stop".
const STALL: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_that_cannot_stop_does_not_stop_the_server() {
    let _alone = crate::common::alone().await;
    let started = Instant::now();
    let addr = start(Config {
        max_searches: 2,
        max_movetime_ms: 1000,
        stall_ms: STALL.as_millis() as u64,
        ..Config::default()
    });

    // A client asks and leaves while the search is stuck.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/analyse HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{STUCK}",
        STUCK.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(s);
    tokio::time::sleep(Duration::from_millis(200)).await;
    games_answers_quickly(addr).await;

    // A client that stays is answered within the cap and a second, with
    // an error that says so, and the server still answers at once.
    let (status, body, took) = ask_stuck(addr).await;
    assert_eq!(status, 504, "{body}");
    assert!(
        body.contains("\"error\"") && body.contains("abandoned"),
        "{body}"
    );
    assert!(
        took < Duration::from_millis(500 + 1000 + 500),
        "the stuck search was not answered in time: {took:?}"
    );
    games_answers_quickly(addr).await;

    // Both slots were freed at their deadlines, but the two abandoned
    // searches still run: they are bounded too, so a third is refused
    // with a reason rather than left to pile up.
    let (status, body) = request(addr, "POST", "/api/analyse", Some(STUCK))
        .await
        .unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("did not stop"), "{body}");
    games_answers_quickly(addr).await;

    // Once the stuck searches end (the second started about half a
    // second after the first), a search is taken again: it stalls in its
    // turn, so it ends in 504, but it is not refused with 503.
    tokio::time::sleep(
        (started + STALL + Duration::from_millis(1500)).saturating_duration_since(Instant::now()),
    )
    .await;
    let (status, body) = request(addr, "POST", "/api/analyse", Some(STUCK))
        .await
        .unwrap();
    assert_eq!(status, 504, "{body}");
}

/// A search starved after its first iteration (its thread at nice 19
/// while other programs take the cores; here the server's test hook
/// `stall_after_ms`) is answered at its deadline with that iteration's
/// move, marked late, by both the answer and the stream: a player's game
/// goes on instead of stopping at "the engine could not move".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_starved_search_answers_with_its_last_iteration() {
    let _alone = crate::common::alone().await;
    let addr = start(Config {
        max_searches: 2,
        max_movetime_ms: 1000,
        stall_after_ms: STALL.as_millis() as u64,
        ..Config::default()
    });
    let (status, body, took) = ask_stuck(addr).await;
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["late"], true, "{body}");
    assert!(v["bestmove"].is_string(), "{body}");
    assert_eq!(v["bestmove"], v["pv"][0], "{body}");
    assert!(took < Duration::from_millis(500 + 1000 + 500), "{took:?}");

    let t = Instant::now();
    let (status, body) = request(
        addr,
        "GET",
        "/api/analyse/stream?game=jungle-checkers&fen=7/7/3d3/7/7/7/E6%20w&movetime_ms=500",
        None,
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("event: iteration"), "{body}");
    let result = body
        .split("event: result\ndata: ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap_or_else(|| panic!("no result event: {body}"));
    let v: serde_json::Value = serde_json::from_str(result).unwrap();
    assert_eq!(v["late"], true, "{body}");
    assert!(v["bestmove"].is_string(), "{body}");
    assert!(!body.contains("event: error"), "{body}");
    assert!(t.elapsed() < Duration::from_millis(500 + 1000 + 500));
    games_answers_quickly(addr).await;
}
