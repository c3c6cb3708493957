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

use crate::table_scheme as scheme;
use crate::{AppError, GameKind};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use zoo_animal::{Board, Position, RuleSet};
/// How the processes of a build share it (`zoo tb build` under `mpirun`).
pub use zoo_animal_tb::build::Ranks;
use zoo_animal_tb::build::{BuildOptions, Built};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::{Game, Outcome};
pub use zoo_tb::cluster::{Cluster, Single, Split};
use zoo_tb::file::Encoding;
use zoo_tb::TbError;

/// Runs code with the board type of a game that has endgame tables.
pub trait TableVisitor {
    /// What the visit gives back.
    type Output;
    /// Runs with `B`, the board of the chosen animal game.
    fn visit<B: Board>(self) -> Self::Output;
}

/// The share of the machine's memory a build uses when not told.
const DEFAULT_MEMORY_SHARE: f64 = 0.8;

/// A share of the machine's memory the exhaustive check may not exceed.
const VERIFY_MEMORY_SHARE: f64 = 0.8;

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
    /// The generic generator (`zoo_tb::retro`, crate::table_scheme): the
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

/// Positions of one size, White to move, as the tables' headers count them.
#[derive(Clone, Debug, Serialize)]
pub struct TableStats {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Pieces on the board.
    pub pieces: u32,
    /// Which positions are counted, in words.
    pub counted: &'static str,
    /// Positions counted.
    pub positions: u64,
    /// Won for White.
    pub wins: u64,
    /// Lost for White.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest win or loss, in plies.
    pub longest: u64,
}

/// The tables' value of a position and of each of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// The position.
    pub fen: String,
    /// Its value for the side to move.
    pub value: Outcome,
    /// Plies to the end (0 for a draw or a finished game, and when not
    /// known).
    pub distance: u16,
    /// False when the values come from WDL-only files (`zoo tb wdl`): the
    /// position's and the moves' distances are then unknown, reported as 0.
    pub distance_known: bool,
    /// Whether the game is over in this position.
    pub game_over: bool,
    /// Every legal move, best first, valued from the mover's view.
    pub moves: Vec<ProbedMove>,
}

/// One move of a probed position, valued for the side that makes it.
#[derive(Clone, Debug, Serialize)]
pub struct ProbedMove {
    /// The move in coordinates (`a3a4`).
    pub coord: String,
    /// The move in the game's short notation (named as in `MoveInfo`).
    #[serde(rename = "short")]
    pub san: String,
    /// What it leads to for the mover.
    pub value: Outcome,
    /// Plies to the end after the move, the move counted (0 for a draw).
    pub distance: u16,
}

/// The exhaustive check of the tables against an independent solver.
#[derive(Clone, Debug, Serialize)]
pub struct VerifyReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Up to this many pieces.
    pub pieces: u32,
    /// Materials checked.
    pub materials: usize,
    /// Positions checked.
    pub positions: u64,
    /// How long it took.
    pub seconds: f64,
    /// Disagreements found.
    #[serde(rename = "disagreements")]
    pub mismatch_count: u64,
    /// The first of them, each as one line.
    #[serde(rename = "listed")]
    pub mismatches: Vec<String>,
}

/// The one-ply check of random entries against their moves.
#[derive(Clone, Debug, Serialize)]
pub struct SampleCheck {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Tables of this many pieces.
    pub pieces: u32,
    /// The seed of the entries drawn: the same seed draws the same entries.
    pub seed: u64,
    /// Entries drawn per table.
    pub positions_per_table: u64,
    /// Entries checked in all.
    pub positions: u64,
    /// How long it took.
    pub seconds: f64,
    /// Each table checked.
    pub tables: Vec<SampledTable>,
    /// Tables of that size not built yet (not checked).
    pub missing: Vec<String>,
    /// Disagreements found.
    pub disagreements: u64,
    /// The first of them.
    pub listed: Vec<SampleDisagreement>,
}

/// One table of a [`SampleCheck`].
#[derive(Clone, Debug, Serialize)]
pub struct SampledTable {
    /// Its material.
    pub table: String,
    /// Entries checked.
    pub positions: u64,
    /// Disagreements found.
    pub disagreements: u64,
}

/// An entry whose stored value is not the value of its moves.
#[derive(Clone, Debug, Serialize)]
pub struct SampleDisagreement {
    /// The table's material.
    pub table: String,
    /// The stored side (0: White to move).
    pub side: usize,
    /// The entry's index.
    pub index: u64,
    /// The entry's position.
    pub fen: String,
    /// The value stored.
    pub stored: EntryValue,
    /// The value of its moves.
    pub recomputed: EntryValue,
    /// The whole disagreement as one line.
    #[serde(skip)]
    pub text: String,
}

/// A value read or computed, or why there is none.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum EntryValue {
    /// A value and its distance.
    Value {
        /// Win, draw or loss for the side to move.
        value: Outcome,
        /// Plies to the end.
        distance: u16,
    },
    /// Why no value could be had.
    Error {
        /// The reason.
        error: String,
    },
}

impl TableSet {
    /// The tables of `game` under `rules` (`None`: the game's default) in
    /// `dir`. Refuses a game without tables and an unknown rule set.
    pub fn new(game: GameKind, rules: Option<&str>, dir: &Path) -> Result<TableSet, AppError> {
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

/// Whether an MPI launcher (`mpirun`) started this process as one rank of
/// a job: the variables OpenMPI, PMIx and MPICH's Hydra set.
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// The rule set a [`TableSet`] names.
pub(crate) fn rules_of<B: Board>(set: &TableSet) -> Result<&'static RuleSet, AppError> {
    Ok(match &set.rules {
        Some(n) => zoo_animal::rules::by_name::<B>(n)?,
        None => B::rule_sets()[0],
    })
}

/// A table has one piece a side at least and at most every piece.
pub(crate) fn check_pieces<B: Board>(pieces: u32) -> Result<(), AppError> {
    let most = 2 * B::KINDS as u32;
    if pieces < 2 || pieces > most {
        return Err(AppError::Input(format!(
            "--pieces {pieces}: tables of {} have 2 to {most} pieces (one a side at least)",
            B::GAME
        )));
    }
    Ok(())
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

/// The materials of `sample`, by a fixed hash of the material.
fn keep_part(sample: Sample) -> impl Fn(Material) -> bool + Sync {
    let keep = keep_key(sample);
    move |m: Material| keep(m.key() as u64)
}

/// The material keys of `sample`, by a fixed hash of the key.
pub(crate) fn keep_key(sample: Sample) -> impl Fn(u64) -> bool + Sync {
    move |key: u64| (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) % sample.one_in == sample.part
}

pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, AppError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
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

fn build_options<B: Board>(req: &BuildRequest) -> Result<BuildOptions, AppError> {
    check_pieces::<B>(req.pieces)?;
    Ok(BuildOptions {
        pieces: req.pieces,
        threads: req.threads,
        memory_bytes: memory_budget(req)?,
        encoding: req.encoding,
        copies: !req.solve_all,
        checkpoint_from: req.checkpoint_from,
    })
}

struct CheckRules<'a>(&'a TableSet);
impl TableVisitor for CheckRules<'_> {
    type Output = Result<(), AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        rules_of::<B>(self.0).map(|_| ())
    }
}

struct TableDir<'a>(&'a TableSet);
impl TableVisitor for TableDir<'_> {
    type Output = Result<PathBuf, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.0)?;
        Ok(zoo_tb::file::table_dir(&self.0.dir, B::GAME, rules.name))
    }
}

struct PlanIt<'a> {
    set: &'a TableSet,
    req: &'a BuildRequest,
}
impl TableVisitor for PlanIt<'_> {
    type Output = Result<BuildPlan, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let dir = &self.set.dir;
        let (jobs, options) = match &self.req.material {
            None => {
                let opts = build_options::<B>(self.req)?;
                (zoo_animal_tb::plan::plan::<B>(dir, rules, &opts)?, opts)
            }
            Some(name) => {
                let m = Material::parse::<B>(name).ok_or_else(|| {
                    AppError::Input(format!(
                        "--material {name}: not a material of {} (White's letters of {}, `v`, Black's in lower case)",
                        B::GAME,
                        std::str::from_utf8(B::LETTERS).unwrap_or("?")
                    ))
                })?;
                let opts = build_options::<B>(&BuildRequest {
                    pieces: m.pieces(),
                    ..self.req.clone()
                })?;
                (
                    zoo_animal_tb::plan::plan_for::<B>(dir, rules, &opts, m)?,
                    opts,
                )
            }
        };
        let name = |m: Material| m.name::<B>();
        Ok(BuildPlan {
            game: B::GAME,
            rules: rules.name,
            dir: zoo_tb::file::table_dir(dir, B::GAME, rules.name),
            pieces: options.pieces,
            present: jobs.present,
            budget_bytes: options.memory_bytes,
            tables: jobs
                .jobs
                .iter()
                .map(|j| PlannedTable {
                    name: name(j.material),
                    pieces: j.pieces,
                    positions: j.positions,
                    working_bytes: j.working_bytes,
                    copied_from: j.source.map(|r| name(r.source)),
                    state_in_file: j.state_in_file,
                    needs: j.needs.iter().map(|&m| name(m)).collect(),
                })
                .collect(),
            work: PlanWork::Animal { jobs, options },
        })
    }
}

struct GenericIt<'a> {
    set: &'a TableSet,
    pieces: u32,
    done: &'a (dyn Fn(&str, bool) + Sync),
    stop: &'a AtomicBool,
}
impl TableVisitor for GenericIt<'_> {
    type Output = Result<BuildOutcome, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        check_pieces::<B>(self.pieces)?;
        let r = zoo_animal_tb::build_retro::build_retro::<B>(
            &self.set.dir,
            rules,
            self.pieces,
            &|w| (self.done)(&w.material.name::<B>(), w.built),
            self.stop,
        );
        match r {
            Ok(w) => Ok(BuildOutcome::Done {
                built: w.iter().filter(|w| w.built).count(),
            }),
            Err(TbError::Interrupted) => {
                let tb = Tablebase::<B>::open(&self.set.dir, rules);
                let missing = (2..=self.pieces)
                    .flat_map(Material::canonical::<B>)
                    .filter(|&m| !tb.path_of(m).exists())
                    .count();
                Ok(BuildOutcome::Interrupted { missing })
            }
            Err(e) => Err(e.into()),
        }
    }
}

struct BuildIt<'a> {
    set: &'a TableSet,
    plan: &'a BuildPlan,
    ranks: &'a Ranks<'a>,
    progress: &'a (dyn Fn(u64) + Sync),
    finished: &'a (dyn Fn(&Built) + Sync),
    stop: &'a AtomicBool,
}
impl TableVisitor for BuildIt<'_> {
    type Output = Result<BuildOutcome, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let plan = self.plan;
        let PlanWork::Animal { jobs, options } = &plan.work else {
            return Err(AppError::Input(format!(
                "a plan of {} {} given to the tables of {} {}",
                plan.game,
                plan.rules,
                B::GAME,
                rules.name
            )));
        };
        if plan.game != B::GAME || plan.rules != rules.name {
            return Err(AppError::Input(format!(
                "a plan of {} {} given to the tables of {} {}",
                plan.game,
                plan.rules,
                B::GAME,
                rules.name
            )));
        }
        let made = AtomicUsize::new(0);
        let finished = |b: &Built| {
            made.fetch_add(1, Ordering::Relaxed);
            (self.finished)(b)
        };
        let r = zoo_animal_tb::build::build_on::<B>(
            &self.set.dir,
            rules,
            options,
            jobs,
            self.ranks,
            self.progress,
            &finished,
            self.stop,
        );
        match r {
            Ok(r) => Ok(BuildOutcome::Done {
                built: r.built.len(),
            }),
            Err(TbError::Interrupted) => Ok(BuildOutcome::Interrupted {
                missing: plan
                    .tables
                    .len()
                    .saturating_sub(made.load(Ordering::Relaxed)),
            }),
            Err(e) => Err(e.into()),
        }
    }
}

struct StatsOf<'a> {
    set: &'a TableSet,
    pieces: u32,
}
impl TableVisitor for StatsOf<'_> {
    type Output = Result<TableStats, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        check_pieces::<B>(self.pieces)?;
        let tb = Tablebase::<B>::open(&self.set.dir, rules);
        let s = zoo_animal_tb::build::stats(&tb, self.pieces)?;
        Ok(TableStats {
            game: B::GAME,
            rules: rules.name,
            pieces: self.pieces,
            counted: "both colours, no piece on a den, no stalemate",
            positions: s.positions,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            longest: s.longest,
        })
    }
}

struct ProbeOf<'a> {
    set: &'a TableSet,
    fen: &'a str,
}
impl TableVisitor for ProbeOf<'_> {
    type Output = Result<ProbeReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pos = Position::<B>::from_fen_str(self.fen, rules)?;
        let tb = Tablebase::<B>::open(&self.set.dir, rules);
        let game_over = pos.terminal_outcome().is_some();
        // The full tables when the position's and its children's are all
        // there, else the WDL files' values without distances.
        let full = tb.try_probe(&pos).and_then(|v| {
            let moves = if game_over {
                Vec::new()
            } else {
                tb.probe_moves(&pos)?
            };
            Ok((v, moves))
        });
        let ((value, distance), moves, distance_known) = match full {
            Ok((v, moves)) => (v, moves, true),
            Err(TbError::WdlOnly { .. }) => {
                let value = tb.probe_wdl(&pos)?;
                let mut moves = Vec::new();
                if !game_over {
                    let mut list = zoo_core::MoveList::new();
                    pos.generate(&mut list);
                    for m in list {
                        let mut p = pos.clone();
                        p.make_move(m);
                        moves.push((m, tb.probe_wdl(&p)?, 0));
                    }
                    // Best first for the mover: the child's loss, draw, win.
                    moves.sort_by_key(|&(_, o, _)| match o {
                        Outcome::Loss => 0,
                        Outcome::Draw => 1,
                        Outcome::Win => 2,
                    });
                }
                ((value, 0), moves, false)
            }
            Err(e) => return Err(e.into()),
        };
        Ok(ProbeReport {
            game: B::GAME,
            rules: rules.name,
            fen: pos.to_fen(),
            value,
            distance,
            distance_known,
            game_over,
            moves: probed_moves(&pos, moves, distance_known),
        })
    }
}

struct VerifyAll<'a> {
    set: &'a TableSet,
    pieces: u32,
    sample: Sample,
    threads: usize,
    progress: &'a (dyn Fn(usize, usize) + Sync),
}
impl TableVisitor for VerifyAll<'_> {
    type Output = Result<VerifyReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces::<B>(pieces)?;
        // The verifier addresses positions square by square (64 per
        // piece): a material being solved needs a 4-byte map from those
        // numbers to its positions (later its two value arrays, 2 bytes a
        // number), and the values of every material one size smaller are
        // kept. Refuse what cannot fit rather than fail on an allocation.
        let raw = |n: u32| 64f64.powi(n as i32);
        let need = self.threads.max(1) as f64 * 4.0 * raw(pieces)
            + Material::all::<B>(pieces - 1).len() as f64 * 2.0 * raw(pieces - 1);
        if let Some(total) = crate::machine::total_memory() {
            if need > VERIFY_MEMORY_SHARE * total as f64 {
                return Err(AppError::Input(format!(
                    "verifying {pieces} pieces needs at least {:.0} GB (the independent solver's arrays), \
                     more than this machine's {:.0} GB allow; verify fewer pieces, or check random \
                     positions of the {pieces}-piece tables with --positions K",
                    need / 1e9,
                    total as f64 / 1e9,
                )));
            }
        }
        let tb = Tablebase::<B>::open(&self.set.dir, rules);
        for n in 2..=pieces {
            for m in Material::canonical::<B>(n) {
                tb.table(m).map_err(|e| {
                    AppError::Input(format!(
                        "cannot verify {} up to {pieces} pieces: {e}",
                        B::GAME
                    ))
                })?;
            }
        }
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let keep = keep_part(self.sample);
        let r = pool.install(|| {
            zoo_animal_tb::verify::verify_with_progress(&tb, pieces, &keep, self.progress)
        });
        Ok(VerifyReport {
            game: B::GAME,
            rules: rules.name,
            pieces,
            materials: r.materials,
            positions: r.positions,
            seconds: t0.elapsed().as_secs_f64(),
            mismatch_count: r.mismatch_count,
            mismatches: r.mismatches,
        })
    }
}

struct VerifySample<'a> {
    set: &'a TableSet,
    pieces: u32,
    sample: Sample,
    positions: u64,
    seed: u64,
    threads: usize,
}
impl TableVisitor for VerifySample<'_> {
    type Output = Result<SampleCheck, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces::<B>(pieces)?;
        if self.positions == 0 {
            return Err(AppError::Input("--positions must be at least 1".into()));
        }
        let tb = Tablebase::<B>::open(&self.set.dir, rules);
        // The tables of `ms` that open and those not built; any other
        // failure (a damaged file) stops the check.
        let split = |ms: Vec<Material>| -> Result<(Vec<Material>, Vec<Material>), AppError> {
            let (mut present, mut missing) = (Vec::new(), Vec::new());
            for m in ms {
                match tb.table(m) {
                    Ok(_) => present.push(m),
                    Err(TbError::Missing { .. }) => missing.push(m),
                    Err(e) => return Err(e.into()),
                }
            }
            Ok((present, missing))
        };
        let keep = keep_part(self.sample);
        let (present, missing) = split(
            Material::canonical::<B>(pieces)
                .into_iter()
                .filter(|&m| keep(m))
                .collect(),
        )?;
        let names = |v: &[Material]| v.iter().map(|m| m.name::<B>()).collect::<Vec<_>>();
        if present.is_empty() {
            return Err(AppError::Input(format!(
                "no {pieces}-piece {} {} tables in {} to check{}",
                B::GAME,
                rules.name,
                tb.dir().display(),
                if missing.is_empty() {
                    " (--sample left none)"
                } else {
                    " (build them with `zoo tb build`)"
                }
            )));
        }
        // Captures lead into smaller tables: every one of those must be
        // there, or each position with such a capture would read as a
        // disagreement.
        let mut needed: Vec<Material> = present
            .iter()
            .flat_map(|&m| zoo_animal_tb::sample::capture_tables::<B>(m))
            .collect();
        needed.sort();
        needed.dedup();
        let (_, absent) = split(needed)?;
        if !absent.is_empty() {
            return Err(AppError::Input(format!(
                "cannot check {pieces}-piece tables: the captures lead to {}-piece tables missing in {}: {}",
                pieces - 1,
                tb.dir().display(),
                names(&absent).join(", ")
            )));
        }
        let seed = self.seed;
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let r =
            pool.install(|| zoo_animal_tb::sample::sample(&tb, &present, self.positions, seed))?;
        let value = |v: &zoo_animal_tb::sample::Value| match v {
            Ok((value, distance)) => EntryValue::Value {
                value: *value,
                distance: *distance,
            },
            Err(e) => EntryValue::Error { error: e.clone() },
        };
        Ok(SampleCheck {
            game: B::GAME,
            rules: rules.name,
            pieces,
            seed,
            positions_per_table: self.positions,
            positions: r.positions,
            seconds: t0.elapsed().as_secs_f64(),
            tables: r
                .tables
                .iter()
                .map(|t| SampledTable {
                    table: t.material.name::<B>(),
                    positions: t.positions,
                    disagreements: t.disagreements,
                })
                .collect(),
            missing: names(&missing),
            disagreements: r.disagreement_count,
            listed: r
                .disagreements
                .iter()
                .map(|d| SampleDisagreement {
                    table: d.material.clone(),
                    side: d.side,
                    index: d.index,
                    fen: d.fen.clone(),
                    stored: value(&d.stored),
                    recomputed: value(&d.recomputed),
                    text: d.to_string(),
                })
                .collect(),
        })
    }
}
