//! The search: negamax and fail-soft alpha-beta with every enhancement behind
//! a switch, iterative deepening, quiescence, distance-to-mate scores and
//! Lazy SMP over one shared [`Table`].

use crate::tt::{Bound, Replacement, Table, NO_LOWER, NO_MOVE, NO_UPPER};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use zoo_core::{
    Evaluator, Game, History, MoveList, Oracle, Outcome, Repetition, Tactics, EVAL_LIMIT,
};

/// A won game scores `MATE - ply` (ply of the final winning move from the root).
pub const MATE: i32 = 31_000;
/// Larger than any score: the open window.
pub const INF: i32 = 32_000;
pub const MAX_PLY: usize = 128;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const MAX_DEPTH: u32 = 100;
const _: () = assert!(MATE_BOUND > EVAL_LIMIT);
/// Quiescence searches every move when in danger only this many plies deep.
const QUIESCENCE_DANGER_PLIES: u32 = 6;

/// The switches. `Config::default()` is the full engine.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Config {
    /// Alpha-beta pruning; off = plain negamax (every other switch is ignored
    /// except quiescence).
    pub alphabeta: bool,
    pub tt: bool,
    /// Table size in MiB; 0 means 64 KiB (for replacement experiments).
    pub hash_mb: usize,
    pub replacement: Replacement,
    pub two_bound: bool,
    /// TT cutoffs only from entries of exactly the same draft (fixed-depth
    /// values then equal plain negamax; deeper entries otherwise improve them).
    pub strict_draft: bool,
    pub pvs: bool,
    pub mtdf: bool,
    /// Iterative deepening; off = one search at the target depth.
    pub iterative: bool,
    pub id_step: u32,
    /// Aspiration window half-width (0 = off).
    pub aspiration: i32,
    /// Enhanced transposition cutoffs at nodes with at least this draft (0 = off).
    pub etc_min_depth: u32,
    pub killers: bool,
    pub history: bool,
    /// Static move ordering by the tactics hint (captures, development).
    pub ordering: bool,
    pub quiescence: bool,
    /// Late move reductions (selective: values then differ from negamax).
    pub lmr: bool,
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            alphabeta: true,
            tt: true,
            hash_mb: 64,
            replacement: Replacement::Deep,
            two_bound: false,
            strict_draft: false,
            pvs: true,
            // MTD(f) halves the nodes to depth 14 from the Jungle start
            // (docs/search.md); PVS is still used below the root.
            mtdf: true,
            iterative: true,
            id_step: 1,
            aspiration: 0,
            etc_min_depth: 3,
            killers: true,
            history: true,
            ordering: true,
            quiescence: true,
            lmr: true,
            threads: 1,
        }
    }
}

impl Config {
    /// Everything off: fail-soft alpha-beta in generation order.
    pub fn plain_alphabeta() -> Config {
        Config {
            tt: false,
            pvs: false,
            mtdf: false,
            iterative: false,
            etc_min_depth: 0,
            killers: false,
            history: false,
            ordering: false,
            quiescence: false,
            lmr: false,
            ..Config::default()
        }
    }
    pub fn negamax() -> Config {
        Config {
            alphabeta: false,
            ..Config::plain_alphabeta()
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Every visited position, quiescence included.
    pub nodes: u64,
    /// Positions scored without expanding them (evaluated, or over).
    pub leaves: u64,
    pub qnodes: u64,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    /// Nodes whose best move was the table's move.
    pub tt_move_hits: u64,
    pub etc_cutoffs: u64,
    /// PVS, aspiration and MTD(f) passes beyond the first.
    pub re_searches: u64,
    /// Positions below the root valued by the endgame oracle.
    pub tb_hits: u64,
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.qnodes += o.qnodes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_move_hits += o.tt_move_hits;
        self.etc_cutoffs += o.etc_cutoffs;
        self.re_searches += o.re_searches;
        self.tb_hits += o.tb_hits;
    }
}

/// One completed iteration, as reported to the caller.
#[derive(Debug, Clone)]
pub struct Iteration<M> {
    pub depth: u32,
    pub score: i32,
    /// +N: the side to move wins with its final move on ply N; −N: loses on ply N.
    pub mate: Option<i32>,
    pub pv: Vec<M>,
    /// Statistics of the main thread so far (all iterations).
    pub stats: Stats,
    /// Nodes of all threads so far.
    pub total_nodes: u64,
    pub elapsed: Duration,
    /// nodes(this iteration) / nodes(previous iteration).
    pub ebf: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: i32,
    pub mate: Option<i32>,
    pub depth: u32,
    pub pv: Vec<M>,
    /// Sum over all threads.
    pub stats: Stats,
    pub elapsed: Duration,
    pub iterations: Vec<Iteration<M>>,
}

impl<M> SearchResult<M> {
    pub fn nps(&self) -> f64 {
        self.stats.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The mate distance of a score (see [`Iteration::mate`]).
pub fn mate_distance(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

#[inline(always)]
fn outcome_score(o: Outcome, ply: usize) -> i32 {
    match o {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
        Outcome::Draw => 0,
    }
}

/// Mate scores are stored relative to the node, not the root.
#[inline(always)]
fn to_tt(s: i32, ply: usize) -> i16 {
    let s = if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    };
    s as i16
}
#[inline(always)]
fn from_tt(s: i16, ply: usize) -> i32 {
    let s = s as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// State shared by the threads of one search.
struct Shared {
    stop: Arc<AtomicBool>,
    nodes: AtomicU64,
    start: Instant,
    limits: Limits,
}

/// The search engine of game `G` with evaluation `E` and tactics `T`.
pub struct Engine<G: Game, E: Evaluator<G>, T: Tactics<G>> {
    pub cfg: Config,
    eval: Arc<E>,
    tactics: T,
    tt: Arc<Table>,
    stop: Arc<AtomicBool>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    _g: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, E: Evaluator<G>, T: Tactics<G>> Engine<G, E, T> {
    pub fn new(cfg: Config, eval: E, tactics: T) -> Self {
        let tt = Arc::new(match (cfg.tt, cfg.hash_mb) {
            (false, _) => Table::with_buckets(1, cfg.replacement, cfg.two_bound),
            // 64 KiB: small enough to make replacement schemes matter in experiments.
            (true, 0) => Table::with_buckets(1024, cfg.replacement, cfg.two_bound),
            (true, mb) => Table::new(mb, cfg.replacement, cfg.two_bound),
        });
        Engine {
            cfg,
            eval: Arc::new(eval),
            tactics,
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            oracle: None,
            _g: Default::default(),
        }
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Endgame oracle (tables) consulted below the root for positions with
    /// at most its `max_pieces()` pieces; `None` turns it off.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    pub fn oracle(&self) -> Option<&dyn Oracle<G>> {
        self.oracle.as_deref()
    }

    /// Set it to true (from another thread) to end the running search soon;
    /// it is cleared when that search returns.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches `pos`, whose game so far is `hist` (ending with `pos`),
    /// calling `on_iter` after each completed iteration.
    pub fn search(
        &self,
        pos: &G,
        hist: &History,
        limits: &Limits,
        on_iter: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        // The stop flag is cleared when a search ends, not when it starts, so
        // that a stop sent just before the search thread began is obeyed.
        self.tt.new_search();
        let shared = Shared {
            stop: self.stop.clone(),
            nodes: AtomicU64::new(0),
            start: Instant::now(),
            limits: limits.clone(),
        };
        let target = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(o) = pos.outcome() {
            let score = outcome_score(o, 0);
            self.stop.store(false, Ordering::Relaxed);
            return SearchResult {
                best: None,
                score,
                mate: mate_distance(score),
                depth: 0,
                pv: Vec::new(),
                stats: Stats::default(),
                elapsed: shared.start.elapsed(),
                iterations: Vec::new(),
            };
        }
        let threads = if self.cfg.alphabeta {
            self.cfg.threads.max(1)
        } else {
            1
        };
        let (mut result, helper_stats) = std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads)
                .map(|id| {
                    let shared = &shared;
                    let pos = pos.clone();
                    let hist = hist.clone();
                    s.spawn(move || {
                        let mut w = Worker::new(self, shared, hist, id);
                        let mut p = pos;
                        w.iterate(&mut p, target, &mut |_| {});
                        w.stats
                    })
                })
                .collect();
            let mut w = Worker::new(self, &shared, hist.clone(), 0);
            let mut p = pos.clone();
            let r = w.iterate(&mut p, target, on_iter);
            shared.stop.store(true, Ordering::Relaxed);
            let hs: Vec<Stats> = handles
                .into_iter()
                .map(|h| h.join().expect("search thread panicked"))
                .collect();
            (r, hs)
        });
        self.stop.store(false, Ordering::Relaxed);
        for h in &helper_stats {
            result.stats.add(h);
        }
        result.elapsed = shared.start.elapsed();
        result
    }
}

struct Worker<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> {
    cfg: &'a Config,
    eval: &'a E,
    tactics: &'a T,
    tt: Option<&'a Table>,
    shared: &'a Shared,
    hist: History,
    repetition: bool,
    id: usize,
    stats: Stats,
    unreported: u64,
    aborted: bool,
    /// The first iteration must finish so that there is a move to play.
    may_abort: bool,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    root_best: Option<G::Move>,
    oracle: Option<&'a dyn Oracle<G>>,
    /// The oracle's `max_pieces()` (0 without one), read once.
    oracle_max: u32,
}

const HISTORY_SIZE: usize = 1 << 16;

#[inline(always)]
fn history_index(side: zoo_core::Side, code: u32) -> usize {
    (side.index() << 15) | ((code ^ (code >> 15)) as usize & 0x7FFF)
}

impl<'a, G: Game, E: Evaluator<G>, T: Tactics<G>> Worker<'a, G, E, T> {
    fn new(engine: &'a Engine<G, E, T>, shared: &'a Shared, hist: History, id: usize) -> Self {
        let cfg = &engine.cfg;
        Worker {
            cfg,
            eval: &engine.eval,
            tactics: &engine.tactics,
            tt: (cfg.tt && cfg.alphabeta).then_some(&*engine.tt),
            shared,
            repetition: hist.policy() != Repetition::None,
            hist,
            id,
            stats: Stats::default(),
            unreported: 0,
            aborted: false,
            may_abort: id != 0,
            killers: vec![[NO_MOVE; 2]; MAX_PLY + 1],
            history: if cfg.history {
                vec![0; HISTORY_SIZE]
            } else {
                Vec::new()
            },
            pv: vec![Vec::new(); MAX_PLY + 1],
            root_best: None,
            oracle: engine.oracle.as_deref(),
            oracle_max: engine.oracle.as_ref().map_or(0, |o| o.max_pieces()),
        }
    }

    /// Checks the limits every 1024 nodes.
    #[inline(always)]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.unreported += 1;
        if self.unreported >= 1024 {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unreported, Ordering::Relaxed)
                + self.unreported;
            self.unreported = 0;
            if self.may_abort {
                let l = &self.shared.limits;
                let over = self.shared.stop.load(Ordering::Relaxed)
                    || l.nodes.is_some_and(|n| total >= n)
                    || l.movetime.is_some_and(|t| self.shared.start.elapsed() >= t);
                if over {
                    self.aborted = true;
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.aborted
    }

    fn depths(&self, target: u32) -> Vec<u32> {
        // Without a depth limit only iterative deepening can honour a time
        // or node limit, so it is used whatever the switch says.
        if !self.cfg.iterative && self.shared.limits.depth.is_some() {
            return vec![target];
        }
        if self.id > 0 {
            // Lazy SMP: helpers run one ply apart from each other so that
            // they fill the table with different subtrees.
            return ((1 + (self.id as u32 % 2))..=target).collect();
        }
        let step = self.cfg.id_step.max(1);
        let mut v: Vec<u32> = (0..)
            .map(|i| target as i64 - (i * step) as i64)
            .take_while(|&d| d >= 1)
            .map(|d| d as u32)
            .collect();
        v.reverse();
        v
    }

    fn iterate(
        &mut self,
        pos: &mut G,
        target: u32,
        on_iter: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best: None,
            score: 0,
            mate: None,
            depth: 0,
            pv: Vec::new(),
            stats: Stats::default(),
            elapsed: Duration::ZERO,
            iterations: Vec::new(),
        };
        let mut prev: Option<i32> = None;
        let mut prev_nodes: Option<u64> = None;
        // A root in the tables: its children are exact (probed at ply 1), so
        // the first iteration that reaches the table's value is final.
        let root_exact = self.oracle_value(pos, 0);
        for depth in self.depths(target) {
            if self.id == 0 && !result.iterations.is_empty() {
                // Do not start an iteration that cannot finish in time.
                if let Some(t) = self.shared.limits.movetime {
                    if self.shared.start.elapsed() * 2 >= t {
                        break;
                    }
                }
            }
            let before = self.stats.nodes;
            let Some(score) = self.root(pos, depth, prev) else {
                break;
            };
            self.may_abort = true;
            prev = Some(score);
            if self.id != 0 {
                continue;
            }
            let pv = self.principal_variation(pos, depth);
            let nodes = self.stats.nodes - before;
            let it = Iteration {
                depth,
                score,
                mate: mate_distance(score),
                pv: pv.clone(),
                stats: self.stats,
                total_nodes: self.shared.nodes.load(Ordering::Relaxed) + self.unreported,
                elapsed: self.shared.start.elapsed(),
                ebf: prev_nodes
                    .filter(|&p| p > 0)
                    .map(|p| nodes as f64 / p as f64),
            };
            prev_nodes = Some(nodes);
            on_iter(&it);
            result.best = pv.first().copied();
            result.score = score;
            result.mate = it.mate;
            result.depth = depth;
            result.pv = pv;
            result.iterations.push(it);
            // A mate no longer than the draft is exact: deeper search cannot change it.
            if let Some(m) = result.mate {
                if m.unsigned_abs() <= depth {
                    break;
                }
            }
            if root_exact == Some(score) {
                break;
            }
        }
        result.stats = self.stats;
        result
    }

    /// One iteration at the root; `None` when aborted.
    fn root(&mut self, pos: &mut G, depth: u32, prev: Option<i32>) -> Option<i32> {
        let d = depth as i32;
        let score = if self.cfg.alphabeta && self.cfg.mtdf {
            // MTD(f): null-window passes converge on the value from the guess.
            let mut g = prev.unwrap_or(0);
            let (mut lower, mut upper) = (-INF, INF);
            let mut passes = 0;
            while lower < upper {
                let beta = if g == lower { g + 1 } else { g };
                g = self.search(pos, d, beta - 1, beta, 0);
                if self.aborted {
                    return None;
                }
                passes += 1;
                if g < beta {
                    upper = g;
                } else {
                    lower = g;
                }
            }
            self.stats.re_searches += passes - 1;
            g
        } else if self.cfg.alphabeta
            && self.cfg.aspiration > 0
            && prev.is_some_and(|p| p.abs() < MATE_BOUND)
        {
            let p = prev.unwrap_or(0);
            let (mut lo, mut hi) = (p - self.cfg.aspiration, p + self.cfg.aspiration);
            loop {
                let s = self.search(pos, d, lo, hi, 0);
                if self.aborted {
                    return None;
                }
                if s <= lo {
                    lo = -INF;
                } else if s >= hi {
                    hi = INF;
                } else {
                    break s;
                }
                self.stats.re_searches += 1;
            }
        } else {
            self.search(pos, d, -INF, INF, 0)
        };
        (!self.aborted).then_some(score)
    }

    /// The triangular PV when it starts with the root's best move, extended
    /// (or replaced) by following the table's moves.
    fn principal_variation(&mut self, pos: &mut G, depth: u32) -> Vec<G::Move> {
        let mut pv = self.pv[0].clone();
        match self.root_best {
            Some(b) if pv.first() != Some(&b) => pv = vec![b],
            None if pv.is_empty() => {
                let mut l = MoveList::new();
                pos.legal_moves(&mut l);
                if let Some(&m) = l.first() {
                    pv.push(m);
                }
            }
            _ => {}
        }
        let mut undo = Vec::new();
        let mut seen = vec![pos.key()];
        let mut ok = true;
        for &m in &pv {
            undo.push((m, pos.make(m)));
            seen.push(pos.key());
        }
        if let Some(tt) = self.tt {
            while ok && (pv.len() as u32) < depth && pos.terminal().is_none() {
                ok = false;
                if let Some(e) = tt.probe(pos.key()) {
                    if let Some(m) = pos.move_from_code(e.mv) {
                        pv.push(m);
                        undo.push((m, pos.make(m)));
                        ok = !seen.contains(&pos.key());
                        seen.push(pos.key());
                    }
                }
            }
        }
        // Below the table's line, positions in the oracle's tables continue
        // with their best move to the end of a won or lost game (a drawn
        // line has no end, so it stops there).
        while ok && pv.len() < MAX_PLY && pos.terminal().is_none() {
            match self.oracle_best(pos) {
                Some(m) => {
                    pv.push(m);
                    undo.push((m, pos.make(m)));
                }
                None => break,
            }
        }
        for (m, u) in undo.into_iter().rev() {
            pos.unmake(m, u);
        }
        pv
    }

    /// The best move by the oracle's values of the children (the shortest
    /// win, else the longest loss), when `pos` is won or lost in its tables.
    fn oracle_best(&self, pos: &mut G) -> Option<G::Move> {
        let here = self.oracle_value(pos, 0)?;
        if here == 0 {
            return None;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut best: Option<(i32, G::Move)> = None;
        for m in moves {
            let u = pos.make(m);
            let v = self.oracle_value(pos, 1).map(|s| -s);
            pos.unmake(m, u);
            let v = v?;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, m));
            }
        }
        best.map(|(_, m)| m)
    }

    #[inline(always)]
    fn evaluate(&mut self, pos: &G) -> i32 {
        self.stats.leaves += 1;
        self.eval
            .evaluate(pos)
            .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }

    /// The oracle's exact score of `pos` at `ply`, when it has one.
    #[inline(always)]
    fn oracle_value(&self, pos: &G, ply: usize) -> Option<i32> {
        if self.oracle_max == 0 || pos.piece_count() > self.oracle_max {
            return None;
        }
        let (o, d) = self.oracle?.probe(pos)?;
        Some(match o {
            // The final winning move is d plies below this node.
            Outcome::Win => MATE - (ply as i32 + d as i32),
            Outcome::Loss => -(MATE - (ply as i32 + d as i32)),
            Outcome::Draw => 0,
        })
    }

    /// Ends a node with the oracle's value (repetition ignored: the tables
    /// hold game-theoretic values, and the shortest win never repeats).
    #[inline(always)]
    fn oracle_cut(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let s = self.oracle_value(pos, ply)?;
        self.pv[ply].clear();
        self.stats.nodes += 1;
        self.unreported += 1;
        self.stats.leaves += 1;
        self.stats.tb_hits += 1;
        Some(s)
    }

    fn search(&mut self, pos: &mut G, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if ply > 0 {
            if let Some(s) = self.oracle_cut(pos, ply) {
                return s;
            }
        }
        if depth <= 0 && self.cfg.quiescence && ply > 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.stats.nodes += 1;
        if ply > 0 {
            if let Some(o) = pos.terminal() {
                self.stats.leaves += 1;
                return outcome_score(o, ply);
            }
            if self.repetition && self.hist.is_repeat() {
                // Any repetition inside the search is scored as a draw.
                self.stats.leaves += 1;
                return 0;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        if depth <= 0 {
            return self.evaluate(pos);
        }
        let alpha_orig = alpha;
        let nodes_before = self.stats.nodes;
        let key = pos.key();
        let mut tt_move = NO_MOVE;
        let strict = self.cfg.strict_draft;
        let draft_ok = |d: u8| {
            if strict {
                d as i32 == depth
            } else {
                d as i32 >= depth.min(255)
            }
        };
        if let Some(tt) = self.tt {
            self.stats.tt_probes += 1;
            if let Some(e) = tt.probe(key) {
                self.stats.tt_hits += 1;
                tt_move = e.mv;
                if ply > 0 {
                    let lower_ok = e.lower != NO_LOWER && draft_ok(e.lower_depth);
                    let upper_ok = e.upper != NO_UPPER && draft_ok(e.upper_depth);
                    if lower_ok {
                        let s = from_tt(e.lower, ply);
                        if s >= beta || (upper_ok && e.lower == e.upper) {
                            self.stats.tt_cutoffs += 1;
                            return s;
                        }
                    }
                    if upper_ok {
                        let s = from_tt(e.upper, ply);
                        if s <= alpha {
                            self.stats.tt_cutoffs += 1;
                            return s;
                        }
                    }
                }
            }
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
            return outcome_score(pos.no_moves_outcome(), ply);
        }
        let full = !self.cfg.alphabeta;
        if let (Some(tt), false) = (self.tt, full) {
            if self.cfg.etc_min_depth > 0 && depth >= self.cfg.etc_min_depth as i32 && ply > 0 {
                if let Some(s) = self.etc(tt, pos, &moves, depth, beta, ply) {
                    self.stats.etc_cutoffs += 1;
                    return s;
                }
            }
        }
        self.order(pos, &mut moves, tt_move, ply);
        // Late move reductions: quiet moves late in the order are searched
        // one or two plies shallower first, and again at full depth only if
        // they beat alpha. Never near mate scores (so mate distances stay
        // exact) nor when the side to move is in danger.
        let lmr_here = self.cfg.lmr
            && !full
            && depth >= 3
            && alpha.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
            && !self.tactics.in_danger(pos);
        let mut quiet_guard: arrayvec::ArrayVec<usize, 64> = arrayvec::ArrayVec::new();
        if lmr_here {
            let killers = self.killers[ply];
            for (i, &m) in moves.iter().enumerate() {
                let code = pos.move_code(m);
                if (pos.is_capture(m)
                    || self.tactics.is_noisy(pos, m, 1)
                    || killers.contains(&code))
                    && !quiet_guard.is_full()
                {
                    quiet_guard.push(i);
                }
            }
        }
        let mut best = -INF;
        let mut best_move: Option<G::Move> = None;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = pos.make(mv);
            self.hist.push(pos.key(), pos.piece_count());
            let score = if full {
                -self.search(pos, depth - 1, -INF, INF, ply + 1)
            } else if i == 0 || !self.cfg.pvs {
                -self.search(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r = if lmr_here && i >= 3 && !quiet_guard.contains(&i) {
                    1 + (i >= 8 && depth >= 5) as i32
                } else {
                    0
                };
                let mut s = -self.search(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && s > alpha && !self.aborted {
                    self.stats.re_searches += 1;
                    s = -self.search(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    self.stats.re_searches += 1;
                    -self.search(pos, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            self.hist.pop();
            pos.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.root_best = Some(mv);
                    }
                    if score >= beta && !full {
                        if !pos.is_capture(mv) {
                            self.reward(pos, mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        let best_code = best_move.map(|m| pos.move_code(m)).unwrap_or(NO_MOVE);
        if best_code == tt_move && tt_move != NO_MOVE {
            self.stats.tt_move_hits += 1;
        }
        if let Some(tt) = self.tt {
            let (bound, code) = if best >= beta {
                (Bound::Lower, best_code)
            } else if best <= alpha_orig {
                // Every move failed low: no move is known to be best.
                (Bound::Upper, NO_MOVE)
            } else {
                (Bound::Exact, best_code)
            };
            tt.store(
                key,
                bound,
                to_tt(best, ply),
                depth as u32,
                code,
                self.stats.nodes - nodes_before,
            );
        }
        best
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound
    /// already refutes beta ends this node without searching.
    fn etc(
        &mut self,
        tt: &Table,
        pos: &mut G,
        moves: &MoveList<G::Move>,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let strict = self.cfg.strict_draft;
        for &mv in moves {
            let undo = pos.make(mv);
            let mut cut = None;
            if pos.terminal().is_none() {
                self.hist.push(pos.key(), pos.piece_count());
                let repeated = self.repetition && self.hist.is_repeat();
                self.hist.pop();
                if !repeated {
                    self.stats.tt_probes += 1;
                    if let Some(e) = tt.probe(pos.key()) {
                        let d = e.upper_depth as i32;
                        let ok = if strict {
                            d == depth - 1
                        } else {
                            d >= depth - 1
                        };
                        if e.upper != NO_UPPER && ok {
                            let s = -from_tt(e.upper, ply + 1);
                            if s >= beta {
                                cut = Some(s);
                            }
                        }
                    }
                }
            }
            pos.unmake(mv, undo);
            if let Some(s) = cut {
                tt.store(
                    pos.key(),
                    Bound::Lower,
                    to_tt(s, ply),
                    depth as u32,
                    pos.move_code(mv),
                    1,
                );
                return Some(s);
            }
        }
        None
    }

    fn reward(&mut self, pos: &G, mv: G::Move, depth: i32, ply: usize) {
        let code = pos.move_code(mv);
        if self.cfg.killers {
            let k = &mut self.killers[ply];
            if k[0] != code {
                k[1] = k[0];
                k[0] = code;
            }
        }
        if self.cfg.history {
            let h = &mut self.history[history_index(pos.side_to_move(), code)];
            *h += depth * depth;
            if *h > 1 << 20 {
                // Keep history scores below the killers' and captures' bands.
                for v in self.history.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    fn order(&self, pos: &G, moves: &mut MoveList<G::Move>, tt_move: u32, ply: usize) {
        let cfg = self.cfg;
        if !cfg.ordering && !cfg.killers && !cfg.history && tt_move == NO_MOVE {
            return;
        }
        let killers = if cfg.killers {
            self.killers[ply]
        } else {
            [NO_MOVE; 2]
        };
        let mut scored: MoveList<(i32, G::Move)> = moves
            .iter()
            .map(|&m| {
                let code = pos.move_code(m);
                let mut s = 0;
                if code == tt_move {
                    s = 1 << 30;
                } else {
                    let hint = if cfg.ordering {
                        self.tactics.order_hint(pos, m)
                    } else {
                        0
                    };
                    if cfg.ordering && pos.is_capture(m) {
                        s = (1 << 24) + hint;
                    } else if code == killers[0] {
                        s = (1 << 23) + 1;
                    } else if code == killers[1] {
                        s = 1 << 23;
                    } else {
                        if cfg.history {
                            s = self.history[history_index(pos.side_to_move(), code)];
                        }
                        s += hint;
                    }
                }
                (s, m)
            })
            .collect();
        // Stable: equal scores keep generation order.
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        for (slot, (_, m)) in moves.iter_mut().zip(scored) {
            *slot = m;
        }
    }

    fn qsearch(&mut self, pos: &mut G, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        // The horizon node (qply 0) was probed by `search` already.
        if qply > 0 {
            if let Some(s) = self.oracle_cut(pos, ply) {
                return s;
            }
        }
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.qnodes += 1;
        if let Some(o) = pos.terminal() {
            self.stats.leaves += 1;
            return outcome_score(o, ply);
        }
        // Quiescence moves change material or threaten the den: only the
        // horizon node itself can repeat an earlier position.
        if qply == 0 && self.repetition && self.hist.is_repeat() {
            self.stats.leaves += 1;
            return 0;
        }
        let mut moves: MoveList<G::Move> = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
            return outcome_score(pos.no_moves_outcome(), ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let danger = qply < QUIESCENCE_DANGER_PLIES && self.tactics.in_danger(pos);
        let mut best = -INF;
        if !danger {
            best = self.evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            moves.retain(|m| self.tactics.is_noisy(pos, *m, qply));
        }
        let mut scored: MoveList<(i32, G::Move)> = moves
            .iter()
            .map(|&m| (self.tactics.order_hint(pos, m), m))
            .collect();
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        for (_, mv) in scored {
            let undo = pos.make(mv);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
