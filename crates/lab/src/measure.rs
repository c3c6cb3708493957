//! How the experiments measure: one fixed-depth search, counted in nodes.

use anyhow::Result;
use zoo_core::{History, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits, Stats};

/// The evaluation of the experiments: `strong` where the game has it (the
/// animal figures are published with it), else the game's default.
pub fn experiment_eval<G: EngineGame>() -> &'static str {
    let names = G::eval_names();
    if names.contains(&"strong") {
        "strong"
    } else {
        names[0]
    }
}

fn engine_with<G: EngineGame>(cfg: Config, eval: &str) -> Result<Engine<G, G::Eval, G::Tactics>> {
    let e = G::eval_by_name(eval).map_err(anyhow::Error::msg)?;
    Ok(Engine::new(cfg, e, G::Tactics::default()))
}

/// The counters of one fixed-depth search of `pos` with a fresh table and
/// no repetition rule, so that node counts depend on the position and the
/// configuration alone.
pub fn count<G: EngineGame>(pos: &G, cfg: &Config, eval: &str, depth: u32) -> Result<Stats> {
    let e = engine_with::<G>(cfg.clone(), eval)?;
    let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    Ok(e.search(pos, &h, &Limits::depth(depth), &mut |_| {}).stats)
}
