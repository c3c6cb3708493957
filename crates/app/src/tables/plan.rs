//! `zoo tb plan`: what building the tables of a size would cost, on this
//! machine or on several (docs/tablebase.md, "Planning a build"). The
//! policy around [`zoo_animal_tb::estimate`]: the machines when not told (this
//! one), the rates (measured here in a few seconds by
//! [`zoo_animal_tb::calibrate`], or given), the bytes per entry (measured on the
//! table files under the directory), and the report.

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use zoo_animal::Board;
use zoo_animal_tb::build::human_bytes;
use zoo_animal_tb::estimate::{self, Basis, Machines, Place, Rates, Storage};
use zoo_animal_tb::Tablebase;
use zoo_tb::file::Encoding;

/// The share of a machine's memory a build uses when not told (as `tb
/// build`'s default).
const MEMORY_SHARE: f64 = 0.8;
/// More machines than any plan here needs: a typo, not a cluster.
const MOST_MACHINES: usize = 1 << 20;
/// More memory or disk per machine, in GB, than any machine has.
const MOST_GB: f64 = 1e6;
/// More threads per machine than any machine has.
const MOST_THREADS: usize = 1 << 16;
/// The network between the machines when not told: 10 Gbit/s (one
/// machine cannot measure it).
const NETWORK_BYTES_PER_SEC: f64 = 1.25e9;
/// The large state the calibration times updates in: 2 GiB, or a quarter
/// of the memory available if that is less.
const CALIBRATION_STATE: u64 = 2 << 30;

/// What `zoo tb plan` is asked.
#[derive(Clone, Debug, Default)]
pub struct PlanRequest {
    /// Every configuration up to this many pieces.
    pub pieces: u32,
    /// Only those of exactly `pieces` pieces (the smaller tables taken as
    /// built).
    pub only: bool,
    /// How many machines (default 1).
    pub machines: Option<usize>,
    /// The memory a build may use on each, in GB (default: 80% of this
    /// machine's).
    pub memory_per_machine_gb: Option<f64>,
    /// The disk of each, in GB (default: not checked).
    pub disk_per_machine_gb: Option<f64>,
    /// Threads of each (default: this machine's).
    pub threads_per_machine: Option<usize>,
    /// The network's rate, in GB/s per machine (default 1.25: 10 Gbit/s).
    pub network_gb_per_sec: Option<f64>,
    /// The rates to plan with; `None`: measured now (a few seconds).
    pub rates: Option<PlanRates>,
    /// Plan every configuration as solved, none copied.
    pub solve_all: bool,
    /// How the tables would be stored (default: as a build stores them,
    /// see `zoo_animal_tb::estimate::planned_encoding`).
    pub encoding: Option<Encoding>,
}

/// The rates a plan's times come from, per thread, in the units a person
/// reads (`zoo tb plan --json` prints them; `--rates FILE` reads them
/// back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanRates {
    /// Nanoseconds per entry and piece of a solve, its state updates apart.
    pub solve_ns: f64,
    /// Predecessors told per entry and piece.
    pub told_per_entry: f64,
    /// Nanoseconds of a state update at random, by the state's size.
    pub update_ns: Vec<UpdateRate>,
    /// Nanoseconds per entry of a copy.
    pub copy_ns: f64,
}

/// One measured update cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UpdateRate {
    /// The state's size.
    pub state_bytes: u64,
    /// Nanoseconds per update.
    pub ns: f64,
}

impl PlanRates {
    /// Rates from JSON: the `rates` object of a `zoo tb plan --json`
    /// result, or that whole result.
    pub fn from_json(text: &str) -> Result<PlanRates, AppError> {
        let bad =
            |e: String| AppError::Input(format!("not the rates of `zoo tb plan --json`: {e}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let v = v.get("rates").cloned().unwrap_or(v);
        let r: PlanRates = serde_json::from_value(v).map_err(|e| bad(e.to_string()))?;
        let finite = [r.solve_ns, r.told_per_entry, r.copy_ns]
            .into_iter()
            .chain(r.update_ns.iter().map(|u| u.ns))
            .all(|x| x.is_finite() && x >= 0.0);
        if !finite || r.update_ns.is_empty() {
            return Err(bad(
                "every rate must be a number, none negative, with one update rate at least".into(),
            ));
        }
        Ok(r)
    }

    fn of(r: &Rates) -> PlanRates {
        PlanRates {
            solve_ns: r.entry_secs * 1e9,
            told_per_entry: r.told_per_entry,
            update_ns: r
                .update_secs
                .iter()
                .map(|&(state_bytes, s)| UpdateRate {
                    state_bytes,
                    ns: s * 1e9,
                })
                .collect(),
            copy_ns: r.copy_secs * 1e9,
        }
    }

    fn rates(&self, network_bytes_per_sec: f64) -> Rates {
        let mut update_secs: Vec<(u64, f64)> = self
            .update_ns
            .iter()
            .map(|u| (u.state_bytes, u.ns * 1e-9))
            .collect();
        update_secs.sort_by_key(|u| u.0);
        Rates {
            entry_secs: self.solve_ns * 1e-9,
            told_per_entry: self.told_per_entry,
            update_secs,
            copy_secs: self.copy_ns * 1e-9,
            network_bytes_per_sec,
        }
    }
}

/// What the calibration measured.
#[derive(Clone, Debug, Serialize)]
pub struct CalibrationReport {
    /// The configuration solved by one thread.
    pub material: String,
    /// Its entries, both sides.
    pub positions: u64,
    /// Its solve's time.
    pub seconds: f64,
    /// Decided positions it took back through their unmoves.
    pub taken_back: u64,
    /// Predecessors it told of a decided child.
    pub told: u64,
    /// The whole calibration's time (the ≤ 3-piece tables built first).
    pub total_seconds: f64,
}

/// The machines planned for.
#[derive(Clone, Debug, Serialize)]
pub struct MachinesReport {
    /// How many.
    pub count: usize,
    /// The memory a build may use on each.
    pub memory_bytes: u64,
    /// The disk of each (`null`: not checked).
    pub disk_bytes: Option<u64>,
    /// Threads of each.
    pub threads: usize,
    /// What each sends to the others per second.
    pub network_bytes_per_second: f64,
}

/// One size of the plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlannedSize {
    /// Pieces on the board.
    pub pieces: u32,
    /// Canonical configurations (one file each).
    pub configurations: usize,
    /// Of them, copies of another renamed.
    pub copies: usize,
    /// Entries solved, both sides to move.
    pub positions: u64,
    /// Entries stored in the files.
    pub stored: u64,
    /// `plain` or `zstd`.
    pub encoding: &'static str,
    /// Bytes per stored entry.
    pub bytes_per_entry: f64,
    /// The size whose files `bytes_per_entry` was measured on (`null`:
    /// none there, assumed).
    pub measured_pieces: Option<u32>,
    /// The files' estimated size.
    pub table_bytes: u64,
    /// The same entries at 1 bit each (literature B's tables).
    pub one_bit_bytes: u64,
    /// The largest configuration's working memory.
    pub working_max_bytes: u64,
    /// Configurations split across the machines.
    pub split: usize,
    /// Configurations kept in files: larger than all the machines' memory.
    pub in_files: usize,
    /// Messages between the machines (of the split configurations).
    pub messages: u64,
    /// Their bytes.
    pub message_bytes: u64,
    /// One thread's time.
    pub thread_seconds: f64,
    /// The wall time on the machines.
    pub seconds: f64,
}

/// One configuration of the plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlannedConfiguration {
    /// Its material, as `RDvte`.
    pub name: String,
    /// Its number of pieces.
    pub pieces: u32,
    /// Entries solved, both sides to move.
    pub positions: u64,
    /// Entries stored in its file.
    pub stored: u64,
    /// Memory while it is made.
    pub working_bytes: u64,
    /// Its file's estimated size.
    pub table_bytes: u64,
    /// Scratch disk while it is made (checkpoints, state in files,
    /// gathered values).
    pub scratch_bytes: u64,
    /// The configuration it is copied from, renamed, rather than solved.
    pub copied_from: Option<String>,
    /// Predecessors its solve tells (0 for a copy).
    pub told: u64,
    /// Messages between the machines were it split across all of them.
    pub messages: u64,
    /// The fewest machines whose memory holds it.
    pub machines_needed: u64,
    /// `machine`, `split` or `state_in_files`; `does_not_fit` for a table
    /// the generic generator cannot hold in a machine's memory.
    pub placement: &'static str,
    /// The machine it is given (not for `split`).
    pub machine: Option<usize>,
    /// One thread's time.
    pub thread_seconds: f64,
    /// Its wall time where it is placed.
    pub seconds: f64,
}

/// The plan's totals.
#[derive(Clone, Debug, Serialize)]
pub struct PlanTotals {
    /// Configurations (files).
    pub configurations: usize,
    /// Of them, copies.
    pub copies: usize,
    /// Entries solved, both sides to move.
    pub positions: u64,
    /// The files' estimated size.
    pub table_bytes: u64,
    /// The stored entries at 1 bit each.
    pub one_bit_bytes: u64,
    /// Messages between the machines, and their bytes.
    pub messages: u64,
    /// The bytes of those messages.
    pub message_bytes: u64,
    /// One thread's time for everything.
    pub thread_seconds: f64,
    /// Wall time on the machines, sizes one after another.
    pub seconds: f64,
    /// The most disk one machine needs: every table, and its scratch.
    pub machine_disk_bytes: u64,
    /// Whether that fits `--disk-per-machine` (`null`: not given).
    pub fits_disk: Option<bool>,
}

/// What building the tables of a size would cost.
#[derive(Clone, Debug, Serialize)]
pub struct CostPlan {
    /// The game.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// `animal` (the animal games' generator: state in files, tables split
    /// across machines) or `generic` (`zoo_tb::retro`, checkers: a table
    /// whole in one machine's memory).
    pub generator: &'static str,
    /// Up to this many pieces.
    pub pieces: u32,
    /// Only the configurations of exactly `pieces` pieces.
    pub only: bool,
    /// The machines planned for.
    pub machines: MachinesReport,
    /// The rates the times come from.
    pub rates: PlanRates,
    /// `null` when the rates were given.
    pub calibration: Option<CalibrationReport>,
    /// Each size, fewer pieces first.
    pub sizes: Vec<PlannedSize>,
    /// Every configuration, fewer pieces first.
    pub configurations: Vec<PlannedConfiguration>,
    /// The whole plan.
    pub totals: PlanTotals,
}

impl TableSet {
    /// What building every table up to `req.pieces` pieces would cost on
    /// `req`'s machines; the bytes per entry measured on the tables under
    /// this set's directory (none need be there).
    pub fn cost_plan(&self, req: &PlanRequest) -> Result<CostPlan, AppError> {
        if let Some(r) = self.scheme(crate::tables::scheme_plan::CostOf { set: self, req }) {
            return r;
        }
        self.game().visit_tables(CostOf { set: self, req })?
    }
}

/// A build that the quick plan puts under this many entries to solve is
/// started without asking the cost planner (its calibration takes seconds,
/// and such a build takes minutes at most).
const CHECKED_FROM_POSITIONS: u64 = 1_000_000_000;

/// A rate of solving no machine reaches, for the quick refusal of builds
/// far out of reach; the builds measured in docs/tablebase.md are far
/// slower.
const FASTEST_POSITIONS_PER_SECOND: f64 = 1e9;

/// The longest build `zoo tb build` starts without `--force`, in the cost
/// planner's wall time on this machine: thirty days.
pub const MAX_BUILD_SECONDS: f64 = 30.0 * 86_400.0;

impl TableSet {
    /// Why the build `req` (whose quick plan is `plan`) cannot finish on
    /// this machine, with the cost planner's figures (`zoo tb plan`), or
    /// `None` when it can: its wall time over [`MAX_BUILD_SECONDS`]. Small
    /// builds are not planned (see [`CHECKED_FROM_POSITIONS`]).
    pub fn cannot_finish(
        &self,
        req: &crate::BuildRequest,
        plan: &crate::tables::BuildPlan,
    ) -> Result<Option<String>, AppError> {
        if plan.positions() < CHECKED_FROM_POSITIONS || req.material.is_some() {
            return Ok(None);
        }
        if let Some(why) = far_out_of_reach(req, plan.positions(), plan.game, plan.pieces) {
            return Ok(Some(why));
        }
        if self.scheme(crate::tables::scheme::Rules(self)).is_some() {
            return Ok(scheme_disk_short(self.dir(), plan));
        }
        let cost = self.cost_plan(&PlanRequest {
            pieces: req.pieces,
            memory_per_machine_gb: req.memory_gb,
            threads_per_machine: Some(req.threads.max(1)),
            solve_all: req.solve_all,
            encoding: req.encoding,
            ..PlanRequest::default()
        })?;
        let t = &cost.totals;
        let days = t.seconds / 86_400.0;
        let mut why = Vec::new();
        if t.seconds > MAX_BUILD_SECONDS {
            why.push(format!(
                "it would take {days:.0} days on {} threads (the cap is {:.0} days)",
                cost.machines.threads,
                MAX_BUILD_SECONDS / 86_400.0
            ));
        }
        // The disk of the build's file system: what is free there, and
        // what the tables already built in the directory hold (a resumed
        // build does not need that room again).
        let dir = self.dir();
        if let Some(short) = disk_shortfall(
            t.machine_disk_bytes,
            crate::machine::free_disk(dir),
            bytes_in(dir),
        ) {
            why.push(format!(
                "it needs {} of disk and {} has {} free",
                human_bytes(t.machine_disk_bytes),
                dir.display(),
                human_bytes(short)
            ));
        }
        if why.is_empty() {
            return Ok(None);
        }
        Ok(Some(format!(
            "this build cannot finish on this machine: {}. The plan (`zoo tb plan --game {} --pieces {}`): \
             {} configurations, {} positions, {:.1} GB of tables, {:.1} GB of disk, {:.1} thread-days. \
             Give --force to start it anyway",
            why.join("; "),
            cost.game,
            cost.pieces,
            t.configurations,
            t.positions,
            t.table_bytes as f64 / 1e9,
            t.machine_disk_bytes as f64 / 1e9,
            t.thread_seconds / 86_400.0
        )))
    }
}

impl TableSet {
    /// Why the build `req` is far out of reach (see [`far_out_of_reach`]),
    /// from the positions of the tables missing, counted without the build
    /// plan: the plan looks for copies among every table before it, which
    /// takes minutes at 8 or 9 pieces, and a build that cannot finish is
    /// refused at once. `None` for a build of one material.
    pub fn out_of_reach(&self, req: &crate::BuildRequest) -> Result<Option<String>, AppError> {
        if req.material.is_some() {
            return Ok(None);
        }
        let (game, positions) = match self.scheme(crate::tables::scheme::Missing {
            set: self,
            pieces: req.pieces,
        }) {
            Some(r) => r?,
            None => self.game().visit_tables(MissingPositions {
                set: self,
                pieces: req.pieces,
            })??,
        };
        Ok(far_out_of_reach(req, positions, game, req.pieces))
    }
}

/// Why the generic generator's build `plan` cannot finish: its tables,
/// a byte an entry at most (plain; zstd writes fewer), do not fit the
/// free disk. Its time is not planned: the cost planner models the animal
/// generator (`zoo tb plan`).
fn scheme_disk_short(dir: &std::path::Path, plan: &crate::tables::BuildPlan) -> Option<String> {
    let need = plan.positions();
    disk_shortfall(need, crate::machine::free_disk(dir), bytes_in(dir)).map(|free| {
        format!(
            "this build cannot finish on this machine: its tables take up to {} of disk and {} has {} free. \
             Give --force to start it anyway",
            human_bytes(need),
            dir.display(),
            human_bytes(free)
        )
    })
}

/// Why a build of `positions` positions cannot finish before the cost
/// planner calibrates (a minute or more): even at a rate no machine
/// reaches, each position seen twice, it would outlast the cap.
fn far_out_of_reach(
    req: &crate::BuildRequest,
    positions: u64,
    game: &str,
    pieces: u32,
) -> Option<String> {
    let threads = req.threads.max(1) as f64;
    let at_least = 2.0 * positions as f64 / (threads * FASTEST_POSITIONS_PER_SECOND);
    (at_least > MAX_BUILD_SECONDS).then(|| {
        format!(
            "this build cannot finish on this machine: its {positions} positions would take at least {:.0} days \
             on {threads} threads even at {FASTEST_POSITIONS_PER_SECOND:e} positions a second each \
             (the cap is {:.0} days; `zoo tb plan --game {game} --pieces {pieces}` gives the whole plan). \
             Give --force to start it anyway",
            at_least / 86_400.0,
            MAX_BUILD_SECONDS / 86_400.0,
        )
    })
}

/// The game's name and the positions (both sides to move) of the tables of
/// up to `pieces` pieces not in the directory.
struct MissingPositions<'a> {
    set: &'a TableSet,
    pieces: u32,
}
impl TableVisitor for MissingPositions<'_> {
    type Output = Result<(&'static str, u64), AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        check_pieces::<B>(self.pieces)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let mut positions = 0u64;
        for n in 2..=self.pieces {
            for m in zoo_animal_tb::index::Material::canonical::<B>(n) {
                if !tb.path_of(m).exists() {
                    positions =
                        positions.saturating_add(tb.scheme().layout(m).size.saturating_mul(2));
                }
            }
        }
        Ok((B::GAME, positions))
    }
}

/// The free bytes that fall short of a build needing `need` bytes of disk
/// in all, with `free` bytes free (`None`: unknown, not checked) and
/// `held` bytes of it already written: `Some(free)` when they do not
/// cover it.
fn disk_shortfall(need: u64, free: Option<u64>, held: u64) -> Option<u64> {
    let free = free?;
    (need > free.saturating_add(held)).then_some(free)
}

/// The bytes of the regular files directly in `dir` (0 if it is not there).
fn bytes_in(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// `64`, `0.5`, and `1e300` rather than its 301 digits.
fn show(gb: f64) -> String {
    if gb.abs() < 1e9 {
        format!("{gb}")
    } else {
        format!("{gb:e}")
    }
}

fn check_gb(flag: &str, gb: f64) -> Result<u64, AppError> {
    let gb_text = show(gb);
    if !(gb.is_finite() && gb > 0.0) {
        return Err(AppError::Input(format!(
            "{flag} {gb_text}: give a positive number of GB"
        )));
    }
    if gb > MOST_GB {
        return Err(AppError::Input(format!(
            "{flag} {gb_text}: more than the {MOST_GB} GB any machine has"
        )));
    }
    Ok((gb * 1e9) as u64)
}

pub(crate) fn machines(req: &PlanRequest) -> Result<MachinesReport, AppError> {
    let count = req.machines.unwrap_or(1);
    if count == 0 {
        return Err(AppError::Input(
            "--machines 0: give at least one machine".into(),
        ));
    }
    if count > MOST_MACHINES {
        return Err(AppError::Input(format!(
            "--machines {count}: at most {MOST_MACHINES}"
        )));
    }
    let memory_bytes = match req.memory_per_machine_gb {
        Some(gb) => check_gb("--memory-per-machine", gb)?,
        None => crate::machine::total_memory()
            .map(|b| (b as f64 * MEMORY_SHARE) as u64)
            .ok_or_else(|| {
                AppError::Input(
                    "this machine's memory is unknown: give --memory-per-machine".into(),
                )
            })?,
    };
    let disk_bytes = req
        .disk_per_machine_gb
        .map(|gb| check_gb("--disk-per-machine", gb))
        .transpose()?;
    let threads = req
        .threads_per_machine
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 || threads > MOST_THREADS {
        return Err(AppError::Input(format!(
            "--threads-per-machine {threads}: give 1 to {MOST_THREADS}"
        )));
    }
    let network = req
        .network_gb_per_sec
        .unwrap_or(NETWORK_BYTES_PER_SEC / 1e9);
    if !(network.is_finite() && network > 0.0) {
        return Err(AppError::Input(format!(
            "--network {network}: give a positive number of GB/s"
        )));
    }
    Ok(MachinesReport {
        count,
        memory_bytes,
        disk_bytes,
        threads,
        network_bytes_per_second: network * 1e9,
    })
}

/// A scratch directory removed when dropped.
pub(crate) struct Scratch(pub std::path::PathBuf);
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct CostOf<'a> {
    set: &'a TableSet,
    req: &'a PlanRequest,
}
impl TableVisitor for CostOf<'_> {
    type Output = Result<CostPlan, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let req = self.req;
        check_pieces::<B>(req.pieces)?;
        let m = machines(req)?;
        let net = m.network_bytes_per_second;
        let (rates, calibration) = match &req.rates {
            Some(r) => (r.rates(net), None),
            None => {
                let scratch = Scratch(std::env::temp_dir().join(format!(
                    "zoo-tb-plan-{}-{}",
                    B::GAME,
                    std::process::id()
                )));
                let _ = std::fs::remove_dir_all(&scratch.0);
                let large = crate::machine::available_memory()
                    .map_or(1 << 30, |a| (a / 4).min(CALIBRATION_STATE));
                let c = zoo_animal_tb::calibrate::calibrate::<B>(
                    rules,
                    &scratch.0,
                    large,
                    net,
                    &AtomicBool::new(false),
                )?;
                let report = CalibrationReport {
                    material: c.material.name::<B>(),
                    positions: c.positions,
                    seconds: c.secs,
                    taken_back: c.work.taken_back,
                    told: c.work.told,
                    total_seconds: c.total_secs,
                };
                (c.rates, Some(report))
            }
        };
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let storage = Storage::measure(&tb, req.pieces)?;
        let machines = Machines {
            count: m.count,
            memory_bytes: m.memory_bytes,
            disk_bytes: m.disk_bytes,
            threads: m.threads,
        };
        let e = estimate::estimate::<B>(
            rules,
            &estimate::Request {
                pieces: req.pieces,
                only: req.only,
                machines,
                copies: !req.solve_all,
                encoding: req.encoding,
            },
            &rates,
            &storage,
        )?;
        let name = |x: zoo_animal_tb::index::Material| x.name::<B>();
        let sizes: Vec<PlannedSize> = e
            .sizes
            .iter()
            .map(|s| {
                let encoding = zoo_animal_tb::estimate::planned_encoding(req.encoding, s.pieces);
                let (bytes_per_entry, basis) = storage.bytes_per_entry(encoding, s.pieces);
                PlannedSize {
                    pieces: s.pieces,
                    configurations: s.configurations,
                    copies: s.copies,
                    positions: s.positions,
                    stored: s.stored,
                    encoding: match encoding {
                        Encoding::Plain => "plain",
                        Encoding::Zstd => "zstd",
                        Encoding::Wdl => "wdl",
                    },
                    bytes_per_entry,
                    measured_pieces: match basis {
                        Basis::Measured(n) => Some(n),
                        Basis::Assumed => None,
                    },
                    table_bytes: s.table_bytes,
                    one_bit_bytes: s.stored.div_ceil(8),
                    working_max_bytes: s.working_max,
                    split: s.split,
                    in_files: s.in_files,
                    messages: s.messages,
                    message_bytes: s.messages * estimate::MESSAGE_BYTES,
                    thread_seconds: s.thread_secs,
                    seconds: s.secs,
                }
            })
            .collect();
        let configurations = e
            .configs
            .iter()
            .map(|c| PlannedConfiguration {
                name: name(c.material),
                pieces: c.pieces,
                positions: c.positions,
                stored: c.stored,
                working_bytes: c.working_bytes,
                table_bytes: c.table_bytes,
                scratch_bytes: c.scratch_bytes,
                copied_from: c.source.map(name),
                told: c.told,
                messages: c.messages,
                machines_needed: c.machines_needed,
                placement: match c.place {
                    Place::Machine(_) => "machine",
                    Place::Split => "split",
                    Place::StateInFiles(_) => "state_in_files",
                },
                machine: match c.place {
                    Place::Machine(r) | Place::StateInFiles(r) => Some(r),
                    Place::Split => None,
                },
                thread_seconds: c.thread_secs,
                seconds: c.secs,
            })
            .collect();
        let totals = PlanTotals {
            configurations: e.configs.len(),
            copies: e.copies(),
            positions: e.positions(),
            table_bytes: e.table_bytes(),
            one_bit_bytes: sizes.iter().map(|s| s.one_bit_bytes).sum(),
            messages: e.messages(),
            message_bytes: e.messages() * estimate::MESSAGE_BYTES,
            thread_seconds: e.thread_secs(),
            seconds: e.secs(),
            machine_disk_bytes: e.machine_disk.iter().copied().max().unwrap_or(0),
            fits_disk: m.disk_bytes.map(|_| e.fits_disk(&machines)),
        };
        Ok(CostPlan {
            game: B::GAME,
            rules: rules.name,
            generator: "animal",
            pieces: req.pieces,
            only: req.only,
            machines: m,
            rates: PlanRates::of(&rates),
            calibration,
            sizes,
            configurations,
            totals,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_short_of_disk_is_named() {
        // Unknown free space: not checked.
        assert_eq!(disk_shortfall(10, None, 0), None);
        assert_eq!(disk_shortfall(10, Some(10), 0), None);
        assert_eq!(disk_shortfall(11, Some(10), 0), Some(10));
        // Tables already built count toward what a resumed build needs.
        assert_eq!(disk_shortfall(11, Some(10), 1), None);
        assert_eq!(disk_shortfall(u64::MAX, Some(u64::MAX), 1), None);
    }
}
