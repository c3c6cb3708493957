//! A batch of positions, each asked the same question with the same
//! options (`zoo solve --positions FILE`): one after another on one
//! process, or, under `mpirun`, shared out among worker processes by a
//! manager that keeps the store (issue #52, "past one machine").
//!
//! With `--store`, the store grows as the batch goes: on one process each
//! answer is saved as it is found; over MPI the workers read the store
//! (every position they are given starts from what the whole job has
//! proven so far, as saved) but never write it, and send their answers to
//! rank 0, the store's one writer, which saves them as they come.
//!
//! ```
//! use zoo_app::solve::batch::positions_of;
//! let text = "# the front\n7/7/7/7/7/7/7 w   # empty\n\n1r5/7/7/7/7/7/5R1 b\n";
//! assert_eq!(positions_of(text), ["7/7/7/7/7/7/7 w", "1r5/7/7/7/7/7/5R1 b"]);
//! ```

use super::{solve, SolveReport, SolveRequest};
use crate::AppError;

/// The positions of a batch file: one FEN a line, `#` starting a comment,
/// blank lines skipped.
pub fn positions_of(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|fen| !fen.is_empty())
        .map(str::to_string)
        .collect()
}

/// How a batch ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchEnd {
    /// Every position was asked.
    Done,
    /// A stop was asked for; the positions not yet given out were not
    /// asked.
    Interrupted,
}

/// A position of a batch that failed, and why (the batch stops there:
/// the positions not yet given out are not asked).
#[derive(Debug)]
pub struct BatchFailure {
    /// The position as the batch gave it.
    pub fen: String,
    /// Why.
    pub error: AppError,
}

/// What a front end gives a batch: how a report is shown and where it
/// goes. A report is shown where it was found (over MPI, on a worker) and
/// printed by the process that prints (rank 0), whole, so the reports of
/// several workers never mix.
pub struct Output<'a> {
    /// A report as the front end prints it (text or a JSON line).
    pub show: &'a (dyn Fn(&SolveReport) -> String + Sync),
    /// Prints a shown report.
    pub emit: &'a mut dyn FnMut(&str),
    /// Whether a stop was asked for (Ctrl-C).
    pub stop: &'a (dyn Fn() -> bool + Sync),
}

/// Asks every position of `fens` with `req`'s options (its `fen`
/// replaced), in order, on this process; each report is emitted as it is
/// found.
pub fn solve_batch(
    req: &SolveRequest,
    fens: &[String],
    out: &mut Output<'_>,
) -> Result<BatchEnd, BatchFailure> {
    for fen in fens {
        if (out.stop)() {
            return Ok(BatchEnd::Interrupted);
        }
        let r = solve(&with_fen(req, fen)).map_err(|error| BatchFailure {
            fen: fen.clone(),
            error,
        })?;
        (out.emit)(&(out.show)(&r));
    }
    Ok(BatchEnd::Done)
}

fn with_fen(req: &SolveRequest, fen: &str) -> SolveRequest {
    SolveRequest {
        fen: Some(fen.to_string()),
        ..req.clone()
    }
}

#[cfg(feature = "mpi")]
pub use over_mpi::solve_batch_on;

#[cfg(feature = "mpi")]
mod over_mpi {
    use super::*;
    use crate::solve::store::{ProofStore, Record};
    use crate::tables::mpi::Mpi;
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
        let (rank, ranks) = world.with_world(|w| (w.rank(), w.size()));
        if ranks == 1 {
            return solve_batch(req, fens, out);
        }
        if rank == 0 {
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
        let workers = world.with_world(|w| w.size()) as usize - 1;
        let mut next = 0usize;
        let mut working = workers;
        let mut failure: Option<BatchFailure> = None;
        let mut store: Option<ProofStore> = None;
        while working > 0 {
            let (from, tag, bytes) = next_message(world);
            if tag == ANSWERED {
                if let Err(f) = take_answer(req, fens, &mut store, from, &bytes, out) {
                    failure.get_or_insert(f);
                }
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
            fen: String::new(),
            error: AppError::Input(format!("rank {from}'s answer did not read: {e}")),
        })?;
        let fen = fens.get(a.index).cloned().unwrap_or_default();
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
    fn keep(
        req: &SolveRequest,
        store: &mut Option<ProofStore>,
        a: &Answered,
    ) -> Result<(), AppError> {
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
        let req = SolveRequest {
            store_read_only: true,
            ..req.clone()
        };
        send(world, 0, READY, &[]);
        loop {
            let (bytes, status) = world.with_world(|w| w.process_at_rank(0).receive_vec::<u8>());
            if status.tag() != TASK {
                return;
            }
            let answered = match serde_json::from_slice::<Task>(&bytes) {
                Ok(task) => {
                    let r = solve(&with_fen(&req, &task.fen));
                    match r {
                        Ok(r) => Answered {
                            index: task.index,
                            game: r.game.to_string(),
                            rules: r.rules.to_string(),
                            shown: Some((out.show)(&r)),
                            stored: r.stored,
                            error: None,
                        },
                        Err(e) => Answered {
                            index: task.index,
                            game: String::new(),
                            rules: String::new(),
                            shown: None,
                            stored: Vec::new(),
                            error: Some(e.to_string()),
                        },
                    }
                }
                Err(e) => Answered {
                    index: usize::MAX,
                    game: String::new(),
                    rules: String::new(),
                    shown: None,
                    stored: Vec::new(),
                    error: Some(format!("a task did not read: {e}")),
                },
            };
            let bytes = serde_json::to_vec(&answered).expect("an answer encodes");
            send(world, 0, ANSWERED, &bytes);
        }
    }
}
