//! The JSON API over a real socket: every endpoint with good and bad
//! input, the body cap, the search cap (time and depth), the limit on
//! searches at once, and a client that goes away mid-search.

use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use zoo_web::client::request;
use zoo_web::{router, Config};

async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router(config)).await.unwrap() });
    addr
}

async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let (status, text) = request(addr, "POST", path, Some(body)).await.unwrap();
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, v)
}

#[tokio::test]
async fn games_position_and_their_errors() {
    let addr = start(Config::default()).await;
    let (status, text) = request(addr, "GET", "/api/games", None).await.unwrap();
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "jungle",
            "jungle-checkers",
            "classical-checkers",
            "english-checkers"
        ]
    );
    assert_eq!(games["games"][0]["rules"][0], "leiden");

    let (s, v) = post(
        addr,
        "/api/position",
        r#"{"game":"jungle-checkers","moves":["c2c3","rb6"]}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["fen"], "5e1/1rt1d2/7/7/2D4/4T2/1E3R1 w 2");
    assert_eq!(
        (v["side"].as_str(), v["status"]["state"].as_str()),
        (Some("white"), Some("playing"))
    );
    assert!(v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["coord"] == "c3c4" && m["short"] == "Dc4"));
    // A finished game says so.
    let (_, v) = post(
        addr,
        "/api/position",
        r#"{"game":"jungle","fen":"7/7/7/7/7/7/7/1t5/1T5 w","moves":["b1b2"]}"#,
    )
    .await;
    assert_eq!(
        (v["status"]["state"].as_str(), v["winner"].as_str()),
        (Some("over"), Some("white"))
    );

    for (body, want) in [
        (r#"{"game":"chess"}"#, "unknown game"),
        (r#"{"game":"jungle","moves":["a1a1"]}"#, "a1a1"),
        (r#"{"game":"jungle","fen":"nonsense"}"#, "nonsense"),
        (r#"{"game":"jungle","rules":"bogus"}"#, "bogus"),
        (r#"{"game":"jungle","colour":"red"}"#, "bad request body"),
        (r#"{"game":"#, "bad request body"),
        ("", "bad request body"),
    ] {
        let (s, v) = post(addr, "/api/position", body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
    // The server goes on after bad requests.
    let (s, _) = post(addr, "/api/position", r#"{"game":"jungle"}"#).await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn a_body_over_the_cap_is_refused() {
    let addr = start(Config {
        max_body_bytes: 1000,
        ..Config::default()
    })
    .await;
    let big = format!(
        r#"{{"game":"jungle","moves":[{}]}}"#,
        vec!["\"a3a4\""; 400].join(",")
    );
    let (s, _) = post(addr, "/api/position", &big).await;
    assert_eq!(s, 413);
}

#[tokio::test]
async fn analyse_answers_within_the_servers_cap() {
    let addr = start(Config {
        max_movetime_ms: 300,
        ..Config::default()
    })
    .await;
    let t = Instant::now();
    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"jungle","movetime_ms":1000000000}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "not capped: {:?}",
        t.elapsed()
    );
    assert!(
        v["bestmove"].is_string() && v["depth"].as_u64().unwrap() >= 1,
        "{v}"
    );
    assert!(v.get("mate").is_some() && v["pv"].is_array() && v["nodes"].as_u64().unwrap() > 0);
    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"jungle-checkers","depth":3}"#,
    )
    .await;
    assert_eq!((s, v["depth"].as_u64()), (200, Some(3)), "{v}");
    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"jungle","fen":"7/7/7/7/7/7/7/1t5/1T5 w","moves":["b1b2"]}"#,
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("the game is over"));
}

#[tokio::test]
async fn searches_over_the_limit_get_503_and_a_gone_client_frees_its_slot() {
    let addr = start(Config {
        max_searches: 1,
        max_movetime_ms: 3000,
        ..Config::default()
    })
    .await;
    // A long search held by a client that will go away.
    let mut first = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = r#"{"game":"jungle","movetime_ms":3000}"#;
    let head = format!("POST /api/analyse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    tokio::io::AsyncWriteExt::write_all(&mut first, head.as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"jungle","movetime_ms":100}"#,
    )
    .await;
    assert_eq!(s, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("searches at once"));
    // Positions need no slot.
    let (s, _) = post(addr, "/api/position", r#"{"game":"jungle"}"#).await;
    assert_eq!(s, 200);
    drop(first);
    // The dropped client's search stops and frees the slot well before
    // its 3 s would have ended.
    let t = Instant::now();
    loop {
        let (s, _) = post(
            addr,
            "/api/analyse",
            r#"{"game":"jungle","movetime_ms":50}"#,
        )
        .await;
        if s == 200 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_millis(2000),
            "the slot was not freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn probe_needs_tables_and_the_stream_sends_iterations() {
    let addr = start(Config::default()).await;
    let (s, v) = post(addr, "/api/probe", r#"{"game":"jungle-checkers"}"#).await;
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("no tables"), "{v}");
    let (s, text) = request(
        addr,
        "GET",
        "/api/analyse/stream?game=jungle-checkers&moves=c2c3,b7b6&depth=4",
        None,
    )
    .await
    .unwrap();
    assert_eq!(s, 200);
    assert!(
        text.contains("event: iteration") && text.contains("event: result"),
        "{text}"
    );
    let (s, _) = request(addr, "GET", "/api/analyse/stream?game=nope", None)
        .await
        .unwrap();
    assert_eq!(s, 400);
    for path in ["/", "/app.js", "/board.js", "/style.css"] {
        let (s, body) = request(addr, "GET", path, None).await.unwrap();
        assert_eq!(s, 200, "{path}");
        assert!(!body.is_empty());
    }
}
