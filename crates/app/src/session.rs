//! The [`Session`] facade, in the manner of Stockfish's `engine.h`: one
//! game in progress with an engine beside it. Set a position and moves,
//! play and take back moves, search with limits and a callback per
//! iteration (blocking, or on a thread of its own that [`Session::stop`]
//! ends), probe the tables, list the legal moves and the status. Every
//! front end (`zoo uci`, `play`, `analyse`, `match`, the web server) talks
//! to a session and never names a game type.
//!
//! ```
//! use zoo_app::{EngineOptions, GameKind, SearchLimits, Session};
//! let mut s = Session::new(GameKind::JungleCheckers, None, EngineOptions::default())?;
//! s.set_position(None, &["c2c3", "c6c5"])?;
//! let r = s.search(SearchLimits { depth: Some(4), ..Default::default() }, &mut |_| {})?;
//! assert!(r.best.is_some());
//! # Ok::<(), zoo_app::AppError>(())
//! ```

use crate::games::{position_of, rules_of, AppGame, GameKind, GameVisitor};
use crate::options::{EngineOptions, SearchLimits};
use crate::report::{
    EndReason, EngineInfo, IterationReport, LineReport, MoveInfo, SearchReport, Status, TableValue,
    TablesStatus,
};
use crate::AppError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use zoo_core::{Game, History, MoveList, Outcome, Side};
use zoo_search::{Engine, Iteration, Limits, SearchResult};

/// The engine of game `G` with its evaluation and tactics.
pub type GameEngine<G> =
    Engine<G, <G as zoo_core::EngineGame>::Eval, <G as zoo_core::EngineGame>::Tactics>;

/// A search made ready to run: it owns what it needs, so it may run on
/// another thread.
type PreparedSearch = Box<dyn FnOnce(&mut dyn FnMut(&IterationReport)) -> SearchReport + Send>;

/// One game in progress and its engine.
pub struct Session {
    game: Box<dyn Backend>,
    running: Option<Running>,
    /// Moves taken back by [`Session::undo`], the next to redo last;
    /// forgotten when another move is played or a position set.
    redo: Vec<String>,
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Session {
    /// A session of `game` under the rule set named `rules` (`None`: the
    /// game's default) at the start position, with an engine of `options`
    /// (checked now, built at the first search).
    pub fn new(
        game: GameKind,
        rules: Option<&str>,
        options: EngineOptions,
    ) -> Result<Session, AppError> {
        struct Open<'a>(Option<&'a str>, EngineOptions);
        impl GameVisitor for Open<'_> {
            type Output = Result<Box<dyn Backend>, AppError>;
            fn visit<G: AppGame>(self) -> Self::Output {
                Ok(Box::new(GameSession::<G>::new(self.0, self.1)?))
            }
        }
        Ok(Session {
            game: game.visit(Open(rules, options))?,
            running: None,
            redo: Vec::new(),
        })
    }

    /// The game being played.
    pub fn game(&self) -> GameKind {
        self.game.kind()
    }

    /// The stable name of the rule set in force.
    pub fn rules_name(&self) -> &'static str {
        self.game.rules_name()
    }

    /// Sets the position: `fen` (`None`: the start position) and then the
    /// moves, in any notation the game accepts. On error nothing changes;
    /// the message names the move refused and why (illegal, or the game
    /// already over).
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), AppError> {
        self.stop();
        let moves: Vec<&str> = moves.iter().map(|m| m.as_ref()).collect();
        self.game.set_position(fen, &moves)?;
        self.redo.clear();
        Ok(())
    }

    /// Plays one move; refused when illegal or when the game is over.
    pub fn play(&mut self, mv: &str) -> Result<MoveInfo, AppError> {
        self.stop();
        let played = self.game.play(mv)?;
        self.redo.clear();
        Ok(played)
    }

    /// Takes the last move back; `None` at the position set. The move can
    /// be played again by [`Session::redo`].
    pub fn undo(&mut self) -> Option<MoveInfo> {
        self.stop();
        let taken = self.game.undo()?;
        self.redo.push(taken.coord.clone());
        Some(taken)
    }

    /// Plays again the last move taken back; `None` when there is none
    /// (nothing undone, or another move played since).
    pub fn redo(&mut self) -> Option<MoveInfo> {
        self.stop();
        let mv = self.redo.pop()?;
        // It was legal here when it was taken back, and the position is
        // the same.
        self.game.play(&mv).ok()
    }

    /// The moves played since the position set, both notations.
    pub fn moves(&self) -> Vec<MoveInfo> {
        self.game.moves()
    }

    /// The FEN of the position set (before the moves).
    pub fn start_fen(&self) -> String {
        self.game.start_fen()
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.game.fen()
    }

    /// Who moves now.
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// Whether play goes on, and if not, the result and why.
    pub fn status(&self) -> Status {
        self.game.status()
    }

    /// The legal moves of the current position (none once it is over).
    pub fn legal_moves(&self) -> Vec<MoveInfo> {
        self.game.legal_moves()
    }

    /// A drawing of the position for a terminal.
    pub fn render(&self) -> String {
        self.game.render(Side::White)
    }

    /// The board drawn with `view`'s side at the bottom.
    pub fn render_from(&self, view: Side) -> String {
        self.game.render(view)
    }

    /// Pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.game.piece_count()
    }

    /// The repetition policy in force (options, or the rule set's).
    pub fn repetition(&self) -> zoo_core::Repetition {
        self.game.repetition()
    }

    /// New engine options, checked now; the engine is rebuilt at the next
    /// search (a different table size or tables directory takes effect).
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), AppError> {
        self.stop();
        self.game.set_options(options)
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        self.game.options()
    }

    /// A new game: the engine forgets what earlier searches stored.
    pub fn new_game(&mut self) {
        self.stop();
        self.game.new_game();
    }

    /// The engine's evaluation, switches and tables (building it now).
    pub fn engine_info(&mut self) -> Result<EngineInfo, AppError> {
        self.game.engine_info()
    }

    /// The tables' value of the current position, `Ok(None)` when no
    /// tables were asked for or the position has too many pieces for them.
    pub fn probe(&mut self) -> Result<Option<TableValue>, AppError> {
        Ok(match self.game.lookup()? {
            Lookup::Known(v) => Some(v),
            _ => None,
        })
    }

    /// The tables' value of the position for people (`win in 7`, `draw`,
    /// `not in the tables (5 pieces)`), `None` without tables.
    pub fn probe_text(&mut self) -> Result<Option<String>, AppError> {
        Ok(Some(match self.game.lookup()? {
            Lookup::NoTables => return Ok(None),
            Lookup::TooManyPieces(n) => format!("not in the tables ({n} pieces)"),
            Lookup::Known(TableValue {
                value: Outcome::Draw,
                ..
            }) => "draw".to_string(),
            Lookup::Known(TableValue {
                value,
                distance: Some(d),
            }) => format!("{} in {d}", value.name()),
            Lookup::Known(TableValue {
                value,
                distance: None,
            }) => format!("{} (distance unknown: WDL-only files)", value.name()),
            Lookup::Unknown(None) => "no value (table missing or damaged)".to_string(),
            Lookup::Unknown(Some(why)) => format!("no value: {why}"),
        }))
    }

    /// Searches the current position and returns when done.
    pub fn search(
        &mut self,
        limits: SearchLimits,
        on_iteration: &mut dyn FnMut(&IterationReport),
    ) -> Result<SearchReport, AppError> {
        self.stop();
        let (_, run) = self.game.prepare(limits.to_limits()?)?;
        Ok(run(on_iteration))
    }

    /// Starts a search on its own thread and returns at once;
    /// `on_iteration` is called after each iteration and `on_done` with the
    /// result (also after [`Session::stop`]). A search already running is
    /// stopped first.
    pub fn go(
        &mut self,
        limits: SearchLimits,
        mut on_iteration: impl FnMut(&IterationReport) + Send + 'static,
        on_done: impl FnOnce(SearchReport) + Send + 'static,
    ) -> Result<(), AppError> {
        self.stop();
        let (stop, run) = self.game.prepare(limits.to_limits()?)?;
        let handle = std::thread::spawn(move || on_done(run(&mut on_iteration)));
        self.running = Some(Running { stop, handle });
        Ok(())
    }

    /// Whether a search started by [`Session::go`] is still running.
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Ends a running search soon and waits for it (its `on_done` has run
    /// when this returns). Nothing happens when none runs.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
            // The search clears the flag when it ends; a stop that came
            // after it ended would otherwise stop the next search at once.
            r.stop.store(false, Ordering::Relaxed);
        }
    }

    /// Waits for a running search to end by its limits.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }
}

/// Dropping a session asks a running search to stop and does not wait for
/// it: a drop may run where blocking is wrong (a future dropped on an async
/// server's worker when its client leaves, issue 33), and a search slow to
/// notice the signal (a large table being opened) would block it. The
/// search's thread ends on its own and its `on_done` still runs; a front
/// end that must see the search end calls [`Session::stop`] or
/// [`Session::wait`] first.
impl Drop for Session {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// A session's game, with its type erased: what [`Session`] needs of it.
trait Backend: Send {
    fn kind(&self) -> GameKind;
    fn rules_name(&self) -> &'static str;
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), AppError>;
    fn play(&mut self, mv: &str) -> Result<MoveInfo, AppError>;
    fn undo(&mut self) -> Option<MoveInfo>;
    fn moves(&self) -> Vec<MoveInfo>;
    fn start_fen(&self) -> String;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Side;
    fn status(&self) -> Status;
    fn legal_moves(&self) -> Vec<MoveInfo>;
    fn render(&self, view: Side) -> String;
    fn piece_count(&self) -> u32;
    fn repetition(&self) -> zoo_core::Repetition;
    fn set_options(&mut self, options: EngineOptions) -> Result<(), AppError>;
    fn options(&self) -> &EngineOptions;
    fn new_game(&mut self);
    fn engine_info(&mut self) -> Result<EngineInfo, AppError>;
    fn lookup(&mut self) -> Result<Lookup, AppError>;
    fn prepare(&mut self, limits: Limits) -> Result<(Arc<AtomicBool>, PreparedSearch), AppError>;
}

/// What the tables say of the current position.
enum Lookup {
    /// No tables were asked for.
    NoTables,
    /// More pieces than the tables hold.
    TooManyPieces(u32),
    /// The value.
    Known(TableValue),
    /// A table that should hold it is missing or damaged, and why.
    Unknown(Option<String>),
}

/// The game record: where it started and the moves since, with the
/// history repetition is judged by.
#[derive(Clone)]
struct Record<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    pos: G,
    hist: History,
}

impl<G: Game> Record<G> {
    fn new(start: G, policy: zoo_core::Repetition) -> Self {
        let hist = History::starting_at(policy, start.key(), start.piece_count());
        Record {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            hist,
        }
    }

    fn status(&self) -> Status {
        if let Some(result) = self.pos.terminal() {
            return Status::Over {
                result,
                reason: EndReason::Rules,
            };
        }
        if self.pos.count_moves() == 0 {
            return Status::Over {
                result: self.pos.no_moves_outcome(),
                reason: EndReason::NoMoves,
            };
        }
        if self.hist.is_draw() {
            return Status::Over {
                result: Outcome::Draw,
                reason: EndReason::Repetition,
            };
        }
        Status::Playing
    }

    fn play(&mut self, text: &str) -> Result<MoveInfo, AppError> {
        if let Status::Over { reason, .. } = self.status() {
            return Err(AppError::GameOver {
                mv: text.to_string(),
                reason: reason.describe(),
            });
        }
        let mv = self.pos.parse_move(text).map_err(|e| AppError::Move {
            mv: text.to_string(),
            why: e,
        })?;
        let info = move_info(&self.pos, mv);
        self.pos.make(mv);
        self.hist.push(self.pos.key(), self.pos.piece_count());
        self.moves.push(mv);
        Ok(info)
    }
}

fn move_info<G: Game>(pos: &G, mv: G::Move) -> MoveInfo {
    MoveInfo {
        coord: pos.move_to_coord(mv),
        short: pos.move_to_string(mv),
    }
}

/// A line of moves played out from `pos`, in both notations.
fn line<G: Game>(pos: &G, moves: &[G::Move]) -> (Vec<String>, Vec<String>) {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let i = move_info(&p, m);
            p.make(m);
            (i.coord, i.short)
        })
        .unzip()
}

fn iteration_report<G: Game>(pos: &G, it: &Iteration<G::Move>) -> IterationReport {
    let (pv, pv_short) = line(pos, &it.pv);
    IterationReport {
        depth: it.depth,
        score: it.score,
        mate: it.mate,
        table: it.table,
        pv,
        pv_short,
        nodes: it.total_nodes,
        ms: it.elapsed.as_millis() as u64,
        ebf: it.ebf,
        stats: it.stats,
        lines: it
            .lines
            .iter()
            .map(|l| {
                let (pv, pv_short) = line(pos, &l.pv);
                LineReport {
                    score: l.score,
                    mate: l.mate,
                    table: l.table,
                    pv,
                    pv_short,
                }
            })
            .collect(),
    }
}

fn search_report<G: Game>(pos: &G, r: &SearchResult<G::Move>) -> SearchReport {
    let (pv, pv_short) = line(pos, &r.pv);
    SearchReport {
        best: r.best.map(|m| move_info(pos, m)),
        score: r.score,
        mate: r.mate,
        table: r.table,
        depth: r.depth,
        pv,
        pv_short,
        stats: r.stats,
        seconds: r.elapsed.as_secs_f64(),
        nodes_per_second: r.nps(),
    }
}

/// The session of one game type.
struct GameSession<G: AppGame> {
    rules: G::Rules,
    record: Record<G>,
    options: EngineOptions,
    /// Built at the first search and kept (its table survives between
    /// searches) until the options change.
    engine: Option<(Arc<GameEngine<G>>, Option<TablesStatus>)>,
}

impl<G: AppGame> GameSession<G> {
    fn new(rules: Option<&str>, options: EngineOptions) -> Result<Self, AppError> {
        let rules = rules_of::<G>(rules)?;
        check_options::<G>(&options)?;
        let start = G::start(&rules);
        let policy = options
            .repetition
            .unwrap_or_else(|| start.default_repetition());
        Ok(GameSession {
            record: Record::new(start, policy),
            rules,
            options,
            engine: None,
        })
    }

    fn policy(&self, pos: &G) -> zoo_core::Repetition {
        self.options
            .repetition
            .unwrap_or_else(|| pos.default_repetition())
    }

    fn engine(&mut self) -> Result<&(Arc<GameEngine<G>>, Option<TablesStatus>), AppError> {
        if self.engine.is_none() {
            self.engine = Some(build_engine::<G>(&self.options, &self.rules)?);
        }
        Ok(self.engine.as_ref().expect("just built"))
    }
}

/// Checks what can be checked without building: the evaluation's name and
/// the search switches.
fn check_options<G: AppGame>(o: &EngineOptions) -> Result<(), AppError> {
    o.config()?;
    // A tables directory that is not there is refused when set, not at
    // the first search (`setoption name TB` keeps its old value).
    if let Some(dir) = &o.tb {
        if !dir.is_dir() {
            return Err(AppError::Path(format!(
                "tables directory {}: no such directory",
                dir.display()
            )));
        }
    }
    if let Some(name) = &o.eval {
        G::eval_by_name(name).map_err(AppError::Option)?;
    }
    Ok(())
}

/// The engine `options` describe for game `G`, with the tables of
/// `options.tb` attached where they exist.
fn build_engine<G: AppGame>(
    options: &EngineOptions,
    rules: &G::Rules,
) -> Result<(Arc<GameEngine<G>>, Option<TablesStatus>), AppError> {
    let eval = match &options.eval {
        Some(name) => G::eval_by_name(name).map_err(AppError::Option)?,
        None => G::default_eval(),
    };
    let mut engine = Engine::try_new(options.config()?, eval, Default::default())?;
    let tables = match &options.tb {
        None => None,
        Some(dir) => {
            if !dir.is_dir() {
                return Err(AppError::Path(format!(
                    "tables directory {}: no such directory",
                    dir.display()
                )));
            }
            let start = G::start(rules);
            Some(match G::open_tables(dir, rules) {
                Ok(Some(t)) => {
                    let max = t.oracle.complete_pieces();
                    engine.set_oracle(Some(t.oracle));
                    TablesStatus {
                        description: t.description,
                        max_pieces: Some(max),
                    }
                }
                Ok(None) => TablesStatus {
                    description: format!(
                        "no complete {} {} tables in {} (not used)",
                        start.game_name(),
                        start.rules_name(),
                        dir.display()
                    ),
                    max_pieces: None,
                },
                Err(why) => TablesStatus {
                    description: format!("{why} (tables ignored)"),
                    max_pieces: None,
                },
            })
        }
    };
    Ok((Arc::new(engine), tables))
}

impl<G: AppGame> Backend for GameSession<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn rules_name(&self) -> &'static str {
        self.record.pos.rules_name()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), AppError> {
        let start = position_of::<G>(&self.rules, fen)?;
        let policy = self.policy(&start);
        let mut record = Record::new(start, policy);
        for m in moves {
            record.play(m)?;
        }
        self.record = record;
        Ok(())
    }
    fn play(&mut self, mv: &str) -> Result<MoveInfo, AppError> {
        self.record.play(mv)
    }
    fn undo(&mut self) -> Option<MoveInfo> {
        let r = &mut self.record;
        let last = r.moves.pop()?;
        let mut pos = r.start.clone();
        let mut hist = History::starting_at(r.hist.policy(), pos.key(), pos.piece_count());
        for &m in &r.moves {
            pos.make(m);
            hist.push(pos.key(), pos.piece_count());
        }
        let info = move_info(&pos, last);
        r.pos = pos;
        r.hist = hist;
        Some(info)
    }
    fn moves(&self) -> Vec<MoveInfo> {
        let (coord, short) = line(&self.record.start, &self.record.moves);
        coord
            .into_iter()
            .zip(short)
            .map(|(coord, short)| MoveInfo { coord, short })
            .collect()
    }
    fn start_fen(&self) -> String {
        self.record.start.to_fen()
    }
    fn fen(&self) -> String {
        self.record.pos.to_fen()
    }
    fn side_to_move(&self) -> Side {
        self.record.pos.side_to_move()
    }
    fn status(&self) -> Status {
        self.record.status()
    }
    fn legal_moves(&self) -> Vec<MoveInfo> {
        if self.record.status() != Status::Playing {
            return Vec::new();
        }
        let mut l = MoveList::new();
        self.record.pos.legal_moves(&mut l);
        l.iter().map(|&m| move_info(&self.record.pos, m)).collect()
    }
    fn render(&self, view: Side) -> String {
        self.record.pos.render_from(view)
    }
    fn piece_count(&self) -> u32 {
        self.record.pos.piece_count()
    }
    fn repetition(&self) -> zoo_core::Repetition {
        self.record.hist.policy()
    }
    fn set_options(&mut self, options: EngineOptions) -> Result<(), AppError> {
        check_options::<G>(&options)?;
        if options.repetition != self.options.repetition {
            let policy = options
                .repetition
                .unwrap_or_else(|| self.record.start.default_repetition());
            let mut record = Record::new(self.record.start.clone(), policy);
            for &m in &self.record.moves {
                record.pos.make(m);
                record.hist.push(record.pos.key(), record.pos.piece_count());
                record.moves.push(m);
            }
            self.record = record;
        }
        self.options = options;
        self.engine = None;
        Ok(())
    }
    fn options(&self) -> &EngineOptions {
        &self.options
    }
    fn new_game(&mut self) {
        if let Some((e, _)) = &self.engine {
            e.clear();
        }
    }
    fn engine_info(&mut self) -> Result<EngineInfo, AppError> {
        let (e, tables) = self.engine()?;
        Ok(EngineInfo {
            eval: zoo_core::Evaluator::name(e.evaluator()),
            config: e.cfg.clone(),
            tables: tables.clone(),
        })
    }
    fn lookup(&mut self) -> Result<Lookup, AppError> {
        let pos = self.record.pos.clone();
        let (e, _) = self.engine()?;
        let Some(oracle) = e.oracle() else {
            return Ok(Lookup::NoTables);
        };
        if pos.piece_count() > oracle.max_pieces() {
            return Ok(Lookup::TooManyPieces(pos.piece_count()));
        }
        Ok(match oracle.probe(&pos) {
            Some(v) => Lookup::Known(TableValue {
                value: v.outcome,
                distance: v.distance,
            }),
            None => Lookup::Unknown(oracle.why_unknown(&pos)),
        })
    }
    fn prepare(&mut self, limits: Limits) -> Result<(Arc<AtomicBool>, PreparedSearch), AppError> {
        let (engine, _) = self.engine()?;
        let engine = engine.clone();
        let pos = self.record.pos.clone();
        let hist = self.record.hist.clone();
        let stop = engine.stop_handle();
        let run: PreparedSearch = Box::new(move |on_iteration| {
            let r = engine.search(&pos, &hist, &limits, &mut |it| {
                on_iteration(&iteration_report(&pos, it))
            });
            search_report(&pos, &r)
        });
        Ok((stop, run))
    }
}
