//! `zoo perft`: move-path counts, per root move with `--divide`.

use crate::games::PositionArgs;
use anyhow::Result;
use clap::Args;
use zoo_app::perft::{perft_with_progress, PerftRequest};
use zoo_core::{Counting, Repetition};

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Plies counted from the position.
    #[arg(long)]
    pub depth: u32,
    /// Repetition policy applied along the paths (`none`: every path counted).
    #[arg(long, default_value = "none")]
    pub repetition: Repetition,
    /// Count only the paths of the full depth: a game that ends earlier
    /// counts 0, as chess's perft and JCEI engines (jungine) count. By
    /// default a finished game is one path where it ends (docs/rules/*.md §8).
    #[arg(long)]
    pub full_length: bool,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Threads that count root moves at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// One JSON object: the count, the time and, with --divide, the count below each root move (docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Count deeper than the cap of 12 plies (docs/limits.md).
    #[arg(long)]
    pub no_cap: bool,
}

pub fn run(a: &PerftArgs) -> Result<()> {
    let p = &a.position;
    // Root moves counted so far, on stderr when it is a terminal (hidden
    // otherwise): a long count shows how far it is.
    let bar = super::progress::count_bar("root moves");
    let r = perft_with_progress(
        &PerftRequest {
            game: p.game,
            rules: p.rules.name(),
            fen: p.fen.clone(),
            depth: a.depth,
            repetition: a.repetition,
            counting: if a.full_length {
                Counting::FullLength
            } else {
                Counting::FinishedAsLeaves
            },
            divide: a.divide,
            threads: a.threads,
            no_cap: a.no_cap,
        },
        &super::progress::follow(&bar),
    );
    bar.finish_and_clear();
    let r = r?;
    let divide = r.divide.as_deref().unwrap_or_default();
    if a.json {
        let mut o = serde_json::to_value(&r)?;
        // Root moves as one object, move to count, as before the report.
        if a.divide {
            let div: serde_json::Map<String, serde_json::Value> = divide
                .iter()
                .map(|d| (d.coord.clone(), d.nodes.into()))
                .collect();
            o["divide"] = div.into();
        }
        super::json::result(&o)?;
    } else {
        for d in divide {
            // Checkers has one notation: its moves are not written twice.
            if d.coord == d.san {
                println!("{:<6} {}", d.coord, d.nodes);
            } else {
                println!("{:<6} {:<6} {}", d.coord, d.san, d.nodes);
            }
        }
        println!(
            "perft({}) = {}  [{:.3} s, {:.1} M nodes/s, {} thread(s), repetition {}{}]",
            r.depth,
            r.nodes,
            r.seconds,
            r.nodes_per_second / 1e6,
            r.threads,
            r.repetition,
            if a.full_length {
                ", full-length paths"
            } else {
                ""
            }
        );
    }
    Ok(())
}
