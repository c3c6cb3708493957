//! A solve's batch over MPI ([`super::batch`] under `mpirun`): rank 0 gives
//! the positions out one at a time to ranks 1 and up as each becomes free,
//! prints each report as it comes back, and is the store's one writer; the
//! workers read the store for each position and send each answer they
//! decide as soon as it is found, then the position's report. Rank 0 only
//! waits and deals (it looks for a message every few milliseconds rather
//! than in OpenMPI's spinning receive), so `-np N` searches on `N − 1`
//! processes. A position that fails, or a stop asked of rank 0, stops the
//! positions under way on every worker at once.

use super::batch::{solve_batch, with_fen, BatchEnd, BatchFailure, Output};
use super::{solve, SolveRequest};
use crate::mpi_world::Mpi;
use crate::solve::store::{Added, ProofStore, Writes};
use crate::AppError;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::Duration;

/// Rank 0 to a worker: the next position (a [`Task`]).
const TASK: i32 = 1;
/// Rank 0 to a worker: nothing more; the worker ends.
const DONE: i32 = 2;
/// A worker to rank 0: ready for its first position (empty).
const READY: i32 = 3;
/// A worker to rank 0: a position's [`Answered`] (and ready for the
/// next).
const ANSWERED: i32 = 4;
/// A worker to rank 0: one answer for the store ([`Added`]), sent as
/// soon as it is found, so that a job killed while a position's second
/// question is under way keeps its first.
const STORED: i32 = 5;
/// Rank 0 to a worker: stop the position in hand now (a position failed
/// elsewhere, or a stop was asked); its report follows as far as it got.
const STOP: i32 = 6;

/// How long rank 0 sleeps between looks for a message: it waits on
/// workers that search for seconds to hours, and a blocking receive
/// in OpenMPI spins a core that a worker could use.
const POLL: Duration = Duration::from_millis(5);

#[derive(serde::Serialize, serde::Deserialize)]
struct Task {
    index: usize,
    fen: String,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Answered {
    index: usize,
    /// The report as the front end prints it; `None` with an error.
    shown: Option<String>,
    error: Option<String>,
}

impl Answered {
    /// The answer of a position that failed (`index`: `usize::MAX` when
    /// its task did not read).
    fn failed(index: usize, why: String) -> Answered {
        Answered {
            index,
            shown: None,
            error: Some(why),
        }
    }
}

/// [`solve_batch`] over the ranks of `world`: rank 0 gives the
/// positions out one at a time to ranks 1 and up as they become free,
/// emits each report as it comes back (in the order they are found,
/// not the file's) and keeps the store; one rank alone solves the
/// batch itself. Every rank calls it; only rank 0's result says how
/// the batch went.
pub fn solve_batch_on(
    world: &Mpi,
    req: &SolveRequest,
    fens: &[String],
    out: &mut Output<'_>,
) -> Result<BatchEnd, BatchFailure> {
    if world.ranks() == 1 {
        return solve_batch(req, fens, out);
    }
    if world.rank() == 0 {
        manage(world, req, fens, out)
    } else {
        work(world, req, out);
        Ok(BatchEnd::Done)
    }
}

fn send(world: &Mpi, to: i32, tag: i32, bytes: &[u8]) {
    world.with_world(|w| w.process_at_rank(to).send_with_tag(bytes, tag));
}

/// The next message to rank 0 within about `wait` (`None`: none came),
/// waited for without spinning.
fn next_message(world: &Mpi, wait: Duration) -> Option<(i32, i32, Vec<u8>)> {
    let until = std::time::Instant::now() + wait;
    loop {
        let got = world.with_world(|w| {
            w.any_process().immediate_probe().map(|status| {
                let (from, tag) = (status.source_rank(), status.tag());
                let (bytes, _) = w.process_at_rank(from).receive_vec_with_tag::<u8>(tag);
                (from, tag, bytes)
            })
        });
        if got.is_some() || std::time::Instant::now() >= until {
            return got;
        }
        std::thread::sleep(POLL);
    }
}

fn manage(
    world: &Mpi,
    req: &SolveRequest,
    fens: &[String],
    out: &mut Output<'_>,
) -> Result<BatchEnd, BatchFailure> {
    let mut next = 0usize;
    let mut working = world.ranks() - 1;
    let mut store: Option<ProofStore> = None;
    // The store is written here only (the workers do not check it: a
    // check writes the temporary file this rank's saves use).
    let mut failure: Option<BatchFailure> = req.store.as_deref().and_then(|path| {
        crate::files::check_writable(path)
            .err()
            .map(|e| BatchFailure {
                fen: None,
                error: e.into(),
            })
    });
    // The position each worker holds (by rank), to stop them at once,
    // and whether an answer of it was refused by the store (then its
    // report is not printed, as one process prints none).
    let mut holds: Vec<Option<usize>> = vec![None; world.ranks()];
    let mut refused = vec![false; world.ranks()];
    let mut stopped = false;
    while working > 0 {
        // A failure or a stop ends the positions under way: each busy
        // worker is told once, and answers with its report as far as it
        // got.
        if !stopped && (failure.is_some() || (out.stop)()) {
            stopped = true;
            for (rank, held) in holds.iter().enumerate() {
                if held.is_some() {
                    send(world, rank as i32, STOP, &[]);
                }
            }
        }
        let Some((from, tag, bytes)) = next_message(world, POLL * 20) else {
            continue;
        };
        let taken = match tag {
            ANSWERED => {
                holds[from as usize] = None;
                let shown = !std::mem::take(&mut refused[from as usize]);
                take_answer(fens, from, &bytes, shown.then_some(&mut *out))
            }
            STORED => {
                let fen = holds[from as usize].map(|i| &fens[i]);
                let taken = take_stored(req, &mut store, from, &bytes, fen);
                refused[from as usize] |= taken.is_err();
                taken
            }
            READY => Ok(()),
            _ => Err(BatchFailure {
                fen: None,
                error: AppError::Input(format!(
                    "rank {from} sent a message of no kind known ({tag})"
                )),
            }),
        };
        if let Err(f) = taken {
            failure.get_or_insert(f);
        }
        if tag == STORED {
            continue;
        }
        // A free worker gets the next position, or is told to end.
        if failure.is_none() && !(out.stop)() && next < fens.len() {
            let task = Task {
                index: next,
                fen: fens[next].clone(),
            };
            let bytes = serde_json::to_vec(&task).expect("a task encodes");
            send(world, from, TASK, &bytes);
            holds[from as usize] = Some(next);
            next += 1;
        } else {
            send(world, from, DONE, &[]);
            working -= 1;
        }
    }
    match failure {
        Some(f) => Err(f),
        None if stopped || next < fens.len() => Ok(BatchEnd::Interrupted),
        None => Ok(BatchEnd::Done),
    }
}

/// A worker's report of a position, emitted to `out` if given (or its
/// failure).
fn take_answer(
    fens: &[String],
    from: i32,
    bytes: &[u8],
    out: Option<&mut Output<'_>>,
) -> Result<(), BatchFailure> {
    let a: Answered = serde_json::from_slice(bytes).map_err(|e| BatchFailure {
        fen: None,
        error: AppError::Input(format!("rank {from}'s answer did not read: {e}")),
    })?;
    let fen = fens.get(a.index).cloned();
    if let Some(why) = a.error {
        return Err(BatchFailure {
            fen,
            error: AppError::Input(format!("{why} (on rank {from})")),
        });
    }
    if let (Some(shown), Some(out)) = (&a.shown, out) {
        (out.emit)(shown);
    }
    Ok(())
}

/// A worker's answer for the store, added and saved at once, as a run on
/// one process saves it.
fn take_stored(
    req: &SolveRequest,
    store: &mut Option<ProofStore>,
    from: i32,
    bytes: &[u8],
    fen: Option<&String>,
) -> Result<(), BatchFailure> {
    let failed = |error| BatchFailure {
        fen: fen.cloned(),
        error,
    };
    let a: Added = serde_json::from_slice(bytes).map_err(|e| {
        failed(AppError::Input(format!(
            "rank {from}'s answer for the store did not read: {e}"
        )))
    })?;
    let Some(path) = &req.store else {
        return Ok(());
    };
    let s = match store {
        Some(s) => s,
        None => store.insert(ProofStore::open(path, &a.game, &a.rules).map_err(failed)?),
    };
    s.add(a.record).and_then(|()| s.save()).map_err(failed)
}

/// Set when rank 0 asks the worker to stop the position in hand.
static STOP_ASKED: AtomicBool = AtomicBool::new(false);
/// The front end's own stop (Ctrl-C), asked beside [`STOP_ASKED`].
static OWN_STOP: OnceLock<Option<fn() -> bool>> = OnceLock::new();

/// A worker's searches stop when rank 0 or the front end asks.
fn worker_stop() -> bool {
    STOP_ASKED.load(Ordering::Relaxed) || OWN_STOP.get().copied().flatten().is_some_and(|f| f())
}

fn work(world: &Mpi, req: &SolveRequest, out: &Output<'_>) {
    let _ = OWN_STOP.set(req.limits.stop);
    // Rank 0 prints; a worker's progress lines, once a second each,
    // would only interleave on the terminal.
    let req = SolveRequest {
        limits: crate::solve::Limits {
            progress: None,
            stop: Some(worker_stop),
            ..req.limits
        },
        ..req.clone()
    };
    send(world, 0, READY, &[]);
    loop {
        let (bytes, status) = world.with_world(|w| w.process_at_rank(0).receive_vec::<u8>());
        match status.tag() {
            TASK => {}
            // A stop that came after the position it was for had ended.
            STOP => continue,
            _ => return,
        }
        STOP_ASKED.store(false, Ordering::Relaxed);
        let answered = match serde_json::from_slice::<Task>(&bytes) {
            Ok(task) => {
                let (to, added) = std::sync::mpsc::channel();
                let task_req = SolveRequest {
                    store_writes: Writes::Return(Some(to)),
                    ..with_fen(&req, &task.fen)
                };
                let solved = std::thread::scope(|s| {
                    s.spawn(|| relay(world, added));
                    let solved = solve(&task_req);
                    // The channel's sender goes with the request, which
                    // ends the relay once it has sent every answer.
                    drop(task_req);
                    solved
                });
                match solved {
                    Ok(r) => Answered {
                        index: task.index,
                        shown: Some((out.show)(&r)),
                        error: None,
                    },
                    Err(e) => Answered::failed(task.index, e.to_string()),
                }
            }
            Err(e) => Answered::failed(usize::MAX, format!("a task did not read: {e}")),
        };
        let bytes = serde_json::to_vec(&answered).expect("an answer encodes");
        send(world, 0, ANSWERED, &bytes);
    }
}

/// While a worker solves: sends each answer for the store to rank 0 as
/// it is found, and listens for rank 0's stop. Ends once the solve has
/// dropped its sender and every answer has gone.
fn relay(world: &Mpi, added: Receiver<Added>) {
    loop {
        // An answer goes at once; between answers, a look for a stop
        // every few milliseconds.
        match added.recv_timeout(POLL) {
            Ok(a) => {
                let bytes = serde_json::to_vec(&a).expect("an answer encodes");
                send(world, 0, STORED, &bytes);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {}
        }
        let stop = world.with_world(|w| {
            let rank0 = w.process_at_rank(0);
            rank0.immediate_probe_with_tag(STOP).map(|_| {
                rank0.receive_vec_with_tag::<u8>(STOP);
            })
        });
        if stop.is_some() {
            STOP_ASKED.store(true, Ordering::Relaxed);
        }
    }
}
