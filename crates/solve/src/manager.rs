//! A proof manager for df-pn: one question run under several settings in
//! turn, in rounds of growing budgets, each setting going on where its
//! round before stopped. (A value's two questions, in the order a
//! caller's guess suggests: [`crate::value::solve_value_from`].)
//!
//! Why (docs/solve.md, "The proof manager"): no single df-pn setting
//! decides every small endgame fast. Plain df-pn ([`Remedies::NONE`])
//! is quickest on most positions and derives proofs cheaply, but on some
//! losses its disproof number is overestimated through transpositions
//! and never reaches zero; with the remedies ([`Remedies::ALL`]) those
//! are decided in a few hundred thousand calls, while some wins cost
//! several times more and their proofs may not derive. Running both, a
//! doubling budget each, costs at most a small multiple of the better
//! one on every position, and a setting whose decided answer gave no
//! proof leaves the question to the others.
//!
//! Beside them, in every round, two ply-bounded searches
//! ([`crate::bounded`]), one for each side's win: they decide the long
//! wins and losses two pieces past the tables that df-pn keyed by the
//! position leaves open, and are kept for the value's second question.
//!
//! The plan may also name several graph-history modes, each run with
//! every setting (by default the caller's alone). Where df-pn's quick
//! runs leave a question open and the root's material fits
//! [`Plan::graph_mb`], the root's reachable graph ([`crate::graph`])
//! decides it instead; where the graph does not fit but the root is one
//! piece past the tables, its material's table built in memory
//! ([`crate::material`]) does. Either is built once for both questions
//! of a value ([`solve_goal_sharing`]).
//!
//! On a machine with several cores the question's searches are split
//! among [`Plan::workers`] threads, each running its own searches' rounds
//! at once with the others; the first to decide stops the rest (the
//! rounds, with and without workers, are in `manager/rounds.rs`).
//!
//! Soundness is the modes' own: every run is a df-pn run under one sound
//! graph-history mode, stopped and continued at the root (or one of the
//! ply-bounded and strategy searches, sound by their own modules' docs);
//! the workers share no table, only the question's limits and the stop.
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
//! use zoo_core::Game;
//! use zoo_solve::manager::{solve_goal, Plan};
//! use zoo_solve::{dfpn, Answer, Goal, Limits};
//!
//! // White's rat is next to Black's den: it walks in.
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
//! let opts = dfpn::Options { proof: true, ..dfpn::Options::default() };
//! let m = solve_goal(&pos, Goal::Win, None, &Limits::nodes(10_000), &opts, &Plan::default()).unwrap();
//! assert_eq!(m.report.answer, Answer::Proven);
//! assert!(m.report.proof.is_some());
//! assert_eq!(m.decided_by, Some(dfpn::Remedies::NONE));
//! ```

use crate::dfpn::{Ghi, Options, Remedies};

mod rounds;
use crate::graph::{Graph, BYTES_PER_POSITION};
use crate::limits::{Limits, Report};
use crate::material::Table;
use crate::value::{Answer, Goal};
use std::io;
use std::time::Instant;
use zoo_core::{Game, MaterialBuilder, Oracle};

/// The table of each of the manager's settings, in MB, when the caller
/// does not size it: on the 4-piece Jungle Checkers positions of the
/// longest lines (65 plies) the remedies decide with 64 MB or more and
/// not with 16 (docs/log/solve.md), and a question holds one table per
/// setting.
pub const TABLE_MB: u64 = 128;

/// The most [`table_mb`] gives each setting's table, in MB.
pub const TABLE_MB_MAX: u64 = 2048;

/// MID calls a second one df-pn run makes on the small endgames of the
/// animal games (about 4·10⁵ to 6·10⁵ on this project's machines,
/// docs/solve.md): what [`table_mb`] expects of a time limit.
const CALLS_PER_SECOND: u64 = 500_000;

/// Bytes of table per MID call a run may make: one entry (about 60 bytes
/// with the chain and TCA's depth), for half the calls (two settings
/// share a question).
const BYTES_PER_CALL: u64 = 32;

/// Each setting's table, in MB, when the caller does not size it: what
/// the question's limits let it fill, from [`TABLE_MB`] up to
/// [`TABLE_MB_MAX`] (no limit: the most). A long question's proof
/// outgrows a small table: on the 65-ply wins of 4-piece Jungle Checkers
/// with the 2-piece tables, 60 s a question, 1 GB each took 44·10⁶ calls
/// where 128 MB took 77·10⁶ (docs/solve.md, "Two pieces past the
/// tables"). The memory is zeroed and mapped page by page as the search
/// writes it, so a question decided quickly holds little of it.
pub fn table_mb(limits: &Limits) -> u64 {
    let by_time = limits
        .time
        .map(|t| (t.as_secs_f64() * CALLS_PER_SECOND as f64) as u64);
    let calls = match (limits.nodes, by_time) {
        (Some(n), Some(t)) => n.min(t),
        (Some(n), None) => n,
        (None, Some(t)) => t,
        (None, None) => u64::MAX,
    };
    (calls.saturating_mul(BYTES_PER_CALL) >> 20).clamp(TABLE_MB, TABLE_MB_MAX)
}

/// The memory, in MB, the manager lets the reachable graph take
/// ([`Plan::graph_mb`]): about 44 million positions, more than the
/// 4-piece materials of both animal games hold (docs/solve.md, "The
/// reachable graph").
pub const GRAPH_MB: u64 = 4096;

/// The remedies' share of a round against plain df-pn's 1 (the default
/// [`Plan::weights`]). On the longest lines two pieces past the tables
/// the remedies decide in about half the calls plain df-pn would need,
/// and plain df-pn does not decide them in the time (docs/solve.md, "Two
/// pieces past the tables"); the positions plain df-pn decides faster are
/// mostly decided in the first rounds, where the budgets are small.
pub const REMEDIES_WEIGHT: u64 = 3;

/// Each ply-bounded search's share of a round against plain df-pn's 1
/// (the default [`Plan::bounded`]; there are two, one a side). Two
/// pieces past the tables it proves the long wins that the
/// position-keyed runs leave open (docs/solve.md, "Ply-bounded df-pn").
pub const BOUNDED_WEIGHT: u64 = 3;

/// The strategy search's share of a round against plain df-pn's 1 (the
/// default [`Plan::fortress`]; its calls are positions expanded, each
/// dearer than a MID call). It proves the draws df-pn leaves open two
/// pieces past the tables (docs/solve.md, "The strategy search"). A
/// large share costs little more than a small one where it fails: its
/// memory ([`Plan::fortress_mb`]) ends it after the seconds it takes to
/// fill, and its share goes back to the others.
pub const FORTRESS_WEIGHT: u64 = 8;

/// The strategy search's share of a round of a `win` question, where
/// the other side is the keeper (the default [`Plan::fortress_win`]).
/// A draw's `win` df-pn mostly disproves in Jungle Checkers, but not in
/// Jungle, where the 4-piece draws' `win` stayed open; there it decides
/// one, and the Jungle Checkers samples lose nothing by it
/// (docs/solve.md, "The strategy search").
pub const FORTRESS_WIN_WEIGHT: u64 = 8;

/// The strategy search's memory, in tables of a setting ([`table_mb`]),
/// where the caller sizes it by the limits ([`fortress_mb`]).
pub const FORTRESS_TABLES: u64 = 3;

/// The strategy search's memory in MB ([`Plan::fortress_mb`]) where the
/// limits sized a setting's table at `table_mb`: [`FORTRESS_TABLES`]
/// tables, within `share_mb` (what the process may give its tables) less
/// the remedies' table, at least a table of [`TABLE_MB`] where that
/// leaves less.
pub fn fortress_mb(table_mb: u64, share_mb: u64) -> u64 {
    (table_mb * FORTRESS_TABLES)
        .min(share_mb.saturating_sub(table_mb))
        .max(table_mb.min(TABLE_MB))
}

/// A run's graph-history mode and remedies.
type Setting = (Ghi, Remedies);

/// How the manager spends a question's budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The graph-history modes run in turn within each round, each with
    /// every setting of `settings`; empty: the caller's own.
    pub ghis: Vec<Ghi>,
    /// The settings run in turn within each round.
    pub settings: Vec<Remedies>,
    /// Each setting's share of a round: its calls are the round's budget
    /// times its weight (one weight a setting, in order; missing: 1).
    pub weights: Vec<u64>,
    /// Plain df-pn's table at most this many MB (`None`: as the limits
    /// say). Callers that size the tables by the limits ([`table_mb`])
    /// keep plain df-pn's at [`TABLE_MB`]: a larger one made it lose its
    /// way on a 5-piece win it proves in 0.68·10⁶ calls with 128 MB (open
    /// after 16·10⁶ with 496 MB; docs/log/solve.md), while the remedies
    /// gain from theirs.
    pub plain_mb: Option<u64>,
    /// MID calls of each setting's first round.
    pub first_round: u64,
    /// Each round's budget is the last one's times this (at least 2).
    pub growth: u64,
    /// Before df-pn, value the root's whole reachable graph backwards
    /// ([`crate::graph`]) when it fits in this many MB; 0: never.
    pub graph_mb: u64,
    /// The ply-bounded df-pn's share of each round ([`crate::bounded`]:
    /// it proves wins, a `win` proven or a `not-lose` disproven); 0: not
    /// run.
    pub bounded: u64,
    /// The strategy search's share of each round of a `not-lose`
    /// question ([`crate::fortress`]: whether the root's side keeps from
    /// losing); 0: not run.
    pub fortress: u64,
    /// Its share of each round of a `win` question, the other side the
    /// keeper (its not losing disproves `win`); 0: not run.
    pub fortress_win: u64,
    /// The strategy search's memory in MB (`None`: as much as one
    /// setting's table, the limits' `memory_mb`). Callers that size the
    /// tables by the limits give it [`fortress_mb`]: its proofs of the
    /// 5-piece draws need 3–6·10⁶ positions expanded, some 1–2 GB
    /// (docs/solve.md, "The strategy search").
    pub fortress_mb: Option<u64>,
    /// Threads the question's units (each df-pn setting, each ply-bounded
    /// search, the strategy search) are split among, each running its
    /// units' rounds at once with the others ([`rounds`]); 1: all on the
    /// caller's thread, one after the other.
    pub workers: usize,
}

impl Default for Plan {
    /// The caller's graph-history mode, plain df-pn then both remedies;
    /// 50,000 calls each at first, doubling: the budgets measured best on
    /// the samples of docs/solve.md, "The proof manager". (Running the
    /// closure check beside `path` was measured and is slower where it
    /// matters: docs/solve.md, "The closure check".)
    fn default() -> Self {
        Plan {
            ghis: Vec::new(),
            settings: vec![Remedies::NONE, Remedies::ALL],
            weights: vec![1, REMEDIES_WEIGHT],
            plain_mb: None,
            first_round: 50_000,
            growth: 2,
            graph_mb: GRAPH_MB,
            bounded: BOUNDED_WEIGHT,
            fortress: FORTRESS_WEIGHT,
            fortress_win: FORTRESS_WIN_WEIGHT,
            fortress_mb: None,
            workers: 1,
        }
    }
}

/// What the manager found for one question.
#[derive(Debug, Clone)]
pub struct Managed<M> {
    /// The deciding run's report (or the last run's when none decided),
    /// with `nodes`, `expansions` and `seconds` summed over every run of
    /// the question (derivations' calls are in `derivation`, summed too).
    /// `bytes` and `held` stay that run's own: the other settings' tables
    /// are freed as each finishes, and the published "bytes held" of the
    /// experiments (docs/solve.md) are the deciding table's.
    pub report: Report<M>,
    /// The setting whose run decided it.
    pub decided_by: Option<Remedies>,
    /// The graph-history mode of the run that decided it.
    pub decided_ghi: Option<Ghi>,
    /// What decided it: df-pn, or with no df-pn run the reachable graph
    /// or the material's table ([`Plan::graph_mb`]).
    pub method: Method,
    /// Runs made (settings × rounds).
    pub runs: u32,
    /// When the ply-bounded df-pn decided it: the bound of the round that
    /// found the win.
    pub bound: Option<u16>,
}

/// Solves `goal` at `root` under `plan`: each round runs every setting
/// for the round's budget of MID calls more, each setting going on from
/// where its last round stopped (its own table, kept whole: [`Run`]),
/// until one decides (and, when `opts.proof` asks for one, derives its
/// proof) or `limits` (calls of all runs together, the time, a stop
/// request) end it. An answer decided without a proof is still the
/// answer; the other settings then go on for a proof within the limits.
/// Each setting has a table of the size `limits` gives one run: the
/// question holds one per setting.
///
/// `opts.remedies` is ignored: the plan's settings replace it.
pub fn solve_goal<G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    plan: &Plan,
) -> io::Result<Managed<G::Move>> {
    solve_goal_sharing(
        root,
        goal,
        oracle,
        limits,
        opts,
        plan,
        &mut GraphSlot::default(),
    )
}

/// How a question was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// A df-pn run ([`Managed::decided_by`] says which setting).
    Dfpn,
    /// The root's reachable graph ([`crate::graph`]).
    Graph,
    /// The whole table of the root's material, built in memory
    /// ([`crate::material`]).
    Table,
    /// The strategy search ([`crate::fortress`]): proof search over the
    /// graph of one side's strategy.
    Strategy,
}

impl Method {
    /// `dfpn`, `graph`, `table` or `strategy`, as the JSON answers say it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Dfpn => "dfpn",
            Method::Graph => "graph",
            Method::Table => "table",
            Method::Strategy => "strategy",
        }
    }
}

/// The values of every position a root reaches, known at once.
enum Known<'a, G: Game> {
    Graph(Graph<'a, G>),
    Table(Table<'a, G>),
}

/// The reachable graph of a root or its material's table, kept between
/// the questions asked of it ([`solve_goal_sharing`]): not tried yet,
/// tried and given up, or valued; and the builder of material tables, if
/// the caller has one.
pub struct GraphSlot<'a, G: Game> {
    known: Option<Option<Known<'a, G>>>,
    builder: Option<&'a dyn MaterialBuilder<G>>,
    /// The ply-bounded searches for a win of the root's side to move and
    /// of the other side, once made: a win found in one question answers
    /// the other too.
    bounded: [Option<crate::bounded::Search<'a, G>>; 2],
    /// Which of them the other question showed cannot win.
    hopeless: [bool; 2],
    /// The strategy search of whether the root's side to move keeps from
    /// losing (run in the `not-lose` question): a loss it found answers
    /// the `win` question too.
    fortress: Option<crate::fortress::Search<'a, G>>,
}

impl<G: Game> Default for GraphSlot<'_, G> {
    fn default() -> Self {
        GraphSlot {
            known: None,
            builder: None,
            bounded: [None, None],
            hopeless: [false; 2],
            fortress: None,
        }
    }
}

impl<'a, G: Game> GraphSlot<'a, G> {
    /// An empty slot whose questions may build the root's material table
    /// with `builder` where the graph does not fit.
    pub fn with_builder(builder: Option<&'a dyn MaterialBuilder<G>>) -> Self {
        GraphSlot {
            known: None,
            builder,
            bounded: [None, None],
            hopeless: [false; 2],
            fortress: None,
        }
    }

    /// Whether one of the ply-bounded searches found its side's win, which
    /// answers both questions of the value (asked again, a question
    /// returns it at once).
    pub fn bounded_won(&self) -> bool {
        self.bounded.iter().flatten().any(|b| b.won().is_some())
    }

    /// Whether a search found what answers both questions of the value:
    /// a side's win, by the ply-bounded search or by the strategy search
    /// (its keeper lost).
    pub fn settles_both(&self) -> bool {
        self.bounded_won()
            || self
                .fortress
                .as_ref()
                .is_some_and(|f| f.result() == Some(false))
    }
}

/// Entries of a material table a quick df-pn call stands for: df-pn goes
/// first for the table's entries over this in calls, a second or two
/// where the build takes tens (the 5-piece Jungle Checkers materials:
/// 2·10⁸ entries, 8·10⁵ calls, a build of about 23 s on 2 threads).
const TABLE_SHARE: u64 = 256;

/// [`solve_goal`], with the root's reachable graph (or its material's
/// table) kept in `graph` for the next question of the same root (a
/// value's two questions build it once).
pub fn solve_goal_sharing<'a, G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    plan: &Plan,
    graph: &mut GraphSlot<'a, G>,
) -> io::Result<Managed<G::Move>> {
    let m = solve_goal_once(root, goal, oracle, limits, opts, plan, graph)?;
    // A side shown not to win needs no more search for its win in the
    // value's other question: `win` disproven rules out the root's side,
    // `not-lose` proven the other.
    let hopeless = match (goal, m.report.answer) {
        (Goal::Win, Answer::Disproven) => Some(0),
        (Goal::NotLose, Answer::Proven) => Some(1),
        _ => None,
    };
    // Only a loss found answers the value's other question: any other
    // strategy search lets its memory go.
    if graph
        .fortress
        .as_ref()
        .is_some_and(|f| f.result() != Some(false))
    {
        graph.fortress = None;
    }
    if let Some(side) = hopeless {
        graph.bounded[side] = None;
        graph.hopeless[side] = true;
    }
    Ok(m)
}

/// [`solve_goal_sharing`]'s one question.
fn solve_goal_once<'a, G: Game>(
    root: &G,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: &Limits,
    opts: &Options,
    plan: &Plan,
    graph: &mut GraphSlot<'a, G>,
) -> io::Result<Managed<G::Move>> {
    let start = Instant::now();
    // The whole graph where it fits: a few seconds where df-pn may need
    // minutes, and right whatever repetitions the lines hold. Most
    // questions df-pn decides in far less, so it goes first, with about
    // what the graph would cost: an eighth of the material's places in
    // calls (the graph lists about 1.5·10⁶ positions a second, df-pn
    // makes about 10⁶ calls), at least its first round; its tables are
    // then thrown away. Where the graph does not fit but the caller can
    // build the root's material table from the oracle's (one piece past
    // them), that table plays the graph's part, after df-pn has had
    // `1/TABLE_SHARE` of its entries in calls. Otherwise (or where the
    // game's play depends on move counters) df-pn goes on with what is
    // left. The graph has at most half the time left, the table three
    // quarters (its build is the only way to a long line's answer).
    let mut limits = *limits;
    if plan.graph_mb > 0 {
        let budget = plan.graph_mb << 20;
        let places = root.material_positions();
        let fits = crate::graph::fits(root, budget);
        let table = match (fits, graph.builder) {
            // Its entries count against `--nodes` as the graph's positions do.
            (false, Some(b)) if root.counter_free() => b
                .cost(root)
                .filter(|c| c.bytes <= budget && limits.nodes.is_none_or(|n| c.entries <= n)),
            _ => None,
        };
        if graph.known.is_none() && (fits || table.is_some()) {
            let quick_calls = match table {
                Some(c) => c.entries / TABLE_SHARE,
                None => places.unwrap_or(0) / 8,
            };
            let quick = Limits {
                nodes: Some(
                    plan.first_round
                        .max(quick_calls)
                        .min(limits.nodes.unwrap_or(u64::MAX)),
                ),
                ..limits
            };
            let alone = Plan {
                graph_mb: 0,
                ..plan.clone()
            };
            let m = solve_goal_once(root, goal, oracle, &quick, opts, &alone, graph)?;
            if m.report.answer != Answer::Unknown && (!opts.proof || m.report.proof.is_some()) {
                return Ok(m);
            }
            // What the quick runs spent counts against the question.
            limits.nodes = limits.nodes.map(|n| n.saturating_sub(m.report.nodes));
        }
        let built_before = graph.known.is_some();
        let builder = graph.builder;
        let tried = graph.known.get_or_insert_with(|| {
            let left = limits.time.map(|t| t.saturating_sub(start.elapsed()));
            if fits {
                let half = Limits {
                    time: left.map(|t| t / 2),
                    ..limits
                };
                crate::graph::solve(root, oracle, &half, budget / BYTES_PER_POSITION)
                    .ok()
                    .map(Known::Graph)
            } else if let (Some(b), Some(_)) = (builder, table) {
                let most = Limits {
                    time: left.map(|t| t * 3 / 4),
                    ..limits
                };
                crate::material::solve(root, oracle, b, &most)
                    .ok()
                    .map(Known::Table)
            } else {
                None
            }
        });
        if let Some(k) = tried {
            let (mut report, method) = match k {
                Known::Graph(g) => (g.report(goal, opts.proof), Method::Graph),
                Known::Table(t) => (t.report(goal, opts.proof), Method::Table),
            };
            // The work goes to the question that built it.
            report.seconds = start.elapsed().as_secs_f64();
            if built_before {
                (report.nodes, report.expansions) = (0, 0);
            }
            return Ok(Managed {
                report,
                decided_by: None,
                decided_ghi: None,
                method,
                runs: 0,
                bound: None,
            });
        }
    }
    let limits = &limits;
    // A plan without settings runs the caller's own.
    let settings = match plan.settings.as_slice() {
        [] => std::slice::from_ref(&opts.remedies),
        s => s,
    };
    let ghis = match plan.ghis.as_slice() {
        [] => std::slice::from_ref(&opts.ghi),
        g => g,
    };
    // Plain df-pn of every mode first: it decides most questions. Settings
    // come first, each with every mode.
    let runs: Vec<(Setting, u64)> = settings
        .iter()
        .enumerate()
        .flat_map(|(i, &r)| {
            let weight = plan.weights.get(i).copied().unwrap_or(1).max(1);
            ghis.iter().map(move |&g| ((g, r), weight))
        })
        .collect();
    let finish = |mut r: Report<G::Move>, by: Option<Setting>, rounds, calls, derived| {
        r.nodes = calls;
        r.expansions = calls;
        r.seconds = start.elapsed().as_secs_f64();
        if let Some(d) = r.derivation.as_mut() {
            d.calls = derived;
        }
        Managed {
            report: r,
            decided_by: by.map(|b| b.1),
            decided_ghi: by.map(|b| b.0),
            method: Method::Dfpn,
            runs: rounds,
            bound: None,
        }
    };
    // The ply-bounded df-pn, one search for each side's win: the root's
    // side's proves both questions, the other side's disproves both.
    let bounded_done = graph.hopeless.map(|h| h || plan.bounded == 0);
    // A win the other question's bounded search found answers this one.
    for b in graph.bounded.iter_mut().flatten() {
        if b.won().is_some() {
            // Its proof is derived within this question's limits.
            b.restart_clock(limits);
            let r = bounded_report(b, goal, opts.proof, limits, start);
            if !opts.proof || r.proof.is_some() {
                let derived = r.derivation.map_or(0, |d| d.calls);
                let mut m = finish(r, None, 0, 0, derived);
                m.bound = Some(b.bound());
                return Ok(m);
            }
        }
    }
    // The strategy search: in `not-lose` the root's side keeps, in `win`
    // the other side, each with its own share (docs/solve.md, "The
    // strategy search").
    let fortress_share = match goal {
        Goal::Win => plan.fortress_win,
        _ => plan.fortress,
    };
    let mut fortress_done = fortress_share == 0 || !root.counter_free();
    // The first decided answer that came without a proof, kept in case no
    // other unit gives one.
    let mut unproved = None;
    // A loss the other question's strategy search found answers this one
    // (its proof written again for this goal); where the proof is too
    // large to write, the answer stands without it.
    if let Some(f) = &graph.fortress {
        if let Some(r) = f.report(goal, opts.proof) {
            if !opts.proof || r.proof.is_some() {
                let mut m = finish(r, None, 0, 0, 0);
                m.method = Method::Strategy;
                return Ok(m);
            }
            fortress_done = true;
            unproved = Some(rounds::Decided {
                report: r,
                by: None,
                method: Method::Strategy,
                bound: None,
            });
        }
    }
    let q = rounds::Question {
        root,
        goal,
        oracle,
        limits,
        opts,
        plan,
        start,
        settings: runs,
        fortress_share,
    };
    let out = rounds::run(
        &q,
        &mut graph.bounded,
        bounded_done,
        &mut graph.fortress,
        fortress_done,
        unproved,
    )?;
    let (rounds, calls, derived) = (out.rounds, out.calls, out.derived);
    if let Some(d) = out.decided.or(out.unproved) {
        let mut m = finish(d.report, d.by, rounds, calls, derived);
        m.method = d.method;
        m.bound = d.bound;
        return Ok(m);
    }
    // Nothing decided: the report of the setting that worked most (the
    // first setting's, unsearched, when the limits allowed no round).
    let last = match out.last {
        Some((_, r)) => r,
        None => rounds::new_run(&q, q.settings[0].0)?.finish(),
    };
    Ok(finish(last, None, rounds, calls, derived))
}

/// The report of a win the ply-bounded df-pn found, with its proof
/// derived when `proof` asks for one (within as many calls again as the
/// limits gave the question, and the time left).
fn bounded_report<G: Game>(
    b: &mut crate::bounded::Search<'_, G>,
    goal: Goal,
    proof: bool,
    limits: &Limits,
    start: Instant,
) -> Report<G::Move> {
    let calls = b.calls();
    let derivation = proof.then(|| {
        let began = Instant::now();
        let got = b.proof(
            goal,
            calls.saturating_add(limits.nodes.unwrap_or(u64::MAX)),
            crate::dfpn::MAX_PROOF_NODES,
        );
        let d = crate::limits::Derivation {
            calls: b.calls() - calls,
            seconds: began.elapsed().as_secs_f64(),
            failed: got.as_ref().err().copied(),
        };
        (d, got.ok())
    });
    // The root's side's win proves either question, the other's
    // disproves it.
    let (answer, pn, dn) = if b.prover_moves_first() {
        (Answer::Proven, 0, crate::INF)
    } else {
        (Answer::Disproven, crate::INF, 0)
    };
    Report {
        goal,
        answer,
        pn,
        dn,
        nodes: calls,
        expansions: calls,
        bytes: b.bytes(),
        held: b.bytes(),
        seconds: start.elapsed().as_secs_f64(),
        derivation: derivation.as_ref().map(|d| d.0),
        proof: derivation.and_then(|d| d.1),
        samples: Vec::new(),
    }
}

/// `limits` with the time left of a question started at `start`.
fn time_left(limits: &Limits, start: Instant) -> Limits {
    Limits {
        time: limits.time.map(|t| t.saturating_sub(start.elapsed())),
        ..*limits
    }
}

/// The calls a question may still make after `spent`, or `None` when
/// its calls, its time or a stop request end it.
fn calls_left(limits: &Limits, start: Instant, spent: u64) -> Option<u64> {
    let left = limits.nodes.map_or(u64::MAX, |n| n.saturating_sub(spent));
    let time_up = limits.time.is_some_and(|t| start.elapsed() >= t);
    (left > 0 && !time_up && !limits.stop.is_some_and(|s| s())).then_some(left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};

    #[test]
    fn a_plan_without_settings_runs_the_callers_own() {
        let pos =
            JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
        let plan = Plan {
            settings: Vec::new(),
            ..Plan::default()
        };
        let m = solve_goal(
            &pos,
            Goal::Win,
            None,
            &Limits::nodes(10_000),
            &Options::default(),
            &plan,
        )
        .unwrap();
        assert_eq!(m.report.answer, Answer::Proven);
        assert_eq!(m.decided_by, Some(Remedies::NONE));
    }

    #[test]
    fn tables_are_sized_to_what_the_limits_let_them_fill() {
        use std::time::Duration;
        let time = |s| Limits {
            time: Some(Duration::from_secs(s)),
            ..Limits::default()
        };
        // 60 s at 5·10⁵ calls a second, 32 bytes a call.
        assert_eq!(table_mb(&time(60)), (60 * 500_000 * 32) >> 20);
        assert_eq!(table_mb(&time(1)), TABLE_MB);
        assert_eq!(table_mb(&time(3600)), TABLE_MB_MAX);
        assert_eq!(table_mb(&Limits::default()), TABLE_MB_MAX);
        assert_eq!(
            table_mb(&Limits::nodes(20_000_000)),
            (20_000_000 * 32) >> 20
        );
        let both = Limits {
            nodes: Some(1000),
            ..time(3600)
        };
        assert_eq!(table_mb(&both), TABLE_MB);
    }

    #[test]
    fn the_guide_orders_the_search_and_keeps_the_answer() {
        // A 3-piece Jungle Checkers loss in 18 (no tables).
        let pos = JungleCheckersPos::from_fen("1e5/1d5/7/5t1/7/7/6E w", &&JUNGLE_CHECKERS_LEIDEN)
            .unwrap();
        let run = |guide| {
            let opts = Options {
                guide,
                ..Options::default()
            };
            crate::dfpn::solve(&pos, Goal::NotLose, None, &Limits::nodes(5_000_000), &opts)
        };
        let (plain, guided) = (run(0), run(25));
        assert_eq!(plain.answer, Answer::Disproven);
        assert_eq!(guided.answer, Answer::Disproven);
        assert_ne!(plain.nodes, guided.nodes, "the guide changed nothing");
    }

    /// A draw's `not-lose` that plain df-pn leaves open within its few
    /// calls, proven by the strategy search, with its proof.
    #[test]
    fn the_strategy_search_proves_a_draw_df_pn_has_not_yet() {
        // A 3-piece draw (no tables): White's tiger against rat and dog.
        let pos =
            JungleCheckersPos::from_fen("7/d6/7/7/r6/7/1T5 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
        // Plain df-pn a few calls a round, the strategy search many.
        let plan = Plan {
            graph_mb: 0,
            settings: vec![Remedies::NONE],
            weights: vec![1],
            first_round: 64,
            bounded: 0,
            fortress: 20_000,
            fortress_win: 0,
            ..Plan::default()
        };
        let opts = Options {
            proof: true,
            ..Options::default()
        };
        let mut slot = GraphSlot::default();
        let limits = Limits::nodes(5_000_000);
        let m = solve_goal_sharing(&pos, Goal::NotLose, None, &limits, &opts, &plan, &mut slot)
            .unwrap();
        assert_eq!(
            (m.report.answer, m.method),
            (Answer::Proven, Method::Strategy)
        );
        assert!(m.report.proof.is_some(), "no proof");
        assert!(
            !slot.settles_both(),
            "a draw settles one question at a time"
        );
        // Not run in the `win` question.
        let w =
            solve_goal_sharing(&pos, Goal::Win, None, &limits, &opts, &plan, &mut slot).unwrap();
        assert_ne!(w.method, Method::Strategy);
        // Given a share there, the other side keeps: `win` disproven.
        let both = Plan {
            fortress_win: 20_000,
            ..plan.clone()
        };
        let w = solve_goal_sharing(
            &pos,
            Goal::Win,
            None,
            &limits,
            &opts,
            &both,
            &mut GraphSlot::default(),
        )
        .unwrap();
        assert_eq!(
            (w.report.answer, w.method),
            (Answer::Disproven, Method::Strategy)
        );
        assert!(w.report.proof.is_some(), "no proof");
        // Without it: open after as many rounds.
        let alone = Plan {
            fortress: 0,
            ..plan.clone()
        };
        let m = solve_goal(&pos, Goal::NotLose, None, &Limits::nodes(64), &opts, &alone).unwrap();
        assert_eq!(m.report.answer, Answer::Unknown);
    }

    /// A win the bounded search found in a value's first question
    /// answers the second at once, from the same search.
    #[test]
    fn a_bounded_win_answers_both_questions() {
        // A 3-piece loss in 18 for White (no tables).
        let pos = JungleCheckersPos::from_fen("1e5/1d5/7/5t1/7/7/6E w", &&JUNGLE_CHECKERS_LEIDEN)
            .unwrap();
        let plan = Plan {
            graph_mb: 0,
            ..Plan::default()
        };
        let opts = Options {
            proof: true,
            ..Options::default()
        };
        let mut slot = GraphSlot::default();
        let limits = Limits::nodes(5_000_000);
        let first = solve_goal_sharing(&pos, Goal::NotLose, None, &limits, &opts, &plan, &mut slot)
            .unwrap();
        assert_eq!(first.report.answer, Answer::Disproven);
        assert!(first.bound.is_some(), "decided by {:?}", first.decided_by);
        assert!(first.report.proof.is_some());
        let second =
            solve_goal_sharing(&pos, Goal::Win, None, &limits, &opts, &plan, &mut slot).unwrap();
        assert_eq!(second.report.answer, Answer::Disproven);
        assert_eq!((second.runs, second.report.nodes), (0, 0));
        assert_eq!(second.bound, first.bound);
        assert!(second.report.proof.is_some());
        // Without the bounded searches: the same answer, by df-pn alone.
        let alone = Plan {
            bounded: 0,
            ..plan.clone()
        };
        let m = solve_goal(&pos, Goal::NotLose, None, &limits, &opts, &alone).unwrap();
        assert_eq!((m.report.answer, m.bound), (Answer::Disproven, None));
    }

    #[test]
    fn no_calls_left_reports_an_unsearched_question() {
        let pos =
            JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&JUNGLE_CHECKERS_LEIDEN).unwrap();
        let m = solve_goal(
            &pos,
            Goal::Win,
            None,
            &Limits::nodes(0),
            &Options::default(),
            &Plan::default(),
        )
        .unwrap();
        assert_eq!(m.report.answer, Answer::Unknown);
        assert_eq!((m.runs, m.decided_by), (0, None));
    }
}
