//! `zoo experiment decide`: the proof manager on the positions of one size
//! the tables value (their longest wins and losses, random draws, random
//! positions), with smaller tables as the oracle (issues 34 and #52;
//! docs/solve.md, "Samples of the tables").

use super::{check_budget, game, tables_for, write_report};
use crate::games::game_parser;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use zoo_app::{AppGame, GameKind};

/// The default proof search (df-pn's proof manager) on the positions
/// of one size the tables value: their longest wins and losses, random
/// draws and random positions, with smaller tables (or none) as the
/// oracle; decided, wrong and unknown, and the calls and seconds of
/// each (issue 34's samples).
#[derive(Args, Debug)]
pub struct DecideArgs {
    /// jungle or jungle-checkers (any game with tables).
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Tables holding the size of the positions: they value them.
    #[arg(long)]
    pub tb: PathBuf,
    /// Pieces of every position.
    #[arg(long)]
    pub pieces: u32,
    /// Only these materials (`RDEvrde,RDTvrdt`: White's letters, `v`,
    /// Black's in lower case; each a stored table of --pieces pieces):
    /// the sample of a size whose tables are built only in part
    /// (`zoo tb build --material`). Default: every material.
    #[arg(long, value_delimiter = ',')]
    pub materials: Vec<String>,
    /// The solver's oracle: the tables of at most this many pieces
    /// (0: none, play to the end); fewer than --pieces.
    #[arg(long, default_value_t = 0)]
    pub oracle_pieces: u32,
    /// The longest wins, and as many longest losses, of the tables.
    #[arg(long, default_value_t = 50)]
    pub longest: usize,
    /// Random drawn positions.
    #[arg(long, default_value_t = 50)]
    pub draws: usize,
    /// Random positions of any value.
    #[arg(long, default_value_t = 400)]
    pub positions: usize,
    /// Seed of the random positions (the same seed, the same positions).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds at most a question.
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// MID calls at most a question (default: no bound but the time).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// df-pn's threads, on one table (docs/solve.md, "Parallel df-pn").
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Proof search alone (as `zoo solve --search-only`): neither the
    /// reachable graph nor the material's table decides a position.
    #[arg(long)]
    pub dfpn_only: bool,
    /// Each df-pn setting's table, MiB (default: as `zoo solve` sizes it).
    #[arg(long)]
    pub hash: Option<u64>,
    /// The manager's df-pn settings, run in turn: `auto` (plain df-pn,
    /// then tca,wpn) or one list of remedies as `zoo solve --remedies`
    /// takes it (ablations).
    #[arg(long, default_value = "auto", value_parser = crate::cmd::solve::parse_remedies)]
    pub remedies: crate::cmd::solve::RemediesArg,
    #[command(flatten)]
    pub tuning: crate::cmd::solve::TuningArgs,
    /// The manager's workers: threads among which a question's
    /// searches are split, all running at once (docs/solve.md, "The
    /// manager's workers"); 1, the default here, keeps a sample's
    /// questions on one core each.
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// Directory the tables (Markdown, CSV) and SVG plots are written to.
    #[arg(long, default_value = "experiments")]
    pub out_dir: PathBuf,
}

impl DecideArgs {
    /// The checks that need no game: the budget, and an oracle smaller
    /// than the positions.
    pub fn check(&self) -> Result<()> {
        check_budget(self.nodes.unwrap_or(1), self.seconds)?;
        if self.oracle_pieces >= self.pieces {
            bail!("--oracle-pieces must be fewer than --pieces: the tables would answer alone");
        }
        Ok(())
    }

    /// The manager's settings as the command line gives them, those left
    /// at their defaults out (`--seconds` always): what names an
    /// ablation in its report.
    fn settings(&self) -> String {
        let mut args = vec![format!("--seconds {}", self.seconds)];
        args.extend(self.nodes.map(|n| format!("--nodes {n}")));
        args.extend(self.hash.map(|h| format!("--hash {h}")));
        args.extend(self.remedies.0.map(|r| format!("--remedies {}", r.name())));
        args.extend(self.tuning.changed());
        if self.workers != 1 {
            args.push(format!("--workers {}", self.workers));
        }
        format!(", `{}`", args.join(" "))
    }

    /// Draws the sample, solves it and writes the report (`json`: as one
    /// JSON object).
    pub fn run<G: AppGame>(&self, json: bool) -> Result<()> {
        let DecideArgs {
            tb,
            pieces,
            materials,
            oracle_pieces,
            longest,
            draws,
            positions,
            seed,
            seconds,
            nodes,
            threads,
            dfpn_only,
            hash,
            remedies,
            workers,
            out_dir,
            ..
        } = self;
        for (what, n) in [("threads", threads), ("workers", workers)] {
            if !(1..=zoo_app::options::MAX_THREADS).contains(n) {
                anyhow::bail!(
                    "{what} {n} is not between 1 and {}",
                    zoo_app::options::MAX_THREADS
                );
            }
        }
        let rules = G::default_rules();
        // With named materials only the oracle's sizes must be
        // whole; the named tables are opened (and so checked) by
        // the search for their longest lines.
        let whole = if materials.is_empty() {
            *pieces
        } else {
            *oracle_pieces
        };
        let tables = tables_for::<G>(tb, &rules, &[whole])?;
        let far = zoo_app::tables::longest::longest::<G>(tb, &rules, *pieces, *longest, materials)?;
        let pool = if materials.is_empty() {
            zoo_lab::positions::Pool::Any(*pieces)
        } else {
            let sampler = zoo_lab::positions::Sampler::new::<G>(&rules)?;
            zoo_lab::positions::Pool::Materials(
                materials
                    .iter()
                    .map(|m| zoo_lab::positions::Pool::material(&sampler, m, Some(*pieces)))
                    .collect::<Result<_>>()?,
            )
        };
        let cases = zoo_lab::decide::sample::<G>(
            &rules,
            &*tables.oracle,
            &pool,
            (far.wins, far.losses),
            (*draws, *positions),
            *seed,
        )?;
        let oracle = zoo_lab::decide::UpTo {
            inner: &*tables.oracle,
            max: *oracle_pieces,
        };
        let oracle_ref: Option<&dyn zoo_core::Oracle<G>> =
            (*oracle_pieces > 0).then_some(&oracle as &dyn zoo_core::Oracle<G>);
        let limits = zoo_app::solve::Limits {
            nodes: *nodes,
            time: Some(std::time::Duration::from_secs_f64(*seconds)),
            memory_mb: *hash,
            ..zoo_app::solve::Limits::default()
        };
        let tuning = self.tuning.tuning()?;
        let first = |p: &G| zoo_app::solve::likely_question(p, None);
        // One piece past the oracle, the root's material table
        // may be built in memory from it, as `zoo solve` does.
        let builder = (*oracle_pieces > 0)
            .then(|| G::material_builder(tb, &rules, *oracle_pieces))
            .flatten();
        let rows = zoo_lab::decide::run(
            &cases,
            oracle_ref,
            builder.as_deref(),
            &limits,
            &zoo_lab::solvers::Manager {
                threads: *threads,
                graph: !dfpn_only,
                settings: remedies.0.map(|r| vec![r]),
                guide: tuning.guide,
                epsilon: tuning.epsilon,
                bounded: tuning.bounded,
                strategy: tuning.strategy,
                strategy_win: tuning.strategy_win,
                share_mb: Some(zoo_app::options::max_hash_mb() as u64),
                workers: *workers,
            },
            &first,
            &mut |line| eprintln!("{line}"),
        );
        let what = format!(
            "{pieces}-piece {}{}, {}{}{}",
            G::start(&rules).game_name(),
            if materials.is_empty() {
                String::new()
            } else {
                format!(" ({})", materials.join(", "))
            },
            if *oracle_pieces > 0 {
                format!("the ≤ {oracle_pieces}-piece tables as oracle")
            } else {
                "no tables".to_string()
            },
            if *dfpn_only {
                ", proof search alone"
            } else {
                ""
            },
            if *threads > 1 {
                format!(", {threads} threads")
            } else {
                String::new()
            },
        ) + &self.settings();
        let report = zoo_lab::decide::report(G::start(&rules).game_name(), *pieces, &what, &rows)?;
        write_report(out_dir, &report, json.then_some(("decide", game::<G>()?)))
    }
}
