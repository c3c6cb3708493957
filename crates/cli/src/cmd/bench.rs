//! `zoo bench`: the search speed figures of docs/search.md — time to a depth
//! from the Jungle start, nodes per second, and the depth each animal game
//! reaches in a given time.

use super::engine::EngineOpts;
use anyhow::Result;
use clap::Args;
use serde_json::json;
use zoo_app::{GameKind, SearchLimits, Session};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of the timed search from the Jungle start.
    #[arg(long, default_value_t = 14)]
    pub depth: u32,
    /// Time for the "depth reached" measurement, per game.
    #[arg(long, default_value_t = 1000)]
    pub ms: u64,
    /// Engine options (threads, switches); the bench sets the limits.
    #[command(flatten)]
    pub engine: EngineOpts,
    /// One JSON line per measure (type `measure`), then the result (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

fn run_one(game: GameKind, o: &EngineOpts, limits: SearchLimits) -> Result<serde_json::Value> {
    let mut s = Session::new(game, None, o.options())?;
    let threads = s.engine_info()?.config.threads;
    let r = s.search(limits, &mut |_| {})?;
    Ok(json!({
        "game": game, "depth": r.depth, "seconds": r.seconds,
        "nodes": r.stats.nodes, "nodes_per_second": r.nodes_per_second, "threads": threads,
        "bestmove": r.best.map(|m| m.coord), "score": r.score,
    }))
}

pub fn run(a: &BenchArgs) -> Result<()> {
    let o = &a.engine;
    let mut rows = Vec::new();
    let deep = SearchLimits {
        depth: Some(a.depth),
        ..SearchLimits::default()
    };
    rows.push(("time to depth", run_one(GameKind::Jungle, o, deep)?));
    let t = SearchLimits {
        movetime_ms: Some(a.ms),
        ..SearchLimits::default()
    };
    rows.push(("depth in time", run_one(GameKind::Jungle, o, t)?));
    rows.push(("depth in time", run_one(GameKind::JungleCheckers, o, t)?));
    if a.json {
        let measures: Vec<serde_json::Value> = rows
            .iter()
            .map(|(what, r)| {
                let mut r = r.clone();
                r["measure"] = (*what).into();
                r
            })
            .collect();
        super::json::result(&json!({ "measures": measures }))?;
    } else {
        for (what, r) in &rows {
            println!(
                "{:<14} {:<16} depth {:>3}  {:>7.3} s  {:>11} nodes  {:>6.2} M nodes/s  {} thread(s)",
                what,
                r["game"].as_str().unwrap_or("?"),
                r["depth"],
                r["seconds"].as_f64().unwrap_or(0.0),
                r["nodes"],
                r["nodes_per_second"].as_f64().unwrap_or(0.0) / 1e6,
                r["threads"]
            );
        }
    }
    Ok(())
}
