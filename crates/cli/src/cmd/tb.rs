//! `zoo tb build | plan | stats | probe | verify`: endgame tablebases of the
//! animal games (crate `zoo-tb`).

use crate::cmd::progress::seconds_left;
use crate::games::game_parser;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
#[cfg(feature = "mpi")]
use zoo_app::tables::Cluster;
use zoo_app::tables::{Ranks, Single, Split};
use zoo_app::{human_bytes, BuildOutcome, BuildRequest, Encoding, GameKind, TableSet};
use zoo_core::Outcome;

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build every missing table up to a number of pieces, or one material
    /// and the tables it needs (resumable).
    Build(BuildArgs),
    /// What building every table of a size would cost, on this machine or
    /// on several: per configuration its entries, memory, disk, the
    /// messages of a build split across machines, and its time from rates
    /// measured here in a few seconds.
    Plan(PlanArgs),
    /// Write the manifest of the tables (each file's size and SHA-256), or
    /// check the files against it.
    Manifest(ManifestArgs),
    /// Statistics of all positions with exactly N pieces, White to move.
    Stats(StatsArgs),
    /// What the table files take on disk: bits per position and per entry,
    /// per size and (--tables) per file.
    Size(SizeArgs),
    /// Write the WDL-only file (win/draw/loss, no distance) beside every
    /// table up to --pieces that has none, or --check them against the
    /// tables.
    Wdl(WdlArgs),
    /// Rewrite the tables up to --pieces in the encoding a build now
    /// chooses (zstd blocks or plain, whichever is smaller), each checked
    /// against the original before it replaces it.
    Recompress(RecompressArgs),
    /// Compare the tables of N pieces with another set (another rule set,
    /// another directory) entry by entry: what a rule changes.
    Diff(DiffArgs),
    /// Value and distance of a position, and of every move.
    Probe(ProbeArgs),
    /// Solve one material with one bit per position (literature B's
    /// "advantage" values, two passes, no distances): its win/draw/loss
    /// counts, compared with its table when there is one.
    Advantage(AdvantageArgs),
    /// Check the tables against an independent exhaustive search (up to
    /// --pieces), or, with --positions, random entries of the tables of
    /// exactly --pieces against the values of their moves.
    Verify(VerifyArgs),
}

/// Where the tables are and which rule set they are for (every `zoo tb`
/// subcommand).
#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Directory of the tables (one subdirectory per game and rule set).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The game whose tables are built.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Every table up to this many pieces.
    #[arg(
        long,
        required_unless_present = "material",
        conflicts_with = "material"
    )]
    pub pieces: Option<u32>,
    /// Only this material (`RDTvdt`: White's letters, `v`, Black's in
    /// lower case) and the missing tables it needs.
    #[arg(long)]
    pub material: Option<String>,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Threads that solve tables at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Bound on the working memory of the tables solved at once, in GB
    /// (default: 80% of the machine's memory). A table larger than this is
    /// solved alone with its state in files beside the tables (slower).
    #[arg(long)]
    pub memory: Option<f64>,
    /// How the new tables are stored: `plain` (2-bit values and a distance
    /// byte, the fastest to probe at random) or `zstd` (independent
    /// compressed blocks, about a tenth of the size). Default: zstd, or
    /// plain for a table where that is not larger.
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Solve every configuration, also those whose table is another's with
    /// the pieces renamed (by default copied from it): to check the copies.
    #[arg(long)]
    pub solve_all: bool,
    /// Start a build the cost planner (`zoo tb plan`) puts beyond 30 days
    /// on this machine (docs/limits.md).
    #[arg(long)]
    pub force: bool,
    /// JSON lines on stdout: the plan, each table as it is finished, then
    /// the result (docs/json.md); the progress bar stays on stderr.
    #[arg(long)]
    pub json: bool,
    /// Under `mpirun` (a zoo built with `--features mpi`): each table
    /// built by one process, the tables of a size shared out
    /// (`configurations`), or each table by all processes, each owning a
    /// range of its positions (`ranges`, for tables larger than one
    /// machine's memory). See docs/tablebase.md, "Across processes".
    #[arg(long, value_enum, default_value_t = SplitArg::Configurations)]
    pub split: SplitArg,
    /// Which generator: the animal games' own (`fast`) or the one written
    /// for any game with unmoves (`retro`: whole sizes, one table at a
    /// time in memory, about 35 times slower; the same bytes). See
    /// docs/tablebase.md, "Tables for other games".
    #[arg(long, value_enum, default_value_t = GeneratorArg::Fast,
          conflicts_with_all = ["material", "memory", "encoding", "solve_all", "checkpoint_from"])]
    pub generator: GeneratorArg,
    /// Working sets, in bytes, from which a table keeps a checkpoint
    /// (default 1 GiB). Hidden: only the tests of resuming need it lower.
    #[arg(long, hide = true, value_name = "BYTES")]
    pub checkpoint_from: Option<u64>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorArg {
    Fast,
    Retro,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SplitArg {
    Configurations,
    Ranges,
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The game whose build is planned.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Every configuration up to this many pieces.
    #[arg(long)]
    pub pieces: u32,
    /// Only the configurations of exactly --pieces pieces (the smaller
    /// tables taken as built).
    #[arg(long)]
    pub only: bool,
    /// Where the tables are: the bytes per entry are measured on the
    /// files there (none need be there).
    #[command(flatten)]
    pub tables: TableArgs,
    /// Machines the build runs on (default 1).
    #[arg(long)]
    pub machines: Option<usize>,
    /// Memory a build may use on each machine, in GB (default: 80% of
    /// this machine's).
    #[arg(long, value_name = "GB")]
    pub memory_per_machine: Option<f64>,
    /// Disk of each machine, in GB (default: not checked).
    #[arg(long, value_name = "GB")]
    pub disk_per_machine: Option<f64>,
    /// Threads of each machine (default: this machine's).
    #[arg(long)]
    pub threads_per_machine: Option<usize>,
    /// What a machine sends to the others per second, in GB/s (default
    /// 1.25: 10 Gbit/s).
    #[arg(long, value_name = "GB_PER_S")]
    pub network: Option<f64>,
    /// Rates from a file (the `rates` of an earlier `zoo tb plan --json`,
    /// or its whole result) instead of measuring them (a few seconds).
    #[arg(long, value_name = "FILE")]
    pub rates: Option<PathBuf>,
    /// Plan every configuration as solved, none copied.
    #[arg(long)]
    pub solve_all: bool,
    /// How the tables would be stored (default: as a build stores them,
    /// the smaller of zstd and plain, which is zstd for every table so far).
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Configurations listed, the longest first (all with --json).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// One JSON object: the plan (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ManifestArgs {
    /// The game whose tables are listed.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Check the files against the manifest instead of writing it.
    #[arg(long)]
    pub check: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum EncodingArg {
    Plain,
    Zstd,
}

impl EncodingArg {
    pub(super) fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Plain => Encoding::Plain,
            EncodingArg::Zstd => Encoding::Zstd,
        }
    }
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The game of the tables.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Tables of exactly this many pieces.
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// One JSON object: the counts (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SizeArgs {
    /// The game of the tables.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Only the tables of this many pieces (default: every size there is).
    #[arg(long)]
    pub pieces: Option<u32>,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Every file too, not only the totals per size.
    #[arg(long = "tables")]
    pub per_table: bool,
    /// One JSON line per file (type `table`, with --tables), then the
    /// report (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct WdlArgs {
    /// The game of the tables.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Every table from 2 to this many pieces.
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Compare every WDL file there is with its table, entry by entry,
    /// instead of writing (fails on a disagreement).
    #[arg(long)]
    pub check: bool,
    /// One JSON object: the files written or checked (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct RecompressArgs {
    /// The game of the tables.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Every table from 2 to this many pieces.
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// One JSON object: the tables rewritten and their sizes (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

impl VerifyArgs {
    fn sample(&self) -> zoo_app::tables::Sample {
        zoo_app::tables::Sample {
            one_in: self.sample,
            part: self.part,
        }
    }
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The game of the tables.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Tables of exactly this many pieces.
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// The other set's rule set, with any changes (`leiden`,
    /// `leiden+stalemate=loss`).
    #[arg(long, value_name = "NAME")]
    pub against: String,
    /// The other set's directory (default: --dir).
    #[arg(long)]
    pub against_dir: Option<PathBuf>,
    /// Materials listed with their changes (all with --json).
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// One JSON object: the materials whose values change (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The game of the position.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// The position probed.
    #[arg(long)]
    pub fen: String,
    #[command(flatten)]
    pub tables: TableArgs,
    /// One JSON object: the value of the position and of each move (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct AdvantageArgs {
    /// The game of the material.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// The material (`DTEvdt`); its smaller tables (or their WDL files)
    /// must be in --dir.
    #[arg(long, required_unless_present = "pieces", conflicts_with = "pieces")]
    pub material: Option<String>,
    /// Instead of one material: the WDL file of every material of this
    /// many pieces that has neither a table nor a WDL file (a size built in
    /// the advantage mode; implies --write).
    #[arg(long)]
    pub pieces: Option<u32>,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Threads of the two passes.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Write the material's WDL file (`<material>.zoowdl`) from the two
    /// passes, for the prober and the next size's build.
    #[arg(long)]
    pub write: bool,
    /// JSON: with --pieces a line per material (type `material`), then the result (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// One game (default: both animal games).
    #[arg(long, value_parser = game_parser())]
    pub game: Option<GameKind>,
    /// Largest tables to check (default 3): the exhaustive check covers
    /// every size up to it, --positions exactly this size.
    #[arg(long, default_value_t = 3)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Check only one in this many materials of the largest size (chosen
    /// by a fixed hash); 1 checks them all. Selects whole tables, in both
    /// modes; --positions selects entries inside them.
    #[arg(long, default_value_t = 1)]
    pub sample: u64,
    /// Which of the --sample parts (0 to K-1; default 0): the K parts
    /// together are every material, so a long check can be run a part at
    /// a time.
    #[arg(long, default_value_t = 0)]
    pub part: u64,
    /// Instead of the exhaustive search: check this many random entries of
    /// every table with exactly --pieces pieces, each against the value of
    /// its moves (one ply over the tables). For sizes the exhaustive
    /// solver cannot hold in memory (6-piece Jungle Checkers); tables not
    /// built yet are listed and skipped.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seed of the --positions entries (default: from the clock). Printed,
    /// so a run can be repeated exactly.
    #[arg(long, requires = "positions")]
    pub seed: Option<u64>,
    /// Instead: compare every WDL-only file up to --pieces (`zoo tb wdl`)
    /// with its table, entry by entry (the same as `zoo tb wdl --check`).
    #[arg(long, conflicts_with = "positions")]
    pub wdl: bool,
    /// JSON lines: one report per game (type `game`), then the result
    /// (docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Threads that solve and check materials at once.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

pub fn run(a: &TbArgs) -> Result<()> {
    match &a.command {
        TbCommand::Build(b) => run_build(b),
        TbCommand::Plan(p) => super::tb_plan::run(p),
        TbCommand::Manifest(m) => run_manifest(m),
        TbCommand::Stats(s) => run_stats(s),
        TbCommand::Size(s) => run_size(s),
        TbCommand::Wdl(w) => run_wdl(w),
        TbCommand::Recompress(r) => run_recompress(r),
        TbCommand::Diff(d) => run_diff(d),
        TbCommand::Probe(p) => run_probe(p),
        TbCommand::Advantage(a) => run_advantage(a),
        TbCommand::Verify(v) => {
            let games: Vec<GameKind> = match v.game {
                Some(g) => vec![g],
                None => GameKind::ALL
                    .iter()
                    .copied()
                    .filter(|g| g.has_tables())
                    .collect(),
            };
            // Every game is checked even when one disagrees: the report
            // says which.
            let mut failed = Vec::new();
            for &g in &games {
                let c = run_verify(g, v)?;
                if v.json {
                    super::json::line("game", &c.report)?;
                }
                if c.disagreements > 0 {
                    failed.push(match c.seed {
                        Some(seed) => format!("{g} (repeat it with --seed {seed})"),
                        None => g.to_string(),
                    });
                }
            }
            if v.json {
                super::json::result(&serde_json::json!({
                    "games": games.len(),
                    "failed": failed,
                }))?;
            }
            if !failed.is_empty() {
                bail!("verification failed: {}", failed.join(", "));
            }
            Ok(())
        }
    }
}

impl TableArgs {
    pub(super) fn set(&self, game: GameKind) -> Result<TableSet> {
        Ok(TableSet::new(
            game,
            self.rules.name().as_deref(),
            &self.dir,
        )?)
    }
}

fn run_build(a: &BuildArgs) -> Result<()> {
    zoo_app::tables::check_build_dir(&a.tables.dir)?;
    if a.generator == GeneratorArg::Retro {
        return build_generic(a);
    }
    let split = match a.split {
        SplitArg::Configurations => Split::Configurations,
        SplitArg::Ranges => Split::Ranges,
    };
    #[cfg(feature = "mpi")]
    if let Some(world) = zoo_app::mpi::Mpi::from_launcher()? {
        let ranks = Ranks {
            cluster: &world,
            split,
        };
        let r = build_on(a, &ranks);
        if let Err(e) = &r {
            // The others may wait for this rank at a collective it will
            // never reach: end them all, having said why.
            eprintln!("zoo: rank {}: {e:#}", world.rank());
            world.abort(1);
        }
        return r;
    }
    if zoo_app::tables::launched_by_mpi() {
        bail!(
            "started by mpirun, but this zoo was built without MPI: \
             cargo build --release -p zoo --features mpi (needs openmpi-bin, libopenmpi-dev, libclang-dev)"
        );
    }
    let alone = Ranks {
        cluster: &Single,
        split,
    };
    build_on(a, &alone)
}

/// `zoo tb build --generator retro`: a line per table, then the result.
fn build_generic(a: &BuildArgs) -> Result<()> {
    if zoo_app::tables::launched_by_mpi() {
        bail!("--generator retro runs on one process: start it without mpirun");
    }
    let set = a.tables.set(a.game)?;
    let pieces = a.pieces.unwrap_or(0);
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    let t0 = Instant::now();
    let outcome = set.build_generic(
        pieces,
        a.threads,
        &|name, built| {
            if built {
                eprintln!("{name}: solved by the generic generator");
            }
        },
        &stop,
    )?;
    let seconds = t0.elapsed().as_secs_f64();
    let (built, missing) = match outcome {
        BuildOutcome::Done { built } => (built, 0),
        BuildOutcome::Interrupted { missing } => (0, missing),
    };
    if a.json {
        super::json::result(
            &serde_json::json!({"built": built, "seconds": seconds, "missing": missing}),
        )?;
    } else if missing > 0 {
        eprintln!("interrupted: {missing} tables still missing; the same command goes on");
    } else {
        eprintln!("{built} tables built in {seconds:.1} s");
    }
    Ok(())
}

/// `zoo tb build` as one of `ranks` (alone: the only one). Rank 0 prints
/// the plan and the result; each rank the tables it built.
fn build_on(a: &BuildArgs, ranks: &Ranks) -> Result<()> {
    let rank = ranks.cluster.rank();
    let lead = rank == 0;
    let tag = if ranks.cluster.ranks() > 1 {
        format!("rank {rank}: ")
    } else {
        String::new()
    };
    let set = a.tables.set(a.game)?;
    let req = BuildRequest {
        pieces: a.pieces.unwrap_or(0),
        material: a.material.clone(),
        threads: a.threads,
        memory_gb: a.memory,
        encoding: a.encoding.map(EncodingArg::encoding),
        solve_all: a.solve_all,
        checkpoint_from: a.checkpoint_from,
    };
    if !a.force {
        if let Some(why) = set.out_of_reach(&req)? {
            bail!("{why}");
        }
    }
    let plan = set.plan(&req)?;
    if !a.force {
        if let Some(why) = set.cannot_finish(&req, &plan)? {
            bail!("{why}");
        }
    }
    let json = a.json && lead;
    if lead {
        eprintln!(
        "{} {}: {} tables present, {} to build ({} of them copies, {} positions), up to {} pieces, in {}",
        plan.game,
        plan.rules,
        plan.present,
        plan.tables.len(),
        plan.copies(),
        plan.positions(),
        plan.pieces,
        plan.dir.display()
    );
    }
    if json {
        super::json::line(
            "plan",
            &serde_json::json!({
                "game": plan.game, "rules": plan.rules, "pieces": plan.pieces,
                "present": plan.present, "tables": plan.tables.len(),
                "copies": plan.copies(), "positions": plan.positions(),
                "dir": plan.dir.display().to_string(),
            }),
        )?;
    }
    for p in plan.tables.iter().filter(|p| p.state_in_file && lead) {
        let need = human_bytes(p.working_bytes);
        eprintln!(
            "{}: {need} of working memory, more than the {} allowed (--memory): solved alone with its state \
             in files beside the tables, paged by the kernel (slower; {need} of disk until it is done)",
            p.name,
            human_bytes(plan.budget_bytes.unwrap_or(u64::MAX)),
        );
    }
    if plan.tables.is_empty() {
        if json {
            super::json::result(&serde_json::json!({"built": 0, "seconds": 0.0, "missing": 0}))?;
        }
        return Ok(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while the current tables finish their chunk ends at once.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    // Every entry is visited twice: by the forward pass and when it is
    // taken back (or found drawn at the end); the bar counts both, so it
    // covers the whole build, and shows positions per second as entries
    // solved (half the visits).
    let bar = ProgressBar::new(plan.positions().saturating_mul(2));
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {percent}%  {rate}  ~{left} left  {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.2} M positions/s", s.per_sec() / 2e6);
            },
        )
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let left = seconds_left(s.pos(), s.len().unwrap_or(0), s.elapsed().as_secs_f64());
                let _ = write!(w, "{}", indicatif::HumanDuration(left));
            },
        )
        .progress_chars("=> "),
    );
    let t0 = Instant::now();
    let last_line = std::sync::Mutex::new(Instant::now());
    let r = set.build_on(
        &plan,
        ranks,
        &|n| {
            bar.inc(n);
            // Without a terminal the bar is hidden: a line a minute in the
            // log says how far a long build is.
            if bar.is_hidden() {
                let mut last = last_line.lock().expect("progress lock");
                if last.elapsed().as_secs() >= 60 {
                    *last = Instant::now();
                    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
                    let secs = bar.elapsed().as_secs_f64();
                    eprintln!(
                        "{:.1}% after {secs:.0} s, {:.2} M positions/s, ~{:.0} s left",
                        100.0 * pos as f64 / len.max(1) as f64,
                        bar.per_sec() / 2e6,
                        seconds_left(pos, len, secs).as_secs_f64()
                    );
                }
            }
        },
        &|b| {
            // Without a terminal (a log file) each finished table is a line,
            // with the work of its backward pass (a measure that does not
            // depend on the machine's load, unlike the time).
            if bar.is_hidden() {
                // The work is then that done since the checkpoint.
                let resumed = b
                    .resumed_at
                    .map(|l| format!(", resumed from its checkpoint at level {l}"))
                    .unwrap_or_default();
                match (&b.copied_from, &b.traffic) {
                    (Some(s), _) => eprintln!("{tag}{} copied from {s} in {:.1} s", b.name, b.secs),
                    (None, None) => eprintln!(
                        "{tag}{} built in {:.1} s ({} positions taken back, {} predecessors told{resumed})",
                        b.name, b.secs, b.work.taken_back, b.work.told
                    ),
                    (None, Some(t)) => eprintln!(
                        "{tag}{} built by every rank in {:.1} s ({} positions taken back, {} predecessors told, \
                         {} of them through another rank; {} bytes sent in {} exchanges{resumed})",
                        b.name, b.secs, b.work.taken_back, b.work.told, t.messages, t.bytes, t.exchanges
                    ),
                }
            }
            if let Some(why) = &b.unsaved {
                bar.suspend(|| {
                    eprintln!(
                        "warning: {}: no checkpoint could be saved ({why}); the table was solved without one",
                        b.name
                    )
                });
            }
            if a.json {
                let _ = super::json::line(
                    "table",
                    &serde_json::json!({
                        "name": b.name, "seconds": b.secs, "copied_from": b.copied_from,
                        "taken_back": b.work.taken_back, "told": b.work.told,
                        "unsaved": b.unsaved, "resumed_at": b.resumed_at, "rank": rank,
                        "messages": b.traffic.map(|t| t.messages),
                        "bytes_sent": b.traffic.map(|t| t.bytes),
                    }),
                );
            }
            bar.set_message(format!("{} done in {:.1} s", b.name, b.secs))
        },
        &stop,
    );
    bar.finish_and_clear();
    match r? {
        BuildOutcome::Done { .. } if !lead => Ok(()),
        BuildOutcome::Done { built } => {
            // Under several ranks each tells of its own tables; the lead
            // of them all.
            let built = if ranks.cluster.ranks() > 1 {
                plan.tables.len()
            } else {
                built
            };
            if json {
                super::json::result(&serde_json::json!({
                    "built": built, "seconds": t0.elapsed().as_secs_f64(), "missing": 0,
                }))?;
            }
            eprintln!(
                "built {built} tables in {:.1} s",
                t0.elapsed().as_secs_f64()
            );
            Ok(())
        }
        BuildOutcome::Interrupted { missing } => {
            if json {
                super::json::result(&serde_json::json!({
                    "built": null, "seconds": t0.elapsed().as_secs_f64(), "missing": missing,
                }))?;
            }
            eprintln!(
                "interrupted: {missing} tables still missing; run the same command again to resume"
            );
            std::process::exit(130);
        }
    }
}

fn run_manifest(a: &ManifestArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let dir = set.table_dir()?;
    if !a.check {
        let n = set.write_manifest()?;
        println!("{}: manifest of {n} tables written", dir.display());
        return Ok(());
    }
    let problems = set.check_manifest()?;
    for p in &problems {
        println!("  {p}");
    }
    if !problems.is_empty() {
        bail!(
            "{}: {} files differ from the manifest",
            dir.display(),
            problems.len()
        );
    }
    println!("{}: every table agrees with the manifest", dir.display());
    Ok(())
}

fn run_stats(a: &StatsArgs) -> Result<()> {
    let s = a.tables.set(a.game)?.stats(a.pieces)?;
    if a.json {
        super::json::result(&s)?;
    } else {
        println!(
            "{} {}, {} pieces, White to move, {}:",
            s.game, s.rules, s.pieces, s.counted
        );
        println!(
            "positions {}  wins {}  losses {}  draws {}  longest {} plies",
            s.positions, s.wins, s.losses, s.draws, s.longest
        );
    }
    Ok(())
}

fn run_size(a: &SizeArgs) -> Result<()> {
    let r = a.tables.set(a.game)?.disk(a.pieces)?;
    if a.json {
        if a.per_table {
            for t in &r.tables {
                super::json::line("table", t)?;
            }
        }
        return super::json::result(&serde_json::json!({
            "game": r.game,
            "rules": r.rules,
            "families": r.families,
            "wdl_families": r.wdl_families,
        }));
    }
    println!(
        "{} {}: table files by size (bits = file bytes x 8 / entries, or / positions as `zoo tb stats` counts them)",
        r.game, r.rules
    );
    println!(
        "{:>6} {:>9} {:>5} {:>5} {:>10} {:>16} {:>16} {:>10} {:>13}",
        "pieces",
        "files",
        "plain",
        "zstd",
        "bytes",
        "entries",
        "positions",
        "bits/entry",
        "bits/position"
    );
    let rows = r.families.iter().map(|f| (f, "")).chain(
        r.wdl_families
            .iter()
            .map(|f| (f, " (WDL-only files, zoo tb wdl)")),
    );
    for (f, what) in rows {
        println!(
            "{:>6} {:>9} {:>5} {:>5} {:>10} {:>16} {:>16} {:>10.3} {:>13.3}{what}",
            f.pieces,
            format!("{}/{}", f.files, f.materials),
            f.plain,
            f.zstd + f.wdl,
            human_bytes(f.bytes),
            f.entries,
            f.positions,
            f.bits_per_entry,
            f.bits_per_position
        );
    }
    if a.per_table {
        println!(
            "{:>10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10} {:>13}",
            "material",
            "pieces",
            "encoding",
            "bytes",
            "entries",
            "positions",
            "bits/entry",
            "bits/position"
        );
        for t in &r.tables {
            println!(
                "{:>10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10.3} {:>13.3}",
                t.material,
                t.pieces,
                t.encoding,
                human_bytes(t.bytes),
                t.entries,
                t.positions,
                t.bits_per_entry,
                t.bits_per_position
            );
        }
    }
    Ok(())
}

fn run_wdl(a: &WdlArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let bar = super::progress::count_bar("materials");
    let r = set.wdl(a.pieces, a.check, &super::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        super::json::result(&r)?;
    } else if a.check {
        println!(
            "{} {} up to {} pieces: {} WDL files ({}), {} entries compared with their tables, {} disagreements",
            r.game, r.rules, r.pieces, r.files, human_bytes(r.bytes), r.entries, r.disagreements
        );
    } else {
        println!(
            "{} {} up to {} pieces: {} WDL files written ({}), {} there already, {} materials without a table",
            r.game, r.rules, r.pieces, r.files, human_bytes(r.bytes), r.present, r.without_table
        );
    }
    if r.disagreements > 0 {
        bail!(
            "{} entries of the WDL files of {} differ from their tables",
            r.disagreements,
            r.disagreeing.join(", ")
        );
    }
    Ok(())
}

fn run_recompress(a: &RecompressArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let bar = super::progress::count_bar("materials");
    let r = set.recompress(a.pieces, &super::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        return super::json::result(&r);
    }
    println!(
        "{} {} up to {} pieces: {} tables rewritten, {} already in the smaller encoding, {} materials without a table; {} before, {} after",
        r.game,
        r.rules,
        r.pieces,
        r.rewritten,
        r.unchanged,
        r.without_table,
        human_bytes(r.bytes_before),
        human_bytes(r.bytes_after)
    );
    Ok(())
}

fn run_diff(a: &DiffArgs) -> Result<()> {
    let mine = a.tables.set(a.game)?;
    let dir = a.against_dir.as_ref().unwrap_or(&a.tables.dir);
    let other = TableSet::new(a.game, Some(&a.against), dir)?;
    let bar = super::progress::count_bar("materials");
    let r = mine.diff(&other, a.pieces, &super::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        for m in &r.materials {
            super::json::line("material", m)?;
        }
        return super::json::result(&r);
    }
    println!(
        "{} {} pieces, {} against {}: {} entries, {} with another result ({} of them without a legal move), {} with another distance only",
        r.game, r.pieces, r.rules, r.other_rules, r.entries, r.changed, r.no_move, r.distance_changed
    );
    let mut by_change: Vec<_> = r.materials.iter().filter(|m| m.changed > 0).collect();
    let played = by_change.iter().filter(|m| m.changed > m.no_move).count();
    println!(
        "{} materials with another result ({played} of them in positions with a legal move), {} with another distance only",
        by_change.len(),
        r.materials.len() - by_change.len(),
    );
    // Changes through play first (the rule's consequences), then the most.
    by_change.sort_by_key(|m| std::cmp::Reverse((m.changed - m.no_move, m.changed)));
    if by_change.len() > a.top {
        println!("the first {} (--top):", a.top);
    }
    for m in by_change.iter().take(a.top) {
        let t: Vec<String> = m
            .transitions
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let (fen, vals) = match (&m.example_played, &m.example_played_values) {
            (Some(f), Some(v)) => (f.as_str(), v),
            _ => (
                m.example.as_deref().unwrap_or("-"),
                m.example_values
                    .as_ref()
                    .expect("a changed material has an example"),
            ),
        };
        println!(
            "  {:<8} {:>6} changed, {:>6} without a move: {}; e.g. {} ({} / {})",
            m.material,
            m.changed,
            m.no_move,
            t.join(", "),
            fen,
            vals.0,
            vals.1,
        );
    }
    Ok(())
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

fn run_probe(a: &ProbeArgs) -> Result<()> {
    let r = a
        .tables
        .set(a.game)?
        .probe(&a.fen)
        .context("cannot probe --fen")?;
    if a.json {
        super::json::result(&r)?;
        return Ok(());
    }
    println!("{}", r.fen);
    if r.game_over {
        println!("game over: {} for the side to move", outcome_name(r.value));
    } else if r.value == Outcome::Draw {
        println!("draw");
    } else if !r.distance_known {
        println!(
            "{} for the side to move (distance unknown: WDL-only files)",
            outcome_name(r.value)
        );
    } else {
        println!(
            "{} in {} plies for the side to move",
            outcome_name(r.value),
            r.distance
        );
    }
    for m in &r.moves {
        let (c, s) = (&m.coord, &m.san);
        if m.value == Outcome::Draw {
            println!("  {c:<6} {s:<6} draw");
        } else if !r.distance_known {
            println!("  {c:<6} {s:<6} {}", outcome_name(m.value));
        } else {
            println!(
                "  {c:<6} {s:<6} {} in {}",
                outcome_name(m.value),
                m.distance
            );
        }
    }
    Ok(())
}

/// `tb advantage --pieces N`: a line per material written, then the size.
fn run_advantage_size(
    set: &TableSet,
    a: &AdvantageArgs,
    pieces: u32,
    progress: &(dyn Fn(zoo_app::table_advantage::Sweep) + Sync),
    stop: &AtomicBool,
) -> Result<()> {
    let json = a.json;
    let mut failed = None;
    let mut done = |r: &zoo_app::table_advantage::AdvantageReport| {
        let shown = if json {
            super::json::line("material", r)
        } else {
            let sweeps: Vec<String> = r.passes.iter().map(|p| p.sweeps.to_string()).collect();
            println!(
                "{}: {} entries per side, {} sweeps, {}",
                r.material,
                r.entries,
                sweeps.join(" + "),
                r.written
                    .as_ref()
                    .map_or("not written".into(), |(p, n)| format!(
                        "wrote {p} ({})",
                        human_bytes(*n)
                    ))
            );
            Ok(())
        };
        if let Err(e) = shown {
            failed.get_or_insert(e);
        }
    };
    let r = set.advantage_size(pieces, a.threads, progress, &mut done, stop)?;
    if let Some(e) = failed {
        return Err(e);
    }
    if json {
        return super::json::result(&r);
    }
    println!(
        "{} {} {} pieces: {} WDL files written ({}), {} materials there already",
        r.game,
        r.rules,
        r.pieces,
        r.written.len(),
        human_bytes(r.bytes),
        r.present
    );
    Ok(())
}

fn run_advantage(a: &AdvantageArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    // A second Ctrl-C ends the process at once.
    let _ = ctrlc::set_handler(move || {
        if s.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let quiet = a.json;
    let progress = move |w: zoo_app::table_advantage::Sweep| {
        if !quiet {
            eprintln!(
                "{:?}'s advantage: sweep {} cleared {}",
                w.advantage, w.number, w.cleared
            );
        }
    };
    let material = match (&a.material, a.pieces) {
        (Some(m), _) => m,
        (None, Some(pieces)) => return run_advantage_size(&set, a, pieces, &progress, &stop),
        (None, None) => bail!("--material or --pieces"),
    };
    let r = set.advantage(material, a.threads, a.write, &progress, &stop)?;
    if a.json {
        return super::json::result(&r);
    }
    println!(
        "{} {} {}: {} entries per side, {} of bits per pass",
        r.game,
        r.rules,
        r.material,
        r.entries,
        human_bytes(r.bits_bytes)
    );
    for p in &r.passes {
        let vs = match p.disagreements {
            Some(d) => format!(", {d} entries disagree with the table"),
            None => String::new(),
        };
        println!(
            "{}'s advantage: {} sweeps, {:.1} s{vs}",
            p.advantage, p.sweeps, p.seconds
        );
    }
    for (side, c) in r.counts.iter().enumerate() {
        let table = match r.table_counts.as_ref().and_then(|t| t.get(side)) {
            Some(t) if t == c => " (the table's)".to_string(),
            Some(t) => format!(
                " (the table: wins {} draws {} losses {})",
                t.wins, t.draws, t.losses
            ),
            None => String::new(),
        };
        println!(
            "{} to move: wins {}  draws {}  losses {}{table}",
            ["White", "Black"][side],
            c.wins,
            c.draws,
            c.losses
        );
    }
    match r.agrees() {
        Some(false) => bail!(
            "{}: the advantage mode disagrees with the table",
            r.material
        ),
        Some(true) => println!("equal to the table, entry by entry"),
        None => println!("no table of {} to compare with", r.material),
    }
    if let Some((path, len)) = &r.written {
        println!("wrote {path} ({})", human_bytes(*len));
    }
    Ok(())
}

/// What `verify` found for one game.
struct Checked {
    /// The report, for `--json`.
    report: serde_json::Value,
    disagreements: u64,
    /// The seed of `--positions`, to repeat the check.
    seed: Option<u64>,
}

/// Checks the tables of one game, printing its report unless `--json`.
fn run_verify(game: GameKind, a: &VerifyArgs) -> Result<Checked> {
    let set = a.tables.set(game)?;
    if let Some(positions) = a.positions {
        return run_verify_sample(&set, a, positions);
    }
    if a.wdl {
        let r = set.wdl(a.pieces, true, &|_, _| {})?;
        if !a.json {
            println!(
                "{} {}: {} WDL files up to {} pieces, {} entries compared with their tables: {} disagreements{}",
                r.game,
                r.rules,
                r.files,
                r.pieces,
                r.entries,
                r.disagreements,
                if r.disagreeing.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", r.disagreeing.join(", "))
                }
            );
        }
        return Ok(Checked {
            report: serde_json::to_value(&r)?,
            disagreements: r.disagreements,
            seed: None,
        });
    }
    // Materials solved and checked, on stderr when it is a terminal.
    let bar = super::progress::share_bar();
    let r = set.verify_with_progress(
        a.pieces,
        a.sample(),
        a.threads,
        &super::progress::follow(&bar),
    );
    bar.finish_and_clear();
    let r = r?;
    let checked = Checked {
        report: serde_json::to_value(&r)?,
        disagreements: r.mismatch_count,
        seed: None,
    };
    if a.json {
        return Ok(checked);
    }
    println!(
        "{} {}: {} materials, {} positions checked up to {} pieces in {:.1} s: {} disagreements",
        r.game, r.rules, r.materials, r.positions, r.pieces, r.seconds, r.mismatch_count
    );
    for s in &r.mismatches {
        println!("  {s}");
    }
    Ok(checked)
}

/// `verify --positions K`: K random entries of every table with exactly
/// `--pieces` pieces against the values of their moves.
fn run_verify_sample(set: &TableSet, a: &VerifyArgs, positions: u64) -> Result<Checked> {
    let r = set.verify_positions(a.pieces, a.sample(), positions, a.seed, a.threads)?;
    if !a.json {
        println!(
            "{} {}: {} of {} {}-piece tables, {} random positions ({} per table, seed {}) checked against their moves in {:.1} s: {} disagreements",
            r.game,
            r.rules,
            r.tables.len(),
            r.tables.len() + r.missing.len(),
            r.pieces,
            r.positions,
            r.positions_per_table,
            r.seed,
            r.seconds,
            r.disagreements
        );
        if !r.missing.is_empty() {
            println!("  not built yet, not checked: {}", r.missing.join(", "));
        }
        for d in &r.listed {
            println!("  {}", d.text);
        }
        if r.listed.len() as u64 != r.disagreements {
            println!("  (the first {} listed)", r.listed.len());
        }
    }
    Ok(Checked {
        report: serde_json::to_value(&r)?,
        disagreements: r.disagreements,
        seed: Some(r.seed),
    })
}
