//! A front of positions to prove below a root (`zoo solve --front
//! PLIES`), chosen as Chinook's proof manager chose the positions its
//! df-pn workers proved: along the tree a proof of the engine's guess
//! would take. The side the engine's score favours at the root (the
//! prover) plays the engine's move, the other side every move, down to
//! `plies` plies; the positions reached there are the front, the most
//! promising for the prover first. Solved as a batch into a store (over
//! MPI, [`super::batch`]), they are leaves of the root's own search, which
//! then proves only the top of the tree (docs/solve.md, "A front of
//! positions").
//!
//! `prover` chooses the side that plays only the engine's move: the
//! engine's guess by default, as Chinook's manager did, or a side named,
//! or neither (every move of both sides).
//!
//! A position the game has ended in or the tables value is no part of
//! the front (the root's search values it at once), nor is one met again
//! (a transposition, or a repetition of the line above it).

use crate::games::{position_of, rules_of, AppGame, GameVisitor};
use crate::{AppError, GameKind};
use serde::Serialize;
use std::collections::HashSet;
use std::path::PathBuf;
use zoo_core::{Game, History, MoveList, Side};
use zoo_search::{Config, Engine, EngineGame, Limits};

/// A front to find.
#[derive(Clone, Debug)]
pub struct FrontRequest {
    /// The game.
    pub game: GameKind,
    /// Its rule set (`None`: the default).
    pub rules: Option<String>,
    /// The root (`None`: the start).
    pub fen: Option<String>,
    /// Tables: positions they value are not in the front, and the engine
    /// reads them.
    pub tables: Option<PathBuf>,
    /// How far below the root the front lies.
    pub plies: u32,
    /// The engine's depth for the prover's moves and the front's order.
    pub depth: u32,
    /// Which side plays only the engine's move.
    pub prover: Prover,
}

/// Which side of the root plays only the engine's move on the way to the
/// front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prover {
    /// The side the engine's score of the root favours (Chinook's way;
    /// where the guess is wrong, the front's positions come out
    /// disproven).
    Guess,
    /// The root's side to move.
    Mover,
    /// The other side.
    Other,
    /// Neither: every move of both sides (a front that serves whatever
    /// the value, at the price of its size).
    Neither,
}

/// One position of a front.
#[derive(Clone, Debug, Serialize)]
pub struct FrontPosition {
    /// The position.
    pub fen: String,
    /// Its plies below the root.
    pub plies: u32,
    /// The engine's score at the front's depth, for the prover.
    pub score: i32,
}

/// A front found.
#[derive(Clone, Debug, Serialize)]
pub struct FrontReport {
    /// The root.
    pub root: String,
    /// How far below it the front lies.
    pub plies: u32,
    /// The engine's score of the root for its side to move.
    pub root_score: i32,
    /// The prover: `side-to-move` or `opponent` (the root's), or
    /// `neither` (every move of both sides; scores for the side to move).
    pub prover: &'static str,
    /// The front, the best for the prover first.
    pub positions: Vec<FrontPosition>,
    /// Positions on the way the game's end or the tables decide.
    pub decided: u64,
    /// Positions met again (not repeated in the front).
    pub repeated: u64,
}

impl FrontReport {
    /// The front as a batch file for `zoo solve --positions`: a comment
    /// naming the root, then one FEN a line with its plies and score.
    pub fn to_batch(&self) -> String {
        let prover = match self.prover {
            "neither" => "neither side (every move of both)".to_string(),
            side => format!("the root's {side}"),
        };
        let mut out = format!(
            "# the front {} plies below {} (root score {}, prover: {prover})\n",
            self.plies, self.root, self.root_score
        );
        for p in &self.positions {
            out.push_str(&format!(
                "{}  # plies {} score {}\n",
                p.fen, p.plies, p.score
            ));
        }
        out
    }
}

/// The most plies a front may lie below its root: each ply of the other
/// side multiplies the front by its moves.
pub const MAX_FRONT_PLIES: u32 = 8;

/// The most positions a front may hold (each is searched by the engine
/// to order them, and each is a question of the batch).
pub const MAX_FRONT_POSITIONS: usize = 100_000;

/// Finds the front of `r` (see the module's text).
pub fn front(r: &FrontRequest) -> Result<FrontReport, AppError> {
    if r.plies == 0 || r.plies > MAX_FRONT_PLIES {
        return Err(AppError::Option(format!(
            "--front {}: give 1 to {MAX_FRONT_PLIES} plies",
            r.plies
        )));
    }
    if r.depth == 0 || r.depth > 64 {
        return Err(AppError::Option(format!(
            "--front-depth {}: give 1 to 64 plies",
            r.depth
        )));
    }
    struct Run<'a>(&'a FrontRequest);
    impl GameVisitor for Run<'_> {
        type Output = Result<FrontReport, AppError>;
        fn visit<G: AppGame>(self) -> Self::Output {
            run::<G>(self.0)
        }
    }
    r.game.visit(Run(r))
}

fn run<G: AppGame>(r: &FrontRequest) -> Result<FrontReport, AppError> {
    let rules = rules_of::<G>(r.rules.as_deref())?;
    let root: G = position_of(&rules, r.fen.as_deref())?;
    let opened = match &r.tables {
        Some(dir) => Some(G::open_tables(dir, &rules)?.ok_or_else(|| {
            AppError::Input(format!(
                "no tables of this game and rule set in {}",
                dir.display()
            ))
        })?),
        None => None,
    };
    let cfg = Config {
        hash_mb: 16,
        threads: 1,
        ..Config::default()
    };
    let mut engine = Engine::try_new(
        cfg,
        G::hand_written_eval(),
        <G as EngineGame>::Tactics::default(),
    )
    .map_err(|e| AppError::Option(e.to_string()))?;
    engine.set_oracle(opened.as_ref().map(|t| t.oracle.clone()));
    // Each position searched afresh: the same front every run.
    let mut search = |pos: &G, hist: &History| {
        engine.clear();
        engine.search(pos, hist, &Limits::depth(r.depth), &mut |_| {})
    };
    let fresh =
        |pos: &G| History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
    if root.terminal().is_some()
        || opened
            .as_ref()
            .is_some_and(|t| t.oracle.probe(&root).is_some())
    {
        return Err(AppError::Input(format!(
            "{}: the game is over or the tables value it; it has no front",
            root.to_fen()
        )));
    }
    let root_found = search(&root, &fresh(&root));
    let mover = root.side_to_move();
    let prover = match r.prover {
        Prover::Guess if root_found.score >= 0 => Some(mover),
        Prover::Guess => Some(mover.flip()),
        Prover::Mover => Some(mover),
        Prover::Other => Some(mover.flip()),
        Prover::Neither => None,
    };
    // Scores are given for the prover (the root's side to move when
    // there is none).
    let for_scores = prover.unwrap_or(mover);
    let mut w = Walk {
        plies: r.plies,
        prover,
        oracle: opened.as_ref().map(|t| t.oracle.as_ref()),
        seen: HashSet::new(),
        path: Vec::new(),
        hist: fresh(&root),
        front: Vec::new(),
        decided: 0,
        repeated: 0,
    };
    let mut pos = root.clone();
    w.expand(&mut pos, 0, &mut search)?;
    let mut positions: Vec<FrontPosition> = w
        .front
        .iter()
        .map(|p| {
            let found = search(p, &fresh(p));
            let score = if p.side_to_move() == for_scores {
                found.score
            } else {
                -found.score
            };
            FrontPosition {
                fen: p.to_fen(),
                plies: r.plies,
                score,
            }
        })
        .collect();
    // The best for the prover first; ties in the order found.
    positions.sort_by_key(|p| std::cmp::Reverse(p.score));
    Ok(FrontReport {
        root: root.to_fen(),
        plies: r.plies,
        root_score: root_found.score,
        prover: match prover {
            Some(s) if s == mover => "side-to-move",
            Some(_) => "opponent",
            None => "neither",
        },
        positions,
        decided: w.decided,
        repeated: w.repeated,
    })
}

struct Walk<'a, G: Game> {
    plies: u32,
    prover: Option<Side>,
    oracle: Option<&'a dyn zoo_core::Oracle<G>>,
    /// Every position met, by key and FEN.
    seen: HashSet<(u64, String)>,
    /// The keys of the line from the root.
    path: Vec<u64>,
    /// The line from the root as the engine reads it: a prover's move
    /// that repeats the line is no move of a proof.
    hist: History,
    /// The front's positions, as found.
    front: Vec<G>,
    decided: u64,
    repeated: u64,
}

impl<G: AppGame> Walk<'_, G> {
    fn expand(
        &mut self,
        pos: &mut G,
        ply: u32,
        search: &mut impl FnMut(&G, &History) -> zoo_search::SearchResult<G::Move>,
    ) -> Result<(), AppError> {
        if ply > 0 {
            if pos.terminal().is_some() || self.oracle.is_some_and(|o| o.probe(pos).is_some()) {
                self.decided += 1;
                return Ok(());
            }
            if self.path.contains(&pos.key()) || !self.seen.insert((pos.key(), pos.to_fen())) {
                self.repeated += 1;
                return Ok(());
            }
        }
        if ply == self.plies {
            if self.front.len() == MAX_FRONT_POSITIONS {
                return Err(AppError::Option(format!(
                    "the front {} plies down holds more than {MAX_FRONT_POSITIONS} positions: \
                     give fewer plies or a prover",
                    self.plies
                )));
            }
            self.front.push(pos.clone());
            return Ok(());
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let chosen: Vec<G::Move> = if Some(pos.side_to_move()) == self.prover {
            // The engine's move; a position with no move is decided by
            // the game's end above.
            search(pos, &self.hist).best.into_iter().collect()
        } else {
            moves.iter().copied().collect()
        };
        self.path.push(pos.key());
        for mv in chosen {
            let undo = pos.make(mv);
            self.hist.push(pos.key(), pos.piece_count());
            let r = self.expand(pos, ply + 1, search);
            self.hist.pop();
            pos.unmake(mv, undo);
            r?;
        }
        self.path.pop();
        Ok(())
    }
}
