//! Issue 17's experiment 3: PNS against PN² against df-pn, and df-pn's
//! graph-history modes, on the same random positions of few pieces valued
//! by the tables: nodes, memory held, time and wrong answers.
//!
//! Positions are drawn as in [`crate::proving`] ([`crate::positions`]):
//! `positions` of each size whatever their value, then `draws` more that
//! the tables say are drawn (repetition decides those, where the naive
//! mode's stored draws can be wrong elsewhere). No method sees the tables:
//! play goes to the end of the game. Each method answers `--goal value`
//! ([`zoo_solve::solve_value`]: "does the side to move win", then, unless
//! proven, "does it avoid losing"), each question within the same number
//! of nodes ([`Budget`]); PN² within a time bound too, since its repeated
//! second-level searches are not bounded by the nodes it holds.
//! An answer (proven or disproven) that differs from what the table value
//! calls for ([`zoo_solve::answers_for`]) is wrong.

use crate::plot::{log_plot, log_plot_of};
use crate::positions::random_valued;
use crate::report::csv_field;
use crate::Report;
use anyhow::Result;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::time::Duration;
use zoo_core::{Game, Oracle, Outcome};
use zoo_solve::dfpn::Remedies;
use zoo_solve::manager::{solve_goal_sharing, table_mb, GraphSlot, Plan, TABLE_MB};
use zoo_solve::{answers_for, dfpn, pn2, pns, solve_value, Answer, Ghi, Goal, Limits};

/// A solver and, for df-pn, its graph-history mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Proof-number search, the tree in memory.
    Pns,
    /// PN², the second level's trees thrown away.
    Pn2,
    /// df-pn with a transposition table under a GHI mode.
    DfPn(Ghi),
    /// df-pn under a GHI mode with Kishimoto's remedies
    /// ([`dfpn::Remedies`]).
    DfPnWith(Ghi, Remedies),
    /// PN² with Breuker's fraction `(a, b)` sizing its second level
    /// ([`pn2::Options::fraction`]).
    Pn2Fraction(u32, u32),
    /// `zoo solve`'s default: df-pn's proof manager under the default GHI
    /// mode ([`by_manager`]).
    Manager,
}

/// Every method the solver has, the naive df-pn last.
pub const METHODS: [Method; 7] = [
    Method::Pns,
    Method::Pn2,
    Method::DfPn(Ghi::NoRepetitionStore),
    Method::DfPn(Ghi::LocalRepetition),
    Method::DfPn(Ghi::Path),
    Method::Manager,
    Method::DfPn(Ghi::Naive),
];

/// The remedies experiment (`--remedies`): df-pn's sound GHI modes
/// without and with Kishimoto's remedies, and each remedy alone under the
/// default mode, on the same positions.
pub const REMEDY_METHODS: [Method; 8] = [
    Method::DfPn(Ghi::NoRepetitionStore),
    Method::DfPnWith(Ghi::NoRepetitionStore, Remedies::ALL),
    Method::DfPnWith(Ghi::NoRepetitionStore, TCA),
    Method::DfPnWith(Ghi::NoRepetitionStore, WPN),
    Method::DfPn(Ghi::LocalRepetition),
    Method::DfPnWith(Ghi::LocalRepetition, Remedies::ALL),
    Method::DfPn(Ghi::Path),
    Method::DfPnWith(Ghi::Path, Remedies::ALL),
];

/// The PN² experiment (`--pn2`): PN² as it is (second level as large as
/// the first), with Breuker's fraction at three scales, and PNS, on the
/// same positions.
pub const PN2_METHODS: [Method; 5] = [
    Method::Pns,
    Method::Pn2,
    Method::Pn2Fraction(1_000, 500),
    Method::Pn2Fraction(10_000, 5_000),
    Method::Pn2Fraction(100_000, 50_000),
];

const TCA: Remedies = Remedies {
    tca: true,
    wpn: false,
};
const WPN: Remedies = Remedies {
    tca: false,
    wpn: true,
};

impl Method {
    /// Its name in the tables: `pns`, `pn2`, `dfpn <ghi mode>`,
    /// `dfpn <ghi mode> +<remedies>`, `dfpn auto` (the manager, as
    /// `--remedies auto` names it).
    pub fn name(self) -> String {
        match self {
            Method::Pns => "pns".into(),
            Method::Pn2 => "pn2".into(),
            Method::DfPn(g) => format!("dfpn {}", g.name()),
            Method::DfPnWith(g, r) => format!("dfpn {} +{}", g.name(), r.name()),
            Method::Pn2Fraction(a, b) => format!("pn2 f({a};{b})"),
            Method::Manager => "dfpn auto".into(),
        }
    }
}

/// What one method found of one position's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// The value for the side to move; `None` when a limit left it open.
    pub value: Option<Outcome>,
    /// The questions asked and their answers, in order.
    pub answers: Vec<(Goal, Answer)>,
    /// Nodes of every question (PNS: tree nodes; PN²: both levels'; df-pn:
    /// MID calls).
    pub nodes: u64,
    /// The most bytes of nodes held by one question
    /// ([`zoo_solve::Report::held`]).
    pub held: u64,
    /// Seconds of every question.
    pub seconds: f64,
}

impl Solved {
    /// The questions and answers, `win:disproven not-lose:proven`.
    pub fn answers_text(&self) -> String {
        let parts: Vec<String> = self
            .answers
            .iter()
            .map(|(g, a)| format!("{}:{}", g.name(), a.name()))
            .collect();
        parts.join(" ")
    }

    /// Whether an answer given contradicts `truth` (the table's value).
    pub fn wrong(&self, truth: Outcome) -> bool {
        let (win, not_lose) = answers_for(truth);
        self.answers.iter().any(|&(g, a)| {
            let want = match g {
                Goal::Win => win,
                Goal::NotLose => not_lose,
            };
            a != Answer::Unknown && a != want
        })
    }
}

/// The value of `pos` by `method` (`--goal value`), each question within
/// `limits`, with `oracle`'s positions as leaves when one is given.
pub fn value_by<G: Game>(
    method: Method,
    pos: &G,
    oracle: Option<&dyn Oracle<G>>,
    limits: &Limits,
) -> Solved {
    let (mut nodes, mut held, mut seconds) = (0, 0, 0.0);
    let mut graph = GraphSlot::default();
    let (value, answers) = solve_value(|goal| {
        let r = match method {
            Method::Pns => pns::solve(pos, goal, oracle, limits),
            Method::Pn2 => pn2::solve(pos, goal, oracle, limits),
            Method::Pn2Fraction(a, b) => pn2::solve_with(
                pos,
                goal,
                oracle,
                limits,
                &pn2::Options {
                    fraction: Some((a as f64, b as f64)),
                    ..pn2::Options::default()
                },
                pn2::Resume::default(),
            )
            .expect("nothing is read without a saved tree"),
            Method::DfPn(ghi) => dfpn::solve(
                pos,
                goal,
                oracle,
                limits,
                &dfpn::Options {
                    ghi,
                    ..dfpn::Options::default()
                },
            ),
            Method::Manager => {
                match by_manager(pos, goal, oracle, limits, &mut graph, &Manager::default()) {
                    Some(r) => r,
                    // Its tables did not fit: left open.
                    None => return Answer::Unknown,
                }
            }
            Method::DfPnWith(ghi, remedies) => dfpn::solve(
                pos,
                goal,
                oracle,
                limits,
                &dfpn::Options {
                    ghi,
                    remedies,
                    ..dfpn::Options::default()
                },
            ),
        };
        nodes += r.nodes;
        held = held.max(r.held);
        seconds += r.seconds;
        r.answer
    });
    Solved {
        value,
        answers,
        nodes,
        held,
        seconds,
    }
}

/// How the proof manager is set up ([`by_manager`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Manager {
    /// df-pn's threads ([`dfpn::Options::threads`]).
    pub threads: usize,
    /// Whether the root's reachable graph (or its material's table) may
    /// decide it; without, df-pn alone.
    pub graph: bool,
    /// The settings run in turn (`None`: the plan's own, plain df-pn and
    /// both remedies).
    pub settings: Option<Vec<dfpn::Remedies>>,
    /// df-pn+'s scale ([`dfpn::Options::guide`]; 0: off).
    pub guide: u32,
    /// The 1+ε trick's ε ([`dfpn::Options::epsilon`]).
    pub epsilon: f64,
    /// The ply-bounded df-pn's share of each round ([`Plan::bounded`]).
    pub bounded: u64,
    /// The strategy search's share of each round ([`Plan::fortress`]).
    pub strategy: u64,
    /// Its share of each round of a `win` question ([`Plan::fortress_win`]).
    pub strategy_win: u64,
    /// What the process may give its tables, in MB: where the limits
    /// size the tables, the strategy search's memory is sized within it
    /// as `zoo solve` sizes it ([`zoo_solve::manager::fortress_mb`]);
    /// `None`: one setting's table.
    pub share_mb: Option<u64>,
    /// The manager's workers ([`Plan::workers`]): 1, the searches of a
    /// question one after the other on one thread.
    pub workers: usize,
}

impl Default for Manager {
    fn default() -> Self {
        Manager {
            threads: 1,
            graph: true,
            settings: None,
            guide: dfpn::Options::default().guide,
            epsilon: dfpn::Options::default().epsilon,
            bounded: Plan::default().bounded,
            strategy: Plan::default().fortress,
            strategy_win: Plan::default().fortress_win,
            share_mb: None,
            workers: 1,
        }
    }
}

/// One question asked as `zoo solve` asks it (with
/// `Manager::default()`, as it does by default): the proof manager
/// ([`solve_goal_sharing`] with the default [`Plan`] and options: the
/// root's reachable graph where it fits and `how` allows it, else df-pn),
/// each df-pn setting's table as [`table_mb`] sizes it unless `limits` does;
/// `graph` keeps the root's graph for its next question. `None` when a
/// table did not fit in memory.
pub fn by_manager<'a, G: Game>(
    pos: &G,
    goal: Goal,
    oracle: Option<&'a dyn Oracle<G>>,
    limits: &Limits,
    graph: &mut GraphSlot<'a, G>,
    how: &Manager,
) -> Option<zoo_solve::Report<G::Move>> {
    let sized = limits.memory_mb.is_none();
    let limits = Limits {
        memory_mb: limits.memory_mb.or(Some(table_mb(limits))),
        ..*limits
    };
    let fortress_mb = how
        .share_mb
        .filter(|_| sized)
        .zip(limits.memory_mb)
        .map(|(share, table)| zoo_solve::manager::fortress_mb(table, share));
    let opts = dfpn::Options {
        threads: how.threads,
        guide: how.guide,
        epsilon: how.epsilon,
        ..dfpn::Options::default()
    };
    let plan = Plan {
        // No memory for it: neither the graph nor the material's table fits.
        graph_mb: if how.graph {
            Plan::default().graph_mb
        } else {
            0
        },
        settings: how.settings.clone().unwrap_or(Plan::default().settings),
        // As `zoo solve` sizes them: plain df-pn's table stays small.
        plain_mb: sized.then_some(TABLE_MB),
        bounded: how.bounded,
        fortress: how.strategy,
        fortress_win: how.strategy_win,
        fortress_mb,
        workers: how.workers,
        ..Plan::default()
    };
    solve_goal_sharing(pos, goal, oracle, &limits, &opts, &plan, graph)
        .ok()
        .map(|m| m.report)
}

/// The limits of one question: at most `nodes` nodes (PNS and PN²: held;
/// df-pn: MID calls) and `seconds`.
pub fn limits(nodes: u64, seconds: f64) -> Limits {
    Limits {
        nodes: Some(nodes),
        time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    }
}

/// What bounds each question of the experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Nodes at most (PNS and PN²: held; df-pn: MID calls).
    pub nodes: u64,
    /// Seconds at most for PN² alone: it repeats its second-level
    /// searches, so what it holds does not bound its work. The others are
    /// bounded by nodes alone, so their figures do not depend on the
    /// machine's load.
    pub pn2_seconds: f64,
}

impl Budget {
    /// The limits of a question asked of `method`.
    pub fn limits_for(&self, method: Method) -> Limits {
        match method {
            Method::Pn2 | Method::Pn2Fraction(..) => limits(self.nodes, self.pn2_seconds),
            _ => Limits::nodes(self.nodes),
        }
    }
}

/// One position, every method.
#[derive(Clone, Debug)]
pub struct Row {
    /// The position.
    pub fen: String,
    /// Pieces on the board.
    pub pieces: u32,
    /// Its value for the side to move, from the tables.
    pub value: Outcome,
    /// Each method of [`METHODS`] with what it found.
    pub solved: Vec<(Method, Solved)>,
}

/// Runs `methods` on every position (each with its table value) without
/// the tables, within `budget`; `progress` hears of each position.
pub fn run<G: Game>(
    positions: &[(G, Outcome)],
    methods: &[Method],
    budget: &Budget,
    progress: &mut dyn FnMut(&str),
) -> Vec<Row> {
    let mut rows = Vec::with_capacity(positions.len());
    for (i, (pos, value)) in positions.iter().enumerate() {
        let solved: Vec<(Method, Solved)> = methods
            .iter()
            .map(|&m| (m, value_by(m, pos, None, &budget.limits_for(m))))
            .collect();
        let mut line = format!(
            "{}/{} {} ({}):",
            i + 1,
            positions.len(),
            pos.to_fen(),
            value.name()
        );
        for (m, s) in &solved {
            let _ = write!(line, " {} {} {};", m.name(), said(s, *value), s.nodes);
        }
        progress(&line);
        rows.push(Row {
            fen: pos.to_fen(),
            pieces: pos.piece_count(),
            value: *value,
            solved,
        });
    }
    rows
}

/// `win`/`draw`/`loss`, `unknown`, or `WRONG` when an answer contradicts
/// the table.
fn said(s: &Solved, truth: Outcome) -> &'static str {
    if s.wrong(truth) {
        "WRONG"
    } else {
        s.value.map_or("unknown", Outcome::name)
    }
}

/// The median of `v` (sorted here), `–` when empty.
fn median(mut v: Vec<u64>) -> String {
    v.sort_unstable();
    v.get(v.len() / 2).map_or("–".into(), u64::to_string)
}

/// The experiment's files: every position and method (CSV), the summary
/// by number of pieces, decisive or drawn, and method (Markdown), the
/// nodes of each method, positions sorted by them, and likewise the bytes
/// held (SVG, log scale).
pub fn report(game: &str, rows: &[Row], budget: &Budget) -> Result<Report> {
    report_named("solvers", game, rows, budget)
}

/// [`report`], its files named `<stem>-<game>.*` (`solvers`, or
/// `remedies` for [`REMEDY_METHODS`]).
pub fn report_named(stem: &str, game: &str, rows: &[Row], budget: &Budget) -> Result<Report> {
    let mut csv =
        String::from("pieces,fen,value,method,result,answers,wrong,nodes,bytes_held,seconds\n");
    for r in rows {
        for (m, s) in &r.solved {
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{},{:.4}",
                r.pieces,
                csv_field(&r.fen),
                r.value.name(),
                m.name(),
                s.value.map_or("unknown", Outcome::name),
                s.answers_text(),
                u8::from(s.wrong(r.value)),
                s.nodes,
                s.held,
                s.seconds
            );
        }
    }
    let mut md = String::from(
        "| pieces | table value | positions | method | decided | wrong | unknown | nodes: median of the decided | all | bytes held: median | largest | seconds |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.pieces).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let methods: Vec<Method> = rows
        .first()
        .map_or_else(Vec::new, |r| r.solved.iter().map(|s| s.0).collect());
    for n in sizes {
        for (class, drawn) in [("win or loss", false), ("draw", true)] {
            let of: Vec<&Row> = rows
                .iter()
                .filter(|r| r.pieces == n && (r.value == Outcome::Draw) == drawn)
                .collect();
            if of.is_empty() {
                continue;
            }
            for (k, m) in methods.iter().enumerate() {
                let s: Vec<(&Solved, Outcome)> =
                    of.iter().map(|r| (&r.solved[k].1, r.value)).collect();
                let wrong = s.iter().filter(|(x, v)| x.wrong(*v)).count();
                let decided: Vec<&Solved> = s
                    .iter()
                    .filter(|(x, v)| !x.wrong(*v) && x.value.is_some())
                    .map(|(x, _)| *x)
                    .collect();
                let unknown = s.len() - wrong - decided.len();
                let all: u64 = s.iter().map(|(x, _)| x.nodes).sum();
                let secs: f64 = s.iter().map(|(x, _)| x.seconds).sum();
                let largest = s.iter().map(|(x, _)| x.held).max().unwrap_or(0);
                let _ = writeln!(
                    md,
                    "| {n} | {class} | {} | {} | {} | {wrong} | {unknown} | {} | {all} | {} | {largest} | {secs:.1} |",
                    of.len(),
                    m.name(),
                    decided.len(),
                    median(decided.iter().map(|x| x.nodes).collect()),
                    median(s.iter().map(|(x, _)| x.held).collect()),
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\nEach question at most {} nodes (PNS, PN²: held; df-pn: MID calls), PN²'s also at most {} s; \"all\" counts an undecided position's whole budget. Bytes held: tree nodes × `pns::bytes_per_node` (PN²: the first level and its largest second level), used table entries × `dfpn::bytes_per_entry_of` (with TCA 4 bytes more an entry, its least depth); the median and the largest over the positions.",
        budget.nodes, budget.pn2_seconds
    );
    // Each method's counts over the positions, sorted: one curve each.
    let sorted = |f: &dyn Fn(&Solved) -> u64| -> Vec<(String, Vec<(u32, f64)>)> {
        methods
            .iter()
            .enumerate()
            .map(|(k, m)| {
                let mut ns: Vec<u64> = rows.iter().map(|r| f(&r.solved[k].1)).collect();
                ns.sort_unstable();
                (
                    m.name(),
                    ns.iter()
                        .enumerate()
                        .map(|(i, &n)| (i as u32 + 1, n.max(1) as f64))
                        .collect(),
                )
            })
            .collect()
    };
    let labels: Vec<String> = (0..=rows.len()).map(|i| i.to_string()).collect();
    let svg = log_plot(
        &format!("{game}: {}", title(stem, "nodes")),
        "positions, sorted by the method's nodes",
        &labels,
        &sorted(&|s| s.nodes),
    )?;
    let memory = log_plot_of(
        &format!("{game}: {}", title(stem, "bytes held")),
        "positions, sorted by the method's bytes held",
        "bytes held",
        &labels,
        &sorted(&|s| s.held),
    )?;
    Ok(Report {
        files: vec![
            (format!("{stem}-{game}.md"), md.clone()),
            (format!("{stem}-{game}.csv"), csv),
            (format!("{stem}-{game}.svg"), svg),
            (format!("{stem}-{game}-memory.svg"), memory),
        ],
        summary: Some(md),
    })
}

/// A plot's title for the report `stem`, of `what` (nodes, bytes held).
fn title(stem: &str, what: &str) -> String {
    match (stem, what) {
        ("remedies", "nodes") => "df-pn without and with Kishimoto's remedies".into(),
        ("remedies", w) => format!("{w} by df-pn without and with the remedies"),
        (_, "nodes") => "PNS, PN² and df-pn's GHI modes".into(),
        (_, w) => format!("{w} by PNS, PN² and df-pn"),
    }
}

/// The sizes of a run: per piece count, `positions` of any value and
/// `draws` drawn ones more; every question within `budget`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sizes {
    /// Piece counts.
    pub pieces: Vec<u32>,
    /// Positions of any value per piece count.
    pub positions: usize,
    /// Drawn positions more per piece count.
    pub draws: usize,
    /// What bounds each question.
    pub budget: Budget,
    /// Run [`REMEDY_METHODS`] (files `remedies-<game>.*`) instead of
    /// [`METHODS`] (files `solvers-<game>.*`).
    pub remedies: bool,
    /// Run [`PN2_METHODS`] (files `pn2-<game>.*`) instead.
    pub pn2: bool,
}

/// Draws the positions with `seed` (valued by `oracle`), then runs every
/// method of [`METHODS`] (or [`REMEDY_METHODS`], [`PN2_METHODS`]) on them.
pub fn solvers<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    sizes: &Sizes,
    seed: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for &n in &sizes.pieces {
        positions.extend(random_valued::<G>(
            rules,
            oracle,
            n,
            sizes.positions,
            &|_| true,
            &mut rng,
        )?);
        positions.extend(random_valued::<G>(
            rules,
            oracle,
            n,
            sizes.draws,
            &|o| o == Outcome::Draw,
            &mut rng,
        )?);
    }
    let (methods, stem): (&[Method], _) = if sizes.pn2 {
        (&PN2_METHODS, "pn2")
    } else if sizes.remedies {
        (&REMEDY_METHODS, "remedies")
    } else {
        (&METHODS, "solvers")
    };
    let rows = run(&positions, methods, &sizes.budget, progress);
    report_named(stem, G::start(rules).game_name(), &rows, &sizes.budget)
}
