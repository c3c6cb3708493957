//! A minimal HTTP/1.1 client over a TCP stream, for the doctest, the tests
//! and the load measurement: a GET or a POST with a JSON body, the
//! response body returned as text (`Connection: close`, so the body is
//! what follows the headers until the server closes).

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The status and body of a request.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> std::io::Result<(u16, String)> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await?;
    s.write_all(body.as_bytes()).await?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    Ok((status, body))
}

/// The body of a GET that succeeded.
pub async fn get(addr: SocketAddr, path: &str) -> std::io::Result<String> {
    match request(addr, "GET", path, None).await? {
        (200, body) => Ok(body),
        (status, body) => Err(std::io::Error::other(format!("HTTP {status}: {body}"))),
    }
}
