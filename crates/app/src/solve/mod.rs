//! `zoo solve`: proof search on any game, with the tables as oracle, and
//! the independent re-check of a proof file.

pub mod answer;
pub mod batch;
#[cfg(feature = "mpi")]
pub mod batch_mpi;
pub mod checkpoint;
pub mod front;
pub mod store;

use crate::games::{position_of, rules_of};
use crate::{AppError, AppGame, GameKind, GameVisitor};
pub use answer::AnswerReport;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Duration;
use zoo_core::Outcome;
pub use zoo_solve::dfpn::Remedies;
pub use zoo_solve::limits::{Derivation, NoProof, Sample, INF};
pub use zoo_solve::manager::{BOUNDED_WEIGHT, FORTRESS_WEIGHT, FORTRESS_WIN_WEIGHT};
/// df-pn's graph-history modes, as the front ends name them.
pub use zoo_solve::Ghi;
pub use zoo_solve::Goal;
use zoo_solve::{dfpn, manager, pns, solve_value_sharing, Answer};
pub use zoo_solve::{Limits, Progress};

/// What to ask of the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Question {
    /// Does the side to move win? (A draw counts for the opponent.)
    Win,
    /// Does it at least draw?
    NotLose,
    /// Both: win, draw or loss.
    Value,
}

/// Which algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Proof-number search, the tree in memory; writes proofs.
    Pns,
    /// PN²: each expansion a second-level PNS whose tree is thrown away;
    /// writes proofs.
    Pn2,
    /// Depth-first proof-number search with a transposition table.
    Dfpn,
}

impl Algorithm {
    /// `pns`, `pn2` or `dfpn`, as `--algo` names it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Pns => "pns",
            Algorithm::Pn2 => "pn2",
            Algorithm::Dfpn => "dfpn",
        }
    }
}

/// df-pn's tuning knobs, for ablations (docs/solve.md, "Two pieces past
/// the tables"); the defaults are df-pn's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tuning {
    /// df-pn+: new nodes start from the game's static score, this many
    /// points to a unit of proof number ([`dfpn::Options::guide`]; 0: off).
    pub guide: u32,
    /// The 1+ε trick's ε ([`dfpn::Options::epsilon`]).
    pub epsilon: f64,
    /// The ply-bounded df-pn's share of the proof manager's rounds
    /// ([`manager::Plan::bounded`]; 0: not run).
    pub bounded: u64,
    /// The strategy search's share of the proof manager's rounds
    /// ([`manager::Plan::fortress`]; 0: not run).
    pub strategy: u64,
    /// Its share in `win` questions ([`manager::Plan::fortress_win`]).
    pub strategy_win: u64,
}

impl Tuning {
    /// The knobs as given, or why ε is refused (it must be a number of at
    /// least 0).
    pub fn new(guide: u32, epsilon: f64) -> Result<Tuning, AppError> {
        if !(epsilon.is_finite() && epsilon >= 0.0) {
            return Err(AppError::Option(format!(
                "--epsilon {epsilon}: give a number of at least 0"
            )));
        }
        Ok(Tuning {
            guide,
            epsilon,
            bounded: manager::BOUNDED_WEIGHT,
            strategy: manager::FORTRESS_WEIGHT,
            strategy_win: manager::FORTRESS_WIN_WEIGHT,
        })
    }
}

impl Default for Tuning {
    fn default() -> Self {
        let d = dfpn::Options::default();
        Tuning {
            guide: d.guide,
            epsilon: d.epsilon,
            bounded: manager::BOUNDED_WEIGHT,
            strategy: manager::FORTRESS_WEIGHT,
            strategy_win: manager::FORTRESS_WIN_WEIGHT,
        }
    }
}

/// A solve to run.
#[derive(Debug, Clone)]
pub struct SolveRequest {
    /// The game.
    pub game: GameKind,
    /// Its rule set (`None`: the default).
    pub rules: Option<String>,
    /// The root position (`None`: the start).
    pub fen: Option<String>,
    /// Moves played from it first.
    pub moves: Vec<String>,
    /// The question.
    pub question: Question,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// df-pn's graph-history mode.
    pub ghi: Ghi,
    /// df-pn's remedies for loops, under- and overestimation
    /// (docs/solve.md, "df-pn's remedies"); `None`: the proof manager
    /// runs plain df-pn and both remedies in turn (`auto`, the default;
    /// docs/solve.md, "The proof manager"), or both remedies alone with
    /// a checkpoint.
    pub remedies: Option<Remedies>,
    /// Tables whose positions are leaves with their exact value.
    pub tables: Option<PathBuf>,
    /// Limits of each question asked.
    pub limits: Limits,
    /// Whether to return the proof as text (df-pn derives it again once
    /// the root is solved).
    pub proof: bool,
    /// PN²: Breuker's fraction `(a, b)` sizing the second-level searches
    /// (`zoo_solve::pn2::Options::fraction`; `None`: the first level's
    /// size).
    pub pn2_fraction: Option<(f64, f64)>,
    /// PNS and PN²: garbage-collect the (first-level) tree when it fills
    /// `--hash` (`zoo_solve::pns::Options::gc`, `zoo_solve::pn2::Options::gc`)
    /// instead of stopping.
    pub gc: bool,
    /// Where to keep the run's checkpoint (df-pn's table, PNS's or PN²'s
    /// tree), and go on from it when it is there (docs/solve.md, "Long
    /// runs").
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is written (also when the run stops).
    pub checkpoint_every: Duration,
    /// df-pn's threads, searching together on one table (docs/solve.md,
    /// "Parallel df-pn"); 1: one.
    pub threads: usize,
    /// The proof manager's workers: threads among which a question's
    /// searches (each df-pn setting, each ply-bounded search, the strategy
    /// search) are split, all running at once ([`default_workers`] where
    /// the front end is not told; docs/solve.md, "The manager's workers").
    pub workers: usize,
    /// Proof search only: the proof manager builds neither the root's
    /// reachable graph nor its material's table in memory (`zoo solve
    /// --search-only`), as for the positions of the start's materials,
    /// which no machine here can build (issue #52).
    pub search_only: bool,
    /// df-pn's tuning: df-pn+'s guide and the 1+ε trick's ε.
    pub tuning: Tuning,
    /// The store of proven positions to read and extend (`zoo solve
    /// --store FILE`, [`store`]): its answers decide questions asked
    /// again and are leaves of the search (not with `proof`), and every
    /// answer decided is added.
    pub store: Option<PathBuf>,
    /// Whether the answers added to the store are saved to its file or
    /// only returned (and sent as found), for a process that is not the
    /// store's one writer (a worker of a batch over MPI, [`batch`]).
    pub store_writes: store::Writes,
}

/// What a solve found.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// The root position.
    pub fen: String,
    /// The algorithm run.
    pub algorithm: Algorithm,
    /// df-pn's graph-history mode (`null` under PNS).
    pub ghi: Option<&'static str>,
    /// df-pn's remedies: `auto` (the proof manager), `none`, `tca`, `wpn`
    /// or `tca,wpn` (`null` under PNS).
    pub remedies: Option<&'static str>,
    /// The tables used as oracle, if any.
    pub tables: Option<String>,
    /// Each question asked, in order.
    pub answers: Vec<AnswerReport>,
    /// With `value`: the value for the side to move, `null` when a limit
    /// left it open; otherwise `null`.
    pub value: Option<Outcome>,
    /// With `value`: the question whose answer decided it (the last one
    /// asked; a draw needs both), `null` when open.
    pub decided_by: Option<&'static str>,
    /// Probes that found a table file damaged or unreadable, with the
    /// first reason (`null`: none). The answers stand: the search went on
    /// below those positions.
    pub tables_refused: Option<TablesRefused>,
    /// The answers this run added to the store (`store` given), saved or
    /// (with [`store::Writes::Return`]) only returned.
    #[serde(skip)]
    pub stored: Vec<store::Record>,
}

/// Table probes refused during a solve ([`SolveReport::tables_refused`]).
#[derive(Debug, Clone, Serialize)]
pub struct TablesRefused {
    /// How many probes.
    pub probes: u64,
    /// The first reason.
    pub first: String,
}

/// The proof manager's workers when none are asked for: the machine's
/// cores, less those each df-pn run's own `threads` take, at least one.
/// (A question has at most five searches to split: more find nothing to do.)
pub fn default_workers(threads: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / threads.max(1)).max(1)
}

/// Runs the request.
pub fn solve(r: &SolveRequest) -> Result<SolveReport, AppError> {
    struct Run<'a>(&'a SolveRequest);
    impl GameVisitor for Run<'_> {
        type Output = Result<SolveReport, AppError>;
        fn visit<G: AppGame>(self) -> Self::Output {
            run::<G>(self.0)
        }
    }
    if let Some((a, b)) = r.pn2_fraction {
        if r.algorithm != Algorithm::Pn2 {
            return Err(AppError::Option("a PN² fraction is for --algo pn2".into()));
        }
        if !(a.is_finite() && b.is_finite() && b > 0.0) {
            return Err(AppError::Option(format!(
                "PN² fraction {a},{b}: a finite, b finite and positive"
            )));
        }
    }
    if r.threads == 0 || r.threads > crate::options::MAX_THREADS {
        return Err(AppError::Option(format!(
            "threads {} is not between 1 and {}",
            r.threads,
            crate::options::MAX_THREADS
        )));
    }
    if r.workers == 0 || r.workers > crate::options::MAX_THREADS {
        return Err(AppError::Option(format!(
            "workers {} is not between 1 and {}",
            r.workers,
            crate::options::MAX_THREADS
        )));
    }
    if r.threads > 1 && r.algorithm != Algorithm::Dfpn {
        return Err(AppError::Option(
            "more than one thread is for df-pn (--algo dfpn); PNS and PN² search on one".into(),
        ));
    }
    if r.threads > 1 && r.ghi == Ghi::Closure {
        return Err(AppError::Option(
            "--ghi closure searches on one thread (its check rewrites the table between searches); use --ghi path or another mode with --threads".into(),
        ));
    }
    if r.gc && r.algorithm == Algorithm::Dfpn {
        return Err(AppError::Option(
            "garbage collection is for PNS's and PN²'s trees (--algo pns|pn2); df-pn's table replaces its entries itself"
                .into(),
        ));
    }
    r.game.visit(Run(r))
}

fn run<G: AppGame>(r: &SolveRequest) -> Result<SolveReport, AppError> {
    let rules = rules_of::<G>(r.rules.as_deref())?;
    let mut pos: G = position_of(&rules, r.fen.as_deref())?;
    for m in &r.moves {
        let mv = pos
            .parse_move(m)
            .map_err(|why| AppError::Move { mv: m.clone(), why })?;
        pos.make(mv);
    }
    let opened = match &r.tables {
        Some(dir) => Some(G::open_tables(dir, &rules)?.ok_or_else(|| {
            AppError::Input(format!(
                "no tables of this game and rule set in {}",
                dir.display()
            ))
        })?),
        None => None,
    };
    // A checkers move limit counts plies outside the position's key and
    // FEN: the transposition table and the store would mix positions at
    // different counts.
    if pos.rules_name().contains("+draw=") {
        return Err(AppError::Option(format!(
            "the solver does not take rule sets with a move limit ({}): its count is not part \
             of a position's key",
            pos.rules_name()
        )));
    }
    if r.store.is_some() && r.checkpoint.is_some() {
        return Err(AppError::Option(
            "--store and --checkpoint do not go together: a checkpoint's tree would keep the \
             store's answers as leaves, which a proof cannot show"
                .into(),
        ));
    }
    let tables = opened.as_ref().map(|t| t.oracle.as_ref());
    let mut store = match &r.store {
        Some(path) => Some(store::ProofStore::open(
            path,
            pos.game_name(),
            pos.rules_name(),
        )?),
        None => None,
    };
    // A proof is never written through a stored answer: with one asked
    // for, the store is only added to.
    // Stored answers are leaves only where a position's value does not
    // depend on a counter its FEN and key leave out of repetition (a
    // no-capture clock): `Game::counter_free`, as for the reachable graph.
    let with_store = match (&store, r.proof) {
        (Some(s), false) if pos.counter_free() => Some(store::WithStore::new(tables, s, &rules)?),
        _ => None,
    };
    let oracle: Option<&dyn zoo_core::Oracle<G>> = match &with_store {
        Some(w) => Some(w),
        None => tables,
    };
    // The store's name of the root: its FEN without the counters its
    // value does not depend on, so an answer found for it at one ply
    // count serves at any.
    let root_fen = pos.position_fen();
    let question = checkpoint::Question {
        game: pos.game_name().to_string(),
        rules: pos.rules_name().to_string(),
        fen: pos.to_fen(),
        // Only df-pn has a graph-history mode.
        ghi: if r.algorithm == Algorithm::Dfpn {
            r.ghi.name().to_string()
        } else {
            "-".into()
        },
        tables: r.tables.is_some(),
        algo: match r.algorithm {
            Algorithm::Dfpn => "dfpn".into(),
            Algorithm::Pns => format!(
                "pns{}{}",
                if r.gc { " gc" } else { "" },
                if r.gc && r.proof { " proofs" } else { "" }
            ),
            // What changes PN²'s tree, or whether it can give a proof.
            Algorithm::Pn2 => format!(
                "pn2{}{}{}",
                r.pn2_fraction
                    .map_or(String::new(), |(a, b)| format!(" fraction {a},{b}")),
                if r.gc { " gc" } else { "" },
                if r.proof { " proofs" } else { "" }
            ),
        },
    };
    let mut loaded = match &r.checkpoint {
        Some(path) => checkpoint::load(path, &question)?,
        None => None,
    };
    // A run that would not ask the goal whose search the checkpoint holds
    // is refused: its table would be replaced. A value search asks it
    // first unless the other goal is answered there already (asking that
    // one costs nothing then, and the order stays that of the first run).
    let held_goal = loaded
        .as_ref()
        .and_then(|l| l.table.as_ref())
        .map(|t| t.goal);
    let answered_before = |g: Goal| {
        loaded
            .as_ref()
            .is_some_and(|l| l.done.iter().any(|(d, _)| *d == g))
    };
    // The other goal answered already: it is read first, and may decide
    // the value without the held search.
    let value_first = held_goal.map(|g| {
        let other = g.other();
        if answered_before(other) {
            other
        } else {
            g
        }
    });
    if let (Some(g), Some(path)) = (held_goal, &r.checkpoint) {
        // A goal answered in the checkpoint already is read, not searched:
        // asking it leaves the held search alone.
        let asked = match r.question {
            Question::Win => g == Goal::Win || answered_before(Goal::Win),
            Question::NotLose => g == Goal::NotLose || answered_before(Goal::NotLose),
            Question::Value => true,
        };
        if !asked {
            return Err(AppError::Input(format!(
                "{} holds the search of goal `{}`: ask --goal {} (or value) to go on with it, \
                 or give another --checkpoint",
                path.display(),
                g.name(),
                g.name()
            )));
        }
    }
    let managed = r.algorithm == Algorithm::Dfpn && r.remedies.is_none() && r.checkpoint.is_none();
    let limits = bounded_by_machine(r.limits, r.algorithm, managed);
    let mut failed: Option<AppError> = None;
    let mut answers: Vec<AnswerReport> = Vec::new();
    let mut stored: Vec<store::Record> = Vec::new();
    // With a checkpoint, a question stopped by a limit ends the run: the
    // next question would write its own table over the stopped one's.
    let mut held = false;
    // The root's reachable graph or its material's table, built once for
    // both questions.
    let mut graph = manager::GraphSlot::with_builder(if r.search_only {
        None
    } else {
        opened.as_ref().and_then(|t| t.builder.as_deref())
    });
    // Whether the last answer was a side's win found (ply-bounded or by
    // the strategy search: its keeper lost), which settles both
    // questions: a first question left open is asked again for it.
    let settles_both = std::cell::Cell::new(false);
    let mut ask = |goal: Goal| -> Answer {
        settles_both.set(false);
        // An answer the checkpoint already holds is not sought again (read
        // even after a held question: it costs nothing).
        if let Some(l) = loaded.as_mut() {
            if let Some(i) = l.done.iter().position(|(g, _)| *g == goal) {
                let (_, a) = l.done.remove(i);
                let answer = [Answer::Proven, Answer::Disproven, Answer::Unknown]
                    .into_iter()
                    .find(|x| x.name() == a.answer)
                    .unwrap_or(Answer::Unknown);
                answers.push(a);
                return answer;
            }
        }
        if held {
            return Answer::Unknown;
        }
        if let Some(answer) = store
            .as_ref()
            .filter(|_| !r.proof)
            .and_then(|s| s.answer(&root_fen, goal))
        {
            answers.push(AnswerReport::from_store(goal, answer));
            return answer;
        }
        let dfpn_opts = dfpn::Options {
            ghi: r.ghi,
            // A checkpoint keeps one table a question: the remedies alone
            // decide the most of the two settings (docs/solve.md).
            remedies: r.remedies.unwrap_or(Remedies::ALL),
            proof: r.proof,
            threads: r.threads,
            guide: r.tuning.guide,
            epsilon: r.tuning.epsilon,
            ..dfpn::Options::default()
        };
        let pns_opts = pns::Options {
            gc: r.gc,
            proofs: r.proof,
        };
        let pn2_opts = zoo_solve::pn2::Options {
            fraction: r.pn2_fraction,
            proofs: r.proof,
            gc: r.gc,
        };
        // The proof manager: the reachable graph where it fits (in
        // `--hash` when given, else `GRAPH_MB`, within the share of memory
        // a table may take), else the mode asked, with and without the
        // remedies.
        let plan = manager::Plan {
            // 0: neither the graph nor the material's table.
            graph_mb: if r.search_only {
                0
            } else {
                r.limits
                    .memory_mb
                    .unwrap_or(manager::GRAPH_MB)
                    .min(crate::options::max_hash_mb() as u64)
            },
            // Tables sized by the limits: plain df-pn's stays small.
            plain_mb: r.limits.memory_mb.is_none().then_some(manager::TABLE_MB),
            bounded: r.tuning.bounded,
            fortress: r.tuning.strategy,
            fortress_win: r.tuning.strategy_win,
            // Sized as the tables are, by the limits and the machine.
            workers: r.workers,
            fortress_mb: r.limits.memory_mb.is_none().then(|| {
                manager::fortress_mb(
                    limits.memory_mb.unwrap_or(manager::TABLE_MB),
                    crate::options::max_hash_mb() as u64,
                )
            }),
            ..manager::Plan::default()
        };
        let mut decided_ghi: Option<Ghi> = None;
        let mut method: Option<&'static str> = None;
        let mut ply_bound: Option<u16> = None;
        let mut workers: Option<usize> = None;
        let (report, decided_with, runs) = match (r.algorithm, &r.checkpoint) {
            (Algorithm::Pns, None) => (
                pns::solve_with(&pos, goal, oracle, &limits, &pns_opts, Default::default())
                    .expect("nothing is read without a saved tree"),
                None,
                None,
            ),
            (Algorithm::Pn2, None) => (
                zoo_solve::pn2::solve_with(
                    &pos,
                    goal,
                    oracle,
                    &limits,
                    &pn2_opts,
                    Default::default(),
                )
                .expect("nothing is read without a saved tree"),
                None,
                None,
            ),
            (Algorithm::Pns | Algorithm::Pn2, Some(path)) => {
                let mut from = loaded
                    .as_mut()
                    .and_then(|l| l.table.take())
                    .filter(|t| t.goal == goal);
                if from.as_ref().is_some_and(|t| !t.tree) {
                    failed = Some(AppError::Input(format!(
                        "{} holds a df-pn table, not a tree",
                        path.display()
                    )));
                    return Answer::Unknown;
                }
                let done_before = kept(&answers, loaded.as_ref());
                let mut save_error = None;
                let mut saver = |view: &zoo_solve::tree_file::TreeView<'_>| {
                    checkpoint::save(
                        path,
                        &question,
                        &done_before,
                        checkpoint::Body::Tree(goal, view),
                    )
                    .inspect_err(|e| {
                        save_error = Some(e.to_string());
                    })
                };
                let resume = zoo_solve::tree_file::Resume {
                    from: from
                        .as_mut()
                        .map(|t| &mut t.reader as &mut dyn std::io::Read),
                    save: Some((&mut saver, r.checkpoint_every)),
                };
                let result = if r.algorithm == Algorithm::Pns {
                    pns::solve_with(&pos, goal, oracle, &limits, &pns_opts, resume)
                } else {
                    zoo_solve::pn2::solve_with(&pos, goal, oracle, &limits, &pn2_opts, resume)
                };
                let (report, error) =
                    after_checkpointed(result, save_error, path, "cannot go on from checkpoint");
                if error.is_some() {
                    failed = error;
                }
                match report {
                    Some(report) => (report, None, None),
                    None => return Answer::Unknown,
                }
            }
            (Algorithm::Dfpn, None) => {
                let result = match r.remedies {
                    Some(_) => dfpn::solve_resumable(
                        &pos,
                        goal,
                        oracle,
                        &limits,
                        &dfpn_opts,
                        Default::default(),
                    )
                    .map(|report| (report, Some(dfpn_opts.remedies), None)),
                    None => manager::solve_goal_sharing(
                        &pos, goal, oracle, &limits, &dfpn_opts, &plan, &mut graph,
                    )
                    .map(|m| {
                        decided_ghi = m.decided_ghi;
                        method = Some(m.method.name());
                        workers = Some(plan.workers);
                        ply_bound = m.bound;
                        let searched = m.method == manager::Method::Dfpn;
                        (m.report, m.decided_by, searched.then_some(m.runs))
                    }),
                };
                match result {
                    Ok(got) => got,
                    Err(e) => {
                        failed = Some(AppError::Input(e.to_string()));
                        return Answer::Unknown;
                    }
                }
            }
            (Algorithm::Dfpn, Some(path)) => {
                let mut from = loaded
                    .as_mut()
                    .and_then(|l| l.table.take())
                    .filter(|t| t.goal == goal);
                if from.as_ref().is_some_and(|t| t.tree) {
                    failed = Some(AppError::Input(format!(
                        "{} holds a tree, not a df-pn table",
                        path.display()
                    )));
                    return Answer::Unknown;
                }
                let done_before = kept(&answers, loaded.as_ref());
                let mut save_error = None;
                let mut saver = |view: &dfpn::TableView<'_>| {
                    checkpoint::save(
                        path,
                        &question,
                        &done_before,
                        checkpoint::Body::Table(goal, view),
                    )
                    .inspect_err(|e| {
                        save_error = Some(e.to_string());
                    })
                };
                let calls = from.as_ref().map_or(0, |t| t.calls);
                let resume = dfpn::Resume {
                    from: from
                        .as_mut()
                        .map(|t| (&mut t.reader as &mut dyn std::io::Read, t.entries)),
                    calls,
                    save: Some((&mut saver, r.checkpoint_every)),
                };
                let result = dfpn::solve_resumable(&pos, goal, oracle, &limits, &dfpn_opts, resume);
                let (report, error) = after_checkpointed(
                    result,
                    save_error,
                    path,
                    "cannot read the table of checkpoint",
                );
                if error.is_some() {
                    failed = error;
                }
                match report {
                    Some(report) => (report, Some(dfpn_opts.remedies), None),
                    None => return Answer::Unknown,
                }
            }
        };
        let finite = |n: u32| (n != zoo_solve::limits::INF).then_some(n);
        settles_both.set(report.answer != Answer::Unknown && graph.settles_both());
        answers.push(AnswerReport {
            goal: goal.name(),
            answer: report.answer.name(),
            pn: finite(report.pn),
            dn: finite(report.dn),
            nodes: report.nodes,
            expansions: report.expansions,
            bytes: report.bytes,
            seconds: report.seconds,
            remedies: decided_with
                .filter(|_| report.answer != Answer::Unknown)
                .map(Remedies::name),
            ghi: decided_ghi
                .filter(|_| report.answer != Answer::Unknown)
                .map(Ghi::name),
            method,
            runs,
            workers,
            ply_bound: ply_bound.filter(|_| report.answer != Answer::Unknown),
            derivation: report.derivation,
            proof: if r.proof {
                report.proof.as_ref().map(|p| p.to_text(&pos))
            } else {
                None
            },
            samples: report.samples.clone(),
        });
        // `--ghi naive` is unsound (experiments only): its answers are not kept.
        if let Some(s) = store.as_mut().filter(|_| r.ghi != Ghi::Naive) {
            let record = store::Record {
                fen: root_fen.clone(),
                goal: goal.name().into(),
                answer: report.answer.name().into(),
                proof_nodes: report.proof.as_ref().map(|p| p.len() as u64),
                nodes: report.nodes,
                seconds: report.seconds,
                method: method.unwrap_or(r.algorithm.name()).into(),
                oracle_pieces: tables.map_or(0, |t| t.max_pieces()),
            };
            let decided = report.answer != Answer::Unknown;
            let added = s.add(record.clone());
            // Kept at once: a kill before the next question loses nothing.
            let saved = added.and_then(|()| match &r.store_writes {
                store::Writes::Save => s.save(),
                store::Writes::Return(to) => {
                    if let (Some(to), true) = (to, decided) {
                        // The receiver gone (its batch ended) only means
                        // nobody wants the answer any more.
                        let _ = to.send(store::Added {
                            game: pos.game_name().into(),
                            rules: pos.rules_name().into(),
                            record: record.clone(),
                        });
                    }
                    Ok(())
                }
            });
            if decided {
                stored.push(record);
            }
            if let Err(e) = saved {
                failed = Some(e);
            }
        }
        held = r.checkpoint.is_some() && report.answer == Answer::Unknown;
        // A question answered is kept at once: a kill before the next
        // one's first save loses nothing.
        if let (Some(path), true) = (&r.checkpoint, report.answer != Answer::Unknown) {
            let done = kept(&answers, loaded.as_ref());
            if let Err(e) = checkpoint::save(path, &question, &done, checkpoint::Body::None) {
                failed = Some(AppError::Path(format!(
                    "cannot write checkpoint {}: {e}",
                    path.display()
                )));
            }
        }
        report.answer
    };
    let mut decided_by = None;
    let value = match r.question {
        Question::Win => {
            ask(Goal::Win);
            None
        }
        Question::NotLose => {
            ask(Goal::NotLose);
            None
        }
        Question::Value => {
            // The proof manager asks first the question the engine's score
            // suggests decides alone.
            let first = match value_first {
                Some(g) => g,
                None if managed => likely_question(&pos, opened.as_ref()),
                None => Goal::Win,
            };
            let (value, asked) = solve_value_sharing(first, &mut ask, || settles_both.get());
            decided_by = value.and_then(|_| asked.last()).map(|(g, _)| g.name());
            value
        }
    };
    if let Some(e) = failed {
        return Err(e);
    }
    let tables_refused = opened
        .as_ref()
        .and_then(|t| t.oracle.refused())
        .map(|(probes, first)| TablesRefused { probes, first });
    Ok(SolveReport {
        game: pos.game_name(),
        rules: pos.rules_name(),
        fen: pos.to_fen(),
        algorithm: r.algorithm,
        ghi: (r.algorithm == Algorithm::Dfpn).then(|| r.ghi.name()),
        remedies: (r.algorithm == Algorithm::Dfpn).then(|| match (r.remedies, &r.checkpoint) {
            (Some(x), _) => x.name(),
            (None, Some(_)) => Remedies::ALL.name(),
            (None, None) => "auto",
        }),
        tables: opened.map(|t| t.description),
        answers,
        value,
        decided_by,
        tables_refused,
        stored,
    })
}

/// The answers a checkpoint keeps: this run's, and those it read and
/// has not asked (a run of one goal keeps the other's answer).
fn kept(answers: &[AnswerReport], loaded: Option<&checkpoint::Loaded>) -> Vec<AnswerReport> {
    let mut all = answers.to_vec();
    if let Some(l) = loaded {
        all.extend(l.done.iter().map(|(_, a)| a.clone()));
    }
    all
}

/// The question a value search asks first: `not-lose` where a short
/// engine search (depth 6, one thread: the same order every run) scores
/// the position below zero for the side to move, else `win`.
pub fn likely_question<G: AppGame>(pos: &G, tables: Option<&crate::OpenedTables<G>>) -> Goal {
    use zoo_search::{Config, Engine, EngineGame};
    let hist =
        zoo_core::History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
    let cfg = Config {
        hash_mb: 4,
        threads: 1,
        ..Config::default()
    };
    let Ok(mut engine) = Engine::try_new(
        cfg,
        G::hand_written_eval(),
        <G as EngineGame>::Tactics::default(),
    ) else {
        return Goal::Win;
    };
    engine.set_oracle(tables.map(|t| t.oracle.clone()));
    let found = engine.search(pos, &hist, &zoo_search::Limits::depth(6), &mut |_| {});
    if found.score < 0 {
        Goal::NotLose
    } else {
        Goal::Win
    }
}

/// What `zoo solve --check` found.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// The game of the proof.
    pub game: String,
    /// Its rule set.
    pub rules: String,
    /// Its root.
    pub fen: String,
    /// `win` or `not-lose`.
    pub goal: &'static str,
    /// `proven` or `disproven`.
    pub answer: &'static str,
    /// Nodes checked.
    pub nodes: usize,
    /// Leaves among them.
    pub leaves: usize,
    /// Leaves checked against the tables.
    pub table_leaves: usize,
}

/// Re-checks the proof file `text` with the independent checker
/// (`zoo-proofcheck`), probing the tables in `tables` for its table
/// leaves. The error names the line of the file at fault.
pub fn check_proof(text: &str, tables: Option<&std::path::Path>) -> Result<CheckReport, AppError> {
    struct Check<'a>(&'a str, Option<&'a std::path::Path>, String);
    impl GameVisitor for Check<'_> {
        type Output = Result<CheckReport, AppError>;
        fn visit<G: AppGame>(self) -> Self::Output {
            let rules = rules_of::<G>(Some(&self.2))
                .map_err(|e| AppError::Input(format!("proof refused: line 3: {e}")))?;
            let opened = match self.1 {
                // Tables given but none of this game: say so, rather than
                // ask for tables at the first table leaf.
                Some(dir) => Some(
                    G::open_tables(dir, &rules)?
                        .ok_or_else(|| no_tables_of(G::KIND, &self.2, dir))?,
                ),
                None => None,
            };
            let probe = opened.as_ref().map(|t| {
                let oracle = t.oracle.clone();
                // Only the value is checked: WDL-only files will do.
                move |p: &G| {
                    oracle.probe(p).map(|v| v.outcome).ok_or_else(|| {
                        oracle
                            .why_unknown(p)
                            .unwrap_or_else(|| "the tables do not cover this position".into())
                    })
                }
            });
            let probe_ref: Option<zoo_proofcheck::Probe<'_, G>> =
                probe.as_ref().map(|f| f as zoo_proofcheck::Probe<'_, G>);
            let c = zoo_proofcheck::check::<G>(self.0, &rules, probe_ref)
                .map_err(|e| AppError::Input(format!("proof refused: {e}")))?;
            Ok(CheckReport {
                game: c.header.game,
                rules: c.header.rules,
                fen: c.header.fen,
                goal: match c.header.goal {
                    zoo_proofcheck::Goal::Win => "win",
                    zoo_proofcheck::Goal::NotLose => "not-lose",
                },
                answer: if c.header.proven {
                    "proven"
                } else {
                    "disproven"
                },
                nodes: c.nodes,
                leaves: c.leaves,
                table_leaves: c.table_leaves,
            })
        }
    }
    let h =
        zoo_proofcheck::header(text).map_err(|e| AppError::Input(format!("proof refused: {e}")))?;
    let game: GameKind = h
        .game
        .parse()
        .map_err(|e| AppError::Input(format!("proof refused: line 2: {e}")))?;
    game.visit(Check(text, tables, h.rules))
}

/// The error for a tables directory `dir` that holds no tables of `game`
/// under `rules`, naming the game whose tables it holds, if any.
fn no_tables_of(game: GameKind, rules: &str, dir: &std::path::Path) -> AppError {
    let other = GameKind::ALL
        .iter()
        .copied()
        .filter(|&g| g != game)
        .find(|&g| has_tables(g, None, dir).unwrap_or(false));
    AppError::Input(match other {
        Some(g) => format!(
            "the tables in {} are of {}, not {} {rules}: give the {} tables",
            dir.display(),
            g.name(),
            game.name(),
            game.name()
        ),
        None => format!("{} holds no {} {rules} tables", dir.display(), game.name()),
    })
}

/// `limits` with a memory bound: PNS's and PN²'s trees grow until solved,
/// so without `--hash` they get the share of the memory this process may
/// use that `--hash` may have at most ([`crate::options::max_hash_mb`]),
/// and stop there with "unknown" instead of exhausting the machine.
/// df-pn's table is allocated whole at the start: the manager's tables are
/// sized to what the limits let them fill ([`manager::table_mb`]), a
/// single run's small default stays, within the same share.
fn bounded_by_machine(mut limits: Limits, algorithm: Algorithm, managed: bool) -> Limits {
    if limits.memory_mb.is_none() {
        let share = crate::options::max_hash_mb() as u64;
        limits.memory_mb = Some(match algorithm {
            Algorithm::Pns | Algorithm::Pn2 => share,
            // Two settings' tables at once.
            Algorithm::Dfpn if managed => manager::table_mb(&limits).min(share / 2),
            Algorithm::Dfpn => dfpn::Options::default().default_table_mb.min(share),
        });
    }
    limits
}

/// The limits of a solve from its options: `time` in seconds.
pub fn limits(
    nodes: Option<u64>,
    time: Option<f64>,
    hash_mb: Option<u64>,
) -> Result<Limits, AppError> {
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(AppError::Option(format!(
                "time {t}: a positive number of seconds"
            )))
        }
        Some(t) => Some(Duration::from_secs_f64(t.min(1e9))),
        None => None,
    };
    let max = crate::options::max_hash_mb() as u64;
    if let Some(mb) = hash_mb.filter(|&mb| mb > max || mb == 0) {
        return Err(AppError::Option(format!(
            "hash {mb} MiB is not between 1 and {max} MiB (half the memory this process may use: free memory, cgroup and ulimit)"
        )));
    }
    Ok(Limits {
        nodes,
        memory_mb: hash_mb,
        time,
        ..Limits::default()
    })
}

/// Whether `dir` holds tables of `game` under `rules` (`None`: the
/// default) that a solve can take as its oracle ([`SolveRequest::tables`]);
/// `false` for a game that has no tables.
pub fn has_tables(
    game: GameKind,
    rules: Option<&str>,
    dir: &std::path::Path,
) -> Result<bool, AppError> {
    struct Has<'a>(Option<&'a str>, &'a std::path::Path);
    impl GameVisitor for Has<'_> {
        type Output = Result<bool, AppError>;
        fn visit<G: AppGame>(self) -> Self::Output {
            let rules = rules_of::<G>(self.0)?;
            match G::open_tables(self.1, &rules) {
                Ok(t) => Ok(t.is_some()),
                Err(AppError::NoTables(_)) => Ok(false),
                Err(e) => Err(e),
            }
        }
    }
    game.visit(Has(rules, dir))
}

/// What a run with a checkpoint left: its report and the error to tell
/// after it (the checkpoint could not be written), or no report and the
/// error that stopped it (the checkpoint could not be read: `what`).
fn after_checkpointed<M, E: std::fmt::Display>(
    result: Result<zoo_solve::Report<M>, E>,
    save_error: Option<String>,
    path: &std::path::Path,
    what: &str,
) -> (Option<zoo_solve::Report<M>>, Option<AppError>) {
    match result {
        Ok(report) => (
            Some(report),
            save_error.map(|e| {
                AppError::Path(format!("cannot write checkpoint {}: {e}", path.display()))
            }),
        ),
        Err(e) => (
            None,
            Some(AppError::Input(format!("{what} {}: {e}", path.display()))),
        ),
    }
}
