//! Connections: an accept loop over hyper's HTTP/1 server with the limits
//! `axum::serve` does not set (issue 33): a header timeout that also ends
//! idle kept-alive connections, a write timeout for clients that do not
//! read, a cap on connections at once, and a shutdown that waits for
//! answers under way at most [`crate::Config::shutdown_ms`]. (The body's
//! time and size caps are in the router's checks, [`crate::router`].)

use crate::{router, Config};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io::Write as _;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

/// The HTTP/1 connection settings of `config`.
fn builder(config: &Config) -> http1::Builder {
    let mut b = http1::Builder::new();
    b.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(config.header_timeout_ms.max(1)));
    b
}

/// Serves `app` on one connection `io` (a socket, or bytes in memory for
/// the fuzz target) until the client closes it or a limit of `config`
/// ends it.
pub async fn serve_connection<I>(io: I, app: Router, config: &Config)
where
    I: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let io = timed(io, config);
    let _ = builder(config)
        .serve_connection(TokioIo::new(io), TowerToHyperService::new(app))
        .await;
}

fn timed<I: AsyncRead + AsyncWrite>(
    io: I,
    config: &Config,
) -> std::pin::Pin<Box<TimeoutStream<I>>> {
    let mut io = TimeoutStream::new(io);
    io.set_write_timeout(Some(Duration::from_millis(config.write_timeout_ms.max(1))));
    Box::pin(io)
}

/// Serves the board and the API on `listener` until `shutdown` completes;
/// then stops accepting, lets answers under way finish for at most
/// [`Config::shutdown_ms`], and returns (connections still open are
/// dropped with the runtime).
pub async fn serve_on(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let app = router(config.clone());
    let builder = builder(&config);
    let open = Arc::new(Semaphore::new(
        config.max_connections.clamp(1, Semaphore::MAX_PERMITS),
    ));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        // A connection over the cap waits in the kernel's queue.
        let permit = tokio::select! {
            p = open.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((s, _)) => s,
                Err(e) => {
                    // Out of file descriptors and the like: wait, and go
                    // on serving the connections there are.
                    // A log line only: a closed standard error must not
                    // end the server.
                    let _ = writeln!(std::io::stderr(), "zoo serve: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let conn = builder.serve_connection(
            TokioIo::new(timed(stream, &config)),
            TowerToHyperService::new(app.clone()),
        );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(
        Duration::from_millis(config.shutdown_ms),
        graceful.shutdown(),
    )
    .await;
    Ok(())
}

/// Serves the board and the API on `addr` until Ctrl-C, on a runtime of
/// its own; `listening` is told the address bound (port 0 picks one).
/// Searches still running at the end are not waited for (a search that
/// cannot stop would otherwise keep the process alive).
pub fn serve(
    addr: &str,
    config: Config,
    listening: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let result = runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        listening(listener.local_addr()?);
        serve_on(listener, config, async {
            if tokio::signal::ctrl_c().await.is_err() {
                // No Ctrl-C to wait for: serve until killed.
                std::future::pending::<()>().await;
            }
        })
        .await
    });
    runtime.shutdown_background();
    result
}
