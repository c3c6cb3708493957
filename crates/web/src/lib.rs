//! The web board and JSON API of zoo (`zoo serve`, docs/web.md): an axum
//! router over the application layer's [`zoo_app::Session`], with the
//! page embedded in the binary.
//!
//! ```
//! use zoo_web::{serve_on, Config};
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! let addr = listener.local_addr().unwrap();
//! tokio::spawn(serve_on(listener, Config::default(), std::future::pending()));
//! // GET /api/games lists the four games.
//! let body = zoo_web::client::get(addr, "/api/games").await.unwrap();
//! assert!(body.contains("jungle-checkers"));
//! # });
//! ```
//!
//! Bounds (see [`Config`], docs/web.md "Limits"): request bodies are
//! capped in size and time, headers and idle connections in time, writes
//! to a client that does not read in time, connections in number; every
//! search's time and depth are capped by the server whatever the request
//! asks, at most [`Config::max_searches`] run at once (others get 503),
//! and a search is told to stop when its client goes away (the handler's
//! future, which owns the search's session, is dropped, and the session
//! signals its search). No search is waited for on an async worker: a
//! search that has not stopped a second after its cap is abandoned and its
//! slot freed ([`searches`]). Ctrl-C stops the server within
//! [`Config::shutdown_ms`], whatever its clients do.
#![warn(missing_docs)]

pub mod api;
mod checks;
pub mod client;
mod error;
pub mod levels;
pub mod load;
mod page;
pub mod prove;
pub mod saved;
mod searches;
pub mod server;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;

pub use error::ApiError;
pub use searches::GRACE;
pub use server::{serve, serve_connection, serve_on};

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
    /// The longest wait for a request's headers, from the connection's
    /// start or the end of its last answer (so also how long an idle
    /// connection is kept), in milliseconds.
    pub header_timeout_ms: u64,
    /// The longest wait for a request's whole body, in milliseconds.
    pub body_timeout_ms: u64,
    /// The longest a write to a client may wait (a client that does not
    /// read), in milliseconds.
    pub write_timeout_ms: u64,
    /// Connections at once; more wait to be accepted.
    pub max_connections: usize,
    /// After Ctrl-C, how long answers under way may take to finish before
    /// the server stops anyway, in milliseconds.
    pub shutdown_ms: u64,
    /// For tests only: each search first waits this long, in
    /// milliseconds, without looking at "stop". It stands in for a search
    /// slow to stop (a large table being opened and checked), which no
    /// input can make happen on demand now that a FIFO among the tables
    /// is refused rather than opened.
    #[doc(hidden)]
    pub stall_ms: u64,
    /// For tests only: each search, once it has reported its first
    /// iteration, waits this long without looking at "stop". It stands in
    /// for a search starved of the CPU after it has found a move (its
    /// thread runs at nice 19, and other programs may take every core).
    #[doc(hidden)]
    pub stall_after_ms: u64,
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
            header_timeout_ms: 10_000,
            body_timeout_ms: 10_000,
            write_timeout_ms: 10_000,
            max_connections: 256,
            shutdown_ms: 3_000,
            stall_ms: 0,
            stall_after_ms: 0,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    config: Arc<Config>,
    searches: searches::Searches,
}

/// The server's routes: the page at `/`, the API under `/api/`, every
/// request through the checks of [`checks`] (Origin, body caps, errors as
/// JSON without server paths). The tables directory is made absolute, so
/// that the paths in messages are known to be hidden.
pub fn router(mut config: Config) -> Router {
    if let Some(dir) = &config.tables {
        if let Ok(abs) = dir.canonicalize() {
            config.tables = Some(abs);
        }
    }
    let state = AppState {
        searches: searches::Searches::new(config.max_searches),
        config: Arc::new(config.clone()),
    };
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/board.js", get(page::board))
        .route("/net.js", get(page::net))
        .route("/review.js", get(page::review))
        .route("/clock.js", get(page::clock))
        .route("/tree.js", get(page::tree))
        .route("/lines.js", get(page::lines))
        .route("/editor.js", get(page::editor))
        .route("/style.css", get(page::style))
        .route("/favicon.svg", get(page::favicon))
        .route("/favicon.ico", get(page::favicon))
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
        .fallback(checks::not_found)
        .method_not_allowed_fallback(checks::method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            checks::checks,
        ))
        .with_state(state)
}
