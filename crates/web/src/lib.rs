//! The web board and JSON API of zoo (`zoo serve`, docs/web.md): an axum
//! router over the application layer's [`zoo_app::Session`], with the
//! page embedded in the binary.
//!
//! ```
//! use zoo_web::{router, Config};
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let app = router(Config::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! let addr = listener.local_addr().unwrap();
//! tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
//! // GET /api/games lists the four games.
//! let body = zoo_web::client::get(addr, "/api/games").await.unwrap();
//! assert!(body.contains("jungle-checkers"));
//! # });
//! ```
//!
//! Bounds (see [`Config`]): request bodies are capped, every search's time
//! and depth are capped by the server whatever the request asks, at most
//! [`Config::max_searches`] run at once (others get 503), and a search
//! stops when its client goes away (the handler's future, which owns the
//! search's session, is dropped, and the session stops its search).
#![warn(missing_docs)]

pub mod api;
pub mod client;
mod error;
pub mod levels;
pub mod load;
mod page;
pub mod prove;
pub mod saved;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::Semaphore;

pub use error::ApiError;

/// How the server runs and what it allows.
#[derive(Debug, Clone)]
pub struct Config {
    /// Endgame tables for probing and for the engine (`--tb`).
    pub tables: Option<PathBuf>,
    /// Search threads per search.
    pub threads: usize,
    /// Searches at once; more get HTTP 503.
    pub max_searches: usize,
    /// The longest search, in milliseconds, whatever a request asks.
    pub max_movetime_ms: u64,
    /// The deepest search, whatever a request asks.
    pub max_depth: u32,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// The proof solver's table (`POST /api/prove`), in MiB.
    pub max_prove_mb: u64,
    /// Each search's hash table, in MiB: a search of a few seconds fills
    /// little of it, and every search at once has its own.
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tables: None,
            threads: 1,
            max_searches: 2,
            max_movetime_ms: 10_000,
            max_depth: 30,
            max_body_bytes: 64 << 10,
            max_prove_mb: 64,
            hash_mb: 16,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    config: Arc<Config>,
    searches: Arc<Semaphore>,
}

/// The server's routes: the page at `/`, the API under `/api/`.
pub fn router(config: Config) -> Router {
    let state = AppState {
        searches: Arc::new(Semaphore::new(config.max_searches.max(1))),
        config: Arc::new(config.clone()),
    };
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/board.js", get(page::board))
        .route("/net.js", get(page::net))
        .route("/style.css", get(page::style))
        .route("/pieces/{name}", get(page::piece))
        .route("/api/games", get(api::games))
        .route("/api/position", post(api::position))
        .route("/api/analyse", post(api::analyse))
        .route("/api/analyse/stream", get(api::analyse_stream))
        .route("/api/probe", post(api::probe))
        .route("/api/levels", get(api::levels))
        .route("/api/game/save", post(saved::save))
        .route("/api/game/load", post(saved::load))
        .route("/api/prove", post(prove::prove))
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .with_state(state)
}

/// Serves the board and the API on `addr` until Ctrl-C, on a runtime of
/// its own; `listening` is told the address bound (port 0 picks one).
pub fn serve(
    addr: &str,
    config: Config,
    listening: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        listening(listener.local_addr()?);
        axum::serve(listener, router(config))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}
