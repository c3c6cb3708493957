//! Every error is the documented JSON `{"error": …}` (bad query strings,
//! unknown paths and methods, bodies over the cap), a page of another site
//! may not change anything or open the event stream (403), and no answer
//! names a path of the server (issue 33, smaller findings).

use crate::common;

use common::{raw, start};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use zoo_app::{BuildRequest, GameKind, TableSet};
use zoo_web::Config;

fn error_of(status: u16, body: &str) -> String {
    let v: Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("HTTP {status}: not JSON ({e}): {body:?}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("HTTP {status}: no error: {body}"))
        .to_string()
}

#[tokio::test]
async fn every_error_is_json() {
    let srv = start(Config::default()).await;
    let big = "x".repeat(70 << 10);
    let cases = [
        (
            "GET /api/analyse/stream?game=jungle&movetime_ms=soon HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".to_string(),
            400,
            "movetime_ms",
        ),
        (
            "GET /api/analyse/stream?depth=%ZZ HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".to_string(),
            400,
            "query",
        ),
        (
            "GET /no/such/page HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".to_string(),
            404,
            "/no/such/page",
        ),
        (
            "GET /api/position HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".to_string(),
            405,
            "GET",
        ),
        (
            format!("POST /api/position HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{big}", big.len()),
            413,
            "too large",
        ),
        (
            "POST /api/position HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}".to_string(),
            400,
            "Content-Type",
        ),
    ];
    for (req, want_status, want_text) in cases {
        let (status, body) = raw(srv.addr, &req).await;
        let line = req.lines().next().unwrap_or("");
        assert_eq!(status, want_status, "{line}: {body}");
        let e = error_of(status, &body);
        assert!(e.contains(want_text), "{line}: {e}");
    }
}

#[tokio::test]
async fn another_sites_page_may_not_post_or_stream() {
    let srv = start(Config::default()).await;
    let body = r#"{"game":"jungle"}"#;
    let post = |origin: &str| {
        format!(
            "POST /api/position HTTP/1.1\r\nHost: {}\r\n{origin}Connection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            srv.addr,
            body.len()
        )
    };
    // curl and scripts send no Origin; the board's own page sends its own.
    let (s, b) = raw(srv.addr, &post("")).await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = raw(srv.addr, &post(&format!("Origin: http://{}\r\n", srv.addr))).await;
    assert_eq!(s, 200, "{b}");
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let (s, b) = raw(srv.addr, &post(&format!("Origin: {origin}\r\n"))).await;
        assert_eq!(s, 403, "{origin}: {b}");
        assert!(error_of(s, &b).contains("another site"), "{b}");
    }
    let stream = format!(
        "GET /api/analyse/stream?game=jungle&depth=1 HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n",
        srv.addr
    );
    let (s, b) = raw(srv.addr, &stream).await;
    assert_eq!(s, 403, "{b}");
    // Reading the page and the games is not guarded.
    let games = format!(
        "GET /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n",
        srv.addr
    );
    assert_eq!(raw(srv.addr, &games).await.0, 200);
}

/// `POST /api/probe` with `body` on a connection of its own.
async fn probe(addr: std::net::SocketAddr, body: &str) -> (u16, String) {
    let req = format!(
        "POST /api/probe HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, &req).await
}

/// The 2-piece Jungle Checkers tables, built in a directory `name` of
/// the tests' own.
fn two_piece_tables(name: &str) -> (PathBuf, TableSet) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let set = TableSet::new(GameKind::JungleCheckers, None, &dir).unwrap();
    let plan = set
        .plan(&BuildRequest {
            pieces: 2,
            ..Default::default()
        })
        .unwrap();
    set.build(&plan, &|_| {}, &|_| {}, &AtomicBool::new(false))
        .unwrap();
    (dir, set)
}

#[tokio::test]
async fn a_table_error_names_no_server_path() {
    let (dir, set) = two_piece_tables("zoo-web-errors-tables");
    // The table the position needs is gone.
    for e in std::fs::read_dir(set.table_dir().unwrap()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "zootb") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let srv = start(Config {
        tables: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    let (status, answer) = probe(
        srv.addr,
        r#"{"game":"jungle-checkers","fen":"7/7/3d3/7/7/7/E6 w"}"#,
    )
    .await;
    assert!(status >= 400, "{status}: {answer}");
    let e = error_of(status, &answer);
    let abs = dir.canonicalize().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    assert!(
        !answer.contains(abs.to_str().unwrap()) && !answer.contains(name),
        "a server path in {answer}"
    );
    assert!(e.contains("<tables>") || e.contains("table"), "{e}");
}

/// A damaged table's error names the table (its material's file under
/// `<tables>`), still with no server path (issue #51: it said only "table
/// file <tables> refused").
#[tokio::test]
async fn a_damaged_tables_error_names_its_material() {
    let (dir, set) = two_piece_tables("zoo-web-errors-damaged");
    // Every byte past the header of the elephant-against-dog table flipped.
    let file = set.table_dir().unwrap().join("Evd.zootb");
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    for b in &mut bytes[100..n - 8] {
        *b ^= 0x5a;
    }
    std::fs::write(&file, bytes).unwrap();
    let srv = start(Config {
        tables: Some(dir.clone()),
        ..Config::default()
    })
    .await;
    let (status, answer) = probe(
        srv.addr,
        r#"{"game":"jungle-checkers","fen":"7/7/3d3/7/7/3E3/7 w"}"#,
    )
    .await;
    assert!(status >= 400, "{status}: {answer}");
    let e = error_of(status, &answer);
    assert!(e.contains("<tables>/") && e.contains("Evd.zootb"), "{e}");
    let abs = dir.canonicalize().unwrap();
    assert!(
        !answer.contains(abs.to_str().unwrap()),
        "a server path in {answer}"
    );
}
