//! The ranks of a table build under `mpirun` (cargo feature `mpi`): the
//! [`Cluster`] of `zoo-tb` on MPI's collectives, so the generator does not
//! know MPI and a build without it needs no MPI library.

use crate::tables::launched_by_mpi;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;
use std::sync::Mutex;
use zoo_tb::cluster::Cluster;
use zoo_tb::TbError;

/// Words sent to one rank in one collective call: MPI counts are `i32`,
/// and a bound keeps the buffers of one call to a few hundred MB.
const LIMIT: u64 = 1 << 25;

/// MPI's world, from `mpirun`.
pub struct Mpi {
    world: Mutex<World>,
    rank: usize,
    ranks: usize,
    // Finalises MPI when dropped, after `world`.
    _universe: Universe,
}

/// The communicator, used by one thread at a time (the `Mutex`; MPI is
/// initialised for serialized use from any thread).
struct World(SimpleCommunicator);
// SAFETY: the communicator is a handle MPI lets any thread use when calls
// are serialized (`Threading::Serialized`), which the `Mutex` ensures.
unsafe impl Send for World {}

impl Mpi {
    /// MPI's world when this process was started by `mpirun` (or another
    /// MPI launcher), else `None`: a build alone does not start MPI.
    pub fn from_launcher() -> Result<Option<Mpi>, TbError> {
        if !launched_by_mpi() {
            return Ok(None);
        }
        let (universe, threading) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or_else(|| TbError::Cluster("MPI was initialised already".into()))?;
        if threading < Threading::Serialized {
            return Err(TbError::Cluster(format!(
                "this MPI gives {threading:?} threading; the build needs serialized calls from any thread"
            )));
        }
        let world = universe.world();
        let (rank, ranks) = (world.rank() as usize, world.size() as usize);
        Ok(Some(Mpi {
            world: Mutex::new(World(world)),
            rank,
            ranks,
            _universe: universe,
        }))
    }

    /// Runs `f` with the communicator, one thread at a time (for the
    /// messages of a solve's batch, `crate::solve::batch`).
    pub(crate) fn with_world<R>(&self, f: impl FnOnce(&SimpleCommunicator) -> R) -> R {
        f(&self.world.lock().expect("the MPI world").0)
    }

    /// Ends every rank of the job at once (after a rank's failure that the
    /// others cannot learn of at a collective).
    pub fn abort(&self, code: i32) -> ! {
        self.world.lock().expect("the MPI world").0.abort(code)
    }
}

impl Cluster for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, TbError> {
        let n = self.ranks;
        if out.len() != n {
            return Err(TbError::Cluster(format!(
                "{} vectors for {n} ranks",
                out.len()
            )));
        }
        let world = &self.world.lock().expect("the MPI world").0;
        let sizes: Vec<u64> = out.iter().map(|o| o.len() as u64).collect();
        let mut incoming = vec![0u64; n];
        world.all_to_all_into(&sizes[..], &mut incoming[..]);
        let most = sizes.iter().chain(&incoming).copied().max().unwrap_or(0);
        let mut rounds = 0u64;
        world.all_reduce_into(&most.div_ceil(LIMIT), &mut rounds, SystemOperation::max());
        let mut got: Vec<Vec<u64>> = incoming
            .iter()
            .map(|&k| Vec::with_capacity(k as usize))
            .collect();
        for round in 0..rounds {
            let part = |k: u64| (k.min((round + 1) * LIMIT)).saturating_sub(round * LIMIT);
            let send_counts: Vec<i32> = sizes.iter().map(|&k| part(k) as i32).collect();
            let recv_counts: Vec<i32> = incoming.iter().map(|&k| part(k) as i32).collect();
            let send: Vec<u64> = out
                .iter()
                .flat_map(|o| {
                    let from = (round * LIMIT).min(o.len() as u64) as usize;
                    o[from..from + part(o.len() as u64) as usize]
                        .iter()
                        .copied()
                })
                .collect();
            let displs = |c: &[i32]| -> Vec<i32> {
                c.iter()
                    .scan(0, |at, &k| {
                        let d = *at;
                        *at += k;
                        Some(d)
                    })
                    .collect()
            };
            let (sd, rd) = (displs(&send_counts), displs(&recv_counts));
            let mut recv = vec![0u64; recv_counts.iter().map(|&k| k as usize).sum()];
            {
                let s = Partition::new(&send[..], &send_counts[..], &sd[..]);
                let mut r = PartitionMut::new(&mut recv[..], &recv_counts[..], &rd[..]);
                world.all_to_all_varcount_into(&s, &mut r);
            }
            for (from, g) in got.iter_mut().enumerate() {
                let at = rd[from] as usize;
                g.extend_from_slice(&recv[at..at + recv_counts[from] as usize]);
            }
        }
        Ok(got)
    }
}
