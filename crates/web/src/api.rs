//! The JSON API (docs/web.md): games, positions, analysis (one answer, or
//! its iterations streamed as server-sent events) and table probes.

use crate::searches::{on_low_priority_thread, GRACE};
use crate::{ApiError, AppState};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::sse::{Event, Sse};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::{Stream, StreamExt};
use zoo_app::{
    EngineOptions, GameKind, IterationReport, LineReport, SearchLimits, SearchReport, Session,
    Status, TableSet,
};

/// A position as the API takes it: a game, a rule set, a start (FEN, or
/// the start position) and moves played from it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// `jungle`, `jungle-checkers`, `classical-checkers`, `english-checkers`.
    pub game: String,
    /// The rule set (default: the game's first).
    #[serde(default)]
    pub rules: Option<String>,
    /// The start (default: the start position).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves from it, in either notation.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A position and search limits.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The game (see [`PositionRequest`]).
    pub game: String,
    /// The rule set.
    #[serde(default)]
    pub rules: Option<String>,
    /// The start.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves from it. In a query string: separated by spaces or commas.
    #[serde(default, deserialize_with = "moves_list")]
    pub moves: Vec<String>,
    /// Time for the search, capped by the server.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
    /// Depth, capped by the server.
    #[serde(default)]
    pub depth: Option<u32>,
    /// A named strength ([`crate::levels::LEVELS`]) instead of a time or
    /// a depth.
    #[serde(default)]
    pub level: Option<String>,
    /// Lines to report (multi-PV, 1 to [`zoo_app::MAX_MULTIPV`]; absent:
    /// one): each iteration of the stream then carries `lines`.
    #[serde(default)]
    pub multipv: Option<u32>,
    /// The engine's clock: the milliseconds it has left, spent as `go
    /// wtime` spends them ([`zoo_app::movetime_by_clock`]), capped by the
    /// server; instead of a level, time or depth.
    #[serde(default)]
    pub clock_ms: Option<u64>,
    /// The clock's increment a move, in milliseconds (with `clock_ms`).
    #[serde(default)]
    pub inc_ms: Option<u64>,
}

/// Moves as a JSON list, or as one string (a query parameter).
fn moves_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Moves {
        List(Vec<String>),
        Text(String),
    }
    Ok(match Moves::deserialize(d)? {
        Moves::List(v) => v,
        Moves::Text(s) => s
            .split([' ', ','])
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect(),
    })
}

pub(crate) fn body<T>(r: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    r.map(|Json(t)| t).map_err(|e| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(format!("request body too large: {}", e.body_text()))
        } else {
            ApiError::Bad(format!("bad request body: {}", e.body_text()))
        }
    })
}

pub(crate) fn session(
    game: &str,
    rules: Option<&str>,
    fen: Option<&str>,
    moves: &[String],
    threads: usize,
    hash_mb: usize,
    tables: Option<&std::path::Path>,
) -> Result<Session, ApiError> {
    let kind: GameKind = game.parse()?;
    let options = EngineOptions {
        threads,
        tb: if kind.has_tables() {
            tables.map(|t| t.to_path_buf())
        } else {
            None
        },
        hash_mb,
        ..EngineOptions::default()
    };
    let mut s = Session::new(kind, rules, options)?;
    s.set_position(fen, moves)?;
    Ok(s)
}

/// What the API says of a position.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// The game.
    pub game: GameKind,
    /// The rule set's name.
    pub rules: &'static str,
    /// The position after the moves.
    pub fen: String,
    /// Whose move: `white`, `black`.
    pub side: &'static str,
    /// Playing, or over with the result and why.
    pub status: Status,
    /// The winner of a finished game (`null`: a draw, or play goes on).
    pub winner: Option<&'static str>,
    /// A few words: `white wins (no legal move)`, `play goes on`.
    pub result: String,
    /// The legal moves, both notations.
    pub legal: Vec<zoo_app::MoveInfo>,
    /// The moves played from the start given, both notations.
    pub moves: Vec<zoo_app::MoveInfo>,
    /// Each piece letter's strength under the rules in force (the animal
    /// games; `{}` for checkers): the page names pieces by it.
    pub strengths: std::collections::BTreeMap<String, u8>,
}

pub(crate) fn view(s: &Session) -> PositionView {
    let stm = s.side_to_move();
    let status = s.status();
    PositionView {
        game: s.game(),
        rules: s.rules_name(),
        fen: s.fen(),
        side: stm.name(),
        status,
        winner: status.winner(stm).map(|w| w.name()),
        result: status.describe(stm),
        legal: s.legal_moves(),
        moves: s.moves(),
        strengths: s
            .game()
            .strengths(Some(s.rules_name()))
            .unwrap_or_default()
            .into_iter()
            .map(|(l, n)| (l.to_string(), n))
            .collect(),
    }
}

/// `GET /api/games`: every game with its rule sets and start position.
pub async fn games() -> Json<Value> {
    let games: Vec<Value> = GameKind::ALL
        .iter()
        .map(|&g| {
            let start = Session::new(g, None, EngineOptions::default())
                .map(|s| s.start_fen())
                .unwrap_or_default();
            json!({"game": g, "rules": g.rule_names(), "start": start, "tables": g.has_tables()})
        })
        .collect();
    Json(json!({ "games": games }))
}

/// `POST /api/position`: the position after the moves, whose move, the
/// status and the legal moves in both notations.
pub async fn position(
    State(st): State<AppState>,
    req: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let r = body(req)?;
    let s = session(
        &r.game,
        r.rules.as_deref(),
        r.fen.as_deref(),
        &r.moves,
        1,
        st.config.hash_mb,
        st.config.tables.as_deref(),
    )?;
    Ok(Json(view(&s)))
}

/// The limits of a request (its level, or its time and depth), capped by
/// the server.
fn limits(st: &AppState, r: &AnalyseRequest) -> Result<SearchLimits, ApiError> {
    let c = &st.config;
    if r.inc_ms.is_some() && r.clock_ms.is_none() {
        return Err(ApiError::Bad("inc_ms goes with clock_ms".into()));
    }
    let (movetime_ms, depth) = match (&r.level, r.clock_ms) {
        (Some(_), Some(_)) => {
            return Err(ApiError::Bad("give a level or a clock_ms, not both".into()))
        }
        (None, Some(left)) => {
            if r.movetime_ms.is_some() || r.depth.is_some() {
                return Err(ApiError::Bad(
                    "give a clock_ms or a movetime_ms and depth, not both".into(),
                ));
            }
            (
                Some(zoo_app::movetime_by_clock(left, r.inc_ms.unwrap_or(0))),
                None,
            )
        }
        (Some(name), None) => {
            if r.movetime_ms.is_some() || r.depth.is_some() {
                return Err(ApiError::Bad(
                    "give a level or a movetime_ms and depth, not both".into(),
                ));
            }
            let l = crate::levels::level(name).map_err(ApiError::Bad)?;
            (Some(l.movetime_ms.unwrap_or(c.max_movetime_ms)), l.depth)
        }
        (None, None) => (r.movetime_ms, r.depth),
    };
    Ok(SearchLimits {
        // Without a limit, a second; never more than the cap.
        movetime_ms: Some(movetime_ms.unwrap_or(1000).min(c.max_movetime_ms)),
        depth: depth.map(|d| d.clamp(1, c.max_depth)),
        nodes: None,
        multipv: match r.multipv {
            Some(n @ 1..=zoo_app::MAX_MULTIPV) => n,
            None => 1,
            Some(n) => {
                return Err(ApiError::Bad(format!(
                    "multipv {n}: give 1 to {}",
                    zoo_app::MAX_MULTIPV
                )))
            }
        },
    })
}

/// `GET /api/levels`: the engine's named strengths, with the time or
/// depth each stands for on this server.
pub async fn levels(State(st): State<AppState>) -> Json<Value> {
    let levels: Vec<Value> = crate::levels::LEVELS
        .iter()
        .map(|l| {
            let ms = l
                .movetime_ms
                .unwrap_or(st.config.max_movetime_ms)
                .min(st.config.max_movetime_ms);
            json!({"name": l.name, "about": l.about, "depth": l.depth, "movetime_ms": ms})
        })
        .collect();
    Json(json!({ "levels": levels }))
}

fn iteration_json(it: &IterationReport) -> Value {
    let mut v = json!({
        "depth": it.depth, "score": it.score, "mate": it.mate, "table": it.table, "pv": it.pv,
        "pv_short": it.pv_short, "nodes": it.nodes, "ms": it.ms,
    });
    if !it.lines.is_empty() {
        v["lines"] = json!(it.lines);
    }
    v
}

/// The time a search may take by `limits`, from the request's arrival to
/// its answer: its movetime (capped) and [`GRACE`] to stop and report.
fn deadline(arrived: Instant, limits: &SearchLimits) -> Instant {
    arrived + Duration::from_millis(limits.movetime_ms.unwrap_or(0)) + GRACE
}

fn too_late(limits: &SearchLimits) -> ApiError {
    ApiError::Stuck(format!(
        "the search did not stop within its time cap ({} ms) and a second; abandoned",
        limits.movetime_ms.unwrap_or(0)
    ))
}

/// `POST /api/analyse`: the engine's move, score, mate, principal
/// variation, depth and nodes.
pub async fn analyse(
    State(st): State<AppState>,
    req: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let arrived = Instant::now();
    let r = body(req)?;
    let limits = limits(&st, &r)?;
    let deadline = deadline(arrived, &limits);
    let ended = st.searches.take(deadline)?;
    let (tx, rx) = oneshot::channel();
    // The last iteration, for multi-PV's lines and for an answer at the
    // deadline should the search not report by then.
    let last = LastIteration::default();
    let s = start_search(
        &st,
        r,
        limits,
        arrived,
        last.clone(),
        |_| {},
        move |report| {
            let _ = tx.send(report);
            drop(ended);
        },
    );
    let s = tokio::time::timeout_at(deadline, s)
        .await
        .map_err(|_| too_late(&limits))??;
    // If the client goes away, this future is dropped with `s`, whose
    // drop signals the search to stop (without waiting for it); the slot
    // is freed when the search ends or at its deadline.
    let _keep = s;
    let report = match tokio::time::timeout_at(deadline, rx).await {
        Ok(report) => {
            report.map_err(|_| ApiError::Internal("the search ended without a report".into()))?
        }
        // Starved of the CPU, say: the move of its last finished
        // iteration is still an answer, and a player's game goes on.
        Err(_) => {
            return late_answer(last.take())
                .map(Json)
                .ok_or_else(|| too_late(&limits))
        }
    };
    let mut answer = json!({
        "bestmove": report.best.as_ref().map(|m| &m.coord),
        "bestmove_short": report.best.as_ref().map(|m| &m.short),
        "score": report.score, "mate": report.mate, "table": report.table, "pv": report.pv,
        "pv_short": report.pv_short, "depth": report.depth, "nodes": report.stats.nodes,
        "seconds": report.seconds,
    });
    if let Some(it) = last.take().filter(|it| !it.lines.is_empty()) {
        answer["lines"] = json!(it.lines);
    }
    Ok(Json(answer))
}

/// The answer made from a search's last finished iteration when the
/// search did not report within its cap and a second (`"late": true`),
/// or `None` when it finished none with a move.
fn late_answer(last: Option<IterationReport>) -> Option<Value> {
    let it = last.filter(|it| !it.pv.is_empty())?;
    let mut answer = json!({
        "bestmove": it.pv[0], "bestmove_short": it.pv_short.first(),
        "score": it.score, "mate": it.mate, "table": it.table, "pv": it.pv,
        "pv_short": it.pv_short, "depth": it.depth, "nodes": it.nodes,
        "seconds": it.ms as f64 / 1000.0, "late": true,
    });
    if !it.lines.is_empty() {
        answer["lines"] = json!(it.lines);
    }
    Some(answer)
}

/// A search's last iteration, and the multi-PV lines of the last one
/// that had them (a search stopped inside an iteration reports it without
/// lines), kept by [`start_search`] as the search reports them.
#[derive(Clone, Default)]
struct LastIteration(Arc<Mutex<(Option<IterationReport>, Vec<LineReport>)>>);

impl LastIteration {
    fn keep(&self, it: &IterationReport) {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !it.lines.is_empty() {
            last.1 = it.lines.clone();
        }
        last.0 = Some(it.clone());
    }

    /// The last iteration, with the last lines in place of its own.
    fn take(&self) -> Option<IterationReport> {
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let lines = std::mem::take(&mut last.1);
        last.0.take().map(|it| IterationReport { lines, ..it })
    }
}

/// The session of request `r` with its search started. Making the engine
/// touches its hash table (megabytes), so it is done off the async
/// threads, which would otherwise wait for it in turn, one search after
/// another (docs/log/web.md), on a thread of low priority whose search
/// thread inherits it ([`on_low_priority_thread`]). The time spent making it counts against the
/// search's time: the search gets what is left of its movetime.
async fn start_search(
    st: &AppState,
    r: AnalyseRequest,
    mut limits: SearchLimits,
    arrived: Instant,
    last: LastIteration,
    mut on_iteration: impl FnMut(&IterationReport) + Send + 'static,
    on_done: impl FnOnce(SearchReport) + Send + 'static,
) -> Result<Session, ApiError> {
    let config = st.config.clone();
    on_low_priority_thread(move || -> Result<Session, ApiError> {
        std::thread::sleep(Duration::from_millis(config.stall_ms));
        let mut s = session(
            &r.game,
            r.rules.as_deref(),
            r.fen.as_deref(),
            &r.moves,
            config.threads,
            config.hash_mb,
            config.tables.as_deref(),
        )?;
        if s.status() != Status::Playing {
            return Err(ApiError::Bad(format!(
                "the game is over: {}",
                s.status().describe(s.side_to_move())
            )));
        }
        let spent = arrived.elapsed().as_millis() as u64;
        limits.movetime_ms = limits.movetime_ms.map(|ms| ms.saturating_sub(spent).max(1));
        let (stall, mut first) = (config.stall_after_ms, true);
        let on_iteration = move |it: &IterationReport| {
            last.keep(it);
            on_iteration(it);
            if std::mem::take(&mut first) && stall > 0 {
                std::thread::sleep(Duration::from_millis(stall));
            }
        };
        s.go(limits, on_iteration, on_done)?;
        Ok(s)
    })
    .await
    .ok_or_else(|| ApiError::Internal("the search could not be started".into()))?
}

/// `GET /api/analyse/stream?game=…&moves=…&movetime_ms=…`: the same
/// search, each iteration an event `iteration`, then one event `result`
/// (or, if the search did not stop within its cap and a second, a
/// `result` from its last finished iteration marked late, or one event
/// `error` where it finished none); closing the connection stops the
/// search.
pub async fn analyse_stream(
    State(st): State<AppState>,
    query: Result<Query<AnalyseRequest>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let arrived = Instant::now();
    let Query(r) =
        query.map_err(|e| ApiError::Bad(format!("bad query string: {}", e.body_text())))?;
    let limits = limits(&st, &r)?;
    let deadline = deadline(arrived, &limits);
    let ended = st.searches.take(deadline)?;
    // Each event with whether it is the search's `result`.
    let (tx, mut rx) = mpsc::unbounded_channel::<(Event, bool)>();
    let done = tx.clone();
    let last = LastIteration::default();
    let s = start_search(
        &st,
        r,
        limits,
        arrived,
        last.clone(),
        move |it| {
            let _ = tx.send((
                Event::default()
                    .event("iteration")
                    .data(iteration_json(it).to_string()),
                false,
            ));
        },
        move |report| {
            let data = json!({
                "bestmove": report.best.as_ref().map(|m| &m.coord),
                "score": report.score, "mate": report.mate, "table": report.table,
                "depth": report.depth,
                "nodes": report.stats.nodes,
            });
            let _ = done.send((
                Event::default().event("result").data(data.to_string()),
                true,
            ));
            drop(ended);
        },
    );
    let s = tokio::time::timeout_at(deadline, s)
        .await
        .map_err(|_| too_late(&limits))??;
    // The events are passed on until the search's channel closes (its
    // thread is done, its slot let go) or the deadline, when, if the
    // search has not sent its result, the last finished iteration's move
    // ends the stream as a `result` marked late, or an `error` event where
    // there is none.
    let (out, out_rx) = mpsc::unbounded_channel::<Event>();
    let late = too_late(&limits).to_string();
    tokio::spawn(async move {
        let mut answered = false;
        loop {
            tokio::select! {
                // What the search sent comes before the deadline.
                biased;
                e = rx.recv() => match e {
                    Some((e, result)) => {
                        answered |= result;
                        let _ = out.send(e);
                    }
                    None => break,
                },
                _ = tokio::time::sleep_until(deadline) => {
                    if !answered {
                        let end = match late_answer(last.take()) {
                            Some(answer) => Event::default().event("result").data(answer.to_string()),
                            None => Event::default().event("error").data(json!({"error": late}).to_string()),
                        };
                        let _ = out.send(end);
                    }
                    break;
                }
            }
        }
    });
    // The stream owns the session: dropped when the client goes away,
    // which signals the search to stop.
    let stream = UnboundedReceiverStream::new(out_rx).map(move |e| {
        let _ = &s;
        Ok(e)
    });
    Ok(Sse::new(stream))
}

/// `POST /api/probe`: the tables' value and distance of the position and
/// of each legal move.
pub async fn probe(
    State(st): State<AppState>,
    req: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let r = body(req)?;
    let Some(dir) = st.config.tables.clone() else {
        return Err(ApiError::Bad(
            "this server has no tables (start it with --tb DIR)".into(),
        ));
    };
    let s = session(
        &r.game,
        r.rules.as_deref(),
        r.fen.as_deref(),
        &r.moves,
        1,
        st.config.hash_mb,
        None,
    )?;
    let set = TableSet::new(s.game(), Some(s.rules_name()), &dir)?;
    let fen = s.fen();
    // Reading tables is blocking I/O: off the async threads.
    let report = tokio::task::spawn_blocking(move || set.probe(&fen))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok(Json(
        serde_json::to_value(report).map_err(|e| ApiError::Internal(e.to_string()))?,
    ))
}
