//! Building every missing table up to a number of pieces: fewer pieces first
//! (a table needs the smaller ones its captures lead to), configurations of
//! one size in parallel, within a memory budget. A table is written whole or
//! not at all, so an interrupted build resumes at the first missing table.

use crate::checkpoint;
use crate::cluster::{Cluster, Single, Split};
use crate::file::{write_table_smallest, write_table_with, Encoding};
use crate::generate::split::{generate_split, Traffic};
use crate::generate::{generate, Solve, Work};
use crate::index::Material;
use crate::isomorph;
pub use crate::options::{BuildOptions, CHECKPOINT_FROM};
use crate::plan::{Job, Plan};
use crate::{Tablebase, TbError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Condvar, Mutex};
use std::time::Instant;
use zoo_animal::{Board, RuleSet};

/// How a table is stored when the build is not told: in zstd blocks at
/// every size, or plain for a table where that is not larger
/// ([`write_table_smallest`]). The generator of the next size probes these
/// tables through a per-thread cache of decompressed blocks
/// ([`crate::file::CACHED_BLOCKS`]), which its forward pass, walking its
/// own index in order, mostly hits. `None` is that choice, per table.
pub fn default_encoding(_pieces: u32) -> Option<Encoding> {
    None
}

/// Writes a table in `encoding`, or the smaller of zstd and plain.
fn write_table_as(
    path: &Path,
    header: &crate::file::Header,
    encoding: Option<Encoding>,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    match encoding {
        Some(e) => write_table_with(path, header, e, fill),
        None => write_table_smallest(path, header, fill).map(|(len, _)| len),
    }
}

/// What a finished build did.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    pub built: Vec<Built>,
    pub skipped: usize,
}

/// One table built.
#[derive(Clone, Debug)]
pub struct Built {
    pub name: String,
    pub secs: f64,
    /// Zero for a copy.
    pub work: Work,
    /// The configuration a copy was copied from.
    pub copied_from: Option<String>,
    /// Why a checkpoint could not be saved (see `Generated::unsaved`).
    pub unsaved: Option<String>,
    /// Solved by several ranks at once: what they sent each other.
    pub traffic: Option<Traffic>,
    /// The level a checkpoint resumed its solve at (its `work` is then
    /// the part done since).
    pub resumed_at: Option<u64>,
}

/// Makes the tables of `plan` (see [`crate::plan::plan`]) under `dir`,
/// fewer pieces first, configurations of one size side by side within
/// the memory budget. Stopped by `stop`, it returns
/// [`TbError::Interrupted`]; the tables written so far stay, so the plan
/// of a later run starts where this one stopped.
pub fn build<B: Board>(
    dir: &Path,
    rules: &'static RuleSet,
    opts: &BuildOptions,
    plan: &Plan,
    progress: &(dyn Fn(u64) + Sync),
    finished: &(dyn Fn(&Built) + Sync),
    stop: &AtomicBool,
) -> Result<BuildReport, TbError> {
    let alone = Ranks {
        cluster: &Single,
        split: Split::Configurations,
    };
    build_on::<B>(dir, rules, opts, plan, &alone, progress, finished, stop)
}

/// The processes a build runs on and how they share it.
#[derive(Clone, Copy)]
pub struct Ranks<'a> {
    pub cluster: &'a dyn Cluster,
    pub split: Split,
}

/// [`build`] on every rank of `ranks.cluster` together, each called with
/// the same arguments and the same plan (made before any rank writes), the
/// table directory shared. Every rank writes the tables it builds; with
/// [`Split::Ranges`] rank 0 writes each solved table. The files are the
/// ones one process writes, byte for byte. A failure on one rank ends the
/// build on all of them at the end of the step ([`TbError::Rank`] on the
/// others); a rank that dies is the launcher's to report (`mpirun` ends
/// the others), and a new run resumes at the tables missing.
#[allow(clippy::too_many_arguments)]
pub fn build_on<B: Board>(
    dir: &Path,
    rules: &'static RuleSet,
    opts: &BuildOptions,
    plan: &Plan,
    ranks: &Ranks,
    progress: &(dyn Fn(u64) + Sync),
    finished: &(dyn Fn(&Built) + Sync),
    stop: &AtomicBool,
) -> Result<BuildReport, TbError> {
    if rules.name.len() > crate::file::RULES_NAME_MAX {
        return Err(TbError::RulesNameTooLong(rules.name.to_string()));
    }
    let cluster = ranks.cluster;
    let alone = cluster.ranks() == 1;
    // Every rank has made its plan before any writes a table.
    cluster.agree(Ok(()))?;
    let (planned, skipped) = (&plan.jobs, plan.present);
    let most = planned.iter().map(|j| j.pieces).max().unwrap_or(0);
    let tdir: PathBuf = crate::file::table_dir(dir, B::GAME, rules.name);
    std::fs::create_dir_all(&tdir).map_err(|e| TbError::io(tdir.clone(), e))?;
    let mut report = BuildReport {
        built: Vec::new(),
        skipped,
    };
    let sizes = Sizes {
        dir,
        rules,
        opts,
        tdir: &tdir,
        progress,
        finished,
        stop,
        used: Mutex::new(0),
        freed: Condvar::new(),
    };
    for n in 2..=most {
        let (copies, mut solves): (Vec<&Job>, Vec<&Job>) = planned
            .iter()
            .filter(|p| p.pieces == n)
            .partition(|p| p.source.is_some());
        if solves.is_empty() && copies.is_empty() {
            continue;
        }
        // Largest first: the small ones fill the gaps at the end.
        solves.sort_by_key(|p| std::cmp::Reverse(p.positions));
        let solved_here: Vec<Material> = solves.iter().map(|p| p.material).collect();
        // The jobs in the order they are taken: the copies of tables that
        // are there already, the solves, then the copies of tables solved
        // at this size, which wait for their sources.
        let (waiting, ready): (Vec<&Job>, Vec<&Job>) = copies
            .into_iter()
            .partition(|p| p.source.is_some_and(|r| solved_here.contains(&r.source)));
        let (written, results) = if alone {
            let jobs: Vec<&Job> = ready
                .into_iter()
                .chain(solves.iter().copied())
                .chain(waiting)
                .collect();
            sizes.run::<B>(n, &jobs, &solved_here)
        } else {
            let mut written = Vec::new();
            let mut results = Vec::new();
            // Each step ends on every rank together: the copies waiting
            // for a table solved at this size start once it is written,
            // whichever rank wrote it.
            // `None`: the solves, split by ranges.
            let steps: Vec<Option<Vec<&Job>>> = match ranks.split {
                Split::Configurations => {
                    vec![
                        Some(ready.into_iter().chain(solves.iter().copied()).collect()),
                        Some(waiting),
                    ]
                }
                Split::Ranges => vec![Some(ready), None, Some(waiting)],
            };
            for step in &steps {
                let (w, r) = match step {
                    Some(jobs) => sizes.run::<B>(n, &share(jobs, cluster), &[]),
                    None => sizes.split_solves::<B>(&solves, cluster),
                };
                let failed = r.iter().find_map(|r| r.as_ref().err().cloned());
                written.extend(w);
                results.extend(r);
                let agreed = cluster.agree(failed.map_or(Ok(()), Err));
                if let Err(e) = agreed {
                    results.push(Err(e));
                    break;
                }
            }
            // Every rank's tables, for the manifest.
            let keys: Vec<u64> = written.iter().map(|m| m.key() as u64).collect();
            let all = cluster.all(&keys)?;
            written = all
                .concat()
                .into_iter()
                .map(|k| Material::new(k as u8, (k >> 8) as u8))
                .collect();
            written.sort_by_key(|m| m.key());
            written.dedup();
            (written, results)
        };
        // The manifest follows the tables written, also when a job failed
        // or the build was stopped.
        if cluster.rank() == 0 {
            let names: Vec<String> = written
                .iter()
                .map(|&m| crate::file::file_name(&m.name::<B>()))
                .collect();
            crate::manifest::record(&tdir, &names)?;
        }
        for r in results {
            report.built.push(r?);
        }
    }
    // A run that finds every table there (an earlier run wrote the last
    // of them and was killed before its record) still leaves a manifest
    // that names them all: each unlisted table is added once its own
    // checksum holds.
    if cluster.rank() == 0 {
        crate::manifest::record(&tdir, &[])?;
    }
    Ok(report)
}

/// This rank's jobs of `jobs`: each job, largest first, to the rank with
/// the fewest positions so far (the lowest on a tie), the same on every
/// rank.
fn share<'a>(jobs: &[&'a Job], cluster: &dyn Cluster) -> Vec<&'a Job> {
    let mut order: Vec<&Job> = jobs.to_vec();
    order.sort_by_key(|p| std::cmp::Reverse(p.positions));
    let mut load = vec![0u64; cluster.ranks()];
    order
        .into_iter()
        .filter(|p| {
            let r = (0..load.len()).min_by_key(|&r| load[r]).unwrap_or(0);
            load[r] += p.positions.max(1);
            r == cluster.rank()
        })
        .collect()
}

/// What every size of a build shares.
struct Sizes<'a> {
    dir: &'a Path,
    rules: &'static RuleSet,
    opts: &'a BuildOptions,
    tdir: &'a Path,
    progress: &'a (dyn Fn(u64) + Sync),
    finished: &'a (dyn Fn(&Built) + Sync),
    stop: &'a AtomicBool,
    /// Memory in use by the configurations being solved; a job waits until
    /// its working set fits the budget, and one larger than the budget (its
    /// state in files) until it is alone.
    used: Mutex<u64>,
    freed: Condvar,
}

/// The tables written and each job's result.
type Ran = (Vec<Material>, Vec<Result<Built, TbError>>);

impl Sizes<'_> {
    /// Runs `jobs` (of `n` pieces) with this process's threads. A copy of
    /// a table in `solved_here` waits until it is written.
    fn run<B: Board>(&self, n: u32, jobs: &[&Job], solved_here: &[Material]) -> Ran {
        let (opts, budget) = (self.opts, self.opts.budget());
        let solves: Vec<&&Job> = jobs.iter().filter(|p| p.source.is_none()).collect();
        // A fresh view of the directory: the tables of n - 1 pieces exist now.
        let tb = Tablebase::<B>::open(self.dir, self.rules);
        let encoding = opts.encoding.or_else(|| default_encoding(n));
        // Configurations side by side, one thread each, when as many as there
        // are threads fit in memory together; otherwise one at a time with
        // all threads on it.
        let threads = opts.threads.max(1);
        let largest: u64 = solves.iter().take(threads).map(|p| p.working_bytes).sum();
        let side_by_side = threads > 1 && jobs.len() > 1 && largest <= budget;
        let run = |p: &Job| -> Result<Built, TbError> {
            let t0 = Instant::now();
            let path = tb.path_of(p.material);
            let (work, unsaved, resumed_at) = match &p.source {
                // A copy maps its entries with the threads of its pool (one side by side).
                Some(r) => {
                    let c = isomorph::copy(&tb, p.material, r, self.progress, self.stop)?;
                    write_table_as(&path, &c.header, encoding, &|side, start, out| {
                        c.fill(side, start, out)
                    })?;
                    (Work::default(), None, None)
                }
                None => {
                    // Configurations of a gigabyte or more save checkpoints
                    // (the 6-piece Jungle Checkers ones take half an hour each).
                    let ckpt = checkpoint::path_for(&path);
                    let ckpt = opts.checkpoints(p.working_bytes).then_some(ckpt.as_path());
                    let solve = Solve {
                        parallel: threads > 1 && !side_by_side,
                        checkpoint: ckpt,
                        state_dir: p.state_in_file.then_some(self.tdir),
                    };
                    let g = generate(&tb, p.material, &solve, self.progress, self.stop)?;
                    write_table_as(&path, &g.header, encoding, &|side, start, out| {
                        g.fill(side, start, out)
                    })?;
                    if let Some(c) = ckpt {
                        // With those a split build may have left.
                        checkpoint::remove_all(c);
                    }
                    (g.work, g.unsaved, g.resumed_at)
                }
            };
            let built = Built {
                name: p.material.name::<B>(),
                secs: t0.elapsed().as_secs_f64(),
                work,
                copied_from: p.source.map(|r| r.source.name::<B>()),
                unsaved,
                traffic: None,
                resumed_at,
            };
            (self.finished)(&built);
            Ok(built)
        };
        // Workers take the jobs in order; a copy waits until its source is
        // written, and a job until its working set fits the budget.
        let next = AtomicUsize::new(0);
        let written = Mutex::new(Vec::<Material>::new());
        let wrote = Condvar::new();
        let failed = AtomicBool::new(false);
        let results = Mutex::new(Vec::new());
        let worker = |pool: &rayon::ThreadPool| {
            while let Some(p) = jobs.get(next.fetch_add(1, SeqCst)) {
                if let Some(r) = p.source.filter(|r| solved_here.contains(&r.source)) {
                    let mut w = written.lock().expect("job lock");
                    while !w.contains(&r.source) && !failed.load(SeqCst) {
                        w = wrote.wait(w).expect("job lock");
                    }
                }
                if failed.load(SeqCst) {
                    break;
                }
                {
                    let mut u = self.used.lock().expect("memory lock");
                    while *u > 0 && *u + p.working_bytes > budget {
                        u = self.freed.wait(u).expect("memory lock");
                    }
                    *u += p.working_bytes;
                }
                let r = pool.install(|| run(p));
                *self.used.lock().expect("memory lock") -= p.working_bytes;
                self.freed.notify_all();
                {
                    // Under the lock, so a copy about to wait cannot miss it.
                    let mut w = written.lock().expect("job lock");
                    match &r {
                        Ok(_) => w.push(p.material),
                        Err(_) => failed.store(true, SeqCst),
                    }
                }
                wrote.notify_all();
                results.lock().expect("results lock").push(r);
            }
        };
        // The workers are threads of their own that wait outside the pool
        // and hand each job to it: a job waiting inside the pool could be
        // run nested under the very job it waits for and never wake.
        // Side by side, each worker has a pool of one thread of its own. In
        // one shared pool a thread waiting in a job's parallel loop (its
        // counts, its copy) for a piece the other thread took may start the
        // next job meanwhile: the first job then ends only after it, its
        // worker hands out nothing more, and the other thread sits idle
        // (measured in docs/log/tablebase.md).
        // Otherwise one worker hands each job to a pool of all threads.
        let pools: Result<Vec<rayon::ThreadPool>, TbError> = if side_by_side {
            (0..threads).map(|_| thread_pool(1)).collect()
        } else {
            thread_pool(threads).map(|p| vec![p])
        };
        let pools = match pools {
            Ok(p) => p,
            Err(e) => return (Vec::new(), vec![Err(e)]),
        };
        std::thread::scope(|s| {
            for p in &pools {
                s.spawn(|| worker(p));
            }
        });
        (
            written.into_inner().expect("job lock"),
            results.into_inner().expect("results lock"),
        )
    }

    /// Solves `solves` one after the other on every rank together, each
    /// split by ranges ([`generate_split`]); rank 0 writes them.
    fn split_solves<B: Board>(&self, solves: &[&Job], cluster: &dyn Cluster) -> Ran {
        let mut written = Vec::new();
        let mut results = Vec::new();
        let pool = match thread_pool(self.opts.threads.max(1)) {
            Ok(p) => p,
            Err(e) => return (written, vec![Err(e)]),
        };
        for p in solves {
            let n = p.pieces;
            let r = pool.install(|| -> Result<Option<Built>, TbError> {
                let t0 = Instant::now();
                let tb = Tablebase::<B>::open(self.dir, self.rules);
                let path = tb.path_of(p.material);
                // The policy of a build alone, on the whole configuration's
                // working set: a rank that dies costs the work of all.
                let ckpt = checkpoint::path_for(&path);
                let ckpt = self
                    .opts
                    .checkpoints(p.working_bytes)
                    .then_some(ckpt.as_path());
                let solve = Solve {
                    parallel: self.opts.threads > 1,
                    checkpoint: ckpt,
                    state_dir: None,
                };
                let a = generate_split(
                    &tb,
                    p.material,
                    &solve,
                    cluster,
                    self.tdir,
                    self.progress,
                    self.stop,
                )?;
                let wrote = if a.writes() {
                    let encoding = self.opts.encoding.or_else(|| default_encoding(n));
                    write_table_as(&path, &a.header, encoding, &|side, start, out| {
                        a.fill(side, start, out)
                    })
                    .map(|_| ())
                } else {
                    Ok(())
                };
                // The table is there for every rank before the next one.
                cluster.agree(wrote)?;
                if let Some(c) = ckpt {
                    // On every rank, for a directory that is not shared;
                    // a file another rank removed first is no error.
                    checkpoint::remove_all(c);
                }
                let built = Built {
                    name: p.material.name::<B>(),
                    secs: t0.elapsed().as_secs_f64(),
                    work: a.work,
                    copied_from: None,
                    unsaved: a.unsaved.clone(),
                    traffic: Some(a.traffic),
                    resumed_at: a.resumed_at,
                };
                // Every rank did the work; one tells of it.
                Ok(a.writes().then(|| {
                    (self.finished)(&built);
                    built
                }))
            });
            match r {
                Ok(b) => {
                    written.push(p.material);
                    results.extend(b.map(Ok));
                }
                Err(e) => {
                    results.push(Err(e));
                    break;
                }
            }
        }
        (written, results)
    }
}

fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, TbError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TbError::ThreadPool(e.to_string()))
}

/// Statistics over all positions with exactly `pieces` pieces, White to
/// move, both colours present (as `zoo tb stats` prints them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest: u64,
}

/// Sums the headers of the tables with `pieces` pieces: the White-to-move
/// positions of a stored material are its side 0, those of its colour swap
/// its side 1.
pub fn stats<B: Board>(tb: &Tablebase<B>, pieces: u32) -> Result<Stats, TbError> {
    let mut s = Stats::default();
    for m in Material::canonical::<B>(pieces) {
        let t = tb.table(m)?;
        for c in &t.header.counts[..m.stored_sides()] {
            s.positions += c.positions;
            s.wins += c.wins;
            s.losses += c.losses;
            s.draws += c.draws;
            s.longest = s.longest.max(c.longest);
        }
    }
    Ok(s)
}

/// `1.23 GB`, `45.6 MB`, `789 kB`.
pub fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.0} kB", b / 1e3)
    }
}
