//! zoo's English checkers engine as a CheckerBoard-API engine: a shared
//! library exporting `getmove` and `enginecommand` (docs/cbapi.md), which
//! CheckerBoard (a Windows DLL build) and cliche (a Linux `.so`) load,
//! and zoo's own host plays (`zoo match --b cb:libzoo_cb.so`).
//!
//! ```
//! use zoo_app::cbapi::board::{from_fen, to_fen, BLACK};
//! use zoo_app::cbapi::host::CbMove;
//! let (mut board, color) = from_fen("B:W18:B14,15")?;
//! let mut status = [0i8 as std::ffi::c_char; 1024];
//! let mut playnow = 0;
//! let mut mv = CbMove::default();
//! // SAFETY: every pointer is to a live buffer of the API's size.
//! unsafe {
//!     zoo_cb::getmove(&mut board, color, 0.05, status.as_mut_ptr(), &mut playnow, 0, 0, &mut mv);
//! }
//! // Black must take: 14x23 or 15x22.
//! assert_eq!(mv.jumps, 1);
//! assert!(to_fen(&board, color)?.ends_with(":B14,22") || to_fen(&board, color)?.ends_with(":B15,23"));
//! # Ok::<(), zoo_app::AppError>(())
//! ```

use std::ffi::{c_char, c_double, c_int};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zoo_app::cbapi::board::{from_fen, square_xy, to_fen, CbBoard};
use zoo_app::cbapi::host::{CbMove, Coor};
use zoo_app::cbapi::{result, GAMETYPE_ENGLISH};
use zoo_app::{EngineOptions, GameKind, SearchLimits, Session, Status};

/// What the host set, and the game session (its hash table kept from move
/// to move, as an engine in CheckerBoard keeps it).
struct State {
    options: EngineOptions,
    session: Option<Session>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// The engine's state, made on first use.
fn with_state<T>(f: impl FnOnce(&mut State) -> Result<T, String>) -> Result<T, String> {
    let mut guard = STATE
        .lock()
        .map_err(|_| "zoo: the engine's state is poisoned")?;
    let st = guard.get_or_insert_with(|| State {
        options: EngineOptions {
            hash_mb: 64,
            ..EngineOptions::default()
        },
        session: None,
    });
    f(st)
}

/// Writes `s` into a C buffer of `size` bytes, cut to fit, NUL-terminated.
///
/// # Safety
/// `buf` is null or points to `size` writable bytes.
unsafe fn write_text(buf: *mut c_char, size: usize, s: &str) {
    if buf.is_null() || size == 0 {
        return;
    }
    let bytes = s.as_bytes();
    let n = bytes.len().min(size - 1);
    for (i, &b) in bytes[..n].iter().enumerate() {
        // SAFETY: i < size - 1, inside the caller's buffer.
        unsafe { *buf.add(i) = b as c_char };
    }
    // SAFETY: n < size.
    unsafe { *buf.add(n) = 0 };
}

/// The text of a C string of at most `max` bytes.
///
/// # Safety
/// `p` is null or points to `max` readable bytes or a NUL before them.
unsafe fn read_text(p: *const c_char, max: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    let mut bytes = Vec::new();
    // SAFETY: the caller promises `max` readable bytes or a NUL first.
    while bytes.len() < max && unsafe { *p.add(bytes.len()) } != 0 {
        bytes.push(unsafe { *p.add(bytes.len()) } as u8);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The API's `enginecommand`: `name`, `about`, `help`, `get|set hashsize`,
/// `get|set tables` (also `dbpath`, as Kingsrow names it), `get
/// protocolversion`, `get gametype`. Returns 1 when the command was
/// handled, else 0 with `?` in `reply`.
///
/// # Safety
/// `command` points to a NUL-terminated string of at most 256 bytes and
/// `reply` to 1024 writable bytes, as the API defines them.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    // SAFETY: the API's sizes.
    let cmd = unsafe { read_text(command, 256) };
    let answer = std::panic::catch_unwind(|| engine_command(&cmd))
        .unwrap_or_else(|_| Err("zoo: the command failed".into()));
    let (handled, text) = match answer {
        Ok(Some(t)) => (1, t),
        Ok(None) => (0, "?".to_string()),
        Err(why) => (0, why),
    };
    // SAFETY: the API's size.
    unsafe { write_text(reply, 1024, &text) };
    handled
}

/// `enginecommand`'s answer: `Ok(None)` for a command zoo does not have.
fn engine_command(cmd: &str) -> Result<Option<String>, String> {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    with_state(|st| answer(st, &words))
}

fn answer(st: &mut State, words: &[&str]) -> Result<Option<String>, String> {
    let version = env!("CARGO_PKG_VERSION");
    Ok(Some(match words {
        ["name"] => format!("zoo {version}"),
        ["about"] => format!(
            "zoo {version}\nThe English checkers engine of the zoo toolkit\n\
             (MTD(f)/PVS alpha-beta; endgame tables with `set tables DIR`)."
        ),
        ["help"] => "cbapi.md".into(),
        ["get", "protocolversion"] => "2".into(),
        ["get", "gametype"] => GAMETYPE_ENGLISH.to_string(),
        ["get", "hashsize"] => st.options.hash_mb.to_string(),
        ["set", "hashsize", mb] => {
            let mb: usize = mb
                .parse()
                .map_err(|_| format!("zoo: {mb:?} is no number of MB"))?;
            let mut o = st.options.clone();
            o.hash_mb = mb.max(1);
            // Checked against the memory the process may use.
            zoo_app::options::check_hash(1, o.hash_mb).map_err(|e| format!("zoo: {e}"))?;
            st.options = o;
            st.session = None;
            format!("hashsize set to {mb} MB")
        }
        ["get", "tables" | "dbpath"] => st
            .options
            .tb
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        ["set", "tables" | "dbpath", dir @ ..] => {
            let dir = dir.join(" ");
            let mut o = st.options.clone();
            o.tb = (!dir.is_empty()).then(|| dir.clone().into());
            // A session with them opens them: a bad directory is refused now.
            let s = Session::new(GameKind::EnglishCheckers, None, o.clone())
                .map_err(|e| format!("zoo: {e}"))?;
            st.options = o;
            st.session = Some(s);
            format!("tables: {dir}")
        }
        _ => return Ok(None),
    }))
}

/// The API's `getmove`: searches `board` with `color` to move for about
/// `maxtime` seconds (less when `*playnow` turns nonzero), plays the move
/// on `board`, describes it in `move` and the search in `status`.
/// Returns `WIN`, `LOSS` or `DRAW` when the game is over after the move
/// (or before it, with no move), else `UNKNOWN`.
///
/// # Safety
/// The pointers are the API's: `board` an 8×8 int array, `status` 1024
/// writable bytes, `playnow` a readable int, `mv` a writable `CBmove`;
/// `playnow` and `status` may be null.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn getmove(
    board: *mut CbBoard,
    color: c_int,
    maxtime: c_double,
    status: *mut c_char,
    playnow: *mut c_int,
    _info: c_int,
    _moreinfo: c_int,
    mv: *mut CbMove,
) -> c_int {
    if board.is_null() {
        return result::UNKNOWN;
    }
    // SAFETY: the host's board, read and written on this call only.
    let b = unsafe { &mut *board };
    // `playnow` is the host's flag, written by another thread: read as
    // volatile so that every poll sees it.
    let play_now = move || !playnow.is_null() && unsafe { std::ptr::read_volatile(playnow) } != 0;
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        think(b, color, maxtime, &play_now)
    }))
    .unwrap_or_else(|_| Err("zoo: the search failed".into()));
    match outcome {
        Ok((text, m, r)) => {
            if !mv.is_null() {
                // SAFETY: the host's CBmove.
                unsafe { *mv = m };
            }
            // SAFETY: the API's size.
            unsafe { write_text(status, 1024, &text) };
            r
        }
        Err(why) => {
            // SAFETY: the API's size.
            unsafe { write_text(status, 1024, &why) };
            result::UNKNOWN
        }
    }
}

/// The search behind `getmove`: the status text, the move and the result;
/// `board` holds the position after the move when it returns `Ok`.
fn think(
    board: &mut CbBoard,
    color: c_int,
    maxtime: f64,
    play_now: &dyn Fn() -> bool,
) -> Result<(String, CbMove, c_int), String> {
    let fen = to_fen(board, color).map_err(|e| format!("zoo: {e}"))?;
    with_state(|st| search(st, board, &fen, maxtime, play_now))
}

fn search(
    st: &mut State,
    board: &mut CbBoard,
    fen: &str,
    maxtime: f64,
    play_now: &dyn Fn() -> bool,
) -> Result<(String, CbMove, c_int), String> {
    if st.session.is_none() {
        let s = Session::new(GameKind::EnglishCheckers, None, st.options.clone())
            .map_err(|e| format!("zoo: {e}"))?;
        st.session = Some(s);
    }
    let session = st.session.as_mut().ok_or("zoo: no session")?;
    session
        .set_position::<&str>(Some(fen), &[])
        .map_err(|e| format!("zoo: {e}"))?;
    if session.status() != Status::Playing {
        return Ok(("zoo: no legal move".into(), CbMove::default(), result::LOSS));
    }
    // A time that is no time (NaN, negative) gets a second.
    let ms = if maxtime.is_finite() && maxtime > 0.0 {
        (maxtime * 1000.0).clamp(1.0, 3_600_000.0) as u64
    } else {
        1000
    };
    let limits = SearchLimits {
        movetime_ms: Some(ms),
        ..SearchLimits::default()
    };
    let (tx, rx) = channel();
    let last = Arc::new(Mutex::new(String::new()));
    let seen = last.clone();
    session
        .go(
            limits,
            move |it| {
                if let Ok(mut l) = seen.lock() {
                    *l = format!(
                        "zoo: depth {} score {} nodes {} pv {}",
                        it.depth,
                        it.score,
                        it.nodes,
                        it.pv.join(" ")
                    );
                }
            },
            move |r| {
                let _ = tx.send(r);
            },
        )
        .map_err(|e| format!("zoo: {e}"))?;
    let report = loop {
        match rx.recv_timeout(Duration::from_millis(5)) {
            Ok(r) => break r,
            Err(RecvTimeoutError::Timeout) => {
                if play_now() {
                    session.stop();
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("zoo: the search ended with no result".into())
            }
        }
    };
    let best = report.best.ok_or("zoo: the search found no move")?;
    let before = *board;
    session.play(&best.coord).map_err(|e| format!("zoo: {e}"))?;
    let (after, _) = from_fen(&session.fen()).map_err(|e| format!("zoo: {e}"))?;
    *board = after;
    let m = cb_move(&best.coord, &before, &after);
    let r = match session.status() {
        // The opponent, to move, has lost or drawn.
        Status::Over { result: o, .. } => match o {
            zoo_core::Outcome::Loss => result::WIN,
            zoo_core::Outcome::Win => result::LOSS,
            zoo_core::Outcome::Draw => result::DRAW,
        },
        Status::Playing => result::UNKNOWN,
    };
    let text = last.lock().map(|l| l.clone()).unwrap_or_default();
    Ok((text, m, r))
}

/// The API's description of the move `coord` (`11-15`, `15x22x31`) from
/// `before` to `after`: its squares, the pieces taken and their squares.
fn cb_move(coord: &str, before: &CbBoard, after: &CbBoard) -> CbMove {
    let squares: Vec<usize> = coord
        .split(['-', 'x'])
        .filter_map(|s| s.parse().ok())
        .collect();
    let at = |n: usize| {
        let (x, y) = square_xy(n);
        Coor {
            x: x as c_int,
            y: y as c_int,
        }
    };
    let mut m = CbMove::default();
    let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
        return m;
    };
    m.from = at(from);
    m.to = at(to);
    m.oldpiece = before[m.from.x as usize][m.from.y as usize];
    m.newpiece = after[m.to.x as usize][m.to.y as usize];
    if coord.contains('x') {
        for (i, w) in squares.windows(2).enumerate().take(12) {
            let (a, b) = (at(w[0]), at(w[1]));
            // An English capture jumps the square between.
            let del = Coor {
                x: (a.x + b.x) / 2,
                y: (a.y + b.y) / 2,
            };
            m.path[i] = a;
            m.del[i] = del;
            m.delpiece[i] = before[del.x as usize][del.y as usize];
            m.jumps = i as c_int + 1;
        }
        let j = m.jumps as usize;
        if j < 12 {
            m.path[j] = m.to;
        }
    } else {
        m.path[0] = m.from;
        m.path[1] = m.to;
    }
    m
}
