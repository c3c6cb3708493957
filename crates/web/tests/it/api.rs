//! The JSON API over a real socket: every endpoint with good and bad
//! input, the body cap, the search cap (time and depth), the limit on
//! searches at once, and a client that goes away mid-search.

use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use zoo_web::client::request;
use zoo_web::Config;

async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        zoo_web::serve_on(listener, config, std::future::pending())
            .await
            .unwrap()
    });
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
    // One slot: said as one (the page once read "runs 1 searches at once").
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("one search at a time"),
        "{v}"
    );
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
    // Several lines: each iteration carries them, best first.
    let (s, text) = request(
        addr,
        "GET",
        "/api/analyse/stream?game=jungle&depth=3&multipv=3",
        None,
    )
    .await
    .unwrap();
    assert_eq!(s, 200, "{text}");
    let last = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .rfind(|d| d.contains("\"lines\""))
        .unwrap_or_else(|| panic!("no lines: {text}"));
    let it: serde_json::Value = serde_json::from_str(last.trim()).unwrap();
    let lines = it["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{it}");
    assert_eq!(lines[0]["pv"], it["pv"]);
    // The answer of a whole search carries its last iteration's lines.
    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"jungle-checkers","depth":3,"multipv":2}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["lines"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["lines"][0]["pv"], v["pv"]);
    for bad in ["0", "17", "x"] {
        let (s, _) = request(
            addr,
            "GET",
            &format!("/api/analyse/stream?game=jungle&depth=3&multipv={bad}"),
            None,
        )
        .await
        .unwrap();
        assert_eq!(s, 400, "multipv={bad}");
    }
    // Everything the page loads, from the binary; its weight stays within
    // the budget docs/web.md states ("Page weight"): no framework, no
    // build step.
    let mut weight = 0;
    for path in [
        "/",
        "/app.js",
        "/board.js",
        "/net.js",
        "/review.js",
        "/clock.js",
        "/tree.js",
        "/lines.js",
        "/editor.js",
        "/style.css",
        "/favicon.svg",
        "/favicon.ico",
        "/pieces/white-rat.svg",
        "/pieces/black-elephant.svg",
    ] {
        let (s, body) = request(addr, "GET", path, None).await.unwrap();
        assert_eq!(s, 200, "{path}");
        assert!(!body.is_empty());
        weight += body.len();
    }
    assert!(weight < 110_000, "the page weighs {weight} bytes");
    let (s, _) = request(addr, "GET", "/pieces/../Cargo.toml", None)
        .await
        .unwrap();
    assert_eq!(s, 404);
    let (s, _) = request(addr, "GET", "/pieces/white-unicorn.svg", None)
        .await
        .unwrap();
    assert_eq!(s, 404);
}

#[tokio::test]
async fn levels_are_listed_and_drive_the_engine() {
    let addr = start(Config {
        max_movetime_ms: 1500,
        ..Config::default()
    })
    .await;
    let (s, text) = request(addr, "GET", "/api/levels", None).await.unwrap();
    assert_eq!(s, 200);
    let v: Value = serde_json::from_str(&text).unwrap();
    let levels = v["levels"].as_array().unwrap();
    let names: Vec<&str> = levels.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["beginner", "club", "strong", "max"]);
    // Each level's time is within the server's cap; max is the cap.
    assert!(levels
        .iter()
        .all(|l| l["movetime_ms"].as_u64().unwrap() <= 1500));
    assert_eq!(levels[3]["movetime_ms"], 1500);
    assert_eq!(levels[0]["depth"], 2);

    let (s, v) = post(
        addr,
        "/api/analyse",
        r#"{"game":"classical-checkers","level":"beginner"}"#,
    )
    .await;
    assert_eq!((s, v["depth"].as_u64()), (200, Some(2)), "{v}");
    for (body, want) in [
        (
            r#"{"game":"jungle","level":"grandmaster"}"#,
            "unknown level",
        ),
        (
            r#"{"game":"jungle","level":"club","movetime_ms":100}"#,
            "not both",
        ),
        (r#"{"game":"jungle","level":3}"#, "bad request body"),
    ] {
        let (s, v) = post(addr, "/api/analyse", body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
    let (s, text) = request(
        addr,
        "GET",
        "/api/analyse/stream?game=english-checkers&level=beginner",
        None,
    )
    .await
    .unwrap();
    assert!(s == 200 && text.contains("event: result"), "{text}");
    let (s, _) = request(
        addr,
        "GET",
        "/api/analyse/stream?game=jungle&level=nope",
        None,
    )
    .await
    .unwrap();
    assert_eq!(s, 400);
}

#[tokio::test]
async fn a_tree_with_variations_and_comments_is_saved_and_loaded() {
    let addr = start(Config::default()).await;
    // The page's tree: 22-18 replaced by 23-19 in a variation, comments.
    let tree = serde_json::json!([
        {"mv": "9-14"},
        {"mv": "22-18", "comment": "the usual {reply}",
         "variations": [[{"mv": "23-19", "comment": "a side line"}, {"mv": "11-15"}]]},
        {"mv": "11-15"}
    ]);
    let body = serde_json::json!({"game": "english-checkers", "comment": "A test", "tree": tree})
        .to_string();
    let (s, v) = post(addr, "/api/game/save", &body).await;
    assert_eq!(s, 200, "{v}");
    let pdn = v["text"].as_str().unwrap().to_string();
    assert!(
        pdn.replace('\n', " ").contains(
            "{A test} 1. 9-14 22-18 {the usual {reply)} (1... 23-19 {a side line} 2. 11-15) 2. 11-15 *"
        ),
        "{pdn}"
    );
    let body = serde_json::json!({"game": "english-checkers", "text": pdn}).to_string();
    let (s, v) = post(addr, "/api/game/load", &body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["moves"], serde_json::json!(["9-14", "22-18", "11-15"]));
    assert_eq!(v["comment"], "A test");
    assert_eq!(v["tree"][1]["comment"], "the usual {reply)");
    assert_eq!(v["tree"][1]["variations"][0][0]["mv"], "23-19");
    assert_eq!(v["tree"][1]["variations"][0][0]["short"], "23-19");
    assert_eq!(v["tree"][1]["variations"][0][1]["mv"], "11-15");
    // The animal games keep it in the JSON line, and name the moves.
    let tree = serde_json::json!([{"mv": "c2c3", "variations": [[{"mv": "e2e3", "comment": "or the tiger"}]]}]);
    let body = serde_json::json!({"game": "jungle-checkers", "tree": tree}).to_string();
    let (s, v) = post(addr, "/api/game/save", &body).await;
    assert_eq!(s, 200, "{v}");
    let text = v["text"].as_str().unwrap().to_string();
    let body = serde_json::json!({"game": "jungle-checkers", "text": text}).to_string();
    let (s, v) = post(addr, "/api/game/load", &body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["tree"][0]["variations"][0][0]["short"], "Te3");
    assert_eq!(v["tree"][0]["variations"][0][0]["comment"], "or the tiger");
    // Refusals name the place and the move.
    for (path, body, want) in [
        (
            "/api/game/load",
            r#"{"game":"english-checkers","text":"1. 9-14 (22-18 *"}"#,
            "PDN line 1, column 9: unterminated variation",
        ),
        (
            "/api/game/load",
            r#"{"game":"english-checkers","text":"1. 9-14 22-18 (22-19) *"}"#,
            "PDN line 1, column 16: move 1... 22-19 in a variation is not legal",
        ),
        (
            "/api/game/save",
            r#"{"game":"english-checkers","tree":[{"mv":"9-14","variations":[[{"mv":"9-15"}]]}]}"#,
            "move 1. 9-15 in a variation is not legal",
        ),
        (
            "/api/game/save",
            r#"{"game":"english-checkers","moves":["10-14"],"tree":[{"mv":"9-14"}]}"#,
            "not the tree's main line",
        ),
    ] {
        let (s, v) = post(addr, path, body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
}

#[tokio::test]
async fn games_are_saved_and_loaded_as_pdn_and_move_lists() {
    let addr = start(Config::default()).await;
    // Checkers: PDN, read back to the same moves.
    let (s, v) = post(
        addr,
        "/api/game/save",
        r#"{"game":"classical-checkers","moves":["9-13","22-18"]}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["format"].as_str(), v["filename"].as_str()),
        (Some("pdn"), Some("classical-checkers.pdn"))
    );
    let pdn = v["text"].as_str().unwrap().to_string();
    assert!(
        pdn.contains("[Rules \"classical\"]") && pdn.contains("9-13"),
        "{pdn}"
    );
    let body = serde_json::json!({"game": "classical-checkers", "text": pdn}).to_string();
    let (s, v) = post(addr, "/api/game/load", &body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["moves"], serde_json::json!(["9-13", "22-18"]));
    assert_eq!(v["result"], "*");
    assert_eq!(v["position"]["side"], "white");
    // PDN written by people: move numbers, a comment, a short capture.
    let body = serde_json::json!({"game": "english-checkers",
        "text": "[Event \"club\"]\n1. 11-15 {a book move} 23-19 2. 8-11 *"})
    .to_string();
    let (s, v) = post(addr, "/api/game/load", &body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["moves"], serde_json::json!(["11-15", "23-19", "8-11"]));
    assert_eq!(v["rules"], "english");

    // The animal games: the move list, which names its own game.
    let (s, v) = post(
        addr,
        "/api/game/save",
        r#"{"game":"jungle-checkers","moves":["c2c3","rb6"]}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["format"], "moves");
    let text = v["text"].as_str().unwrap().to_string();
    assert!(text.starts_with("{\"game\":\"jungle-checkers\""), "{text}");
    let body = serde_json::json!({"game": "classical-checkers", "text": text}).to_string();
    let (s, v) = post(addr, "/api/game/load", &body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["game"], "jungle-checkers");
    assert_eq!(v["moves"], serde_json::json!(["c2c3", "b7b6"]));

    for (path, body, want) in [
        (
            "/api/game/load",
            r#"{"game":"english-checkers","text":"1. 11-15 11-15 *"}"#,
            "11-15",
        ),
        (
            "/api/game/load",
            r#"{"game":"jungle","text":"1. 11-15 *"}"#,
            "PDN is read as a checkers game",
        ),
        (
            "/api/game/load",
            r#"{"game":"jungle","text":"{\"game\":\"jungle\"}"}"#,
            "not a game record",
        ),
        (
            "/api/game/load",
            r#"{"game":"english-checkers","text":""}"#,
            "no game",
        ),
        (
            "/api/game/load",
            r#"{"game":"chess","text":"1. 11-15"}"#,
            "unknown game",
        ),
        (
            "/api/game/load",
            r#"{"game":"jungle","text":"x","name":"y"}"#,
            "bad request body",
        ),
        (
            "/api/game/save",
            r#"{"game":"jungle","moves":["a1a1"]}"#,
            "a1a1",
        ),
    ] {
        let (s, v) = post(addr, path, body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
    // A text over the body cap.
    let big = serde_json::json!({"game": "english-checkers", "text": "1. 11-15 ".repeat(10_000)})
        .to_string();
    let (s, _) = post(addr, "/api/game/load", &big).await;
    assert_eq!(s, 413);
}

#[tokio::test]
async fn prove_answers_within_the_caps() {
    let addr = start(Config {
        max_movetime_ms: 400,
        ..Config::default()
    })
    .await;
    // White's rat steps into the den: a win for the side to move.
    let (s, v) = post(
        addr,
        "/api/prove",
        r#"{"game":"jungle-checkers","fen":"7/3R3/7/7/7/7/e6 w"}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["verdict"].as_str(), v["side"].as_str()),
        (Some("win"), Some("white"))
    );
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    // A checkers man takes the last piece; the goal asked alone.
    let (s, v) = post(
        addr,
        "/api/prove",
        r#"{"game":"classical-checkers","fen":"W:W14:B18","goal":"win"}"#,
    )
    .await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("win")), "{v}");
    let (s, v) = post(
        addr,
        "/api/prove",
        r#"{"game":"classical-checkers","fen":"W:W14:B18","goal":"not-lose"}"#,
    )
    .await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("no loss")), "{v}");
    // The start of Jungle is not solved in the server's time: unknown,
    // well within a few seconds whatever the request asks.
    let t = Instant::now();
    let (s, v) = post(
        addr,
        "/api/prove",
        r#"{"game":"jungle","movetime_ms":100000000}"#,
    )
    .await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("unknown")), "{v}");
    assert_eq!(v["movetime_ms"], 400);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());

    for (body, want) in [
        (r#"{"game":"jungle","goal":"mate"}"#, "unknown goal"),
        (r#"{"game":"jungle","fen":"nonsense"}"#, "nonsense"),
        (
            r#"{"game":"jungle","fen":"7/7/7/7/7/7/7/1t5/1T5 w","moves":["b1b2"]}"#,
            "the game is over",
        ),
        (r#"{"game":"jungle","depth":3}"#, "bad request body"),
    ] {
        let (s, v) = post(addr, "/api/prove", body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
}

#[tokio::test]
async fn a_prove_takes_a_search_slot_and_a_gone_client_frees_it() {
    let addr = start(Config {
        max_searches: 1,
        max_movetime_ms: 4000,
        ..Config::default()
    })
    .await;
    let mut first = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = r#"{"game":"jungle","movetime_ms":4000}"#;
    let head = format!("POST /api/prove HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    tokio::io::AsyncWriteExt::write_all(&mut first, head.as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for path in ["/api/analyse", "/api/prove"] {
        let (s, v) = post(addr, path, r#"{"game":"jungle","movetime_ms":100}"#).await;
        assert_eq!(s, 503, "{path}: {v}");
    }
    drop(first);
    let t = Instant::now();
    loop {
        let (s, _) = post(
            addr,
            "/api/prove",
            r#"{"game":"jungle-checkers","fen":"7/3R3/7/7/7/7/e6 w"}"#,
        )
        .await;
        if s == 200 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_millis(2500),
            "the slot was not freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
