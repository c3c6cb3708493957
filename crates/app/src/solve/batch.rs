//! A batch of positions, each asked the same question with the same
//! options (`zoo solve --positions FILE`): one after another on one
//! process, or, under `mpirun`, shared out among worker processes by a
//! manager that keeps the store (issue #52, "past one machine").
//!
//! With `--store`, the store grows as the batch goes: on one process each
//! answer is saved as it is found; over MPI ([`super::batch_mpi`]) the
//! workers read the store (every position they are given starts from what
//! the whole job has proven so far, as saved) but never write it, and
//! send each answer to rank 0, the store's one writer, as soon as it is
//! found; rank 0 saves them as they come.
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
    /// A stop was asked for: the answers of the positions under way are
    /// as far as their searches got, and the positions not yet given out
    /// were not asked.
    Interrupted,
}

/// A position of a batch that failed, and why (the batch stops there:
/// the positions not yet given out are not asked).
#[derive(Debug)]
pub struct BatchFailure {
    /// The position as the batch gave it (`None`: the failure was no
    /// position's, e.g. a message between processes that did not read).
    pub fen: Option<String>,
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
            fen: Some(fen.clone()),
            error,
        })?;
        (out.emit)(&(out.show)(&r));
    }
    // A stop during the last position: its answers are as far as the
    // search got.
    Ok(if (out.stop)() {
        BatchEnd::Interrupted
    } else {
        BatchEnd::Done
    })
}

pub(super) fn with_fen(req: &SolveRequest, fen: &str) -> SolveRequest {
    SolveRequest {
        fen: Some(fen.to_string()),
        ..req.clone()
    }
}
