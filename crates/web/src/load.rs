//! A short load on a running server, bounded in count: how many
//! `POST /api/position` it answers a second with several clients at once,
//! and how long a 100 ms analysis takes when several clients ask at once
//! (the issue's load test; `cargo bench -p zoo-web --bench load` prints
//! the figures, `tests/load.rs` checks every answer is right).

use crate::client::request;
use std::net::SocketAddr;
use std::time::Instant;

/// Requests answered and how fast.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    /// Requests sent.
    pub requests: u64,
    /// Answered with anything but 200.
    pub failures: u64,
    /// Wall-clock seconds for all of them.
    pub seconds: f64,
}

impl Throughput {
    /// Requests answered per second.
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.seconds.max(1e-9)
    }
}

/// `clients` clients at once, each sending `each` position requests (the
/// Jungle start and one move) one after the other.
pub async fn positions(addr: SocketAddr, clients: usize, each: usize) -> Throughput {
    let body = r#"{"game":"jungle","moves":["a3a4"]}"#;
    let start = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            tokio::spawn(async move {
                let mut failures = 0u64;
                for _ in 0..each {
                    match request(addr, "POST", "/api/position", Some(body)).await {
                        Ok((200, _)) => {}
                        _ => failures += 1,
                    }
                }
                failures
            })
        })
        .collect();
    let mut failures = 0;
    for t in tasks {
        failures += t.await.unwrap_or(each as u64);
    }
    Throughput {
        requests: (clients * each) as u64,
        failures,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The time each of `clients` analyses of `movetime_ms` took, asked at
/// once; `None` for one that failed.
pub async fn analyses(addr: SocketAddr, clients: usize, movetime_ms: u64) -> Vec<Option<f64>> {
    let body = format!(r#"{{"game":"jungle-checkers","movetime_ms":{movetime_ms}}}"#);
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let body = body.clone();
            tokio::spawn(async move {
                let t = Instant::now();
                match request(addr, "POST", "/api/analyse", Some(&body)).await {
                    Ok((200, _)) => Some(t.elapsed().as_secs_f64() * 1000.0),
                    _ => None,
                }
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.ok().flatten());
    }
    out
}
