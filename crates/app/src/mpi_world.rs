//! MPI's world for the jobs `mpirun` shares out (cargo feature `mpi`): a
//! table build's ranks (`crate::tables::mpi`, through MPI's collectives)
//! and a solve's batch (`crate::solve::batch_mpi`, through messages). A
//! process `mpirun` did not start never initialises MPI.

#[cfg(feature = "mpi")]
pub use with_mpi::Mpi;

/// Whether an MPI launcher (`mpirun`) started this process as one rank of
/// a job: the variables OpenMPI, PMIx and MPICH's Hydra set (whatever
/// this zoo was built with).
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::launched_by_mpi;
    use mpi::environment::Universe;
    use mpi::topology::{Communicator, SimpleCommunicator};
    use mpi::Threading;
    use std::sync::Mutex;
    use zoo_tb::TbError;

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

        /// This process's rank, from 0.
        pub fn rank(&self) -> usize {
            self.rank
        }

        /// How many ranks the job has.
        pub fn ranks(&self) -> usize {
            self.ranks
        }

        /// Runs `f` with the communicator, one thread at a time.
        pub(crate) fn with_world<R>(&self, f: impl FnOnce(&SimpleCommunicator) -> R) -> R {
            f(&self.world.lock().expect("the MPI world").0)
        }

        /// Ends every rank of the job at once (after a rank's failure that the
        /// others cannot learn of at a collective).
        pub fn abort(&self, code: i32) -> ! {
            self.world.lock().expect("the MPI world").0.abort(code)
        }
    }
}
