//! Connection limits (issue 33, finding 3): idle, half-sent and slow-body
//! connections are closed after their timeouts, so is one that does not
//! read its answers, connections over the cap wait, and a stop (Ctrl-C) ends the server within its deadline even with
//! a half-sent request open.

use crate::common;

use common::{closed_within, start};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use zoo_web::client::request;
use zoo_web::Config;

fn quick() -> Config {
    Config {
        header_timeout_ms: 400,
        body_timeout_ms: 400,
        ..Config::default()
    }
}

#[tokio::test]
async fn idle_half_sent_and_kept_alive_connections_are_closed() {
    let srv = start(quick()).await;
    // Connected, nothing sent.
    let mut idle = TcpStream::connect(srv.addr).await.unwrap();
    // Headers begun, never ended.
    let mut half = TcpStream::connect(srv.addr).await.unwrap();
    half.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // One request answered, the connection kept and left idle.
    let mut kept = TcpStream::connect(srv.addr).await.unwrap();
    kept.write_all(b"GET /api/levels HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let t = Instant::now();
    for (name, s) in [
        ("idle", &mut idle),
        ("half-sent", &mut half),
        ("kept", &mut kept),
    ] {
        assert!(
            closed_within(s, Duration::from_secs(3)).await,
            "the {name} connection was kept open"
        );
    }
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // The server goes on serving.
    let (status, _) = request(srv.addr, "GET", "/api/games", None).await.unwrap();
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408() {
    let srv = start(quick()).await;
    let mut s = TcpStream::connect(srv.addr).await.unwrap();
    s.write_all(
        b"POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\":",
    )
    .await
    .unwrap();
    let t = Instant::now();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(3), s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("{\"error\":"), "{text}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[tokio::test]
async fn connections_over_the_cap_wait_for_one_to_close() {
    let srv = start(Config {
        max_connections: 2,
        ..Config::default()
    })
    .await;
    let a = TcpStream::connect(srv.addr).await.unwrap();
    let _b = TcpStream::connect(srv.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let third = tokio::spawn(request(srv.addr, "GET", "/api/games", None));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!third.is_finished(), "a third connection was served");
    drop(a);
    let r = tokio::time::timeout(Duration::from_secs(3), third).await;
    assert!(matches!(r, Ok(Ok(Ok((200, _))))), "{r:?}");
}

#[tokio::test]
async fn a_client_that_does_not_read_its_answers_is_dropped() {
    // One connection at a time: the second request is served only once
    // the server has given up on the first client.
    let srv = start(Config {
        max_connections: 1,
        write_timeout_ms: 400,
        ..Config::default()
    })
    .await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stuck = socket.connect(srv.addr).await.unwrap();
    let (mut from_server, mut to_server) = stuck.into_split();
    // Pipelined requests, as many as the server reads; their answers are
    // never read, so the server's writes block once the buffers are full.
    let writer = tokio::spawn(async move {
        let one = b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n";
        while to_server.write_all(one).await.is_ok() {}
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    let r = tokio::time::timeout(
        Duration::from_secs(5),
        request(srv.addr, "GET", "/api/games", None),
    )
    .await;
    assert!(matches!(r, Ok(Ok((200, _)))), "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    // The dropped client finds its connection closed once it reads.
    assert!(closed_within(&mut from_server, Duration::from_secs(3)).await);
    writer.abort();
}

#[tokio::test]
async fn a_stop_ends_the_server_within_its_deadline_despite_a_half_sent_request() {
    let srv = start(Config {
        shutdown_ms: 500,
        ..Config::default()
    })
    .await;
    let mut half = TcpStream::connect(srv.addr).await.unwrap();
    half.write_all(b"POST /api/analyse HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t = Instant::now();
    srv.stop.send(()).unwrap();
    let r = tokio::time::timeout(Duration::from_secs(3), srv.done).await;
    assert!(matches!(r, Ok(Ok(Ok(())))), "{r:?}");
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "{:?}",
        t.elapsed()
    );
}
