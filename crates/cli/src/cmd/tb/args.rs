//! The options of every `zoo tb` subcommand.

use crate::games::game_parser;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use zoo_app::{Encoding, GameKind};

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
    /// the pieces renamed, or for checkers with the colours swapped (by
    /// default copied from it): to check the copies.
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
    pub(super) fn sample(&self) -> zoo_app::tables::Sample {
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
