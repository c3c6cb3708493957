//! Endgame tables as the front ends use them: the table policy (the memory
//! a build may use, which tables a check covers, what the machine can
//! hold) and each table command's report, for any game with tables.
//!
//! The front ends name a game, a rule set and a directory ([`TableSet`]);
//! the game's type is chosen once, through [`crate::GameKind::visit_tables`].
//!
//! ```
//! use zoo_app::{GameKind, TableSet};
//! let dir = std::env::temp_dir().join(format!("zoo-app-doc-{}", std::process::id()));
//! let set = TableSet::new(GameKind::JungleCheckers, None, &dir)?;
//! // Nothing built yet: the plan lists every 2-piece table.
//! let plan = set.plan(&zoo_app::BuildRequest { pieces: 2, ..Default::default() })?;
//! assert_eq!(plan.present, 0);
//! assert!(!plan.tables.is_empty());
//! # Ok::<(), zoo_app::AppError>(())
//! ```

pub mod advantage;
pub(crate) mod animal;
pub mod diff;
pub mod disk;
pub mod longest;
#[cfg(feature = "mpi")]
pub mod mpi;
pub use crate::mpi_world::launched_by_mpi;
pub mod plan;
pub mod recompress;
pub(crate) mod reports;
pub mod scheme;
mod scheme_copy;
pub(crate) mod scheme_plan;
pub mod wdl;

/// The visitor of the animal boards, defined with the registry of games.
pub use crate::games::TableVisitor;
pub(crate) use crate::tables::animal::{check_pieces, rules_of};
use crate::tables::animal::{
    BuildIt, CheckRules, GenericIt, PlanIt, ProbeOf, StatsOf, TableDir, VerifyAll, VerifySample,
};
pub use crate::tables::reports::*;
use crate::{AppError, GameKind};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
/// How the processes of a build share it (`zoo tb build` under `mpirun`).
pub use zoo_animal_tb::build::Ranks;
use zoo_animal_tb::build::{BuildOptions, Built};
use zoo_core::{Game, Outcome};
pub use zoo_tb::cluster::{Cluster, Single, Split};
use zoo_tb::file::Encoding;

/// The share of the machine's memory a build uses when not told.
const DEFAULT_MEMORY_SHARE: f64 = 0.8;

/// The tables of one game and rule set under a directory.
#[derive(Clone, Debug)]
pub struct TableSet {
    game: GameKind,
    rules: Option<String>,
    dir: PathBuf,
}

impl TableSet {
    /// A directory to read tables from that is not there is blamed, not
    /// the tables missing from it.
    pub fn check_dir(&self) -> Result<(), AppError> {
        if self.dir.is_dir() {
            Ok(())
        } else if self.dir.exists() {
            Err(AppError::Path(format!(
                "the table directory {} is not a directory",
                self.dir.display()
            )))
        } else {
            Err(AppError::Path(format!(
                "the table directory {} does not exist",
                self.dir.display()
            )))
        }
    }
}

/// A directory a build writes tables to: created if it is not there, but
/// only inside a directory that is (a mistyped path does not become a
/// tree of new directories).
pub fn check_build_dir(dir: &std::path::Path) -> Result<(), AppError> {
    if dir.is_dir() {
        return Ok(());
    }
    if dir.exists() {
        return Err(AppError::Path(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if parent.is_dir() {
        Ok(())
    } else {
        Err(AppError::Path(format!(
            "cannot build tables in {}: its parent directory {} does not exist",
            dir.display(),
            parent.display()
        )))
    }
}

/// What `zoo tb build` is asked to do.
#[derive(Clone, Debug)]
pub struct BuildRequest {
    /// Every table up to this many pieces.
    pub pieces: u32,
    /// Threads of the build.
    pub threads: usize,
    /// Bound on the working memory of the tables solved at once, in GB;
    /// `None`: 80% of the machine's memory.
    pub memory_gb: Option<f64>,
    /// How new tables are stored; `None`: the default for their size.
    pub encoding: Option<Encoding>,
    /// Solve the tables that are another's renamed instead of copying them.
    pub solve_all: bool,
    /// Only this material (`RDTvdt`) and the missing tables it needs.
    pub material: Option<String>,
    /// Working sets, in bytes, from which a table keeps a checkpoint;
    /// `None`: the build's own threshold (1 GiB). For tests of resuming.
    pub checkpoint_from: Option<u64>,
}

impl Default for BuildRequest {
    fn default() -> Self {
        BuildRequest {
            pieces: 2,
            threads: 2,
            memory_gb: None,
            encoding: None,
            solve_all: false,
            material: None,
            checkpoint_from: None,
        }
    }
}

/// The tables a build will make, in order.
#[derive(Clone, Debug, Serialize)]
pub struct BuildPlan {
    /// Game and rule set.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Where the tables are written.
    pub dir: PathBuf,
    /// Up to this many pieces.
    pub pieces: u32,
    /// Tables already there.
    pub present: usize,
    /// The memory the tables solved at once may use, if bounded.
    pub budget_bytes: Option<u64>,
    /// The tables to make, in build order.
    pub tables: Vec<PlannedTable>,
    /// What [`TableSet::build`] runs: the plan is worked out once.
    #[serde(skip)]
    pub(crate) work: PlanWork,
}

/// What a [`BuildPlan`] runs, by generator.
#[derive(Clone, Debug)]
pub(crate) enum PlanWork {
    /// The animal games' generator: its jobs and options.
    Animal {
        jobs: zoo_animal_tb::plan::Plan,
        options: BuildOptions,
    },
    /// The generic generator (`zoo_tb::retro`, crate::tables::scheme): the
    /// tables of the plan in order, written in this encoding (`None`: the
    /// smaller of plain and zstd).
    Scheme {
        encoding: Option<Encoding>,
        threads: usize,
    },
}

impl BuildPlan {
    /// The entries of every table to make (both sides to move).
    pub fn positions(&self) -> u64 {
        self.tables
            .iter()
            .fold(0u64, |t, p| t.saturating_add(p.positions))
    }
    /// How many tables are copies of another renamed.
    pub fn copies(&self) -> usize {
        self.tables
            .iter()
            .filter(|p| p.copied_from.is_some())
            .count()
    }
}

/// One table a build will make.
#[derive(Clone, Debug, Serialize)]
pub struct PlannedTable {
    /// Its material, as `RDvte`.
    pub name: String,
    /// Its number of pieces.
    pub pieces: u32,
    /// Its entries, both sides to move.
    pub positions: u64,
    /// The memory it needs while it is made.
    pub working_bytes: u64,
    /// The table it is copied from, renamed, rather than solved.
    pub copied_from: Option<String>,
    /// Solved with its state in files: it does not fit the memory allowed.
    pub state_in_file: bool,
    /// The tables that must exist before it starts.
    pub needs: Vec<String>,
}

/// How a build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BuildOutcome {
    /// Every planned table was made.
    Done {
        /// How many.
        built: usize,
    },
    /// Stopped by the caller; running the same build again resumes it.
    Interrupted {
        /// Tables still missing.
        missing: usize,
    },
}

impl TableSet {
    /// The tables of `game` under `rules` (`None`: the game's default) in
    /// `dir`. Refuses a game without tables and an unknown rule set.
    pub fn new(game: GameKind, rules: Option<&str>, dir: &Path) -> Result<TableSet, AppError> {
        // A checkers move limit (docs/rules/checkers.md §4.3) counts plies
        // a table's index has no room for: no table is made or read for it.
        if let Some(r) = rules.filter(|r| r.contains("+draw=") && !r.contains("+draw=none")) {
            return Err(AppError::Option(format!(
                "tables are not made for rule sets with a move limit ({r}): its count is not \
                 part of a position"
            )));
        }
        let set = TableSet {
            game,
            rules: rules.map(str::to_string),
            dir: dir.to_path_buf(),
        };
        match set.scheme(scheme::Rules(&set)) {
            Some(r) => r?,
            None => set.visit(CheckRules(&set))??,
        }
        Ok(set)
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The directory the tables are under (the game's and rule set's
    /// directories inside it).
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rule set named, if one was.
    pub(crate) fn rules_name(&self) -> Option<&str> {
        self.rules.as_deref()
    }

    fn visit<V: TableVisitor>(&self, v: V) -> Result<V::Output, AppError> {
        self.game.visit_tables(v)
    }

    /// Runs `v` when the game's tables are the generic generator's
    /// (checkers); `None` for the animal games.
    pub(crate) fn scheme<V: scheme::SchemeVisitor>(&self, v: V) -> Option<V::Output> {
        self.game.visit_scheme_tables(v)
    }

    /// The tables `req` would make, in order, and how many are there.
    pub fn plan(&self, req: &BuildRequest) -> Result<BuildPlan, AppError> {
        crate::options::check_threads(req.threads)?;
        if let Some(r) = self.scheme(scheme::Plan { set: self, req }) {
            return r;
        }
        self.visit(PlanIt { set: self, req })?
    }

    /// Makes the tables of `plan` (from [`TableSet::plan`]; a build
    /// stopped before resumes with a new plan). `progress` is told of work
    /// done (each entry twice: visited, then decided) and `finished` of
    /// each table made; setting `stop` ends the build at the next safe
    /// point.
    pub fn build(
        &self,
        plan: &BuildPlan,
        progress: &(dyn Fn(u64) + Sync),
        finished: &(dyn Fn(&Built) + Sync),
        stop: &AtomicBool,
    ) -> Result<BuildOutcome, AppError> {
        let alone = Ranks {
            cluster: &zoo_tb::cluster::Single,
            split: Split::Configurations,
        };
        self.build_on(plan, &alone, progress, finished, stop)
    }

    /// Every table up to `pieces` pieces that is not there, by the
    /// generator of any game with unmoves (`zoo_tb::retro`: about 35
    /// times slower than the animal one, and writing the same bytes), on
    /// `threads` threads, smallest first; `done` is told of each table
    /// (its name, and whether it was made or already there).
    pub fn build_generic(
        &self,
        pieces: u32,
        threads: usize,
        done: &(dyn Fn(&str, bool) + Sync),
        stop: &AtomicBool,
    ) -> Result<BuildOutcome, AppError> {
        if self.scheme(scheme::Rules(self)).is_some() {
            // These games have no other generator: the plan and build of
            // `zoo tb build`.
            let plan = self.plan(&BuildRequest {
                pieces,
                threads,
                ..BuildRequest::default()
            })?;
            return self.build(&plan, &|_| {}, &|b| done(&b.name, true), stop);
        }
        thread_pool(threads)?.install(|| {
            self.visit(GenericIt {
                set: self,
                pieces,
                done,
                stop,
            })
        })?
    }

    /// [`TableSet::build`] shared by the processes of `ranks` (each made
    /// its own plan of the same directory; see `zoo_animal_tb::build::build_on`).
    /// `finished` is told of the tables this process built.
    pub fn build_on(
        &self,
        plan: &BuildPlan,
        ranks: &Ranks,
        progress: &(dyn Fn(u64) + Sync),
        finished: &(dyn Fn(&Built) + Sync),
        stop: &AtomicBool,
    ) -> Result<BuildOutcome, AppError> {
        if let Some(r) = self.scheme(scheme::Build {
            set: self,
            plan,
            ranks,
            progress,
            finished,
            stop,
        }) {
            return r;
        }
        self.visit(BuildIt {
            set: self,
            plan,
            ranks,
            progress,
            finished,
            stop,
        })?
    }

    /// The directory of this game's rule set's tables, inside the one given.
    pub fn table_dir(&self) -> Result<PathBuf, AppError> {
        if let Some(r) = self.scheme(scheme::Dir(self)) {
            return r;
        }
        self.visit(TableDir(self))?
    }

    /// Rewrites the manifest beside the tables from every table file
    /// there; gives how many it lists.
    pub fn write_manifest(&self) -> Result<usize, AppError> {
        Ok(zoo_tb::manifest::write(&self.table_dir()?)?.len())
    }

    /// How the table files differ from their manifest, one line each
    /// (none: they agree). Reads every file.
    pub fn check_manifest(&self) -> Result<Vec<String>, AppError> {
        Ok(zoo_tb::manifest::check(&self.table_dir()?)?
            .iter()
            .map(|p| p.to_string())
            .collect())
    }

    /// Counts of the positions with exactly `pieces` pieces, White to move.
    pub fn stats(&self, pieces: u32) -> Result<TableStats, AppError> {
        if let Some(r) = self.scheme(scheme::Stats { set: self, pieces }) {
            return r;
        }
        self.visit(StatsOf { set: self, pieces })?
    }

    /// The value of the position `fen` and of each of its moves.
    pub fn probe(&self, fen: &str) -> Result<ProbeReport, AppError> {
        self.check_dir()?;
        if let Some(r) = self.scheme(scheme::Probe { set: self, fen }) {
            return r;
        }
        self.visit(ProbeOf { set: self, fen })?
    }

    /// Checks every table up to `pieces` pieces against an independent
    /// exhaustive solver, the materials of `sample` of the largest size
    /// ([`Sample::ALL`]: all). Refuses sizes whose solver would not fit in
    /// memory.
    pub fn verify(
        &self,
        pieces: u32,
        sample: Sample,
        threads: usize,
    ) -> Result<VerifyReport, AppError> {
        self.verify_with_progress(pieces, sample, threads, &|_, _| {})
    }

    /// [`TableSet::verify`], calling `progress(done, total)` as each
    /// material is solved and checked.
    pub fn verify_with_progress(
        &self,
        pieces: u32,
        sample: Sample,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<VerifyReport, AppError> {
        if let Some(r) = self.scheme(scheme::Verify {
            set: self,
            pieces,
            sample,
            threads,
            progress,
        }) {
            return r;
        }
        self.visit(VerifyAll {
            set: self,
            pieces,
            sample,
            threads,
            progress,
        })?
    }

    /// Checks `positions` random entries of each table of exactly `pieces`
    /// pieces (those of `sample`) against the values of their moves.
    /// `seed`: the entries drawn (`None`: from the clock, reported).
    pub fn verify_positions(
        &self,
        pieces: u32,
        sample: Sample,
        positions: u64,
        seed: Option<u64>,
        threads: usize,
    ) -> Result<SampleCheck, AppError> {
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        });
        if let Some(r) = self.scheme(scheme::VerifySample {
            set: self,
            pieces,
            sample,
            positions,
            seed,
            threads,
        }) {
            return r;
        }
        self.visit(VerifySample {
            set: self,
            pieces,
            sample,
            positions,
            seed,
            threads,
        })?
    }
}

/// Each move of `pos` with the value and distance the tables give the
/// position it leads to, from the mover's view. The tables value that
/// position for the opponent; the mover's view is its opposite, one ply
/// longer (no distance without `distance_known`, or for a draw).
pub(crate) fn probed_moves<G: Game>(
    pos: &G,
    moves: Vec<(G::Move, Outcome, u16)>,
    distance_known: bool,
) -> Vec<ProbedMove> {
    moves
        .into_iter()
        .map(|(m, o, d)| ProbedMove {
            coord: pos.move_to_coord(m),
            san: pos.move_to_string(m),
            value: o.flip(),
            distance: if o == Outcome::Draw || !distance_known {
                0
            } else {
                d + 1
            },
        })
        .collect()
}

/// Which materials of the largest size a check takes: `--sample K --part
/// P`, the materials whose fixed hash is P modulo K, so a sampled check
/// can be repeated and the K parts together are every material (a long
/// check run a part at a time, over several sessions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// K: one material in this many.
    pub one_in: u64,
    /// P: which of the K parts.
    pub part: u64,
}

impl Sample {
    /// Every material.
    pub const ALL: Sample = Sample { one_in: 1, part: 0 };
}

pub(crate) fn check_sample(sample: Sample) -> Result<(), AppError> {
    if sample.one_in == 0 {
        return Err(AppError::Input("--sample must be at least 1".into()));
    }
    if sample.part >= sample.one_in {
        return Err(AppError::Input(format!(
            "--part {}: the parts of --sample {} are 0 to {}",
            sample.part,
            sample.one_in,
            sample.one_in - 1
        )));
    }
    Ok(())
}

/// The material keys of `sample`, by a fixed hash of the key.
pub(crate) fn keep_key(sample: Sample) -> impl Fn(u64) -> bool + Sync {
    move |key: u64| (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % sample.one_in == sample.part
}

pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, AppError> {
    crate::options::check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| AppError::Input(format!("cannot start {threads} threads: {e}")))
}

/// The memory a build may use: what was asked, else a share of the
/// machine's, so a table that cannot fit keeps its state in files instead
/// of failing half-way.
pub(crate) fn memory_budget(req: &BuildRequest) -> Result<Option<u64>, AppError> {
    match req.memory_gb {
        Some(gb) if gb.is_finite() && gb > 0.0 => Ok(Some((gb * 1e9) as u64)),
        Some(gb) => Err(AppError::Input(format!(
            "--memory {gb}: give a positive number of GB"
        ))),
        None => {
            Ok(crate::machine::total_memory().map(|b| (b as f64 * DEFAULT_MEMORY_SHARE) as u64))
        }
    }
}
