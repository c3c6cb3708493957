//! What the server tests share: a server on a port of its own with a
//! shutdown switch, and a client that sends raw bytes.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use zoo_web::Config;

/// A running server: its address, the switch that stops it (as Ctrl-C
/// does) and the task that ends when it has stopped.
pub struct Running {
    pub addr: SocketAddr,
    pub stop: oneshot::Sender<()>,
    pub done: JoinHandle<std::io::Result<()>>,
}

pub async fn start(config: Config) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let done = tokio::spawn(zoo_web::serve_on(listener, config, async move {
        let _ = stopped.await;
    }));
    Running { addr, stop, done }
}

/// Sends `raw` and reads the answer until the server closes (or 5 s).
pub async fn raw(addr: SocketAddr, raw: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(raw.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// Whether the server closes `s` within `within` (reading whatever it
/// sends first).
pub async fn closed_within(s: &mut (impl tokio::io::AsyncRead + Unpin), within: Duration) -> bool {
    let mut buf = vec![0u8; 1 << 16];
    let read_to_end = async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(within, read_to_end).await.is_ok()
}

/// Held by the tests that measure this process (its memory under a flood)
/// or hold the server to its time caps under load: in one test binary
/// they would otherwise run beside each other, each one's load breaking
/// the other's measure. The tests of one file ran side by side before the
/// files shared a binary, and still do.
pub async fn alone() -> tokio::sync::MutexGuard<'static, ()> {
    // tokio's lock: it is held across the test's awaits, and each test
    // has a runtime of its own.
    static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ALONE.lock().await
}
