//! A short property-based fuzz of the API's request bodies, posted to a
//! running server: whatever the body, an answer (200, 400 or 413), never
//! a dropped connection, and the server keeps serving.

use proptest::prelude::*;
use zoo_web::client::request;
use zoo_web::Config;

fn body() -> impl Strategy<Value = String> {
    let game = prop_oneof![
        Just("jungle".to_string()),
        Just("jungle-checkers".to_string()),
        Just("classical-checkers".to_string()),
        any::<String>()
    ];
    let moves = prop::collection::vec(
        prop_oneof![
            Just("c2c3".to_string()),
            Just("12-16".to_string()),
            any::<String>()
        ],
        0..4,
    );
    let fen = prop::option::of(any::<String>());
    prop_oneof![
        any::<String>(),
        (game, moves, fen).prop_map(|(g, m, f)| {
            serde_json::json!({"game": g, "moves": m, "fen": f}).to_string()
        }),
    ]
}

#[test]
fn any_body_gets_an_answer() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let addr = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            zoo_web::serve_on(listener, Config::default(), std::future::pending())
                .await
                .unwrap()
        });
        addr
    });
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(200));
    runner
        .run(&body(), |b| {
            let (status, _) = rt
                .block_on(request(addr, "POST", "/api/position", Some(&b)))
                .unwrap();
            prop_assert!(matches!(status, 200 | 400 | 413), "{status} for {b:?}");
            Ok(())
        })
        .unwrap();
    let (status, _) = rt
        .block_on(request(
            addr,
            "POST",
            "/api/position",
            Some(r#"{"game":"jungle"}"#),
        ))
        .unwrap();
    assert_eq!(status, 200);
}

/// Saved-game texts: random strings and PDN-like move lists, loaded as
/// each game: 200 or 400, never a dropped connection.
#[test]
fn any_saved_text_gets_an_answer() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let addr = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            zoo_web::serve_on(listener, Config::default(), std::future::pending())
                .await
                .unwrap()
        });
        addr
    });
    let game = prop_oneof![
        Just("jungle"),
        Just("classical-checkers"),
        Just("english-checkers"),
    ];
    let text = prop_oneof![
        any::<String>(),
        "(\\[[A-Za-z]{1,5} \"[a-z:0-9,]{0,12}\"\\]\n)?([0-9]{1,2}\\. ?)?([0-9]{1,2}[-x]){1,3}[0-9]{1,2}( \\{[a-z ]*\\})? ?(\\*|1-0|0-1)?",
        "\\{\"game\":\"(jungle|jungle-checkers)\",\"rules\":\"leiden\",\"opening\":\"[0-9a-zA-Z/ ]{0,20}\",\"moves\":\\[(\"[a-g][1-9][a-g][1-9]\",?){0,3}\\]\\}",
    ];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(200));
    runner
        .run(&(game, text), |(g, t)| {
            let b = serde_json::json!({"game": g, "text": t}).to_string();
            let (status, _) = rt
                .block_on(request(addr, "POST", "/api/game/load", Some(&b)))
                .unwrap();
            prop_assert!(matches!(status, 200 | 400), "{status} for {b:?}");
            Ok(())
        })
        .unwrap();
}
