//! `zoo experiment`: the published search experiments, as tables (Markdown
//! and CSV) and plots (SVG). The experiments live in zoo-lab; this command
//! parses their options, writes their files and prints.
//!
//! - `negamax`: negamax against alpha-beta from the Jungle start (literature D).
//! - `enhancements`: total nodes of each enhancement added in turn, by game
//!   phase and depth, over a test set (literature C).
//! - `depth-curve`: nodes against depth on a log scale.
//! - `testset`: assembles a test set by play from the start.

use crate::games::game_parser;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use zoo_app::{AppGame, GameKind, GameVisitor};
use zoo_lab::Report;

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub which: Which,
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
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Total nodes of each enhancement added in turn, by phase and depth (literature C).
    Enhancements {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Test set file (default: the game's built-in set, crates/lab/data/<game>.txt).
        #[arg(long)]
        testset: Option<PathBuf>,
        /// Depths, comma-separated (default: jungle 4,6; jungle-checkers 6,8).
        #[arg(long, value_delimiter = ',')]
        depths: Vec<u32>,
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Nodes against depth from the start position, log scale.
    DepthCurve {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Assembles a test set by engine play from the start (randomised first plies).
    Testset {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Positions per phase.
        #[arg(long, default_value_t = 8)]
        per_phase: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(a: &ExperimentArgs) -> Result<()> {
    match &a.which {
        Which::Negamax {
            max_depth,
            full,
            out_dir,
        } => {
            let d = if *full { 7 } else { *max_depth };
            if !(1..=9).contains(&d) {
                bail!("--max-depth must be between 1 and 9");
            }
            let report = zoo_lab::negamax(d, &mut |line| eprintln!("{line}"))?;
            write_report(out_dir, &report)
        }
        Which::Enhancements { game, .. } => game.visit(PerGame(&a.which)),
        Which::Testset {
            game, per_phase, ..
        } => {
            if *per_phase == 0 {
                bail!("--per-phase must be at least 1");
            }
            game.visit(PerGame(&a.which))
        }
        Which::DepthCurve {
            game, max_depth, ..
        } => {
            if !(1..=30).contains(max_depth) {
                bail!("--max-depth must be between 1 and 30");
            }
            game.visit(PerGame(&a.which))
        }
    }
}

/// The experiments run on the chosen game's type.
struct PerGame<'a>(&'a Which);

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
                        let text = std::fs::read_to_string(path)
                            .with_context(|| format!("cannot read test set {}", path.display()))?;
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
                write_report(out_dir, &report)
            }
            Which::DepthCurve {
                max_depth, out_dir, ..
            } => {
                let report =
                    zoo_lab::depth_curve::<G>(*max_depth, &mut |line| eprintln!("{line}"))?;
                write_report(out_dir, &report)
            }
            Which::Testset {
                per_phase,
                seed,
                out,
                ..
            } => make_testset::<G>(*per_phase, *seed, out),
            Which::Negamax { .. } => Err(anyhow!("negamax runs on Jungle alone, not per game")),
        }
    }
}

/// Writes the report's files into `out_dir`, then prints its summary.
fn write_report(out_dir: &Path, report: &Report) -> Result<()> {
    for (name, text) in &report.files {
        write(out_dir, name, text)?;
    }
    if let Some(md) = &report.summary {
        print!("{md}");
    }
    Ok(())
}

fn write(out_dir: &Path, name: &str, text: &str) -> Result<()> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let p = out_dir.join(name);
    std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
    println!("wrote {}", p.display());
    Ok(())
}

fn make_testset<G: AppGame>(per_phase: usize, seed: u64, out: &Path) -> Result<()> {
    let made = zoo_lab::make_testset::<G>(per_phase, seed)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, made.text).with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "wrote {} ({} / {} / {} positions)",
        out.display(),
        made.found[0],
        made.found[1],
        made.found[2]
    );
    Ok(())
}
