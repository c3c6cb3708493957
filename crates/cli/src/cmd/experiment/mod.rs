//! `zoo experiment`: the published search experiments, as tables (Markdown
//! and CSV) and plots (SVG). The experiments live in zoo-lab; this command
//! parses their options, writes their files and prints.
//!
//! - `negamax`: negamax against alpha-beta from the Jungle start (literature D).
//! - `enhancements`: total nodes of each enhancement added in turn, by game
//!   phase and depth, over a test set (literature C).
//! - `depth-curve`: nodes against depth on a log scale.
//! - `testset`: assembles a test set by play from the start.
//! - `proving`: df-pn against alpha-beta proving random solvable positions
//!   of few pieces, valued by the tables (literature A).
//! - `solvers`: PNS, PN² and df-pn under each graph-history mode on the
//!   same random positions, valued by the tables (issue 17, experiment 3).
//! - `decide`: the proof manager on a size's longest lines, draws and
//!   random positions, valued by its tables (issues 34 and #52; `decide.rs`).
//! - `with-tables`: positions with more pieces than the tables, solved
//!   with the tables as the oracle (issue 17, experiment 4).
//! - `endgames`: the test set's endgame positions solved without tables
//!   (issue 17, experiment 5).
//! - `starts`, `parity`: literature A's observations with its tables (the
//!   equal-material starts; the parity of equal-strength pairs).

use crate::games::game_parser;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;
use std::path::{Path, PathBuf};
use zoo_app::{AppGame, GameKind, GameVisitor};
use zoo_lab::Report;

mod decide;

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub which: Which,
    /// One JSON object at the end: the experiment, the files written and
    /// its table's rows (docs/json.md); the progress stays on stderr.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand, Debug)]
pub enum Which {
    /// Negamax against alpha-beta from the Jungle start: nodes, leaves,
    /// effective branching factors (literature D).
    Negamax {
        /// Deepest depth (negamax at depth 7 takes a long time).
        #[arg(long, default_value_t = 5)]
        max_depth: u32,
        /// Depths 1–7 as published.
        #[arg(long)]
        full: bool,
        /// The evaluation: `simple` (zoo's reading of literature D) or
        /// `literature-d` (its code's; files negamax-literature-d.*).
        #[arg(long, default_value = "simple")]
        eval: String,
        /// Directory the Markdown table, CSV and SVG plot are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Total nodes of each enhancement added in turn, by phase and depth (literature C).
    Enhancements {
        /// The game of the test set.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Test set file (default: the game's built-in set, crates/lab/data/<game>.txt).
        #[arg(long)]
        testset: Option<PathBuf>,
        /// Depths, comma-separated (default: jungle 4,6; jungle-checkers 6,8).
        #[arg(long, value_delimiter = ',')]
        depths: Vec<u32>,
        /// Directory the tables (Markdown, CSV) and SVG plots are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Nodes against depth from the start position, log scale.
    DepthCurve {
        /// The game searched from its start position.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Deepest depth searched.
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        /// Directory the table (CSV) and SVG plot are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// df-pn against alpha-beta proving random solvable positions of few
    /// pieces (won or lost, by the tables), neither using the tables
    /// (literature A).
    Proving {
        /// jungle-checkers (literature A's game) or jungle.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The tables that value the positions (up to the largest size).
        #[arg(long)]
        tb: PathBuf,
        /// Piece counts, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = [2, 3, 4])]
        pieces: Vec<u32>,
        /// Positions of each piece count (the thesis: 300 in all).
        #[arg(long, default_value_t = 100)]
        positions: usize,
        /// Seed of the random positions (the same seed, the same positions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Nodes (alpha-beta) or MID calls (df-pn) at most a position.
        #[arg(long, default_value_t = 10_000_000)]
        nodes: u64,
        /// Directory the tables (Markdown, CSV) and SVG plots are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// PNS, PN² and df-pn under each graph-history mode (the naive one
    /// included) on the same random positions, valued by the tables and
    /// solved without them: nodes, bytes held, time, wrong answers.
    Solvers {
        /// jungle-checkers or jungle.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The tables that value the positions (up to the largest size).
        #[arg(long)]
        tb: PathBuf,
        /// Piece counts, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = [3, 4])]
        pieces: Vec<u32>,
        /// Positions of any value per piece count.
        #[arg(long, default_value_t = 50)]
        positions: usize,
        /// Drawn positions more per piece count (repetition decides them).
        #[arg(long, default_value_t = 20)]
        draws: usize,
        /// Seed of the random positions (the same seed, the same positions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Nodes at most a question (PNS, PN²: held; df-pn: MID calls).
        #[arg(long, default_value_t = 1_000_000)]
        nodes: u64,
        /// Seconds at most a PN² question: what bounds its repeated
        /// second-level work (the others are bounded by nodes alone).
        #[arg(long, default_value_t = 2.0)]
        pn2_seconds: f64,
        /// Instead of every method, df-pn's sound GHI modes without and
        /// with Kishimoto's remedies (files remedies-<game>.*).
        #[arg(long)]
        remedies: bool,
        /// Instead of every method, PN² without and with Breuker's
        /// fraction, and PNS (files pn2-<game>.*).
        #[arg(long, conflicts_with = "remedies")]
        pn2: bool,
        /// Directory the tables (Markdown, CSV) and SVG plots are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// The default proof search (df-pn's proof manager) on the positions
    /// of one size the tables value: their longest wins and losses, random
    /// draws and random positions, with smaller tables (or none) as the
    /// oracle; decided, wrong and unknown, and the calls and seconds of
    /// each (issue 34's samples).
    Decide(decide::DecideArgs),
    /// Positions with more pieces than the tables, solved by PNS and df-pn
    /// with the tables as the oracle, checked by alpha-beta's mates.
    WithTables {
        /// jungle (or jungle-checkers).
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The tables used as the oracle.
        #[arg(long)]
        tb: PathBuf,
        /// Piece counts, comma-separated (more than the tables hold).
        #[arg(long, value_delimiter = ',', default_values_t = [5, 6])]
        pieces: Vec<u32>,
        /// Positions per piece count.
        #[arg(long, default_value_t = 50)]
        positions: usize,
        /// Seed of the random positions (the same seed, the same positions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Nodes at most a question (PNS: held; df-pn: MID calls).
        #[arg(long, default_value_t = 1_000_000)]
        nodes: u64,
        /// Seconds at most a question (a safeguard: the nodes bound first).
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// Alpha-beta's nodes at most a position (0: no alpha-beta check).
        #[arg(long, default_value_t = 1_000_000)]
        ab_nodes: u64,
        /// Directory the tables (Markdown, CSV) and SVG plots are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// The endgame positions of the game's built-in test set (literature
    /// C's for Classical Checkers), solved by PNS and df-pn without
    /// tables, checked by alpha-beta's mates.
    Endgames {
        /// The game whose built-in test set's endgames are solved.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Nodes at most a question (PNS: held; df-pn: MID calls).
        #[arg(long, default_value_t = 1_000_000)]
        nodes: u64,
        /// Seconds at most a question (a safeguard: the nodes bound first).
        #[arg(long, default_value_t = 20.0)]
        seconds: f64,
        /// Alpha-beta's nodes at most a position (0: no alpha-beta check).
        #[arg(long, default_value_t = 1_000_000)]
        ab_nodes: u64,
        /// Endgame tables (`zoo tb build --dir`) as every solver's oracle;
        /// the report is then `endgames-tables-GAME`. Default: none, play
        /// goes to the end of the game.
        #[arg(long)]
        tb: Option<PathBuf>,
        /// Directory the tables (Markdown, CSV) and SVG plots are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// The equal-material starts (each side keeps the same kinds on their
    /// start squares, White to move): valued by the tables, or beyond them
    /// solved by df-pn with the tables as the oracle (literature A).
    Starts {
        /// jungle-checkers (literature A's game) or jungle.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The tables (they value the starts, or are df-pn's oracle).
        #[arg(long)]
        tb: PathBuf,
        /// Pieces on the board, half a side: 2, 4, 6, 8.
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// df-pn's MID calls at most a question, beyond the tables.
        #[arg(long, default_value_t = 100_000_000)]
        nodes: u64,
        /// df-pn's seconds at most a question, beyond the tables.
        #[arg(long, default_value_t = 300.0)]
        seconds: f64,
        /// Where the files go (starts-<game>-<pieces>.md, .csv).
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Every position of two pieces of the same kind, White to move, valued
    /// by the tables and counted by the parity of the Manhattan distance
    /// between them (literature A: never drawn, the parity decides).
    Parity {
        /// jungle-checkers (literature A's game) or jungle.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The tables, 2 pieces at least.
        #[arg(long)]
        tb: PathBuf,
        /// Where the files go (parity-<game>.md, .csv).
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Buro's ProbCut margin fitted: deep search values regressed on
    /// values 4 plies shallower (the search's ProbCut reduction) over the
    /// quiet positions of a test set made by self-play.
    ProbcutFit {
        /// The game.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// The deep depths, comma-separated; each is fitted on the value
        /// 4 plies shallower.
        #[arg(long, value_delimiter = ',', default_values_t = [8, 10])]
        depths: Vec<u32>,
        /// Positions per phase of the self-play test set (`zoo experiment testset`).
        #[arg(long, default_value_t = 100)]
        per_phase: usize,
        /// Seed of the test set's games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Directory the values (CSV) and scatter plots (SVG) are written to.
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Assembles a test set by engine play from the start (randomised first plies).
    Testset {
        /// The game played.
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Positions per phase.
        #[arg(long, default_value_t = 8)]
        per_phase: usize,
        /// Seed of the randomised first plies (the same seed, the same set).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// File the test set is written to (one FEN a line).
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(a: &ExperimentArgs) -> Result<()> {
    match &a.which {
        Which::Negamax {
            max_depth,
            full,
            eval,
            out_dir,
        } => {
            let d = if *full { 7 } else { *max_depth };
            if !(1..=9).contains(&d) {
                bail!("--max-depth must be between 1 and 9");
            }
            let report = zoo_lab::negamax(d, eval, &mut |line| eprintln!("{line}"))?;
            write_report(
                out_dir,
                &report,
                a.json.then_some(("negamax", GameKind::Jungle)),
            )
        }
        Which::Enhancements { game, .. } => game.visit(PerGame(&a.which, a.json)),
        Which::ProbcutFit {
            game,
            depths,
            per_phase,
            ..
        } => {
            if *per_phase == 0 {
                bail!("--per-phase must be at least 1");
            }
            if let Some((_, d)) = depths
                .iter()
                .enumerate()
                .find(|(i, d)| depths[..*i].contains(d))
            {
                bail!("--depths: {d} is given twice");
            }
            if let Some(d) = depths
                .iter()
                .find(|&&d| !(zoo_search::PROBCUT_REDUCTION as u32 + 1..=30).contains(&d))
            {
                bail!(
                    "--depths: {d} is not between {} and 30",
                    zoo_search::PROBCUT_REDUCTION + 1
                );
            }
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Testset {
            game, per_phase, ..
        } => {
            if *per_phase == 0 {
                bail!("--per-phase must be at least 1");
            }
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Proving {
            game,
            positions,
            nodes,
            ..
        } => {
            if *positions == 0 || *nodes == 0 {
                bail!("--positions and --nodes must be at least 1");
            }
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Solvers {
            game,
            positions,
            nodes,
            pn2_seconds: seconds,
            ..
        }
        | Which::WithTables {
            game,
            positions,
            nodes,
            seconds,
            ..
        } => {
            if *positions == 0 || *nodes == 0 {
                bail!("--positions and --nodes must be at least 1");
            }
            if !(seconds.is_finite() && *seconds > 0.0) {
                bail!("--seconds must be a positive number");
            }
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Decide(d) => {
            d.check()?;
            d.game.visit(PerGame(&a.which, a.json))
        }
        Which::Endgames {
            game,
            nodes,
            seconds,
            ..
        } => {
            check_budget(*nodes, *seconds)?;
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Starts {
            game,
            pieces,
            nodes,
            seconds,
            ..
        } => {
            check_budget(*nodes, *seconds)?;
            if *pieces == 0 || !pieces.is_multiple_of(2) {
                bail!("--pieces must be even: half of them a side");
            }
            game.visit(PerGame(&a.which, a.json))
        }
        Which::Parity { game, .. } => game.visit(PerGame(&a.which, a.json)),
        Which::DepthCurve {
            game, max_depth, ..
        } => {
            if !(1..=30).contains(max_depth) {
                bail!("--max-depth must be between 1 and 30");
            }
            game.visit(PerGame(&a.which, a.json))
        }
    }
}

/// The experiments run on the chosen game's type; whether to report in JSON.
struct PerGame<'a>(&'a Which, bool);

impl GameVisitor for PerGame<'_> {
    type Output = Result<()>;
    fn visit<G: AppGame>(self) -> Result<()> {
        match self.0 {
            Which::Enhancements {
                testset,
                depths,
                out_dir,
                ..
            } => {
                let set = match testset {
                    Some(path) => {
                        let text = zoo_app::files::read_text(
                            path,
                            zoo_app::files::TEXT_LIMIT,
                            "a test set",
                        )?;
                        zoo_lab::testset::parse::<G>(&text, &path.display().to_string())?
                    }
                    None => zoo_lab::testset::built_in::<G>()?,
                };
                let depths = if depths.is_empty() {
                    zoo_lab::default_depths(G::start(&G::default_rules()).game_name())
                } else {
                    depths.clone()
                };
                let report = zoo_lab::enhancements(&set, &depths, &mut |line| eprintln!("{line}"))?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("enhancements", game::<G>()?)),
                )
            }
            Which::DepthCurve {
                max_depth, out_dir, ..
            } => {
                let report =
                    zoo_lab::depth_curve::<G>(*max_depth, &mut |line| eprintln!("{line}"))?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("depth_curve", game::<G>()?)),
                )
            }
            Which::Testset {
                per_phase,
                seed,
                out,
                ..
            } => make_testset::<G>(*per_phase, *seed, out, self.1),
            Which::ProbcutFit {
                depths,
                per_phase,
                seed,
                out_dir,
                ..
            } => {
                let made = zoo_lab::make_testset::<G>(*per_phase, *seed)?;
                let set = zoo_lab::testset::parse::<G>(&made.text, "the self-play test set")?;
                let reduction = zoo_search::PROBCUT_REDUCTION as u32;
                let pairs: Vec<(u32, u32)> = depths.iter().map(|&d| (d - reduction, d)).collect();
                let (report, _) = zoo_lab::probcut_fit::probcut_fit(&set, &pairs, &mut |line| {
                    eprintln!("{line}")
                })?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("probcut_fit", game::<G>()?)),
                )
            }
            Which::Proving {
                tb,
                pieces,
                positions,
                seed,
                nodes,
                out_dir,
                ..
            } => {
                let rules = G::default_rules();
                let tables = tables_for::<G>(tb, &rules, pieces)?;
                let report = zoo_lab::proving::proving::<G>(
                    &rules,
                    &*tables.oracle,
                    pieces,
                    *positions,
                    *seed,
                    *nodes,
                    &mut |line| eprintln!("{line}"),
                )?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("proving", game::<G>()?)),
                )
            }
            Which::Solvers {
                tb,
                pieces,
                positions,
                draws,
                seed,
                nodes,
                pn2_seconds,
                remedies,
                pn2,
                out_dir,
                ..
            } => {
                let rules = G::default_rules();
                let tables = tables_for::<G>(tb, &rules, pieces)?;
                let sizes = zoo_lab::solvers::Sizes {
                    pieces: pieces.clone(),
                    positions: *positions,
                    draws: *draws,
                    budget: zoo_lab::solvers::Budget {
                        nodes: *nodes,
                        pn2_seconds: *pn2_seconds,
                    },
                    remedies: *remedies,
                    pn2: *pn2,
                };
                let report = zoo_lab::solvers::solvers::<G>(
                    &rules,
                    &*tables.oracle,
                    &sizes,
                    *seed,
                    &mut |line| eprintln!("{line}"),
                )?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some((
                        if *pn2 {
                            "pn2"
                        } else if *remedies {
                            "remedies"
                        } else {
                            "solvers"
                        },
                        game::<G>()?,
                    )),
                )
            }
            Which::Decide(d) => d.run::<G>(self.1),
            Which::WithTables {
                tb,
                pieces,
                positions,
                seed,
                nodes,
                seconds,
                ab_nodes,
                out_dir,
                ..
            } => {
                let rules = G::default_rules();
                let tables = G::open_tables(tb, &rules)?
                    .ok_or_else(|| anyhow!("no tables in {}", tb.display()))?;
                let sizes = zoo_lab::with_tables::Sizes {
                    pieces: pieces.clone(),
                    positions: *positions,
                    nodes: *nodes,
                    seconds: *seconds,
                    ab_nodes: *ab_nodes,
                };
                let report = zoo_lab::with_tables::with_tables::<G>(
                    &rules,
                    tables.oracle.clone(),
                    &format!(
                        "the tables up to {} pieces",
                        tables.oracle.complete_pieces()
                    ),
                    &sizes,
                    *seed,
                    &mut |line| eprintln!("{line}"),
                )?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("with_tables", game::<G>()?)),
                )
            }
            Which::Endgames {
                nodes,
                seconds,
                ab_nodes,
                tb,
                out_dir,
                ..
            } => {
                let sizes = zoo_lab::with_tables::Sizes {
                    pieces: Vec::new(),
                    positions: 0,
                    nodes: *nodes,
                    seconds: *seconds,
                    ab_nodes: *ab_nodes,
                };
                let tables = match tb {
                    Some(dir) => {
                        let rules = G::default_rules();
                        Some(G::open_tables(dir, &rules)?.ok_or_else(|| {
                            anyhow!("no complete tables of this game in {}", dir.display())
                        })?)
                    }
                    None => None,
                };
                let report = zoo_lab::endgames::endgames_with::<G>(
                    &sizes,
                    tables.as_ref().map(|t| (&t.oracle, t.description.as_str())),
                    &mut |line| eprintln!("{line}"),
                )?;
                write_report(
                    out_dir,
                    &report,
                    self.1.then_some(("endgames", game::<G>()?)),
                )
            }
            Which::Starts {
                tb,
                pieces,
                nodes,
                seconds,
                out_dir,
                ..
            } => {
                let rules = G::default_rules();
                let tables = tables_for::<G>(tb, &rules, &[2])?;
                let budget = zoo_lab::observations::Budget {
                    nodes: *nodes,
                    seconds: *seconds,
                };
                let rows = zoo_lab::observations::starts::<G>(
                    &rules,
                    &*tables.oracle,
                    *pieces,
                    &budget,
                    &mut |line| eprintln!("{line}"),
                )?;
                let name = G::start(&rules).game_name();
                write_report(
                    out_dir,
                    &zoo_lab::observations::starts_report(name, *pieces, &rows),
                    self.1.then_some(("starts", game::<G>()?)),
                )
            }
            Which::Parity { tb, out_dir, .. } => {
                let rules = G::default_rules();
                let tables = tables_for::<G>(tb, &rules, &[2])?;
                let rows = zoo_lab::observations::parity::<G>(&rules, &*tables.oracle)?;
                let name = G::start(&rules).game_name();
                write_report(
                    out_dir,
                    &zoo_lab::observations::parity_report(name, &rows),
                    self.1.then_some(("parity", game::<G>()?)),
                )
            }
            Which::Negamax { .. } => Err(anyhow!("negamax runs on Jungle alone, not per game")),
        }
    }
}

/// The tables in `tb`, which must value positions of every count in
/// `pieces`.
fn tables_for<G: AppGame>(
    tb: &Path,
    rules: &G::Rules,
    pieces: &[u32],
) -> Result<zoo_app::OpenedTables<G>> {
    let largest = pieces.iter().copied().max().unwrap_or(2);
    let tables =
        G::open_tables(tb, rules)?.ok_or_else(|| anyhow!("no tables in {}", tb.display()))?;
    if tables.oracle.complete_pieces() < largest {
        bail!(
            "positions of {largest} pieces need tables of that many; {}",
            tables.description
        );
    }
    Ok(tables)
}

/// The registry's name of game `G`.
fn game<G: AppGame>() -> Result<GameKind> {
    Ok(G::start(&G::default_rules()).game_name().parse()?)
}

/// Writes the report's files into `out_dir`, then prints its summary, or
/// with `json` (the experiment's and the game's names) the final object:
/// the files and the rows of its CSV table, numbers as numbers.
fn write_report(out_dir: &Path, report: &Report, json: Option<(&str, GameKind)>) -> Result<()> {
    let mut files = Vec::new();
    for (name, text) in &report.files {
        files.push(write(out_dir, name, text, json.is_none())?);
    }
    let Some((experiment, game)) = json else {
        if let Some(md) = &report.summary {
            print!("{md}");
        }
        return Ok(());
    };
    let csv = report.files.iter().find(|(name, _)| name.ends_with(".csv"));
    let rows = csv.map_or_else(Vec::new, |(_, text)| rows(text));
    super::json::result(&json!({
        "experiment": experiment, "game": game,
        "out": out_dir, "files": files, "rows": rows,
    }))
}

/// A CSV table as objects keyed by its header, numbers as JSON numbers.
fn rows(csv: &str) -> Vec<serde_json::Value> {
    let records = zoo_lab::report::csv_records(csv);
    let Some((header, body)) = records.split_first() else {
        return Vec::new();
    };
    body.iter()
        .map(|r| {
            let o: serde_json::Map<String, serde_json::Value> = header
                .iter()
                .zip(r)
                .map(|(k, v)| {
                    let v = match v.parse::<u64>() {
                        Ok(n) => n.into(),
                        Err(_) => v
                            .parse::<f64>()
                            .map_or_else(|_| v.clone().into(), Into::into),
                    };
                    (k.clone(), v)
                })
                .collect();
            o.into()
        })
        .collect()
}

/// Writes one file; says so unless the output is JSON.
fn write(out_dir: &Path, name: &str, text: &str, say: bool) -> Result<PathBuf> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let p = out_dir.join(name);
    zoo_app::files::save_bytes(&p, text.as_bytes())?;
    if say {
        println!("wrote {}", p.display());
    }
    Ok(p)
}

fn make_testset<G: AppGame>(per_phase: usize, seed: u64, out: &Path, json: bool) -> Result<()> {
    let made = zoo_lab::make_testset::<G>(per_phase, seed)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    zoo_app::files::save_bytes(out, made.text.as_bytes())?;
    if json {
        return super::json::result(&json!({
            "experiment": "testset", "game": game::<G>()?, "out": out,
            "files": [out], "positions": made.found,
        }));
    }
    println!(
        "wrote {} ({} / {} / {} positions)",
        out.display(),
        made.found[0],
        made.found[1],
        made.found[2]
    );
    Ok(())
}

/// A solver's budget per position: some nodes and a positive time.
fn check_budget(nodes: u64, seconds: f64) -> Result<()> {
    if nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if !(seconds.is_finite() && seconds > 0.0) {
        bail!("--seconds must be a positive number");
    }
    Ok(())
}
