//! `zoo analyse`: searches a position and prints every completed iteration.

use super::engine::{line_coord, line_short, root_tb_text, score_text, EngineOpts};
use crate::engine_dispatch;
use crate::games::{history_at, PositionArgs};
use anyhow::Result;
use clap::Args;
use serde_json::json;
use zoo_search::{Iteration, Stats};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// JSON lines (one per iteration) and a final object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &AnalyseArgs) -> Result<()> {
    engine_dispatch!(a.position.game, analyse_game(a))
}

pub fn stats_json(s: &Stats) -> serde_json::Value {
    serde_json::to_value(s).unwrap_or_default()
}

fn analyse_game<G: zoo_app::AppGame>(a: &AnalyseArgs) -> Result<()> {
    let pos: G = a.position.load()?;
    let (engine, tb) = a.engine.build_for::<G>(&pos)?;
    let tb_root = root_tb_text(&engine, &pos);
    let limits = a.engine.limits(Some(8))?;
    let hist = history_at(&pos, a.engine.repetition(&pos));
    if !a.json {
        println!(
            "{} ({} rules), {} to move, eval {}, {} thread(s)",
            pos.game_name(),
            pos.rules_name(),
            pos.side_to_move().name(),
            zoo_core::Evaluator::name(engine.evaluator()),
            engine.cfg.threads
        );
        if let Some(t) = &tb {
            match &tb_root {
                Some(r) => println!("tablebase: {}; root position: {r}", t.description),
                None => println!("tablebase: {}", t.description),
            }
        }
        println!(
            "{:>5} {:>10} {:>12} {:>9} {:>6}  pv",
            "depth", "score", "nodes", "ms", "ebf"
        );
    }
    let json = a.json;
    let mut report = |it: &Iteration<G::Move>| {
        if json {
            let mut o = json!({
                "type": "iteration", "depth": it.depth, "score": it.score,
                "pv": line_coord(&pos, &it.pv), "pv_short": line_short(&pos, &it.pv),
                "nodes": it.total_nodes, "ms": it.elapsed.as_millis() as u64, "ebf": it.ebf,
                "stats": stats_json(&it.stats),
            });
            if let Some(m) = it.mate {
                o["mate"] = m.into();
            }
            println!("{o}");
        } else {
            println!(
                "{:>5} {:>10} {:>12} {:>9} {:>6}  {}",
                it.depth,
                score_text(it.score, it.mate),
                it.total_nodes,
                it.elapsed.as_millis(),
                it.ebf.map(|e| format!("{e:.2}")).unwrap_or_default(),
                line_short(&pos, &it.pv).join(" ")
            );
        }
    };
    let r = engine.search(&pos, &hist, &limits, &mut report);
    let best = r.best.map(|m| pos.move_to_coord(m));
    let secs = r.elapsed.as_secs_f64();
    let s = &r.stats;
    let ebf_total =
        (r.depth > 0 && s.nodes > 0).then(|| (s.nodes as f64).powf(1.0 / r.depth as f64));
    if a.json {
        let mut o = json!({
            "type": "result", "game": pos.game_name(), "rules": pos.rules_name(), "fen": pos.to_fen(),
            "eval": zoo_core::Evaluator::name(engine.evaluator()), "config": engine.cfg,
            "bestmove": best, "score": r.score, "depth": r.depth,
            "pv": line_coord(&pos, &r.pv), "pv_short": line_short(&pos, &r.pv),
            "seconds": secs, "nodes_per_second": r.nps(), "ebf": ebf_total,
            "stats": stats_json(s),
        });
        if let Some(m) = r.mate {
            o["mate"] = m.into();
        }
        o["tb_hits"] = s.tb_hits.into();
        o["tablebase"] = match &tb {
            Some(t) => json!({
                "description": t.description, "max_pieces": t.max_pieces,
                "root": tb_root,
            }),
            None => serde_json::Value::Null,
        };
        if let Some(o2) = zoo_core::Game::outcome(&pos) {
            o["game_over"] = serde_json::to_value(o2)?;
        }
        println!("{o}");
    } else {
        match zoo_core::Game::outcome(&pos) {
            Some(o) => println!("game over: {o:?} for the side to move"),
            None => println!(
                "best {}  score {}  depth {}",
                best.unwrap_or_else(|| "-".into()),
                score_text(r.score, r.mate),
                r.depth
            ),
        }
        println!(
            "nodes {} (leaves {}, quiescence {})  {:.3} s  {:.2} M nodes/s  ebf {}",
            s.nodes,
            s.leaves,
            s.qnodes,
            secs,
            r.nps() / 1e6,
            ebf_total
                .map(|e| format!("{e:.2}"))
                .unwrap_or_else(|| "-".into())
        );
        println!(
            "tt probes {} hits {} cutoffs {} best-move hits {}  etc cutoffs {}  re-searches {}  tb hits {}",
            s.tt_probes,
            s.tt_hits,
            s.tt_cutoffs,
            s.tt_move_hits,
            s.etc_cutoffs,
            s.re_searches,
            s.tb_hits
        );
    }
    Ok(())
}
