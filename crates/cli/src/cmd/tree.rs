//! `zoo tree`: decision trees learned from the 2-piece Jungle table and
//! the 3-piece tables of both animal games (docs/trees.md). The trees are made by the application layer
//! (`zoo_app::trees`); this file parses the options, prints the summary
//! and writes the files.

use crate::cmd::json;
use crate::games::game_parser;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use zoo_app::trees::{self, FeatureSet, PartitionTrees};
use zoo_app::{GameKind, TableSet, TreeLimit, TreeRequest};

#[derive(Args, Debug)]
pub struct TreeArgs {
    /// The game whose table the trees are learned from.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Pieces of the table the trees are learned from: 2 (jungle) or 3
    /// (jungle, jungle-checkers).
    #[arg(long, default_value_t = 2)]
    pub pieces: u32,
    /// The directory of the tables (as `zoo tb build --dir`).
    #[arg(long, default_value = "tables")]
    pub tb: PathBuf,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Only these partitions: White's pieces, `v`, Black's (`LvE`, `Cvc`;
    /// with 3 pieces `CLvr`, `Rvte`); default all and a tree of them all.
    #[arg(long, num_args = 1..)]
    pub material: Vec<String>,
    /// Show the largest tree of the weakest-link sequence with at most K
    /// leaves instead of the perfect tree.
    #[arg(long, value_name = "K", conflicts_with = "max_depth")]
    pub max_leaves: Option<usize>,
    /// Show the perfect tree cut at depth D instead.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<usize>,
    /// Confidence of C4.5's pessimistic pruning (smaller prunes more).
    #[arg(long, default_value_t = 0.25)]
    pub confidence: f64,
    /// Which reading of literature E's features: `literature` (Manhattan
    /// distances) or `moves` (who reaches first by the moves a lone piece
    /// really needs); docs/trees.md.
    #[arg(long, default_value = "literature", value_parser = feature_set)]
    pub features: FeatureSet,
    /// How trees are printed (without --out) or written (with --out).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write each tree shown and each trade-off plot (SVG) into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// JSON lines: one `partition` line each, then the result.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Dot,
    Svg,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Dot => "dot",
            Format::Svg => "svg",
        }
    }
}

pub fn run(a: &TreeArgs) -> Result<()> {
    let set = TableSet::new(a.game, a.rules.name().as_deref(), &a.tb)?;
    let req = TreeRequest {
        pieces: a.pieces,
        materials: a.material.clone(),
        limit: match (a.max_leaves, a.max_depth) {
            (Some(k), _) => TreeLimit::Leaves(k),
            (None, Some(d)) => TreeLimit::Depth(d),
            (None, None) => TreeLimit::Perfect,
        },
        confidence: a.confidence,
        features: a.features,
        whole: true,
    };
    let mut failed: Option<anyhow::Error> = None;
    // The header comes with the first row, so that a refused request
    // prints the error alone.
    let mut first = true;
    let report = trees::trees(&set, &req, &mut |t| {
        let shown = if a.json {
            json::line("partition", &t.summary())
        } else {
            if std::mem::take(&mut first) {
                println!("{}", header());
            }
            println!("{}", row(t));
            Ok(())
        };
        if let Err(e) = shown {
            failed.get_or_insert(e);
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some(w) = &report.whole {
        if a.json {
            json::line("partition", &w.summary())?;
        } else {
            println!("{}", row(w));
        }
    }
    if let (Some(why), false) = (&report.whole_skipped, a.json) {
        println!("{why}");
    }
    let all: Vec<&PartitionTrees> = report.partitions.iter().chain(&report.whole).collect();
    let mut written = Vec::new();
    if let Some(dir) = &a.out {
        let format = a.format.unwrap_or(Format::Text);
        for t in &all {
            let name = format!("{}.{}", t.material, format.extension());
            write(dir, &name, &render(t, format))?;
            written.push(name);
            let plot = format!("{}-tradeoff.svg", t.material);
            write(dir, &plot, &tradeoff(t)?)?;
            written.push(plot);
        }
        if !a.json {
            println!("wrote {} files into {}", written.len(), dir.display());
        }
    } else if let Some(format) = a.format {
        for t in &all {
            if !a.json {
                println!("\n== {} ==", t.material);
                print!("{}", render(t, format));
            }
        }
    }
    if a.json {
        #[derive(serde::Serialize)]
        struct Result<'a> {
            game: &'a str,
            rules: &'a str,
            pieces: u32,
            features: &'a str,
            partitions: usize,
            positions: u64,
            perfect_leaves: usize,
            conflicts: usize,
            whole: Option<zoo_app::TreeSummary>,
            whole_skipped: Option<&'a str>,
            out: Option<&'a Path>,
            files: &'a [String],
        }
        json::result(&Result {
            game: report.game,
            rules: report.rules,
            pieces: report.pieces,
            features: report.features.name(),
            partitions: report.partitions.len(),
            positions: report.partitions.iter().map(|t| t.positions).sum(),
            perfect_leaves: report.partitions.iter().map(|t| t.perfect.leaves()).sum(),
            conflicts: report
                .partitions
                .iter()
                .map(|t| t.perfect.conflicts().0)
                .sum(),
            whole: report.whole.as_ref().map(|w| w.summary()),
            whole_skipped: report.whole_skipped.as_deref(),
            out: a.out.as_deref(),
            files: &written,
        })?;
    }
    Ok(())
}

fn feature_set(s: &str) -> std::result::Result<FeatureSet, String> {
    FeatureSet::parse(s).ok_or_else(|| {
        let names: Vec<&str> = FeatureSet::ALL.iter().map(|f| f.name()).collect();
        format!("unknown feature set {s:?}; one of {}", names.join(", "))
    })
}

fn header() -> String {
    format!(
        "{:<8} {:>9} {:>7} {:>7} {:>7} | {:>7} {:>5} {:>9} | {:>6} {:>6} | {:>6} {:>5} {:>6} {:>8}",
        "material",
        "positions",
        "win",
        "draw",
        "loss",
        "perfect",
        "depth",
        "conflicts",
        "pruned",
        "errors",
        "shown",
        "depth",
        "errors",
        "accuracy"
    )
}

fn row(t: &PartitionTrees) -> String {
    let s = t.summary();
    format!(
        "{:<8} {:>9} {:>7} {:>7} {:>7} | {:>7} {:>5} {:>9} | {:>6} {:>6} | {:>6} {:>5} {:>6} {:>7.3}%",
        s.material,
        s.positions,
        s.wins,
        s.draws,
        s.losses,
        s.perfect_leaves,
        s.perfect_depth,
        s.conflicts,
        s.pruned_leaves,
        s.pruned_errors,
        s.leaves,
        s.depth,
        s.errors,
        100.0 * s.accuracy
    )
}

fn render(t: &PartitionTrees, format: Format) -> String {
    let title = format!("{} ({} positions, White to move)", t.material, t.positions);
    let tree = t.shown();
    match format {
        Format::Text => format!("# {title}\n{}", tree.to_text()),
        Format::Dot => tree.to_dot(&title),
        Format::Svg => tree.to_svg(&title),
    }
}

fn tradeoff(t: &PartitionTrees) -> Result<String> {
    let n = t.positions.max(1) as f64;
    let points: Vec<(f64, f64)> = t
        .trade_off
        .iter()
        .map(|p| (p.leaves as f64, 100.0 * (1.0 - p.errors as f64 / n)))
        .collect();
    zoo_lab::plot::tradeoff_plot(
        &format!("{}: accuracy against leaves (weakest link)", t.material),
        &[(t.material.clone(), points)],
    )
}

/// Writes by the one save of every command, so that a reader never sees
/// half a file.
fn write(dir: &Path, name: &str, text: &str) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    zoo_app::files::save_bytes(&dir.join(name), text.as_bytes())?;
    Ok(())
}
