//! Engine options shared by `analyse`, `play`, `uci`, `match`, `bench` and
//! `experiment`, and the dispatch from a game name to a game that has a
//! search engine (an evaluation and tactics, see `zoo_search::EngineGame`).

use anyhow::{bail, Result};
use clap::{Args, Parser};
use std::path::PathBuf;
use std::time::Duration;
use zoo_app::AppGame;
use zoo_core::{Game, Outcome, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits, Replacement};

/// Calls `$f::<PositionType>($args...)` for a game with a search engine and
/// fails with a clear message for the others.
#[macro_export]
macro_rules! engine_dispatch {
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {
        match $kind {
            $crate::games::GameKind::Jungle => $f::<zoo_animal::JunglePos>($($arg),*),
            $crate::games::GameKind::JungleCheckers => $f::<zoo_animal::JungleCheckersPos>($($arg),*),
            $crate::games::GameKind::ClassicalCheckers => $f::<zoo_checkers::ClassicalPos>($($arg),*),
            $crate::games::GameKind::EnglishCheckers => $f::<zoo_checkers::EnglishPos>($($arg),*),
            #[allow(unreachable_patterns)]
            other => Err(anyhow::anyhow!(
                "no search engine for {other:?} yet: it has no evaluation registered (zoo_search::EngineGame)"
            )),
        }
    };
}

#[derive(Args, Debug, Clone, Default)]
pub struct EngineOpts {
    /// Evaluation by name (default: the game's strongest; `strong`, `simple`, `development`).
    #[arg(long)]
    pub eval: Option<String>,
    /// Search this many plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB (0: 64 KiB).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Repetition policy inside the search (default: the rule set's).
    #[arg(long)]
    pub repetition: Option<Repetition>,
    /// Plain negamax: no pruning at all (every other switch ignored).
    #[arg(long)]
    pub negamax: bool,
    /// Plain alpha-beta: every enhancement off (switches below turn some back on).
    #[arg(long)]
    pub plain: bool,
    #[arg(long)]
    pub no_tt: bool,
    #[arg(long)]
    pub no_pvs: bool,
    /// No iterative deepening: one search at the target depth.
    #[arg(long)]
    pub no_id: bool,
    #[arg(long)]
    pub no_quiescence: bool,
    #[arg(long)]
    pub no_killers: bool,
    #[arg(long)]
    pub no_history: bool,
    /// No static move ordering (captures first, development).
    #[arg(long)]
    pub no_ordering: bool,
    #[arg(long)]
    pub no_etc: bool,
    /// No late move reductions (selective search off).
    #[arg(long)]
    pub no_lmr: bool,
    /// Late move reductions (for --plain).
    #[arg(long)]
    pub lmr: bool,
    /// Turn on for --plain: transposition table.
    #[arg(long)]
    pub tt: bool,
    #[arg(long)]
    pub pvs: bool,
    /// Iterative deepening (for --plain).
    #[arg(long)]
    pub id: bool,
    #[arg(long)]
    pub quiescence: bool,
    /// Enhanced transposition cutoffs at nodes of at least this draft.
    #[arg(long)]
    pub etc_depth: Option<u32>,
    /// MTD(f) at the root (default on; for --plain).
    #[arg(long)]
    pub mtdf: bool,
    /// Root search with PVS (or aspiration) instead of MTD(f).
    #[arg(long)]
    pub no_mtdf: bool,
    /// Aspiration window half-width (0 = off).
    #[arg(long)]
    pub aspiration: Option<i32>,
    /// Iterative deepening step.
    #[arg(long)]
    pub id_step: Option<u32>,
    /// Replacement scheme: always, deep, big, hits.
    #[arg(long)]
    pub replacement: Option<Replacement>,
    /// Two bounds with separate drafts per table entry.
    #[arg(long)]
    pub two_bound: bool,
    /// Table cutoffs only from entries of exactly the same draft.
    #[arg(long)]
    pub strict_draft: bool,
    /// Endgame tables directory (as built by `zoo tb build --dir`): the
    /// search takes exact values from it for positions with few enough
    /// pieces. Off unless given.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
}

/// The engine `EngineOpts` builds for game `G`.
pub type GameEngine<G> = Engine<G, <G as EngineGame>::Eval, <G as EngineGame>::Tactics>;

/// What became of `--tb` for a game and rule set.
#[derive(Debug, Clone)]
pub struct TbStatus {
    /// `jungle leiden tables in DIR, up to N pieces`, or why none are used.
    pub description: String,
    /// The largest complete piece count, when tables are used.
    pub max_pieces: Option<u32>,
}

/// `--a "<engine options>"` of `zoo match`: the same options as a string.
#[derive(Parser, Debug)]
#[command(name = "engine", no_binary_name = true)]
pub struct EngineSpec {
    #[command(flatten)]
    pub opts: EngineOpts,
}

impl EngineOpts {
    pub fn parse_str(s: &str) -> Result<EngineOpts> {
        match EngineSpec::try_parse_from(s.split_whitespace()) {
            Ok(spec) => Ok(spec.opts),
            Err(e) => bail!(
                "bad engine options {s:?}: {}",
                e.render().to_string().trim()
            ),
        }
    }

    pub fn config(&self) -> Result<Config> {
        let mut c = if self.negamax {
            Config::negamax()
        } else if self.plain {
            Config::plain_alphabeta()
        } else {
            Config::default()
        };
        // 0 is the 64 KiB table of the replacement experiments.
        c.hash_mb = self.hash;
        c.threads = self.threads.max(1);
        if self.threads > 256 {
            bail!("--threads {} is more than 256", self.threads);
        }
        c.tt = (c.tt || self.tt) && !self.no_tt;
        c.pvs = (c.pvs || self.pvs) && !self.no_pvs;
        c.iterative = (c.iterative || self.id) && !self.no_id;
        c.quiescence = (c.quiescence || self.quiescence) && !self.no_quiescence;
        c.lmr = (c.lmr || self.lmr) && !self.no_lmr;
        c.killers &= !self.no_killers;
        c.history &= !self.no_history;
        c.ordering &= !self.no_ordering;
        if let Some(d) = self.etc_depth {
            c.etc_min_depth = d;
        }
        if self.no_etc {
            c.etc_min_depth = 0;
        }
        c.mtdf = (c.mtdf || self.mtdf) && !self.no_mtdf;
        if let Some(a) = self.aspiration {
            if a < 0 {
                bail!("--aspiration must be 0 (off) or positive");
            }
            c.aspiration = a;
        }
        if let Some(s) = self.id_step {
            if s == 0 {
                bail!("--id-step must be at least 1");
            }
            c.id_step = s;
        }
        if let Some(r) = self.replacement {
            c.replacement = r;
        }
        c.two_bound |= self.two_bound;
        c.strict_draft |= self.strict_draft;
        Ok(c)
    }

    /// The limits; `default_depth` when none was given.
    pub fn limits(&self, default_depth: Option<u32>) -> Result<Limits> {
        if self.depth == Some(0) {
            bail!("--depth must be at least 1");
        }
        if let Some(d) = self.depth {
            if d > zoo_search::MAX_DEPTH {
                bail!(
                    "--depth {d} is more than the maximum {}",
                    zoo_search::MAX_DEPTH
                );
            }
        }
        let mut l = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
        };
        if l == Limits::default() {
            l.depth = default_depth;
        }
        Ok(l)
    }

    pub fn repetition<G: Game>(&self, pos: &G) -> Repetition {
        self.repetition.unwrap_or_else(|| pos.default_repetition())
    }

    /// [`EngineOpts::build`] with the endgame tables of `--tb` for the game
    /// and rule set of `pos` attached; the status says what was found
    /// (`None` without `--tb`). A directory that does not exist is an
    /// error; one without tables for this game is reported, not refused.
    pub fn build_for<G: AppGame>(&self, pos: &G) -> Result<(GameEngine<G>, Option<TbStatus>)> {
        let mut engine = self.build::<G>()?;
        let Some(dir) = &self.tb else {
            return Ok((engine, None));
        };
        if !dir.is_dir() {
            bail!("--tb {}: no such directory", dir.display());
        }
        let status = match G::open_tables(dir, pos.rules()) {
            Ok(Some(info)) => {
                let max = info.oracle.max_pieces();
                engine.set_oracle(Some(info.oracle));
                TbStatus {
                    description: info.description,
                    max_pieces: Some(max),
                }
            }
            Ok(None) => TbStatus {
                description: format!(
                    "no complete {} {} tables in {} (not used)",
                    pos.game_name(),
                    pos.rules_name(),
                    dir.display()
                ),
                max_pieces: None,
            },
            Err(why) => TbStatus {
                description: format!("{why} (--tb ignored)"),
                max_pieces: None,
            },
        };
        Ok((engine, Some(status)))
    }

    pub fn build<G: EngineGame>(&self) -> Result<Engine<G, G::Eval, G::Tactics>> {
        let eval = match &self.eval {
            Some(name) => G::eval_by_name(name).map_err(anyhow::Error::msg)?,
            None => G::default_eval(),
        };
        Ok(Engine::new(self.config()?, eval, G::Tactics::default()))
    }
}

/// A score for people: `+1.25`-style pawns are meaningless here, so plain
/// centi-units, or `mate +N` / `mate -N`.
pub fn score_text(score: i32, mate: Option<i32>) -> String {
    match mate {
        Some(m) if m >= 0 => format!("mate +{m}"),
        Some(m) => format!("mate {m}"),
        None => format!("{score:+}"),
    }
}

/// A line of moves in coordinate form, played out from `pos`.
pub fn line_coord<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let s = p.move_to_coord(m);
            p.make(m);
            s
        })
        .collect()
}

/// A line of moves in short form (each move written in the position it is played in).
pub fn line_short<G: Game>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let s = p.move_to_string(m);
            p.make(m);
            s
        })
        .collect()
}

/// The tables' value of the root for people: `win in 7`, `loss in 6`,
/// `draw`, or why there is none.
pub fn root_tb_text<G: EngineGame>(
    engine: &Engine<G, G::Eval, G::Tactics>,
    pos: &G,
) -> Option<String> {
    let oracle = engine.oracle()?;
    if pos.piece_count() > oracle.max_pieces() {
        return Some(format!("not in the tables ({} pieces)", pos.piece_count()));
    }
    Some(match oracle.probe(pos) {
        Some((Outcome::Win, d)) => format!("win in {d}"),
        Some((Outcome::Loss, d)) => format!("loss in {d}"),
        Some((Outcome::Draw, _)) => "draw".to_string(),
        None => "no value (table missing or damaged)".to_string(),
    })
}
