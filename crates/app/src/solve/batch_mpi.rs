//! A solve's batch over MPI ([`super::batch`] under `mpirun`): rank 0 gives
//! the positions out one at a time to ranks 1 and up as each becomes free,
//! prints each report as it comes back, and is the store's one writer; the
//! workers read the store for each position and send back what they
//! decided. Rank 0 only waits and deals (it looks for a message every few
//! milliseconds rather than in OpenMPI's spinning receive), so `-np N`
//! searches on `N − 1` processes.

use super::batch::{solve_batch, with_fen, BatchEnd, BatchFailure, Output};
use super::{solve, SolveRequest};
use crate::mpi_world::Mpi;
use crate::solve::store::{ProofStore, Record};
use crate::AppError;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;
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
    game: String,
    rules: String,
    /// The report as the front end prints it; `None` with an error.
    shown: Option<String>,
    /// The answers to add to the store.
    stored: Vec<Record>,
    error: Option<String>,
}

impl Answered {
    /// The answer of a position that failed (`index`: `usize::MAX` when
    /// its task did not read).
    fn failed(index: usize, why: String) -> Answered {
        Answered {
            index,
            game: String::new(),
            rules: String::new(),
            shown: None,
            stored: Vec::new(),
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

/// The next message to rank 0, waited for without spinning.
fn next_message(world: &Mpi) -> (i32, i32, Vec<u8>) {
    loop {
        let got = world.with_world(|w| {
            w.any_process().immediate_probe().map(|status| {
                let (from, tag) = (status.source_rank(), status.tag());
                let (bytes, _) = w.process_at_rank(from).receive_vec_with_tag::<u8>(tag);
                (from, tag, bytes)
            })
        });
        match got {
            Some(m) => return m,
            None => std::thread::sleep(POLL),
        }
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
    while working > 0 {
        let (from, tag, bytes) = next_message(world);
        let taken = match tag {
            ANSWERED => take_answer(req, fens, &mut store, from, &bytes, out),
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
        // A free worker gets the next position, or is told to end.
        if failure.is_none() && !(out.stop)() && next < fens.len() {
            let task = Task {
                index: next,
                fen: fens[next].clone(),
            };
            let bytes = serde_json::to_vec(&task).expect("a task encodes");
            send(world, from, TASK, &bytes);
            next += 1;
        } else {
            send(world, from, DONE, &[]);
            working -= 1;
        }
    }
    match failure {
        Some(f) => Err(f),
        None if next < fens.len() => Ok(BatchEnd::Interrupted),
        None => Ok(BatchEnd::Done),
    }
}

/// A worker's answer: its store answers kept, its report emitted.
fn take_answer(
    req: &SolveRequest,
    fens: &[String],
    store: &mut Option<ProofStore>,
    from: i32,
    bytes: &[u8],
    out: &mut Output<'_>,
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
    keep(req, store, &a).map_err(|error| BatchFailure { fen, error })?;
    if let Some(shown) = &a.shown {
        (out.emit)(shown);
    }
    Ok(())
}

/// Adds a worker's answers to the store, saved at once, as a run on
/// one process saves them.
fn keep(req: &SolveRequest, store: &mut Option<ProofStore>, a: &Answered) -> Result<(), AppError> {
    let Some(path) = &req.store else {
        return Ok(());
    };
    if a.stored.is_empty() {
        return Ok(());
    }
    let s = match store {
        Some(s) => s,
        None => store.insert(ProofStore::open(path, &a.game, &a.rules)?),
    };
    for rec in &a.stored {
        s.add(rec.clone())?;
    }
    s.save()
}

fn work(world: &Mpi, req: &SolveRequest, out: &Output<'_>) {
    // Rank 0 prints; a worker's progress lines, once a second each,
    // would only interleave on the terminal.
    let req = SolveRequest {
        store_read_only: true,
        limits: crate::solve::Limits {
            progress: None,
            ..req.limits
        },
        ..req.clone()
    };
    send(world, 0, READY, &[]);
    loop {
        let (bytes, status) = world.with_world(|w| w.process_at_rank(0).receive_vec::<u8>());
        if status.tag() != TASK {
            return;
        }
        let answered = match serde_json::from_slice::<Task>(&bytes) {
            Ok(task) => match solve(&with_fen(&req, &task.fen)) {
                Ok(r) => Answered {
                    index: task.index,
                    game: r.game.to_string(),
                    rules: r.rules.to_string(),
                    shown: Some((out.show)(&r)),
                    stored: r.stored,
                    error: None,
                },
                Err(e) => Answered::failed(task.index, e.to_string()),
            },
            Err(e) => Answered::failed(usize::MAX, format!("a task did not read: {e}")),
        };
        let bytes = serde_json::to_vec(&answered).expect("an answer encodes");
        send(world, 0, ANSWERED, &bytes);
    }
}
