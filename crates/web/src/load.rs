//! Loads on a running server, bounded in count and time: how many
//! `POST /api/position` it answers a second with several clients at once,
//! how long a 100 ms analysis takes when several clients ask at once, and
//! a mixed load ([`mixed`]: every endpoint, many analyses asking for far
//! more than the cap, slow clients) with the peak memory, the latency of a
//! cheap request and the time of each analysis (issue 33;
//! `cargo bench -p zoo-web --bench load` prints the figures,
//! `tests/it/load.rs` checks every answer is right).

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

/// The mixed load of [`mixed`]: how much of each.
#[derive(Clone, Debug)]
pub struct Mix {
    /// Analyses asked at once, each for far more than the server's cap.
    pub analyses: usize,
    /// The server's cap on a search (`Config::max_movetime_ms`): what
    /// each analysis must be answered within, plus [`crate::GRACE`].
    pub cap_ms: u64,
    /// Clients sending cheap requests (`GET /api/games`) one after the
    /// other while the analyses run, each timed.
    pub cheap_clients: usize,
    /// Clients that send a request's headers a byte every 100 ms and
    /// never finish, or connect and send nothing.
    pub slow_clients: usize,
}

/// What [`mixed`] saw.
#[derive(Clone, Debug)]
pub struct MixReport {
    /// Each analysis: its HTTP status and milliseconds to the answer.
    pub analyses: Vec<(u16, f64)>,
    /// Analyses answered 200 with `"late": true`: their search did not
    /// report by its deadline (starved of the CPU), and the answer is its
    /// last finished iteration's move.
    pub starved: usize,
    /// Cheap requests sent, and how many got anything but 200.
    pub cheap: (usize, usize),
    /// Their latency in milliseconds: median and 99th percentile.
    pub cheap_p50_ms: f64,
    /// See `cheap_p50_ms`.
    pub cheap_p99_ms: f64,
    /// Requests to the other endpoints (position, levels, probe, save,
    /// load, the event stream, prove), and how many got no answer.
    pub others: (usize, usize),
    /// Slow clients, and how many the server closed.
    pub slow: (usize, usize),
    /// The process's peak resident size (`VmHWM`), KiB; the server runs
    /// in this process.
    pub max_rss_kib: u64,
}

impl MixReport {
    /// Analyses answered (any status) later than the cap and a second
    /// (with `slack_ms` more for the client's own scheduling).
    pub fn late(&self, cap_ms: u64, slack_ms: u64) -> usize {
        let limit = (cap_ms + crate::GRACE.as_millis() as u64 + slack_ms) as f64;
        self.analyses.iter().filter(|(_, ms)| *ms > limit).count()
    }
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Every endpoint at once against a server at `addr` started with at
/// least `mix.analyses + 2` search slots and `mix.cap_ms` as its cap:
/// `mix.analyses` analyses asking for 10⁹ ms, cheap requests timed the
/// whole while, one of each other endpoint per round, and slow clients.
/// Bounded: it ends when the analyses are answered (each within its cap
/// and a second, or the server is at fault) and the slow clients closed
/// or given up on after the cap and 5 s.
pub async fn mixed(addr: SocketAddr, mix: &Mix) -> MixReport {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let running = Arc::new(AtomicBool::new(true));
    let slow: Vec<_> = (0..mix.slow_clients)
        .map(|i| {
            let give_up = std::time::Duration::from_millis(mix.cap_ms + 5000);
            tokio::spawn(async move {
                let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
                    return false;
                };
                let head = b"POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n";
                let closed = async {
                    let mut buf = [0u8; 512];
                    if i % 2 == 0 {
                        // Nothing sent: wait for the server to close.
                        return matches!(s.read(&mut buf).await, Ok(0) | Err(_));
                    }
                    for b in head.iter().cycle() {
                        if s.write_all(&[*b]).await.is_err() {
                            return true;
                        }
                        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    }
                    false
                };
                tokio::time::timeout(give_up, closed).await.unwrap_or(false)
            })
        })
        .collect();
    let cheap: Vec<_> = (0..mix.cheap_clients)
        .map(|_| {
            let running = running.clone();
            tokio::spawn(async move {
                let mut times = Vec::new();
                let mut failed = 0;
                while running.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    match request(addr, "GET", "/api/games", None).await {
                        Ok((200, _)) => times.push(t.elapsed().as_secs_f64() * 1000.0),
                        _ => failed += 1,
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                (times, failed)
            })
        })
        .collect();
    let others = {
        let running = running.clone();
        tokio::spawn(async move {
            let calls: [(&str, &str, Option<&str>); 8] = [
                (
                    "POST",
                    "/api/position",
                    Some(r#"{"game":"jungle","moves":["a3a4"]}"#),
                ),
                ("GET", "/api/levels", None),
                ("POST", "/api/probe", Some(r#"{"game":"jungle-checkers"}"#)),
                (
                    "POST",
                    "/api/game/save",
                    Some(r#"{"game":"classical-checkers","moves":["9-13"]}"#),
                ),
                (
                    "POST",
                    "/api/game/load",
                    Some(r#"{"game":"english-checkers","text":"1. 9-13 *"}"#),
                ),
                ("GET", "/api/analyse/stream?game=jungle&depth=3", None),
                (
                    "POST",
                    "/api/prove",
                    Some(r#"{"game":"classical-checkers","fen":"W:W14:B18","movetime_ms":200}"#),
                ),
                ("GET", "/", None),
            ];
            let (mut sent, mut failed) = (0, 0);
            while running.load(Ordering::Relaxed) {
                for (method, path, body) in calls {
                    sent += 1;
                    if !matches!(request(addr, method, path, body).await, Ok((s, _)) if s != 0) {
                        failed += 1;
                    }
                }
            }
            (sent, failed)
        })
    };
    let body = r#"{"game":"jungle","movetime_ms":1000000000}"#;
    let analyses: Vec<_> = (0..mix.analyses)
        .map(|_| {
            tokio::spawn(async move {
                let t = Instant::now();
                let (status, starved) =
                    match request(addr, "POST", "/api/analyse", Some(body)).await {
                        Ok((s, answer)) => (s, s == 200 && answer.contains("\"late\":true")),
                        Err(_) => (0, false),
                    };
                (status, t.elapsed().as_secs_f64() * 1000.0, starved)
            })
        })
        .collect();
    let (mut answered, mut starved) = (Vec::new(), 0);
    for a in analyses {
        let (status, ms, late) = a.await.unwrap_or((0, f64::INFINITY, false));
        answered.push((status, ms));
        starved += usize::from(late);
    }
    running.store(false, Ordering::Relaxed);
    let (mut times, mut cheap_failed) = (Vec::new(), 0);
    for c in cheap {
        if let Ok((t, f)) = c.await {
            times.extend(t);
            cheap_failed += f;
        }
    }
    times.sort_by(f64::total_cmp);
    let others = others.await.unwrap_or((0, 0));
    let mut closed = 0;
    for s in slow {
        closed += usize::from(s.await.unwrap_or(false));
    }
    MixReport {
        analyses: answered,
        starved,
        cheap: (times.len() + cheap_failed, cheap_failed),
        cheap_p50_ms: percentile(&times, 0.5),
        cheap_p99_ms: percentile(&times, 0.99),
        others,
        slow: (mix.slow_clients, closed),
        max_rss_kib: peak_rss_kib(),
    }
}
