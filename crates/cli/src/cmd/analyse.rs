//! `zoo analyse`: searches a position and prints every completed iteration.

use super::engine::{score_text, EngineOpts, LimitOpts};
use crate::games::PositionArgs;
use anyhow::Result;
use clap::Args;
use serde_json::json;
use zoo_app::{IterationReport, SearchLimits, Status};

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves played from the position first, in any notation (as `zoo
    /// solve --moves`): `--moves a3a4 a7a6` or `--moves "a3a4 a7a6"`.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    #[command(flatten)]
    pub limits: LimitOpts,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// Report the best N lines of each iteration (multi-PV): the best
    /// line, then the best of the moves left out of the lines before it,
    /// each at the iteration's depth.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub multipv: u32,
    /// Search with an external engine instead of zoo's: `jcei:PROGRAM
    /// ARGS…` (a JCEI engine such as jungine; Jungle only, checked to play
    /// the rules asked by perft first) or `cmd:PROGRAM ARGS…` (zoo's
    /// protocol). Its `info` lines are printed as they come and its move
    /// checked legal (the engine options above do not apply).
    #[arg(long = "engine", value_name = "SPEC")]
    pub external: Option<String>,
    /// JSON lines (one per iteration) and a final object.
    #[arg(long)]
    pub json: bool,
}

/// `--engine`: the external engine's lines and move.
fn run_external(a: &AnalyseArgs, engine: &str) -> Result<()> {
    if a.multipv > 1 {
        anyhow::bail!("--multipv is for zoo's own engine; an external engine gives one line");
    }
    let req = zoo_app::external_analysis::ExternalAnalysis {
        game: a.position.game,
        rules: a.position.rules.name(),
        fen: a.position.fen.clone(),
        moves: a.moves.clone(),
        engine: engine.to_string(),
        limits: a.limits.limits(),
    };
    let json = a.json;
    let mut header = !json;
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    let r = zoo_app::external_analysis::analyse_external(&req, &mut |i| {
        // The header once the engine has passed its checks and searches.
        if std::mem::take(&mut header) {
            println!(
                "{:>5} {:>10} {:>12} {:>9}  pv",
                "depth", "score", "nodes", "ms"
            );
        }
        if json {
            let _ = super::json::line("iteration", i);
        } else {
            let score = match (i.mate, i.score) {
                (Some(m), _) => format!("mate {m}"),
                (None, Some(s)) => format!("{s:+}"),
                _ => String::new(),
            };
            println!(
                "{:>5} {:>10} {:>12} {:>9}  {}",
                opt(i.depth.map(u64::from)),
                score,
                opt(i.nodes),
                opt(i.ms),
                i.pv.join(" ")
            );
        }
    })?;
    if json {
        super::json::line("result", &r)?;
    } else {
        println!(
            "best {} ({}) from the engine {engine}",
            r.best.coord, r.best.short
        );
    }
    Ok(())
}

pub fn run(a: &AnalyseArgs) -> Result<()> {
    if let Some(engine) = &a.external {
        return run_external(a, engine);
    }
    let mut s = a.position.session_after(a.engine.options(), &a.moves)?;
    let limits = SearchLimits {
        multipv: a.multipv,
        ..a.limits.limits().or(SearchLimits {
            depth: Some(8),
            ..SearchLimits::default()
        })
    };
    if a.multipv == 0 {
        anyhow::bail!("--multipv 0: give at least one line");
    }
    limits.to_limits()?;
    let info = s.engine_info()?;
    let tb_root = s.probe_text()?;
    let json = a.json;
    if !json {
        println!(
            "{} ({} rules), {} to move, eval {}, {} thread(s)",
            s.game(),
            s.rules_name(),
            s.side_to_move().name(),
            info.eval,
            info.config.threads
        );
        if let Some(t) = &info.tables {
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
    let mut report = |it: &IterationReport| {
        if json {
            let o = json!({
                "depth": it.depth, "score": it.score, "mate": it.mate, "table": it.table,
                "pv": it.pv, "pv_short": it.pv_short,
                "nodes": it.nodes, "ms": it.ms, "ebf": it.ebf,
                "stats": it.stats,
            });
            let mut o = o;
            if !it.lines.is_empty() {
                o["lines"] = json!(it.lines);
            }
            // A line that cannot be written (stdout closed) ends the
            // output, not the search.
            let _ = super::json::line("iteration", &o);
        } else {
            println!(
                "{:>5} {:>10} {:>12} {:>9} {:>6}  {}",
                it.depth,
                score_text(it.score, it.mate, it.table),
                it.nodes,
                it.ms,
                it.ebf.map(|e| format!("{e:.2}")).unwrap_or_default(),
                if it.lines.is_empty() {
                    it.pv_short.join(" ")
                } else {
                    format!("1) {}", it.pv_short.join(" "))
                }
            );
            // The other lines under the first, each with its score.
            for (k, l) in it.lines.iter().enumerate().skip(1) {
                println!(
                    "{:>5} {:>10} {:>12} {:>9} {:>6}  {}) {}",
                    "",
                    score_text(l.score, l.mate, l.table),
                    "",
                    "",
                    "",
                    k + 1,
                    l.pv_short.join(" ")
                );
            }
        }
    };
    let r = s.search(limits, &mut report)?;
    let best = r.best.as_ref().map(|m| m.coord.clone());
    let st = &r.stats;
    let ebf_total =
        (r.depth > 0 && st.nodes > 0).then(|| (st.nodes as f64).powf(1.0 / r.depth as f64));
    let status = s.status();
    if json {
        let mut o = json!({
            "game": s.game(), "rules": s.rules_name(), "fen": s.fen(),
            "eval": info.eval, "config": info.config,
            "bestmove": best, "score": r.score, "mate": r.mate, "table": r.table,
            "depth": r.depth,
            "pv": r.pv, "pv_short": r.pv_short, "nodes": st.nodes,
            "seconds": r.seconds, "nodes_per_second": r.nodes_per_second, "ebf": ebf_total,
            "stats": st,
        });
        o["tb_hits"] = st.tb_hits.into();
        o["tablebase"] = match &info.tables {
            Some(t) => json!({
                "description": t.description, "max_pieces": t.max_pieces,
                "root": tb_root,
            }),
            None => serde_json::Value::Null,
        };
        // As `tb probe` says it: whether the game is over, and then its
        // result for the side to move.
        o["game_over"] = (status != Status::Playing).into();
        o["outcome"] = match status {
            Status::Over { result, .. } => serde_json::to_value(result)?,
            Status::Playing => serde_json::Value::Null,
        };
        super::json::result(&o)?;
    } else {
        match status {
            over @ Status::Over { .. } => {
                println!("game over: {}", over.describe(s.side_to_move()))
            }
            Status::Playing => println!(
                "best {}  score {}  depth {}",
                best.unwrap_or_else(|| "-".into()),
                score_text(r.score, r.mate, r.table),
                r.depth
            ),
        }
        println!(
            "nodes {} (leaves {}, quiescence {})  {:.3} s  {:.2} M nodes/s  ebf {}",
            st.nodes,
            st.leaves,
            st.qnodes,
            r.seconds,
            r.nodes_per_second / 1e6,
            ebf_total
                .map(|e| format!("{e:.2}"))
                .unwrap_or_else(|| "-".into())
        );
        println!(
            "tt probes {} hits {} cutoffs {} best-move hits {}  etc cutoffs {}  re-searches {}  tb hits {}",
            st.tt_probes,
            st.tt_hits,
            st.tt_cutoffs,
            st.tt_move_hits,
            st.etc_cutoffs,
            st.re_searches,
            st.tb_hits
        );
    }
    Ok(())
}
