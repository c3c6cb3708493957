//! Search slots: at most [`crate::Config::max_searches`] searches (and
//! proofs) at once, each with a deadline. A slot is freed when its search
//! ends, or at its deadline if the search has not ended by then: a search
//! slow to notice "stop" (a large table being opened and checked) is
//! abandoned rather than allowed to hold its slot, or an
//! async worker, for good (issue 33). Nothing here waits for a search on
//! an async worker: a small task per slot awaits a signal that the search
//! sends by dropping its [`Ended`] when its thread finishes with it.

use crate::ApiError;
use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{oneshot, Semaphore};
use tokio::time::Instant;

/// How long past its cap a search may take to stop and report before it
/// is abandoned (the answer's "plus one second").
pub const GRACE: Duration = Duration::from_secs(1);

/// The slots, and the searches abandoned that have not ended yet.
#[derive(Clone)]
pub(crate) struct Searches {
    slots: Arc<Semaphore>,
    max: usize,
    abandoned: Arc<AtomicUsize>,
}

/// Held by a search for as long as it runs (moved into its thread's
/// callback, or its blocking task): dropping it, wherever that happens,
/// tells the slot's keeper that the search is over.
pub(crate) struct Ended(#[allow(dead_code)] oneshot::Sender<()>);

impl Searches {
    pub(crate) fn new(max: usize) -> Searches {
        Searches {
            slots: Arc::new(Semaphore::new(max.clamp(1, Semaphore::MAX_PERMITS))),
            max,
            abandoned: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Searches abandoned at their deadline whose threads still run.
    pub(crate) fn abandoned(&self) -> usize {
        self.abandoned.load(Ordering::Relaxed)
    }

    /// A slot for a search that must be over by `deadline`, or 503. Also
    /// refused while as many abandoned searches still run as there are
    /// slots: each holds its memory until its thread ends, so they too are
    /// bounded.
    pub(crate) fn take(&self, deadline: Instant) -> Result<Ended, ApiError> {
        let stuck = self.abandoned();
        if stuck >= self.max {
            return Err(ApiError::Busy(format!(
                "{stuck} searches did not stop within their time cap and still run; \
                 no new search starts until they end (or the server is restarted)"
            )));
        }
        let permit = self.slots.clone().try_acquire_owned().map_err(|_| {
            ApiError::Busy(if self.max == 1 {
                "the server runs one search at a time, and it is busy: try again shortly".into()
            } else {
                format!(
                    "the server runs {} searches at once, all busy: try again shortly",
                    self.max
                )
            })
        })?;
        let (tx, mut rx) = oneshot::channel::<()>();
        let abandoned = self.abandoned.clone();
        tokio::spawn(async move {
            // Err(_) from the receiver is the signal: the sender dropped.
            if tokio::time::timeout_at(deadline, &mut rx).await.is_ok() {
                return;
            }
            drop(permit);
            abandoned.fetch_add(1, Ordering::Relaxed);
            // A log line only: a closed standard error must not end
            // the task (and leave the search counted for good).
            let _ = writeln!(
                std::io::stderr(),
                "zoo serve: a search did not stop within its time cap; abandoned"
            );
            let _ = rx.await;
            abandoned.fetch_sub(1, Ordering::Relaxed);
        });
        Ok(Ended(tx))
    }
}

/// Starts `work` on a thread of its own at the lowest CPU priority (nice
/// 19), and gives its result: a search made there (and the threads it
/// starts, which inherit the priority) never starves the few async workers
/// that answer requests, however many searches run (issue 33: with 50 at
/// once on 2 cores, answers came seconds past their caps). `None` when no
/// thread could be made or `work` panicked.
pub(crate) async fn on_low_priority_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = oneshot::channel();
    std::thread::Builder::new()
        .name("zoo-serve-search".into())
        .spawn(move || {
            lower_priority();
            // If the request is gone, what `work` made is dropped here.
            let _ = tx.send(work());
        })
        .ok()?;
    rx.await.ok()
}

fn lower_priority() {
    // On Linux the nice value belongs to the thread (`who` 0 is the
    // calling thread) and threads started from it inherit it.
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes plain integers and touches no memory of
    // ours; a failure leaves the priority as it was.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}
