//! `POST /api/prove`: the proof solver ([`zoo_app::solve`], docs/solve.md)
//! on a position, as `zoo solve` runs it (df-pn in its default mode `path`, the
//! server's tables as leaves when it has those of the game), within the
//! server's bounds: a time cut to `Config::max_movetime_ms`, a table of
//! at most `Config::max_prove_mb`, one of the search slots, and stopped
//! when the client goes away.

use crate::api::body;
use crate::searches::{on_low_priority_thread, GRACE};
use crate::{ApiError, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zoo_app::solve::{Algorithm, Ghi, Limits, Question, SolveRequest};
use zoo_app::{GameKind, Session, Status};
use zoo_core::Outcome;

/// A position and what to ask of it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProveRequest {
    /// The game.
    pub game: String,
    /// The rule set.
    #[serde(default)]
    pub rules: Option<String>,
    /// The start.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves from it.
    #[serde(default)]
    pub moves: Vec<String>,
    /// `value` (default), `win` or `not-lose`, for the side to move.
    #[serde(default)]
    pub goal: Option<String>,
    /// Time for the whole run (every question), capped by the server;
    /// 2 s when not given.
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

thread_local! {
    /// The stop flag and deadline of the solve running on this thread (a
    /// blocking thread of the runtime): the solver's `Limits::stop` is a
    /// plain function, so it reads them from here.
    static STOP: RefCell<Option<(Arc<AtomicBool>, Instant)>> = const { RefCell::new(None) };
}

fn should_stop() -> bool {
    STOP.with(|s| {
        s.borrow().as_ref().is_some_and(|(flag, deadline)| {
            flag.load(Ordering::Relaxed) || Instant::now() >= *deadline
        })
    })
}

/// Sets the flag when dropped: the handler's future owns it, so a client
/// that goes away stops its solve.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `POST /api/prove`: the value of the position for the side to move
/// (`win`, `draw`, `loss`, or `unknown` when the time ran out), each
/// question's answer and the nodes.
pub async fn prove(
    State(st): State<AppState>,
    req: Result<Json<ProveRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let r = body(req)?;
    let game: GameKind = r.game.parse()?;
    let question = match r.goal.as_deref().unwrap_or("value") {
        "value" => Question::Value,
        "win" => Question::Win,
        "not-lose" => Question::NotLose,
        other => {
            return Err(ApiError::Bad(format!(
                "unknown goal {other:?}; expected one of: value, win, not-lose"
            )))
        }
    };
    // The position is checked here, so that a bad one is a 400 before a
    // slot is taken.
    let mut s = Session::new(game, r.rules.as_deref(), Default::default())?;
    s.set_position(r.fen.as_deref(), &r.moves)?;
    if s.status() != Status::Playing {
        return Err(ApiError::Bad(format!(
            "the game is over: {}",
            s.status().describe(s.side_to_move())
        )));
    }
    let side = s.side_to_move().name();
    let tables = match &st.config.tables {
        Some(dir) if zoo_app::solve::has_tables(game, r.rules.as_deref(), dir)? => {
            Some(dir.clone())
        }
        _ => None,
    };
    let ms = r
        .movetime_ms
        .unwrap_or(2000)
        .clamp(1, st.config.max_movetime_ms.max(1));
    let request = SolveRequest {
        game,
        rules: r.rules,
        fen: Some(s.start_fen()),
        moves: s.moves().into_iter().map(|m| m.coord).collect(),
        question,
        algorithm: Algorithm::Dfpn,
        ghi: Ghi::Path,
        tables,
        limits: Limits {
            time: Some(Duration::from_millis(ms)),
            memory_mb: Some(st.config.max_prove_mb.max(1)),
            stop: Some(should_stop),
            ..Limits::default()
        },
        proof: false,
        checkpoint: None,
        checkpoint_every: Duration::MAX,
        remedies: Some(zoo_app::solve::Remedies::NONE),
        pn2_fraction: None,
        gc: false,
        // The server bounds its searches by count, one thread each.
        threads: 1,
        workers: 1,
        search_only: false,
        tuning: Default::default(),
        store: None,
        store_writes: Default::default(),
    };
    drop(s);
    let arrived = tokio::time::Instant::now();
    let ended = st
        .searches
        .take(arrived + Duration::from_millis(ms) + GRACE)?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop = StopOnDrop(flag.clone());
    let deadline = Instant::now() + Duration::from_millis(ms);
    let task = on_low_priority_thread(move || {
        // The slot is held until the solver has stopped, or its deadline.
        let _ended = ended;
        STOP.with(|s| *s.borrow_mut() = Some((flag, deadline)));
        let report = zoo_app::solve::solve(&request);
        STOP.with(|s| *s.borrow_mut() = None);
        report
    });
    let report = tokio::time::timeout_at(arrived + Duration::from_millis(ms) + GRACE, task)
        .await
        .map_err(|_| {
            ApiError::Stuck(format!(
                "the solver did not stop within its time cap ({ms} ms) and a second; abandoned"
            ))
        })?
        .ok_or_else(|| ApiError::Internal("the solver failed".into()))??;
    let nodes: u64 = report.answers.iter().map(|a| a.nodes).sum();
    let seconds: f64 = report.answers.iter().map(|a| a.seconds).sum();
    let verdict = match question {
        Question::Value => match report.value {
            Some(Outcome::Win) => "win",
            Some(Outcome::Draw) => "draw",
            Some(Outcome::Loss) => "loss",
            None => "unknown",
        },
        _ => match report.answers.first().map(|a| a.answer) {
            Some("proven") if question == Question::Win => "win",
            Some("disproven") if question == Question::Win => "no win",
            Some("proven") => "no loss",
            Some("disproven") => "loss",
            _ => "unknown",
        },
    };
    Ok(Json(json!({
        "game": report.game, "rules": report.rules, "fen": report.fen, "side": side,
        "goal": question, "verdict": verdict, "value": report.value,
        "answers": report.answers, "nodes": nodes, "seconds": seconds,
        "tables": report.tables.is_some(), "movetime_ms": ms,
    })))
}
