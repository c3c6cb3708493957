//! Several processes building one set of tables: the little a build needs
//! to know of the others, behind a trait, so the generator does not depend
//! on how they talk. The MPI implementation is in `zoo-app` (cargo feature
//! `mpi`); [`Single`] is one process alone and [`Threads`] runs the ranks
//! as threads of one process, for tests.
//!
//! Every method is collective: each rank calls it, in the same order.
//!
//! ```
//! use zoo_tb::cluster::{Cluster, Threads};
//! let sums = Threads::run(3, |c| c.sum(&[c.rank() as u64, 1]).unwrap());
//! assert_eq!(sums, vec![vec![3, 3]; 3]);
//! ```

use crate::TbError;
use std::sync::{Barrier, Mutex};

/// The ranks of a build, as this rank sees them.
pub trait Cluster: Sync {
    /// This process's number, `0..ranks()`.
    fn rank(&self) -> usize;
    /// How many processes build together.
    fn ranks(&self) -> usize;
    /// Sends `out[r]` to rank `r` (one vector per rank, this one's
    /// included) and gives, per rank, what it sent here.
    fn exchange(&self, out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, TbError>;

    /// `v` of every rank, by rank.
    fn all(&self, v: &[u64]) -> Result<Vec<Vec<u64>>, TbError> {
        self.exchange(vec![v.to_vec(); self.ranks()])
    }

    /// `v` summed element by element over the ranks.
    fn sum(&self, v: &[u64]) -> Result<Vec<u64>, TbError> {
        let all = self.all(v)?;
        Ok((0..v.len())
            .map(|i| all.iter().map(|w| w[i]).sum())
            .collect())
    }

    /// The largest of every rank's `x`.
    fn max(&self, x: u64) -> Result<u64, TbError> {
        Ok(self.all(&[x])?.iter().map(|w| w[0]).max().unwrap_or(x))
    }

    /// Tells every rank how this one's part of a step went, and gives the
    /// first failure of any rank (this one's own error when it failed): a
    /// step ends on every rank together, so none waits for a rank that
    /// has given up.
    fn agree(&self, mine: Result<(), TbError>) -> Result<(), TbError> {
        let code = match &mine {
            Ok(()) => 0,
            Err(TbError::Interrupted) => 1,
            Err(_) => 2,
        };
        let codes = self.all(&[code])?;
        mine?;
        match codes.iter().position(|c| c[0] != 0) {
            None => Ok(()),
            Some(r) if codes[r][0] == 1 => Err(TbError::Interrupted),
            Some(r) => Err(TbError::Rank(r)),
        }
    }
}

/// One process alone.
pub struct Single;

impl Cluster for Single {
    fn rank(&self) -> usize {
        0
    }
    fn ranks(&self) -> usize {
        1
    }
    fn exchange(&self, mut out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, TbError> {
        out.truncate(1);
        Ok(out)
    }
}

/// Ranks as threads of one process, exchanging through shared memory: the
/// split build's logic tested without MPI.
pub struct Threads<'a> {
    rank: usize,
    ranks: usize,
    shared: &'a Mailbox,
}

/// `slots[from][to]`, and the barrier that separates writing them from
/// reading them.
struct Mailbox {
    slots: Mutex<Vec<Vec<Vec<u64>>>>,
    barrier: Barrier,
}

impl Threads<'_> {
    /// Runs `f` on `ranks` ranks, each a thread, and gives their results
    /// by rank.
    pub fn run<T: Send>(ranks: usize, f: impl Fn(&Threads) -> T + Sync) -> Vec<T> {
        let shared = Mailbox {
            slots: Mutex::new(vec![vec![Vec::new(); ranks]; ranks]),
            barrier: Barrier::new(ranks),
        };
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..ranks)
                .map(|rank| {
                    let (f, shared) = (&f, &shared);
                    s.spawn(move || {
                        f(&Threads {
                            rank,
                            ranks,
                            shared,
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a rank's thread"))
                .collect()
        })
    }
}

impl Cluster for Threads<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn ranks(&self) -> usize {
        self.ranks
    }
    fn exchange(&self, out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, TbError> {
        assert_eq!(out.len(), self.ranks(), "one vector per rank");
        self.shared.slots.lock().expect("mailbox")[self.rank] = out;
        self.shared.barrier.wait();
        let got = {
            let mut slots = self.shared.slots.lock().expect("mailbox");
            (0..self.ranks)
                .map(|from| std::mem::take(&mut slots[from][self.rank]))
                .collect()
        };
        // Nobody writes the next round before everyone has read this one.
        self.shared.barrier.wait();
        Ok(got)
    }
}

/// How the ranks share a build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Split {
    /// Each configuration built whole by one rank, the configurations of
    /// one size shared out (largest first, to the least loaded rank).
    #[default]
    Configurations,
    /// Each configuration built by every rank, each owning a range of its
    /// entries and telling the others of the children it decides in theirs
    /// ([`crate::generate::split`]): a configuration larger than one
    /// machine's memory.
    Ranges,
}
