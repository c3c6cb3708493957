//! What building every table of a size would cost, before anyone starts
//! it: per configuration its entries, working memory, file size, the
//! messages a build split by index ranges across machines would exchange
//! and its time from rates measured on this machine
//! ([`crate::calibrate`]); then where the configurations go on a given set
//! of machines and how long each size takes.
//!
//! Unlike [`crate::plan::plan`] it reads no table: it plans every
//! configuration as a build into an empty directory would, so it answers
//! for sizes nobody can build here (7- and 8-piece Jungle Checkers).
//!
//! ```
//! use zoo_animal_tb::estimate::{estimate, Machines, Rates, Request, Storage};
//! let machines = Machines { count: 1, memory_bytes: 16 << 30, disk_bytes: None, threads: 2 };
//! let req = Request { pieces: 3, only: false, machines, copies: true, encoding: None };
//! let rates = Rates::example();
//! let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
//! let e = estimate::<zoo_animal::JungleCheckers>(rules, &req, &rates, &Storage::default()).unwrap();
//! assert_eq!(e.sizes.len(), 2);
//! assert_eq!(e.configs.len(), 10 + 24);
//! ```

use crate::build::{default_encoding, CHECKPOINT_FROM};
use crate::file::Encoding;
use crate::generate::working_bytes;
use crate::index::{Layout, Material};
use crate::{isomorph, TbError};
use zoo_animal::{Board, RuleSet};

/// Bytes of one message of a split build: a predecessor's side and entry
/// ([`crate::generate::split`]).
pub const MESSAGE_BYTES: u64 = 8;

/// The share of a split build's predecessors told through another rank,
/// per boundary between ranges: the ranges are contiguous in the index,
/// whose first digit is the first piece's square, so a predecessor crosses
/// one only when the move taken back changes a leading digit. Measured on
/// the 5-piece `DTEvdt` (2.4% of 1.11 G told with 2 ranks, 5.2% with 3:
/// docs/log/tablebase.md, 2026-11-23); never more than the share of
/// entries in other ranges.
pub const CROSSING_PER_BOUNDARY: f64 = 0.025;

/// Predecessors told through another rank when `told` are told in a
/// configuration split across `k` ranks.
pub fn split_messages(told: u64, k: u64) -> u64 {
    let k = k.max(1) as f64;
    let share = ((k - 1.0) * CROSSING_PER_BOUNDARY).min((k - 1.0) / k);
    (told as f64 * share) as u64
}

/// Disk a configuration's checkpoint takes while it is made: twice its
/// working set while a new one is written beside the last, from
/// [`CHECKPOINT_FROM`] (split by ranges, each rank its range's share).
fn checkpoint_bytes(working: u64) -> u64 {
    if working >= CHECKPOINT_FROM {
        2 * working
    } else {
        0
    }
}

/// Bytes per stored entry of a plain table when none is there to measure:
/// 2 bits of value and a byte of distance.
pub const PLAIN_BYTES_PER_ENTRY: f64 = 1.25;

/// Bytes per stored entry of a zstd table when none is there to measure:
/// the 16 six-piece Jungle Checkers tables, 10,547,785,869 bytes for
/// 28 × 4,276,752,480 stored entries (docs/log/tablebase.md, 2026-11-22).
pub const ZSTD_BYTES_PER_ENTRY: f64 = 10_547_785_869.0 / (28.0 * 4_276_752_480.0);

/// The machines a plan is for, all alike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machines {
    /// How many.
    pub count: usize,
    /// The memory a build may use on each.
    pub memory_bytes: u64,
    /// The disk each has for tables and scratch files, if bounded.
    pub disk_bytes: Option<u64>,
    /// Threads of each.
    pub threads: usize,
}

/// How fast this machine builds, per thread (see [`crate::calibrate`]).
/// A solve of `E` entries (both sides) of `n` pieces takes
/// `E · n · entry_secs` for its moves and unmoves, plus one state update
/// per predecessor told, `E · n · told_per_entry` of them, each costing
/// [`Rates::update_secs_at`] the size of its state: the updates land at
/// random, so a large state pays a miss to memory for each.
#[derive(Clone, Debug, PartialEq)]
pub struct Rates {
    /// Seconds per entry and piece of a solve, its state updates apart.
    pub entry_secs: f64,
    /// Predecessors told per entry and piece.
    pub told_per_entry: f64,
    /// Seconds per random state update in a state of so many bytes,
    /// smaller states first; between two points interpolated in the
    /// logarithm of the size, outside them the nearest end.
    pub update_secs: Vec<(u64, f64)>,
    /// Seconds per entry (both sides) of a copy.
    pub copy_secs: f64,
    /// Bytes per second a machine sends to the others.
    pub network_bytes_per_sec: f64,
}

impl Rates {
    /// Round figures of this project's machine, for examples and tests.
    pub fn example() -> Rates {
        Rates {
            entry_secs: 20e-9,
            told_per_entry: 1.0,
            update_secs: vec![(1 << 24, 5e-9), (1 << 32, 30e-9)],
            copy_secs: 5e-9,
            network_bytes_per_sec: 1.25e9,
        }
    }

    /// The time of one state update in a state of `bytes`.
    pub fn update_secs_at(&self, bytes: u64) -> f64 {
        let p = &self.update_secs;
        let Some(&(first, y0)) = p.first() else {
            return 0.0;
        };
        if bytes <= first {
            return y0;
        }
        for w in p.windows(2) {
            let ((a, ya), (b, yb)) = (w[0], w[1]);
            if bytes <= b && b > a {
                let t =
                    ((bytes as f64).ln() - (a as f64).ln()) / ((b as f64).ln() - (a as f64).ln());
                return ya + t * (yb - ya);
            }
        }
        p[p.len() - 1].1
    }

    /// Thread-seconds of the solve of `entries` entries (both sides) of
    /// `pieces` pieces, with its predecessors told.
    pub fn solve_secs(&self, entries: u64, pieces: u32) -> (f64, u64) {
        let piece_entries = entries as f64 * pieces as f64;
        let told = piece_entries * self.told_per_entry;
        let state = working_bytes(entries / 2);
        (
            piece_entries * self.entry_secs + told * self.update_secs_at(state),
            told.round() as u64,
        )
    }
}

/// Table sizes measured on files: bytes per stored entry by encoding and
/// number of pieces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Storage {
    pub measured: Vec<Measured>,
}

/// The table files of one size and encoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub encoding: Encoding,
    pub pieces: u32,
    pub tables: usize,
    /// Entries stored in them (both sides, one for a colour-symmetric
    /// configuration).
    pub entries: u64,
    pub bytes: u64,
}

/// Where a size's bytes per entry come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Basis {
    /// The files of this many pieces.
    Measured(u32),
    /// No file of the encoding: [`PLAIN_BYTES_PER_ENTRY`] or
    /// [`ZSTD_BYTES_PER_ENTRY`].
    Assumed,
}

impl Storage {
    /// The tables of every size up to `pieces` under `tb`'s directory
    /// that are there, by size and encoding. A file that cannot be opened
    /// is an error, naming it.
    pub fn measure<B: Board>(tb: &crate::Tablebase<B>, pieces: u32) -> Result<Storage, TbError> {
        let mut measured: Vec<Measured> = Vec::new();
        for n in 2..=pieces {
            for m in Material::canonical::<B>(n) {
                if !tb.path_of(m).exists() {
                    continue;
                }
                let t = tb.table(m)?;
                let entries = tb.scheme().layout(m).size * m.stored_sides() as u64;
                let (encoding, bytes) = (t.encoding(), t.file_len());
                match measured
                    .iter_mut()
                    .find(|x| x.pieces == n && x.encoding == encoding)
                {
                    Some(x) => {
                        x.tables += 1;
                        x.entries += entries;
                        x.bytes += bytes;
                    }
                    None => measured.push(Measured {
                        encoding,
                        pieces: n,
                        tables: 1,
                        entries,
                        bytes,
                    }),
                }
            }
        }
        Ok(Storage { measured })
    }

    /// Bytes per stored entry of `encoding` at `pieces`: measured at that
    /// size, else at the largest smaller size measured (compression only
    /// improves with more pieces: more of a table is decided alike), else
    /// at the smallest larger one, else assumed.
    pub fn bytes_per_entry(&self, encoding: Encoding, pieces: u32) -> (f64, Basis) {
        let of: Vec<&Measured> = self
            .measured
            .iter()
            .filter(|x| x.encoding == encoding && x.entries > 0)
            .collect();
        let pick = of
            .iter()
            .filter(|x| x.pieces <= pieces)
            .max_by_key(|x| x.pieces)
            .or_else(|| of.iter().min_by_key(|x| x.pieces));
        match pick {
            Some(x) => (x.bytes as f64 / x.entries as f64, Basis::Measured(x.pieces)),
            None => (
                match encoding {
                    Encoding::Plain => PLAIN_BYTES_PER_ENTRY,
                    // A build writes full tables, never WDL files alone.
                    Encoding::Zstd | Encoding::Wdl => ZSTD_BYTES_PER_ENTRY,
                },
                Basis::Assumed,
            ),
        }
    }
}

/// The encoding a plan assumes for the tables of `pieces` pieces: the one
/// asked for, else the build's default, the smaller of zstd and plain,
/// which for every table built so far is zstd.
pub fn planned_encoding(asked: Option<Encoding>, pieces: u32) -> Encoding {
    asked
        .or_else(|| default_encoding(pieces))
        .unwrap_or(Encoding::Zstd)
}

/// What to plan.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Up to this many pieces.
    pub pieces: u32,
    /// Only the tables of exactly `pieces` pieces (the smaller ones taken
    /// as built).
    pub only: bool,
    pub machines: Machines,
    /// Copy the configurations that are others renamed, as the build does.
    pub copies: bool,
    /// How the tables are stored; `None`: [`default_encoding`].
    pub encoding: Option<Encoding>,
}

/// Where a configuration is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Whole on one machine (`0..count`).
    Machine(usize),
    /// By every machine at once, each owning a range of its entries: it
    /// needs more memory than one machine has.
    Split,
    /// On one machine with its state in files: more memory than all the
    /// machines together have.
    StateInFiles(usize),
}

/// One configuration of the plan.
#[derive(Clone, Debug)]
pub struct Config {
    pub material: Material,
    pub pieces: u32,
    /// Index entries of both sides to move: what a solve visits (a
    /// colour-symmetric configuration is solved on both sides too).
    pub positions: u64,
    /// Entries in its file.
    pub stored: u64,
    /// Memory while it is made (a copy: the source's values and its own).
    pub working_bytes: u64,
    /// Its file's estimated size.
    pub table_bytes: u64,
    /// Scratch disk while it is made: its checkpoint (twice while one is
    /// saved; split by ranges, on all machines together), the state when
    /// in files, the gathered values of a split build.
    pub scratch_bytes: u64,
    /// Copied from this configuration renamed, not solved.
    pub source: Option<Material>,
    /// Predecessors told (0 for a copy).
    pub told: u64,
    /// Messages between machines were it split across all of them: each
    /// predecessor told in another machine's range, `told × (K − 1) / K`
    /// with equal contiguous ranges.
    pub messages: u64,
    /// Machines whose memory it needs at the least (1 when it fits one).
    pub machines_needed: u64,
    /// Time of one thread.
    pub thread_secs: f64,
    pub place: Place,
    /// Its wall time where it is placed.
    pub secs: f64,
}

/// One size of the plan.
#[derive(Clone, Debug, Default)]
pub struct Size {
    pub pieces: u32,
    pub configurations: usize,
    pub copies: usize,
    pub positions: u64,
    /// Entries stored in the files.
    pub stored: u64,
    pub table_bytes: u64,
    /// The largest configuration's working memory.
    pub working_max: u64,
    /// Messages of the configurations split across machines.
    pub messages: u64,
    pub thread_secs: f64,
    /// Wall time: the split and in-file configurations one after another,
    /// then the others shared out.
    pub secs: f64,
    /// Configurations split across the machines, and kept in files.
    pub split: usize,
    pub in_files: usize,
}

/// The whole plan.
#[derive(Clone, Debug, Default)]
pub struct Estimate {
    /// Every configuration, fewer pieces first, in canonical order.
    pub configs: Vec<Config>,
    pub sizes: Vec<Size>,
    /// Per machine: the disk it needs (every table of the plan, which the
    /// larger ones probe, and its largest scratch), and the thread time
    /// it is given.
    pub machine_disk: Vec<u64>,
    pub machine_secs: Vec<f64>,
}

impl Estimate {
    pub fn positions(&self) -> u64 {
        self.sizes.iter().map(|s| s.positions).sum()
    }
    pub fn table_bytes(&self) -> u64 {
        self.sizes.iter().map(|s| s.table_bytes).sum()
    }
    pub fn messages(&self) -> u64 {
        self.sizes.iter().map(|s| s.messages).sum()
    }
    pub fn secs(&self) -> f64 {
        self.sizes.iter().map(|s| s.secs).sum()
    }
    pub fn thread_secs(&self) -> f64 {
        self.sizes.iter().map(|s| s.thread_secs).sum()
    }
    pub fn copies(&self) -> usize {
        self.sizes.iter().map(|s| s.copies).sum()
    }
    /// Whether every machine's disk holds what it needs (true when unbounded).
    pub fn fits_disk(&self, machines: &Machines) -> bool {
        machines
            .disk_bytes
            .is_none_or(|d| self.machine_disk.iter().all(|&x| x <= d))
    }
}

/// Plans every configuration of `req.pieces` pieces (and fewer, unless
/// `req.only`) on `req.machines`.
pub fn estimate<B: Board>(
    rules: &RuleSet,
    req: &Request,
    rates: &Rates,
    storage: &Storage,
) -> Result<Estimate, TbError> {
    let mach = req.machines;
    if mach.count == 0 || mach.threads == 0 || mach.memory_bytes == 0 {
        return Err(TbError::Plan(
            "a plan needs at least one machine, with memory and a thread".into(),
        ));
    }
    let k = mach.count as u64;
    let threads = mach.threads as f64;
    let first = if req.only { req.pieces } else { 2 };
    let mut est = Estimate {
        machine_disk: vec![0; mach.count],
        machine_secs: vec![0.0; mach.count],
        ..Estimate::default()
    };
    let mut scratch = vec![0u64; mach.count];
    for n in first..=req.pieces {
        let encoding = planned_encoding(req.encoding, n);
        let (per_entry, _) = storage.bytes_per_entry(encoding, n);
        let mut size = Size {
            pieces: n,
            ..Size::default()
        };
        let mut solved: Vec<Material> = Vec::new();
        let mut configs: Vec<Config> = Vec::new();
        for m in Material::canonical::<B>(n) {
            let layout = Layout::new::<B>(m);
            let positions = layout.size.saturating_mul(2);
            let stored = layout.size * m.stored_sides() as u64;
            // A copy holds its source's values and its own, and must fit
            // one machine, or it is solved (as `plan` decides).
            let copy = req
                .copies
                .then(|| isomorph::find::<B>(rules, m, &solved))
                .flatten()
                .map(|r| {
                    let bytes =
                        Layout::new::<B>(r.source).size * r.source.stored_sides() as u64 + stored;
                    (r.source, bytes)
                })
                .filter(|&(_, bytes)| bytes <= mach.memory_bytes);
            let (working, thread_secs, told) = match copy {
                Some((_, bytes)) => (bytes, positions as f64 * rates.copy_secs, 0),
                None => {
                    solved.push(m);
                    let (secs, told) = rates.solve_secs(positions, n);
                    (working_bytes(layout.size), secs, told)
                }
            };
            let needed = working.div_ceil(mach.memory_bytes).max(1);
            let place = if needed == 1 {
                Place::Machine(0)
            } else if needed <= k {
                Place::Split
            } else {
                Place::StateInFiles(0)
            };
            let messages = split_messages(told, k);
            let scratch_bytes = checkpoint_bytes(working)
                + match place {
                    Place::StateInFiles(_) => working,
                    // Rank 0 gathers a byte per entry and side in a file.
                    Place::Split => positions,
                    Place::Machine(_) => 0,
                };
            configs.push(Config {
                material: m,
                pieces: n,
                positions,
                stored,
                working_bytes: working,
                table_bytes: (stored as f64 * per_entry).round() as u64,
                scratch_bytes,
                source: copy.map(|(s, _)| s),
                told,
                messages,
                machines_needed: needed,
                thread_secs,
                place,
                secs: 0.0,
            });
        }
        // Those that need every machine (or one alone, in files) one after
        // another; then the others, longest first, each to the machine
        // that is free first.
        let mut serial = 0.0;
        let mut load = vec![0.0f64; mach.count];
        let mut order: Vec<usize> = (0..configs.len()).collect();
        order.sort_by(|&a, &b| configs[b].thread_secs.total_cmp(&configs[a].thread_secs));
        for i in order {
            let c = &mut configs[i];
            match c.place {
                Place::Split => {
                    let bytes = (c.messages * MESSAGE_BYTES) as f64;
                    c.secs = c.thread_secs / (k as f64 * threads)
                        + bytes / (k as f64 * rates.network_bytes_per_sec);
                    serial += c.secs;
                    size.messages += c.messages;
                    size.split += 1;
                    // Each machine its range's checkpoint, rank 0 also the
                    // values it gathers.
                    let ckpt = checkpoint_bytes(c.working_bytes).div_ceil(k);
                    for (s, x) in scratch.iter_mut().enumerate() {
                        let share = if s == 0 { c.positions } else { 0 };
                        *x = (*x).max(ckpt + share);
                    }
                    for x in est.machine_secs.iter_mut() {
                        *x += c.thread_secs / k as f64;
                    }
                }
                Place::StateInFiles(_) | Place::Machine(_) => {
                    let r = (0..mach.count)
                        .min_by(|&a, &b| load[a].total_cmp(&load[b]))
                        .unwrap_or(0);
                    c.secs = c.thread_secs / threads;
                    if let Place::StateInFiles(_) = c.place {
                        c.place = Place::StateInFiles(r);
                        serial += c.secs;
                        size.in_files += 1;
                    } else {
                        c.place = Place::Machine(r);
                        load[r] += c.secs;
                    }
                    scratch[r] = scratch[r].max(c.scratch_bytes);
                    est.machine_secs[r] += c.thread_secs;
                }
            }
        }
        size.secs = serial + load.iter().copied().fold(0.0, f64::max);
        for c in &configs {
            size.configurations += 1;
            size.copies += c.source.is_some() as usize;
            size.positions += c.positions;
            size.stored += c.stored;
            size.table_bytes += c.table_bytes;
            size.working_max = size.working_max.max(c.working_bytes);
            size.thread_secs += c.thread_secs;
        }
        est.configs.extend(configs);
        est.sizes.push(size);
    }
    let tables = est.table_bytes();
    for (d, s) in est.machine_disk.iter_mut().zip(&scratch) {
        *d = tables + s;
    }
    Ok(est)
}
