//! The ranks of a table build under `mpirun` (cargo feature `mpi`): the
//! [`Cluster`] of `zoo-tb` on MPI's collectives, so the generator does not
//! know MPI and a build without it needs no MPI library.

pub use crate::mpi_world::Mpi;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::*;
use zoo_tb::cluster::Cluster;
use zoo_tb::TbError;

/// Words sent to one rank in one collective call: MPI counts are `i32`,
/// and a bound keeps the buffers of one call to a few hundred MB.
const LIMIT: u64 = 1 << 25;

impl Cluster for Mpi {
    fn rank(&self) -> usize {
        Mpi::rank(self)
    }

    fn ranks(&self) -> usize {
        Mpi::ranks(self)
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Result<Vec<Vec<u64>>, TbError> {
        let n = Mpi::ranks(self);
        if out.len() != n {
            return Err(TbError::Cluster(format!(
                "{} vectors for {n} ranks",
                out.len()
            )));
        }
        self.with_world(|world| {
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
        })
    }
}
