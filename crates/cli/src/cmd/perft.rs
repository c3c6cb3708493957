//! `zoo perft`: move-path counts, per root move with `--divide`.

use crate::games::PositionArgs;
use anyhow::{Context, Result};
use clap::Args;
use std::time::Instant;
use zoo_app::games::{position_of, rules_of};
use zoo_app::{AppGame, GameVisitor};
use zoo_core::{perft_divide, perft_parallel, Game, History, Repetition};

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[arg(long)]
    pub depth: u32,
    #[arg(long, default_value = "none")]
    pub repetition: Repetition,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &PerftArgs) -> Result<()> {
    struct Perft<'a>(&'a PerftArgs);
    impl GameVisitor for Perft<'_> {
        type Output = Result<()>;
        fn visit<G: AppGame>(self) -> Result<()> {
            perft_game::<G>(self.0)
        }
    }
    a.position.game.visit(Perft(a))
}

fn perft_game<G: Game>(a: &PerftArgs) -> Result<()> {
    let p = &a.position;
    let rules = rules_of::<G>(p.rules.as_deref())?;
    let pos: G = position_of(&rules, p.fen.as_deref()).context("bad --fen")?;
    let hist = History::starting_at(a.repetition, pos.key(), pos.piece_count());
    let threads = a.threads.max(1);
    let t0 = Instant::now();
    let (nodes, divide) = if a.divide {
        let d = perft_divide(&pos, a.depth, &hist, threads);
        let n = if d.is_empty() {
            1
        } else {
            d.iter().map(|&(_, n)| n).sum()
        };
        (n, d)
    } else {
        (perft_parallel(&pos, a.depth, &hist, threads), Vec::new())
    };
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if a.json {
        let div: serde_json::Map<String, serde_json::Value> = divide
            .iter()
            .map(|&(m, n)| (pos.move_to_coord(m), n.into()))
            .collect();
        let mut o = serde_json::json!({
            "game": pos.game_name(), "rules": pos.rules_name(), "fen": pos.to_fen(),
            "repetition": a.repetition.name(), "depth": a.depth, "nodes": nodes,
            "seconds": secs, "nodes_per_second": nps, "threads": threads,
        });
        if a.divide {
            o["divide"] = div.into();
        }
        println!("{o}");
    } else {
        for &(m, n) in &divide {
            let (coord, short) = (pos.move_to_coord(m), pos.move_to_string(m));
            // Checkers has one notation: its moves are not written twice.
            if coord == short {
                println!("{coord:<6} {n}");
            } else {
                println!("{coord:<6} {short:<6} {n}");
            }
        }
        println!(
            "perft({}) = {nodes}  [{:.3} s, {:.1} M nodes/s, {} thread(s), repetition {}]",
            a.depth,
            secs,
            nps / 1e6,
            threads,
            a.repetition
        );
    }
    Ok(())
}
