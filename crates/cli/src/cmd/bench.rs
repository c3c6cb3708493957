//! `zoo bench`: the search speed figures of docs/search.md — time to a depth
//! from the Jungle start, nodes per second, and the depth each animal game
//! reaches in a given time.

use super::engine::EngineOpts;
use anyhow::Result;
use clap::Args;
use serde_json::json;
use std::time::Duration;
use zoo_core::History;
use zoo_search::{EngineGame, Limits};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of the timed search from the Jungle start.
    #[arg(long, default_value_t = 14)]
    pub depth: u32,
    /// Time for the "depth reached" measurement, per game.
    #[arg(long, default_value_t = 1000)]
    pub ms: u64,
    /// Engine options (threads, switches); --depth/--movetime are set by the bench.
    #[command(flatten)]
    pub engine: EngineOpts,
    #[arg(long)]
    pub json: bool,
}

fn run_one<G: EngineGame>(o: &EngineOpts, limits: &Limits) -> Result<serde_json::Value> {
    let pos = G::start(&G::default_rules());
    let e = o.build::<G>()?;
    let h = History::starting_at(o.repetition(&pos), pos.key(), pos.piece_count());
    let r = e.search(&pos, &h, limits, &mut |_| {});
    Ok(json!({
        "game": pos.game_name(), "depth": r.depth, "seconds": r.elapsed.as_secs_f64(),
        "nodes": r.stats.nodes, "nodes_per_second": r.nps(), "threads": e.cfg.threads,
        "bestmove": r.best.map(|m| pos.move_to_coord(m)), "score": r.score,
    }))
}

pub fn run(a: &BenchArgs) -> Result<()> {
    let mut o = a.engine.clone();
    o.depth = None;
    o.movetime = None;
    o.nodes = None;
    let mut rows = Vec::new();
    let deep = run_one::<zoo_animal::JunglePos>(&o, &Limits::depth(a.depth))?;
    rows.push(("time to depth", deep));
    let t = Limits {
        movetime: Some(Duration::from_millis(a.ms)),
        ..Limits::default()
    };
    rows.push(("depth in time", run_one::<zoo_animal::JunglePos>(&o, &t)?));
    rows.push((
        "depth in time",
        run_one::<zoo_animal::JungleCheckersPos>(&o, &t)?,
    ));
    if a.json {
        for (what, r) in &rows {
            let mut r = r.clone();
            r["measure"] = (*what).into();
            println!("{r}");
        }
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
