//! A host for CheckerBoard-API engines: loads the library, asks it its
//! name and game type through `enginecommand`, and its moves through
//! `getmove`, with the documented board, colour, time and `playnow`
//! conventions (docs/cbapi.md). The engine's move is found among zoo's
//! legal moves: as CheckerBoard does, from its `CBmove` (start, end and
//! the squares captured on); an engine that also wrote the position after
//! its move into the board is read from the board. Engines get the move
//! structure wrong in corners (Cake 1.22 returns garbage squares for a
//! king's capture that ends where it started, with a right `del[]`), so a
//! capture whose squares match no legal move is still recognised by the
//! pieces it took when only one legal move takes those. No legal move
//! found is an illegal move.

use super::board::{from_fen, move_squares, same_pieces, to_fen, xy_square, CbBoard};
use super::GAMETYPE_ENGLISH;
use crate::{AppError, EngineOptions, GameKind, Session};
use std::collections::HashMap;
use std::ffi::{c_char, c_double, c_int};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// `struct coor` of the API.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Coor {
    /// Column.
    pub x: c_int,
    /// Row.
    pub y: c_int,
}

/// `struct CBmove` of the API.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CbMove {
    /// Captures in the move (`jumps`; the reference calls it `ismove`).
    pub jumps: c_int,
    /// The piece on the destination after the move.
    pub newpiece: c_int,
    /// The piece that moved, before it moved.
    pub oldpiece: c_int,
    /// Its start.
    pub from: Coor,
    /// Its end.
    pub to: Coor,
    /// The squares it passed (the landings of a capture).
    pub path: [Coor; 12],
    /// The captured pieces' squares.
    pub del: [Coor; 12],
    /// The captured pieces.
    pub delpiece: [c_int; 12],
}

/// `getmove`'s signature (`__stdcall` on 32-bit Windows: `extern "system"`).
pub type GetMove = unsafe extern "system" fn(
    *mut CbBoard,
    c_int,
    c_double,
    *mut c_char,
    *mut c_int,
    c_int,
    c_int,
    *mut CbMove,
) -> c_int;
/// `enginecommand`'s signature.
pub type EngineCommand = unsafe extern "system" fn(*const c_char, *mut c_char) -> c_int;

/// A loaded engine library. Libraries are loaded once a path and never
/// unloaded: a call that overran its time may still be running in it.
struct Loaded {
    getmove: GetMove,
    enginecommand: EngineCommand,
    /// CheckerBoard engines keep their state in globals and are not
    /// re-entrant: one call at a time per library.
    busy: Mutex<()>,
}

/// The engine's lock, waited for at most `within`: a call that overran
/// its time may still hold it, and the caller must not hang on it.
fn lock_within(busy: &Mutex<()>, within: Duration) -> Option<std::sync::MutexGuard<'_, ()>> {
    let deadline = std::time::Instant::now() + within;
    loop {
        match busy.try_lock() {
            Ok(g) => return Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => return Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1))
            }
            Err(std::sync::TryLockError::WouldBlock) => return None,
        }
    }
}

fn loaded(path: &Path) -> Result<&'static Loaded, AppError> {
    // One entry per file however it is named (`cake.so`, `./cake.so`, its
    // absolute path), so that one engine has one lock; a bare name is the
    // file in the working directory, not one of the loader's search path.
    let path = &std::fs::canonicalize(path).map_err(|e| {
        AppError::External(format!(
            "{}: cannot load the engine library: {e}",
            path.display()
        ))
    })?;
    static LIBS: OnceLock<Mutex<HashMap<PathBuf, &'static Loaded>>> = OnceLock::new();
    let mut libs = LIBS
        .get_or_init(Default::default)
        .lock()
        .map_err(|_| AppError::External("the engine libraries' lock is poisoned".into()))?;
    if let Some(l) = libs.get(path) {
        return Ok(l);
    }
    let fail = |why: String| AppError::External(format!("{}: {why}", path.display()));
    // SAFETY: loading a library runs its initialisers; the user named it
    // as an engine to run, as CheckerBoard would.
    let lib = unsafe { libloading::Library::new(path) }
        .map_err(|e| fail(format!("cannot load the engine library: {e}")))?;
    // SAFETY: the symbols are declared with the API's signatures; a
    // library exporting these names with others is not a CheckerBoard
    // engine, which the user named it as.
    let (getmove, enginecommand) = unsafe {
        let g = lib
            .get::<GetMove>(b"getmove\0")
            .map_err(|e| fail(format!("no `getmove`: {e}")))?;
        let c = lib
            .get::<EngineCommand>(b"enginecommand\0")
            .map_err(|e| fail(format!("no `enginecommand`: {e}")))?;
        (*g, *c)
    };
    // Kept loaded for good: the function pointers stay valid.
    std::mem::forget(lib);
    let l: &'static Loaded = Box::leak(Box::new(Loaded {
        getmove,
        enginecommand,
        busy: Mutex::new(()),
    }));
    libs.insert(path.to_path_buf(), l);
    Ok(l)
}

/// An engine in a loaded library, and the game it is playing.
pub struct CbEngine {
    lib: &'static Loaded,
    /// The engine's `name`.
    pub name: String,
    /// The game's record (English checkers), to find the move the engine's
    /// board shows among the legal ones.
    game: Session,
}

/// One move from `getmove`.
#[derive(Debug, Clone)]
pub struct CbAnswer {
    /// The move in zoo's coordinates (`11-15`, `15x24`).
    pub coord: String,
    /// `getmove`'s result (super::result).
    pub result: c_int,
    /// What the engine wrote in its status string.
    pub status: String,
}

/// The text of a C string buffer up to its first NUL.
pub fn text(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl CbEngine {
    /// Loads the engine at `path` for English checkers; an engine of
    /// another game type is refused.
    pub fn load(path: &Path) -> Result<CbEngine, AppError> {
        let lib = loaded(path)?;
        let mut e = CbEngine {
            lib,
            name: String::new(),
            game: Session::new(GameKind::EnglishCheckers, None, EngineOptions::default())?,
        };
        // An engine that does not answer `get gametype` plays English (the
        // API's default).
        if let Some(t) = e.command("get gametype")? {
            if t.trim().parse::<i32>().ok() != Some(GAMETYPE_ENGLISH) {
                return Err(AppError::External(format!(
                    "{}: the engine plays gametype {:?}; zoo hosts English checkers (21) only",
                    path.display(),
                    t.trim()
                )));
            }
        }
        e.name = e
            .command("name")?
            .unwrap_or_else(|| path.display().to_string());
        Ok(e)
    }

    /// Sends `enginecommand(cmd)`; its reply when the engine handled it.
    pub fn command(&mut self, cmd: &str) -> Result<Option<String>, AppError> {
        let mut command = [0 as c_char; 256];
        for (d, s) in command.iter_mut().zip(cmd.bytes().take(255)) {
            *d = s as c_char;
        }
        let mut reply = [0 as c_char; 1024];
        let _busy = lock_within(&self.lib.busy, Duration::from_secs(10)).ok_or_else(|| {
            AppError::External("the engine is still busy with an earlier call".into())
        })?;
        // SAFETY: both buffers have the sizes the API gives them, the
        // command NUL-terminated; the library is loaded for good.
        let handled = unsafe { (self.lib.enginecommand)(command.as_ptr(), reply.as_mut_ptr()) };
        // The engine may have filled the whole reply: its last byte ends it.
        reply[1023] = 0;
        let r = text(&reply);
        Ok((handled != 0 && r.trim() != "?").then_some(r))
    }

    /// The engine's move after `moves` from `fen` (English checkers) with
    /// `movetime` to think: `maxtime` is that time, and `playnow` is raised
    /// when it has passed. An engine still busy `grace` later has lost its
    /// move.
    pub fn getmove(
        &mut self,
        fen: &str,
        moves: &[String],
        movetime: Duration,
        grace: Duration,
    ) -> Result<CbAnswer, AppError> {
        self.game.set_position(Some(fen), moves)?;
        let fen = self.game.fen();
        let (board, color) = from_fen(&fen)?;
        let playnow = Arc::new(AtomicI32::new(0));
        let (tx, rx) = channel();
        let lib = self.lib;
        let flag = playnow.clone();
        let maxtime = movetime.as_secs_f64();
        // The call runs on a thread of its own so that an engine that never
        // returns costs its game, not the match; the buffers are the
        // thread's, so such a call writes only into its own.
        let wait = movetime + grace;
        std::thread::spawn(move || {
            // An earlier call that overran may still hold the engine: this
            // one waits no longer than its own time, then gives up.
            let Some(_busy) = lock_within(&lib.busy, wait) else {
                return;
            };
            let mut board = board;
            let mut status = [0 as c_char; 1024];
            let mut mv = CbMove::default();
            // SAFETY: every pointer is to a live buffer of the API's size
            // owned by this thread for the whole call; `playnow` is an
            // AtomicI32, laid out as the int the engine reads.
            let result = unsafe {
                (lib.getmove)(
                    &mut board,
                    color,
                    maxtime,
                    status.as_mut_ptr(),
                    flag.as_ptr(),
                    0,
                    0,
                    &mut mv,
                )
            };
            status[1023] = 0;
            let _ = tx.send((board, mv, result, text(&status)));
        });
        let gone = || AppError::External("the engine's call ended without an answer".into());
        let answer = match rx.recv_timeout(movetime) {
            Ok(a) => a,
            Err(RecvTimeoutError::Disconnected) => return Err(gone()),
            Err(RecvTimeoutError::Timeout) => {
                playnow.store(1, Ordering::Relaxed);
                match rx.recv_timeout(grace) {
                    Ok(a) => a,
                    Err(RecvTimeoutError::Disconnected) => return Err(gone()),
                    Err(RecvTimeoutError::Timeout) => {
                        return Err(AppError::External(format!(
                            "the engine gave no move within {} ms of its time (playnow \
                             raised at {} ms)",
                            (movetime + grace).as_millis(),
                            movetime.as_millis()
                        )))
                    }
                }
            }
        };
        let (after, mv, result, status) = answer;
        // The board when the engine wrote one, else (or when its board
        // follows no legal move) the move structure.
        let coord = if same_pieces(&board, &after) {
            self.move_of(&mv)
        } else {
            self.move_to(&after).or_else(|| self.move_of(&mv))
        }
        .ok_or_else(|| {
            let shown = to_fen(&after, color).unwrap_or_else(|e| e.to_string());
            AppError::External(format!(
                "illegal move: the engine answered {} (board {shown}), no legal move",
                describe(&mv)
            ))
        })?;
        Ok(CbAnswer {
            coord,
            result,
            status,
        })
    }

    /// The legal move `mv` describes: the one with its start, end and
    /// captured squares, or else the only capture of its captured squares.
    fn move_of(&self, mv: &CbMove) -> Option<String> {
        let from = xy_square(mv.from.x, mv.from.y);
        let to = xy_square(mv.to.x, mv.to.y);
        let jumps = mv.jumps.clamp(0, 12) as usize;
        let mut del: Vec<usize> = mv.del[..jumps]
            .iter()
            .filter_map(|c| xy_square(c.x, c.y))
            .collect();
        del.sort_unstable();
        let legal: Vec<(String, Vec<usize>, Vec<usize>)> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| {
                let (squares, mut taken) = move_squares(&m.coord);
                taken.sort_unstable();
                (m.coord, squares, taken)
            })
            .collect();
        let exact = legal.iter().find(|(_, sq, taken)| {
            sq.first().copied() == from && sq.last().copied() == to && *taken == del
        });
        if let Some((c, _, _)) = exact {
            return Some(c.clone());
        }
        let by_captures: Vec<_> = legal
            .iter()
            .filter(|(_, _, taken)| !del.is_empty() && *taken == del)
            .collect();
        match by_captures.as_slice() {
            [(c, _, _)] => Some(c.clone()),
            _ => None,
        }
    }

    /// The legal move of the game's position that leaves `after`.
    fn move_to(&mut self, after: &CbBoard) -> Option<String> {
        for m in self.game.legal_moves() {
            self.game.play(&m.coord).ok()?;
            let same = from_fen(&self.game.fen())
                .map(|(b, _)| same_pieces(&b, after))
                .unwrap_or(false);
            self.game.undo();
            if same {
                return Some(m.coord);
            }
        }
        None
    }
}

/// A `CBmove` in words for error messages: `from (x,y) to (x,y), captures […]`.
fn describe(mv: &CbMove) -> String {
    let jumps = mv.jumps.clamp(0, 12) as usize;
    let del: Vec<String> = mv.del[..jumps]
        .iter()
        .map(|c| format!("({},{})", c.x, c.y))
        .collect();
    format!(
        "a CBmove from ({},{}) to ({},{}) capturing [{}]",
        mv.from.x,
        mv.from.y,
        mv.to.x,
        mv.to.y,
        del.join(" ")
    )
}
