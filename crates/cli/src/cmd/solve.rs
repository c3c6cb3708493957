//! `zoo solve`: prove a position (win, not-lose or its value) by
//! proof-number search, write the proof, or re-check a proof file.

use crate::games::game_parser;
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use zoo_app::solve::{
    batch, check_proof, front, limits, solve, Algorithm, Ghi, Limits, Progress, Question, Remedies,
    Sample, SolveReport, SolveRequest, Tuning, INF,
};
use zoo_app::GameKind;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GoalArg {
    Win,
    NotLose,
    Value,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AlgoArg {
    Pns,
    Pn2,
    Dfpn,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GhiArg {
    /// Values decided or influenced by a repetition are never stored.
    NoRepetitionStore,
    /// Stored when their repetitions return into their own subtree.
    LocalRepetition,
    /// Stored with the positions above that their repetitions return to;
    /// a hit counts only where those are on the path (literature B's
    /// chain check made sound). The default, also named `sound`.
    #[value(alias = "sound")]
    Path,
    /// Everything stored; a value resting on a repetition is trusted once
    /// the values the answer rests on are found to close on themselves.
    Closure,
    /// Everything stored: unsound, for experiments only.
    Naive,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (not needed with --check).
    #[arg(long, value_parser = game_parser(), required_unless_present = "check")]
    pub game: Option<GameKind>,
    /// Start from this position instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Moves played from the position first, in any notation.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// The question, for the side to move.
    #[arg(long, value_enum, default_value = "value")]
    pub goal: GoalArg,
    /// The proof search: `dfpn` (depth-first proof numbers), `pns` or `pn2`.
    #[arg(long = "algo", value_enum, default_value = "dfpn")]
    pub algorithm: AlgoArg,
    /// df-pn's handling of the graph-history problem (docs/solve.md).
    #[arg(long, value_enum, default_value = "path")]
    pub ghi: GhiArg,
    /// df-pn's remedies for loops, under- and overestimation: `auto` (the
    /// proof manager: plain df-pn and all remedies in turn, budgets
    /// doubling; with --goal value the question the engine's score
    /// suggests first; with --checkpoint, all), or comma-separated tca
    /// (Kishimoto's threshold controlling algorithm, open numbers
    /// stored), wpn (weak proof numbers), all, none (docs/solve.md).
    #[arg(long, default_value = "auto", value_parser = parse_remedies)]
    pub remedies: RemediesArg,
    /// Endgame tables: the positions they cover are leaves.
    #[arg(long = "tb", value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Stop each question after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Stop each question after this many seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Memory for the tree (PNS, PN²) or the table (df-pn), MiB.
    #[arg(long)]
    pub hash: Option<u64>,
    /// df-pn: threads searching together on one table (docs/solve.md,
    /// "Parallel df-pn"); the answers are one thread's.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The proof manager's workers: threads among which a question's
    /// searches (each df-pn setting, each ply-bounded search, the
    /// strategy search) are split, all running at once (docs/solve.md,
    /// "The manager's workers"). Default: the machine's cores ÷
    /// --threads; 1 with --nodes (a run that repeats) and under mpirun (1
    /// a rank).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Proof search only (df-pn, PNS, PN², the strategy search): the proof
    /// manager builds neither the root's reachable graph nor its
    /// material's table in memory, so every answer is `method` dfpn or
    /// strategy (or the algorithm asked); what the positions of the
    /// start's materials need (docs/solve.md)
    #[arg(long, alias = "no-builds")]
    pub search_only: bool,
    #[command(flatten)]
    pub tuning: TuningArgs,
    /// PN²: size each second-level search as Breuker did, f(N)·N nodes for
    /// a first-level tree of N, f(N) = 1/(1 + e^((A−N)/B)) (docs/solve.md;
    /// without it, N).
    #[arg(long, value_name = "A,B", value_parser = parse_fraction)]
    pub pn2_fraction: Option<(f64, f64)>,
    /// PNS and PN²: when the (first-level) tree fills --hash, cut solved
    /// subtrees (keeping their proofs with --proof) and then the
    /// least-worked ones, and go on (--nodes then counts nodes made, not
    /// held; docs/solve.md).
    #[arg(long)]
    pub gc: bool,
    /// Write the proof to this file: to FILE.tmp, then renamed (df-pn
    /// derives it again once the root is solved, within the same limits).
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub proof: Option<PathBuf>,
    /// Keep the run in this file (df-pn's table or PNS's and PN²'s tree,
    /// and the answers found), written every --checkpoint-every seconds and
    /// when the run stops; a run with the same file goes on from it
    /// (docs/solve.md, "Long runs"). With --proof: PNS and PN² only.
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 600.0, requires = "checkpoint")]
    pub checkpoint_every: f64,
    /// Plot the root's proof and disproof numbers over the run to this SVG
    /// file (log scale; literature B's Figure 7.1), sampled about once a
    /// second.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "check")]
    pub plot: Option<PathBuf>,
    /// Re-check a proof file instead of solving (with --tb for its table
    /// leaves).
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,
    /// One JSON object: the answer, the proof's size and the work done (docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Read and extend this store of proven positions: answers held decide
    /// a question asked again, and are leaves of the search (not with
    /// --proof); every answer decided is added (docs/solve.md, "The proof
    /// store").
    #[arg(long, value_name = "FILE", conflicts_with_all = ["check", "checkpoint"])]
    pub store: Option<PathBuf>,
    /// Solve each position of this file (one FEN a line; `#` starts a
    /// comment) in turn with the same options, instead of one position;
    /// one report (one JSON line with --json) each. Under `mpirun` (a zoo
    /// built with `--features mpi`) rank 0 shares them out among the other
    /// ranks and keeps the --store (docs/solve.md, "A batch over MPI").
    #[arg(long, value_name = "FILE", conflicts_with_all = ["check", "fen", "moves", "proof", "plot", "checkpoint"])]
    pub positions: Option<PathBuf>,
    /// Print, instead of solving, the front of positions PLIES plies
    /// below the position: the side the engine favours plays the engine's
    /// move, the other side every move (Chinook's proof manager). The
    /// output is a --positions file: solve it into a --store (over
    /// `mpirun` on many processes), then the position with that store
    /// (docs/solve.md, "A front of positions").
    #[arg(long, value_name = "PLIES", conflicts_with_all = [
        "check", "positions", "moves", "proof", "plot", "checkpoint", "store",
        // The front is found by the engine, not proved: no question, no
        // limits and no solver settings apply.
        "goal", "time", "nodes", "hash", "threads", "workers", "algorithm", "ghi", "remedies",
        "search_only", "guide", "epsilon", "bounded", "strategy", "strategy_win", "pn2_fraction",
        "gc",
    ])]
    pub front: Option<u32>,
    /// The engine's depth for the front's moves and order.
    #[arg(long, value_name = "PLIES", default_value_t = 6, requires = "front")]
    pub front_depth: u32,
    /// Which side plays only the engine's move on the way to the front:
    /// the one the engine's score favours (guess), the side to move
    /// (mover), the other, or neither (every move of both sides).
    #[arg(long, value_enum, default_value = "guess", requires = "front")]
    pub front_prover: ProverArg,
}

/// `--front-prover`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProverArg {
    /// The side the engine's score of the root favours.
    Guess,
    /// The root's side to move.
    Mover,
    /// The other side.
    Other,
    /// Neither: every move of both sides.
    Neither,
}

/// `--remedies`: `None` for `auto` (the proof manager).
#[derive(Debug, Clone, Copy)]
pub struct RemediesArg(pub Option<Remedies>);

/// `auto` (the proof manager) or a list of remedies.
pub(crate) fn parse_remedies(s: &str) -> std::result::Result<RemediesArg, String> {
    match s.trim() {
        "auto" => Ok(RemediesArg(None)),
        _ => Remedies::parse(s).map(|r| RemediesArg(Some(r))),
    }
}

/// The proof manager's tuning (`zoo solve`, `zoo experiment decide`):
/// df-pn+, the 1+ε trick, and the shares of the ply-bounded and strategy
/// searches.
#[derive(Args, Debug, Clone)]
pub struct TuningArgs {
    /// df-pn+: start a new node's proof and disproof numbers from the
    /// game's static score, this many points to a unit (0: at 1/1, the
    /// default; docs/solve.md, "Two pieces past the tables").
    #[arg(long, default_value_t = Tuning::default().guide)]
    pub guide: u32,
    /// df-pn's 1+ε trick: a child is searched until its number passes
    /// (1+ε) times its best sibling's.
    #[arg(long, default_value_t = Tuning::default().epsilon)]
    pub epsilon: f64,
    /// The ply-bounded df-pn's share of each round of the proof manager:
    /// a search of (position, plies left) that proves wins the others
    /// leave open (0: not run; docs/solve.md, "Ply-bounded df-pn").
    #[arg(long, default_value_t = Tuning::default().bounded)]
    pub bounded: u64,
    /// The strategy search's share of each round of the proof manager:
    /// proof search over the graph of one side's strategy, which proves
    /// the draws df-pn leaves open (0: not run; docs/solve.md, "The
    /// strategy search").
    #[arg(long, default_value_t = Tuning::default().strategy)]
    pub strategy: u64,
    /// The strategy search's share of each round of a `win` question,
    /// the other side the keeper (0: not run).
    #[arg(long, default_value_t = Tuning::default().strategy_win)]
    pub strategy_win: u64,
}

impl TuningArgs {
    /// The checked tuning.
    pub fn tuning(&self) -> Result<Tuning> {
        Ok(Tuning {
            bounded: self.bounded,
            strategy: self.strategy,
            strategy_win: self.strategy_win,
            ..Tuning::new(self.guide, self.epsilon)?
        })
    }

    /// The options that differ from their defaults ([`Tuning::default`]),
    /// as the command line gives them (what names an ablation in a
    /// report).
    pub fn changed(&self) -> Vec<String> {
        let d = Tuning::default();
        [
            (self.guide != d.guide, format!("--guide {}", self.guide)),
            (
                self.epsilon != d.epsilon,
                format!("--epsilon {}", self.epsilon),
            ),
            (
                self.bounded != d.bounded,
                format!("--bounded {}", self.bounded),
            ),
            (
                self.strategy != d.strategy,
                format!("--strategy {}", self.strategy),
            ),
            (
                self.strategy_win != d.strategy_win,
                format!("--strategy-win {}", self.strategy_win),
            ),
        ]
        .into_iter()
        .filter_map(|(changed, arg)| changed.then_some(arg))
        .collect()
    }
}

/// `A,B`: Breuker's fraction's two numbers.
fn parse_fraction(s: &str) -> std::result::Result<(f64, f64), String> {
    let (a, b) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}`: two numbers A,B"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<f64>()
            .map_err(|e| format!("`{x}` in `{s}`: {e}"))
    };
    Ok((num(a)?, num(b)?))
}

pub fn run(a: &SolveArgs) -> Result<()> {
    if let Some(file) = &a.check {
        let text = zoo_app::files::read_text(file, zoo_app::files::PROOF_LIMIT, "a proof")?;
        let r = check_proof(&text, a.tables.as_deref())?;
        if a.json {
            return super::json::result(&r);
        }
        println!(
            "{}: a valid proof that {} is {} for the side to move in {} {} {} ({} nodes, {} leaves, {} of them table positions)",
            file.display(),
            r.goal,
            r.answer,
            r.game,
            r.rules,
            r.fen,
            r.nodes,
            r.leaves,
            r.table_leaves
        );
        return Ok(());
    }
    let game = a.game.context("--game is needed")?;
    if let Some(plies) = a.front {
        if zoo_app::tables::launched_by_mpi() {
            bail!("--front runs on one process: start it without mpirun");
        }
        let r = front::front(&front::FrontRequest {
            game,
            rules: a.rules.name(),
            fen: a.fen.clone(),
            tables: a.tables.clone(),
            plies,
            depth: a.front_depth,
            prover: match a.front_prover {
                ProverArg::Guess => front::Prover::Guess,
                ProverArg::Mover => front::Prover::Mover,
                ProverArg::Other => front::Prover::Other,
                ProverArg::Neither => front::Prover::Neither,
            },
        })?;
        if a.json {
            return super::json::result(&r);
        }
        print!("{}", r.to_batch());
        return Ok(());
    }
    if a.checkpoint.is_some() && a.proof.is_some() && matches!(a.algorithm, AlgoArg::Dfpn) {
        // df-pn derives its proof from the table after the run, which a
        // resumed run's table does not serve as well: not offered.
        anyhow::bail!("--proof with --checkpoint is for --algo pns or pn2");
    }
    // A run may take hours: an output that cannot be written is found now
    // (under `mpirun` the store by rank 0 alone, which writes it: a check
    // writes the temporary file its saves use).
    let store = a
        .store
        .as_ref()
        .filter(|_| !zoo_app::tables::launched_by_mpi());
    let outputs: Vec<&std::path::Path> = [
        a.proof.as_ref(),
        a.plot.as_ref(),
        a.checkpoint.as_ref(),
        store,
    ]
    .into_iter()
    .flatten()
    .map(|p| p.as_path())
    .collect();
    for path in &outputs {
        zoo_app::files::check_writable(path)?;
    }
    zoo_app::files::check_distinct(&outputs)?;
    let req = SolveRequest {
        game,
        rules: a.rules.name(),
        fen: a.fen.clone(),
        moves: a.moves.clone(),
        question: match a.goal {
            GoalArg::Win => Question::Win,
            GoalArg::NotLose => Question::NotLose,
            GoalArg::Value => Question::Value,
        },
        algorithm: match a.algorithm {
            AlgoArg::Pns => Algorithm::Pns,
            AlgoArg::Pn2 => Algorithm::Pn2,
            AlgoArg::Dfpn => Algorithm::Dfpn,
        },
        ghi: match a.ghi {
            GhiArg::NoRepetitionStore => Ghi::NoRepetitionStore,
            GhiArg::LocalRepetition => Ghi::LocalRepetition,
            GhiArg::Path => Ghi::Path,
            GhiArg::Closure => Ghi::Closure,
            GhiArg::Naive => Ghi::Naive,
        },
        remedies: a.remedies.0,
        pn2_fraction: a.pn2_fraction,
        gc: a.gc,
        tables: a.tables.clone(),
        limits: Limits {
            stop: Some(stop_requested),
            progress: Some(print_progress),
            ..limits(a.nodes, a.time, a.hash)?
        },
        proof: a.proof.is_some(),
        checkpoint: a.checkpoint.clone(),
        checkpoint_every: std::time::Duration::try_from_secs_f64(a.checkpoint_every)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--checkpoint-every {}: give a positive number of seconds, at most {}",
                    a.checkpoint_every,
                    u64::MAX
                )
            })?,
        threads: a.threads,
        // Under mpirun the ranks are the parallelism: one worker each.
        // With --nodes one too: the workers' calls interleave as the
        // machine schedules them, and a call limit is asked for to make a
        // run that can be repeated.
        workers: a.workers.unwrap_or_else(|| {
            if zoo_app::tables::launched_by_mpi() || a.nodes.is_some() {
                1
            } else {
                zoo_app::solve::default_workers(a.threads)
            }
        }),
        search_only: a.search_only,
        tuning: a.tuning.tuning()?,
        store: a.store.clone(),
        store_writes: Default::default(),
    };
    // Ctrl-C stops the question being asked as a limit would: the answer
    // is `unknown` and the report is printed. A second Ctrl-C ends at once.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Some(file) = &a.positions {
        return run_batch(a, &req, file);
    }
    if zoo_app::tables::launched_by_mpi() {
        bail!("under mpirun, zoo solve shares out a batch: give --positions FILE");
    }
    let r = solve(&req)?;
    if stop_requested() {
        eprintln!("interrupted: the answers below are as far as the search got");
    }
    if let Some(path) = &a.checkpoint {
        if r.answers.iter().any(|x| x.answer == "unknown") {
            eprintln!(
                "the run is kept in {}: the same command goes on from it",
                path.display()
            );
        }
    }
    // The answer is printed even when an output file then fails (the
    // exit status says so).
    print_report(a, &r)?;
    write_outputs(a, &r)
}

/// `--positions FILE`: every position of the file, on this process or,
/// under `mpirun`, shared out among the ranks (zoo_app::solve::batch).
fn run_batch(a: &SolveArgs, req: &SolveRequest, file: &std::path::Path) -> Result<()> {
    let text = zoo_app::files::read_text(file, zoo_app::files::PROOF_LIMIT, "a list of positions")?;
    let fens = batch::positions_of(&text);
    let show = |r: &SolveReport| {
        let mut shown = Vec::new();
        match write_report(&mut shown, a, r) {
            Ok(()) => String::from_utf8_lossy(&shown).into_owned(),
            Err(e) => format!("{} (its report could not be shown: {e})\n", r.fen),
        }
    };
    // A closed standard output stops the batch, as Ctrl-C does, and is
    // the command's error.
    let closed = AtomicBool::new(false);
    let mut emit = |shown: &str| {
        if std::io::stdout()
            .lock()
            .write_all(shown.as_bytes())
            .is_err()
        {
            closed.store(true, Ordering::SeqCst);
            STOP.store(true, Ordering::SeqCst);
        }
    };
    let mut out = batch::Output {
        show: &show,
        emit: &mut emit,
        stop: &stop_requested,
    };
    #[cfg(feature = "mpi")]
    let ended = match zoo_app::tables::mpi::Mpi::from_launcher()? {
        Some(world) => zoo_app::solve::batch_mpi::solve_batch_on(&world, req, &fens, &mut out),
        None => batch::solve_batch(req, &fens, &mut out),
    };
    #[cfg(not(feature = "mpi"))]
    let ended = {
        if zoo_app::tables::launched_by_mpi() {
            bail!(
                "started by mpirun, but this zoo was built without MPI: \
                 cargo build --release -p zoo --features mpi (needs openmpi-bin, libopenmpi-dev, libclang-dev)"
            );
        }
        batch::solve_batch(req, &fens, &mut out)
    };
    if closed.load(Ordering::SeqCst) {
        bail!("standard output closed: the reports after it were not printed");
    }
    match ended {
        Ok(batch::BatchEnd::Done) => Ok(()),
        Ok(batch::BatchEnd::Interrupted) => {
            eprintln!("interrupted: the positions after the last report were not asked");
            Ok(())
        }
        Err(f) => Err(match f.fen {
            Some(fen) => anyhow::Error::new(f.error)
                .context(format!("position {fen:?} of {}", file.display())),
            None => anyhow::Error::new(f.error).context(format!("batch {}", file.display())),
        }),
    }
}

/// Prints one position's answers, as text or one JSON line.
fn print_report(a: &SolveArgs, r: &SolveReport) -> Result<()> {
    let mut out = Vec::new();
    write_report(&mut out, a, r)?;
    std::io::stdout().write_all(&out)?;
    Ok(())
}

/// Writes one position's answers, as text or one JSON line.
fn write_report(out: &mut Vec<u8>, a: &SolveArgs, r: &SolveReport) -> Result<()> {
    // Writing into memory cannot fail.
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(out, $($t)*);
        }};
    }
    if a.json {
        out.extend_from_slice(super::json::result_line(r)?.as_bytes());
        return Ok(());
    }
    say!(
        "{} {} {}{}",
        r.game,
        r.rules,
        r.fen,
        r.tables
            .as_deref()
            .map(|t| format!(" (tables: {t})"))
            .unwrap_or_default()
    );
    for x in &r.answers {
        let num = |n: Option<u32>| n.map_or("inf".to_string(), |n| n.to_string());
        say!(
            "{:<8} {:<9} pn {} dn {}  {} nodes  {} expansions  {:.1} MiB  {:.3} s",
            x.goal,
            x.answer,
            num(x.pn),
            num(x.dn),
            x.nodes,
            x.expansions,
            x.bytes as f64 / (1 << 20) as f64,
            x.seconds
        );
        if let Some(runs) = x.runs {
            say!(
                "{:<8} {} run{} of the proof manager{}",
                "",
                runs,
                if runs == 1 { "" } else { "s" },
                x.remedies
                    .map(|m| format!(", decided with remedies {m}"))
                    .unwrap_or_default()
            );
        }
        if x.method == Some("store") {
            say!("{:<8} read from the proof store", "");
        }
        if x.method == Some("graph") {
            if x.nodes > 0 {
                say!(
                    "{:<8} decided by the reachable graph ({} positions, valued backwards)",
                    "",
                    x.nodes
                );
            } else {
                say!(
                    "{:<8} decided by the reachable graph the question before built",
                    ""
                );
            }
        }
        if x.method == Some("table") {
            if x.nodes > 0 {
                say!(
                    "{:<8} decided by its material's table, built in memory ({} entries)",
                    "",
                    x.nodes
                );
            } else {
                say!(
                    "{:<8} decided by the material's table the question before built",
                    ""
                );
            }
        }
        if let Some(d) = &x.derivation {
            match d.failed {
                None if x.method == Some("graph") => say!(
                    "{:<8} derived   from the graph  {:.3} s",
                    "proof",
                    d.seconds
                ),
                None if x.method == Some("table") => say!(
                    "{:<8} derived   from the table  {:.3} s",
                    "proof",
                    d.seconds
                ),
                None => say!(
                    "{:<8} derived   {} calls ({:.2}× the answer's)  {:.3} s",
                    "proof",
                    d.calls,
                    d.calls as f64 / x.nodes.max(1) as f64,
                    d.seconds
                ),
                Some(why) => eprintln!(
                    "no proof of `{}` at {}: {} (after {} calls of its derivation, {:.3} s)",
                    x.goal,
                    r.fen,
                    why.describe(),
                    d.calls,
                    d.seconds
                ),
            }
        }
    }
    if let Some(t) = &r.tables_refused {
        eprintln!(
            "zoo: warning: {} table probes refused at {}, the first: {}; the answers stand (searched below those positions)",
            t.probes, r.fen, t.first
        );
    }
    if matches!(a.goal, GoalArg::Value) {
        match r.value {
            Some(v) => say!(
                "value: {} for the side to move{}",
                serde_json::to_value(v)?.as_str().unwrap_or("?"),
                r.decided_by
                    .map(|g| format!(" (decided by `{g}`)"))
                    .unwrap_or_default()
            ),
            None => {
                say!("value: unknown (a limit stopped the search; raise --nodes, --time or --hash)")
            }
        }
    }
    Ok(())
}

/// Writes the proof and the plot after the answer is printed.
fn write_outputs(a: &SolveArgs, r: &SolveReport) -> Result<()> {
    if let Some(path) = &a.proof {
        // The last decided answer's proof: under `value` the question
        // asked last is the one that decided.
        match r.answers.iter().rev().find_map(|x| x.proof.as_ref()) {
            Some(text) => {
                write_file(path, text)?;
                if !a.json {
                    println!("proof written to {}", path.display());
                }
            }
            None => eprintln!(
                "no proof written: no question was decided, or a limit stopped df-pn deriving its proof"
            ),
        }
    }
    if let Some(path) = &a.plot {
        write_plot(path, r)?;
    }
    Ok(())
}

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// A progress line on stderr about once a second of a long question.
fn print_progress(p: &Progress) {
    // Written from known values (the graph, the material's table): no calls.
    if let Some((0, built)) = p.deriving {
        eprintln!("{:.0} s  writing the proof: {built} proof nodes", p.seconds);
        return;
    }
    if let Some((calls, built)) = p.deriving {
        eprintln!(
            "{:.0} s  deriving the proof: {calls} calls, {built} proof nodes  ({} nodes in all)  {:.0} nodes/s",
            p.seconds,
            p.nodes,
            p.nodes as f64 / p.seconds.max(1e-9)
        );
        return;
    }
    let root = match p.root {
        Some((pn, dn)) => format!("root pn {pn} dn {dn}  "),
        None => String::new(),
    };
    eprintln!(
        "{:.0} s  {root}{} nodes  {:.1} MiB  {:.0} nodes/s",
        p.seconds,
        p.nodes,
        p.bytes as f64 / (1 << 20) as f64,
        p.nodes as f64 / p.seconds.max(1e-9)
    );
}

/// The root's numbers of each question searched, as an SVG plot: series
/// `<goal> pn` and `<goal> dn` over seconds. Infinite numbers (the
/// question decided the other way) are left out; 0 is drawn at 1.
fn write_plot(path: &std::path::Path, r: &SolveReport) -> Result<()> {
    let mut series = Vec::new();
    for x in r.answers.iter().filter(|x| !x.samples.is_empty()) {
        let of = |n: fn(&Sample) -> u32| {
            x.samples
                .iter()
                .filter(|s| n(s) != INF)
                .map(|s| (s.seconds, n(s) as f64))
                .collect::<Vec<_>>()
        };
        series.push((format!("{} pn", x.goal), of(|s| s.pn)));
        series.push((format!("{} dn", x.goal), of(|s| s.dn)));
    }
    if series.is_empty() {
        eprintln!("no plot written: no question was searched in this run");
        return Ok(());
    }
    let title = format!(
        "{} {}: root proof and disproof numbers ({:?})",
        r.game, r.fen, r.algorithm
    );
    let svg = zoo_lab::plot::log_plot_xy(&title, "seconds", "proof / disproof number", &series)?;
    write_file(path, &svg)
}

/// `text` to `path` by the one save of every command.
fn write_file(path: &std::path::Path, text: &str) -> Result<()> {
    zoo_app::files::save_bytes(path, text.as_bytes())?;
    Ok(())
}
