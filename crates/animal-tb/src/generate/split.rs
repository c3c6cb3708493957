//! One configuration solved by several ranks at once, each owning a range
//! of its entries (both sides to move), after literature B's proposal for
//! tables larger than one machine and Romein & Bal's transposition-driven
//! scheduling: work goes to the rank that owns the data, in batches.
//!
//! - The forward pass needs nothing of the others: each rank initialises
//!   its own entries (the smaller tables are on a shared disk).
//! - Level `d` is swept in rounds of at most [`ROUND`] marked blocks per
//!   rank. A predecessor in another rank's range is a message of 8 bytes
//!   (its side in bit 63, its entry); after each round every rank sends its
//!   messages and tells its own predecessors of what it received. A
//!   message decides an entry at `d + 1` or later or counts one down,
//!   never at `d`, so the order of a level's messages does not matter, as
//!   the order of the parallel sweep does not in one process. Rounds bound
//!   the messages held at once; the ranks go through the same number of
//!   rounds (the largest any of them needs).
//! - The counts are summed over the ranks; rank 0 gathers the values (a
//!   byte per entry and side, in a file it maps, so its memory does not
//!   grow with the table) and writes the table.
//!
//! Each rank maps the state of the whole configuration but touches only
//! its own range: anonymous pages never written take no memory, so a rank
//! needs about `1 / ranks` of the working set.
//!
//! The stop flag is looked at before each round, by every rank together,
//! not in the middle of one: there the state of every rank is whole (the
//! messages of the rounds before applied), so the ranks can save their
//! checkpoints ([`super::split_checkpoint`]) and a rerun resumes from them.

use super::split_checkpoint::RankCheckpoint;
use super::*;
use crate::cluster::Cluster;
use memmap2::MmapMut;

/// Marked blocks a rank sweeps between two exchanges: at most
/// `ROUND × BLOCK` positions taken back, a few tens of MB of messages.
const ROUND: usize = 256;
/// Entries of one side a rank sends to rank 0 at a time.
const GATHER: u64 = 1 << 22;

/// The first entry of each rank's range and, last, the size: multiples
/// of `CHUNK` (the forward pass's unit), the ranks' shares as equal as that
/// allows.
pub fn bounds(size: u64, ranks: usize) -> Vec<u64> {
    let chunks = size.div_ceil(CHUNK);
    let per = chunks.div_ceil(ranks as u64).max(1);
    (0..=ranks as u64)
        .map(|r| (r * per * CHUNK).min(size))
        .collect()
}

/// What a split solve did, summed over the ranks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Predecessors told through another rank.
    pub messages: u64,
    /// The bytes those messages took, and the values sent to rank 0.
    pub bytes: u64,
    /// Exchanges between the ranks (rounds of every level, and gathering).
    pub exchanges: u64,
}

/// A configuration solved by [`generate_split`]: on rank 0 the values, to
/// be written; on the others nothing to write.
pub struct Assembled {
    pub header: Header,
    /// After a resumed checkpoint: the part done since, as [`Work`] says.
    pub work: Work,
    /// After a resumed checkpoint: the part done since.
    pub traffic: Traffic,
    /// Why the ranks could not save their checkpoints between levels, if
    /// they could not (see `Generated::unsaved`).
    pub unsaved: Option<String>,
    /// The level the ranks' checkpoints resumed the solve at, if they did.
    pub resumed_at: Option<u64>,
    /// Rank 0: side 0's values, then side 1's.
    values: Option<MmapMut>,
}

impl Assembled {
    /// The value codes of `side`'s entries `start..start + out.len()`
    /// (rank 0 only).
    pub fn fill(&self, side: usize, start: u64, out: &mut [u8]) {
        let v = self.values.as_ref().expect("rank 0 holds the values");
        let at = (side as u64 * self.header.size + start) as usize;
        out.copy_from_slice(&v[at..at + out.len()]);
    }

    /// Whether this rank holds the values (and writes the table).
    pub fn writes(&self) -> bool {
        self.values.is_some()
    }
}

/// [`generate`] for material `m` on every rank of `cluster` together, each
/// with the threads of its current rayon pool (`solve.parallel`). Rank 0
/// keeps the gathered values in an unlinked file under `scratch`.
///
/// With `solve.checkpoint` (the path the whole configuration's checkpoint
/// would have, [`checkpoint::path_for`]) each rank keeps a checkpoint of
/// its range beside it ([`checkpoint::path_for_rank`]), saved after the
/// forward pass, every ten minutes and when stopped (between two rounds),
/// and the ranks resume from them when every rank has one of the same
/// level; the caller removes them when the table is written. The state is
/// not kept in files (`solve.state_dir` is not used).
pub fn generate_split<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    solve: &Solve,
    cluster: &dyn Cluster,
    scratch: &Path,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Assembled, TbError> {
    let layout = tb.scheme().layout(m);
    let size = layout.size;
    let parallel = solve.parallel;
    let (rank, ranks) = (cluster.rank(), cluster.ranks());
    let cuts = bounds(size, ranks);
    let owner = |x: u64| cuts[1..].partition_point(|&c| c <= x);
    let mut g = Gen::new(
        tb,
        layout,
        &Solve {
            parallel,
            checkpoint: None,
            state_dir: None,
        },
    )?;
    g.own = cuts[rank]..cuts[rank + 1];
    let (lo, hi) = (g.own.start, g.own.end);
    let g = g;
    let check = || {
        if stop.load(Relaxed) {
            Err(TbError::Interrupted)
        } else {
            Ok(())
        }
    };
    let mut traffic = Traffic::default();
    let mut ckpt = solve
        .checkpoint
        .map(|whole| RankCheckpoint::new(&g, whole, rank, ranks));
    let resumed = match ckpt.as_mut() {
        Some(c) => c.resume(cluster)?,
        None => None,
    };

    let first = match resumed {
        Some(level) => {
            progress(2 * (hi - lo));
            level as usize
        }
        None => {
            let chunks: Vec<u64> = (lo..hi).step_by(CHUNK as usize).collect();
            let forward = each(&chunks, parallel, |&start| {
                check()?;
                let end = (start + CHUNK).min(hi);
                g.forward(start, end)?;
                progress(2 * (end - start));
                Ok(0)
            });
            cluster.agree(forward.map(|_| ()))?;
            0
        }
    };

    let mut swept_entries = 0u64;
    for d in first..LEVELS {
        let lost = d.is_multiple_of(2);
        // After a resumed checkpoint saved mid-level: the blocks of `d`
        // still marked, those not swept yet.
        let blocks = g.marked(d);
        let rounds = cluster.max(blocks.len().div_ceil(ROUND) as u64)?;
        for round in 0..rounds as usize {
            // Between rounds every rank's state is whole: stop (and save)
            // here, all ranks together.
            let due = ckpt.as_ref().is_some_and(|c| c.due());
            let wanted = cluster.sum(&[stop.load(Relaxed) as u64, due as u64])?;
            let stopping = wanted[0] > 0;
            if let Some(c) = ckpt.as_mut().filter(|_| stopping || wanted[1] > 0) {
                c.save(cluster, d as u64, stopping)?;
            }
            if stopping {
                return Err(TbError::Interrupted);
            }
            let mine = blocks
                .get((round * ROUND).min(blocks.len())..((round + 1) * ROUND).min(blocks.len()))
                .unwrap_or(&[]);
            let swept = sweep(&g, mine, d, parallel, progress);
            let (k, remote) = match swept {
                Ok(r) => {
                    cluster.agree(Ok(()))?;
                    r
                }
                // `agree` gives this rank's own error back.
                Err(e) => return Err(cluster.agree(Err(e)).err().unwrap_or(TbError::Interrupted)),
            };
            swept_entries += k;
            let mut out = vec![Vec::new(); ranks];
            for msg in remote {
                out[owner(msg & !(1 << 63))].push(msg);
            }
            let sent: u64 = out.iter().map(|o| o.len() as u64).sum();
            traffic.messages += sent;
            traffic.exchanges += 1;
            let received = cluster.exchange(out)?;
            let told = |msgs: &Vec<u64>| -> Result<u64, TbError> {
                for &msg in msgs {
                    g.notify((msg >> 63) as usize, msg & !(1 << 63), lost, d)?;
                }
                Ok(0)
            };
            let applied = each(&received, parallel, told);
            cluster.agree(applied.map(|_| ()))?;
        }
    }
    progress((2 * (hi - lo)).saturating_sub(swept_entries));

    // The counts and the work of every rank.
    let own_counts = [g.counts(0), g.counts(1)];
    let mut mine = Vec::with_capacity(17);
    for c in &own_counts {
        mine.extend(c.entries);
        mine.extend([c.positions, c.wins, c.draws, c.losses]);
    }
    mine.extend([g.taken_back.load(Relaxed), g.told.load(Relaxed)]);
    mine.extend([traffic.messages]);
    let sums = cluster.sum(&mine)?;
    let longest = [
        cluster.max(own_counts[0].longest)?,
        cluster.max(own_counts[1].longest)?,
    ];
    let counts = [0, 1].map(|side| {
        let s = &sums[7 * side..7 * side + 7];
        SideCounts {
            entries: [s[0], s[1], s[2]],
            positions: s[3],
            wins: s[4],
            draws: s[5],
            losses: s[6],
            longest: longest[side],
        }
    });
    let work = Work {
        taken_back: sums[14],
        told: sums[15],
    };
    let mut exchanges = traffic.exchanges;
    let mut gathered = 0u64;
    let header = Header {
        counts,
        ..crate::header::<B>(tb.rules().name, m, size)
    };

    // The values, gathered on rank 0 piece by piece in the same rounds on
    // every rank.
    let mut values = if rank == 0 {
        Some(scratch_map(scratch, m.name::<B>(), 2 * size)?)
    } else {
        None
    };
    let widest = (0..ranks).map(|r| cuts[r + 1] - cuts[r]).max().unwrap_or(0);
    for side in 0..2 {
        for piece in 0..widest.div_ceil(GATHER) {
            let (start, end) = (
                (lo + piece * GATHER).min(hi),
                (lo + (piece + 1) * GATHER).min(hi),
            );
            let mut bytes = vec![0u8; (end - start) as usize];
            fill_state(&g.state[side], start, &mut bytes);
            let mut out = vec![Vec::new(); ranks];
            out[0] = pack(&bytes);
            if rank != 0 {
                gathered += 8 * out[0].len() as u64;
            }
            exchanges += 1;
            let got = cluster.exchange(out)?;
            if let Some(v) = values.as_mut() {
                for (r, words) in got.iter().enumerate() {
                    let from = (cuts[r] + piece * GATHER).min(cuts[r + 1]);
                    let to = (cuts[r] + (piece + 1) * GATHER).min(cuts[r + 1]);
                    let at = (side as u64 * size + from) as usize;
                    unpack(words, &mut v[at..at + (to - from) as usize]);
                }
            }
        }
    }
    let traffic = Traffic {
        messages: sums[16],
        bytes: 8 * sums[16] + cluster.sum(&[gathered])?[0],
        exchanges,
    };
    Ok(Assembled {
        header,
        work,
        traffic,
        unsaved: ckpt.and_then(|c| c.unsaved),
        resumed_at: resumed,
        values,
    })
}

/// Sweeps `blocks` of level `d`: the entries taken back, and the messages
/// for other ranks. Not stopped halfway (see the module's comment).
fn sweep<B: Board>(
    g: &Gen<B>,
    blocks: &[(usize, u64)],
    d: usize,
    parallel: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(u64, Vec<u64>), TbError> {
    let one = |&(side, b): &(usize, u64)| -> Result<(u64, Vec<u64>), TbError> {
        let mut remote = Vec::new();
        let k = g.sweep_block(side, b, d, &mut remote)?;
        g.unmark(d, side, b);
        progress(k);
        Ok((k, remote))
    };
    let join = |mut a: (u64, Vec<u64>), b: (u64, Vec<u64>)| {
        a.0 += b.0;
        a.1.extend(b.1);
        a
    };
    if parallel {
        blocks
            .par_iter()
            .map(one)
            .try_reduce(|| (0, Vec::new()), |a, b| Ok(join(a, b)))
    } else {
        blocks
            .iter()
            .try_fold((0, Vec::new()), |a, t| Ok(join(a, one(t)?)))
    }
}

/// The value codes of entries `start..` of a state (0: undecided).
fn fill_state(state: &state::State, start: u64, out: &mut [u8]) {
    let mut o = out.iter_mut();
    state.for_each(start, start + o.len() as u64, |v| {
        if let Some(o) = o.next() {
            *o = if v & OPEN != 0 { 0 } else { v as u8 };
        }
    });
}

/// Bytes into words, eight to a word, little-endian.
fn pack(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// Words from [`pack`] back into `out.len()` bytes.
fn unpack(words: &[u64], out: &mut [u8]) {
    for (c, w) in out.chunks_mut(8).zip(words) {
        c.copy_from_slice(&w.to_le_bytes()[..c.len()]);
    }
}

/// `bytes` of zeros in a file under `dir` that is unlinked at once: the
/// kernel writes its pages back to disk rather than holding them all.
fn scratch_map(dir: &Path, name: String, bytes: u64) -> Result<MmapMut, TbError> {
    let path = dir.join(format!("{name}.values.tmp"));
    let io = |e| TbError::io(&path, e);
    let f = zoo_core::files::create_no_follow(&path).map_err(io)?;
    std::fs::remove_file(&path).map_err(io)?;
    f.set_len(bytes.max(1)).map_err(io)?;
    // SAFETY: the file is ours alone (created, then unlinked) and keeps
    // its length while the map lives.
    unsafe { MmapMut::map_mut(&f) }.map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_the_entries_in_chunks() {
        for (size, ranks) in [(1, 3), (CHUNK * 5 + 7, 3), (CHUNK * 3, 3), (CHUNK, 1)] {
            let b = bounds(size, ranks);
            assert_eq!((b.len(), b[0], b[ranks]), (ranks + 1, 0, size));
            assert!(b.windows(2).all(|w| w[0] <= w[1]));
            assert!(b[..ranks].iter().all(|c| c % CHUNK == 0 || *c == size));
        }
    }

    #[test]
    fn packing_round_trips() {
        let bytes: Vec<u8> = (0..21).collect();
        let mut back = vec![0; 21];
        unpack(&pack(&bytes), &mut back);
        assert_eq!(back, bytes);
    }
}
