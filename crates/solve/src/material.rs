//! One piece past the tables: the whole table of the root's material,
//! built in memory from the oracle's tables by the caller's
//! [`MaterialBuilder`] (the animal games': `zoo-animal-tb`'s `memory`),
//! values the root and every position of its material, so the answer
//! and its proof need no search (docs/solve.md, "One piece past the
//! tables").
//!
//! Where it pays: a 5-piece Jungle Checkers material holds 1·10⁸ entries
//! a side, too many for the reachable graph's index ([`crate::graph`]) at
//! about 100 bytes a position, but its table is built at 2 bytes an entry
//! and side in well under a minute, while df-pn leaves its longest wins
//! (85 plies) open after many minutes. Like the graph, it values the
//! game where endless play is a draw, so it is only for games whose play
//! does not depend on move counters ([`Game::counter_free`]).
//!
//! ```
//! use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN as RULES, JungleCheckersPos};
//! use zoo_core::{BuildCost, Game, MaterialBuilder, Oracle, OracleValue, Outcome};
//! use zoo_solve::{material, Answer, Goal, Limits};
//!
//! // A stand-in for a table builder: it knows that the rat walks in.
//! struct Known;
//! impl Oracle<JungleCheckersPos> for Known {
//!     fn max_pieces(&self) -> u32 { 2 }
//!     fn probe(&self, pos: &JungleCheckersPos) -> Option<OracleValue> {
//!         let o = pos.terminal().map(|o| (o, 0)).unwrap_or((Outcome::Win, 1));
//!         Some(OracleValue::exact(o.0, o.1))
//!     }
//! }
//! impl MaterialBuilder<JungleCheckersPos> for Known {
//!     fn cost(&self, _: &JungleCheckersPos) -> Option<BuildCost> {
//!         Some(BuildCost { bytes: 1, entries: 1, work: 1 })
//!     }
//!     fn build(
//!         &self,
//!         _: &JungleCheckersPos,
//!         _: &(dyn Fn(u64) -> bool + Sync),
//!     ) -> Result<Box<dyn Oracle<JungleCheckersPos>>, String> {
//!         Ok(Box::new(Known))
//!     }
//! }
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&RULES).unwrap();
//! let t = material::solve(&pos, None, &Known, &Limits::default()).unwrap();
//! assert_eq!((t.value(), t.distance()), (Outcome::Win, 1));
//! let r = t.report(Goal::Win, true);
//! assert_eq!(r.answer, Answer::Proven);
//! assert_eq!(r.proof.unwrap().children(0).len(), 1);
//! ```

use crate::known::{self, Cost};
use crate::limits::{Limits, Progress, Report, PROGRESS_EVERY};
use crate::value::Goal;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;
use zoo_core::{Game, MaterialBuilder, Oracle, Outcome};

/// The root's material, valued whole.
pub struct Table<'a, G: Game> {
    root: G,
    oracle: Option<&'a dyn Oracle<G>>,
    table: Box<dyn Oracle<G>>,
    value: (Outcome, u16),
    cost: Cost,
}

/// Why no table was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The builder cannot make this material's table (not one piece past
    /// its tables, or the game's play depends on move counters), or the
    /// build failed: why.
    Cannot(String),
    /// The time limit or a stop request.
    Limit,
}

/// Builds the table of `root`'s material with `builder` within `limits`'
/// time (reporting its progress as `limits` asks) and values `root` from
/// it. `oracle` is the tables the builder builds from: the proofs' leaves.
pub fn solve<'a, G: Game>(
    root: &G,
    oracle: Option<&'a dyn Oracle<G>>,
    builder: &dyn MaterialBuilder<G>,
    limits: &Limits,
) -> Result<Table<'a, G>, Stop> {
    if !root.counter_free() {
        return Err(Stop::Cannot(
            "play depends on move counters: positions are not valued alone".into(),
        ));
    }
    let Some(cost) = builder.cost(root) else {
        return Err(Stop::Cannot(
            "no table of this material can be built here".into(),
        ));
    };
    let start = Instant::now();
    let done = AtomicU64::new(0);
    let last = Mutex::new(start);
    let stopped = AtomicU64::new(0);
    // Called by the build's threads after each piece of work.
    let tick = |k: u64| {
        let work = done.fetch_add(k, Relaxed) + k;
        if let Some(f) = limits.progress {
            if let Ok(mut l) = last.try_lock() {
                if l.elapsed() >= PROGRESS_EVERY {
                    *l = Instant::now();
                    f(&Progress {
                        // Entries valued so far, about.
                        nodes: (work as u128 * cost.entries as u128 / cost.work.max(1) as u128)
                            as u64,
                        bytes: cost.bytes,
                        seconds: start.elapsed().as_secs_f64(),
                        root: None,
                        deriving: None,
                    });
                }
            }
        }
        let stop =
            limits.time.is_some_and(|t| start.elapsed() >= t) || limits.stop.is_some_and(|s| s());
        if stop {
            stopped.store(1, Relaxed);
        }
        stop
    };
    let table = match builder.build(root, &tick) {
        Ok(t) => t,
        Err(_) if stopped.load(Relaxed) != 0 => return Err(Stop::Limit),
        Err(why) => return Err(Stop::Cannot(why)),
    };
    let Some(v) = table.probe(root) else {
        return Err(Stop::Cannot(
            "the built table does not hold the root".into(),
        ));
    };
    Ok(Table {
        root: root.clone(),
        oracle,
        value: (v.outcome, v.distance.unwrap_or(0)),
        table,
        cost: Cost {
            nodes: cost.entries,
            expansions: 0,
            bytes: cost.bytes,
            seconds: start.elapsed().as_secs_f64(),
            progress: limits.progress,
        },
    })
}

impl<G: Game> Table<'_, G> {
    /// The root's value for its side to move.
    pub fn value(&self) -> Outcome {
        self.value.0
    }

    /// Plies from the root to the end: the fewest to a win, the most to
    /// a loss, 0 for a draw.
    pub fn distance(&self) -> u16 {
        self.value.1
    }

    /// Entries of the table (both sides to move).
    pub fn entries(&self) -> u64 {
        self.cost.nodes
    }

    /// The answer to `goal` at the root, as the other algorithms report
    /// one, with its proof when `proof` asks for it (the proof's leaves
    /// are the oracle's positions, so a checker needs the tables the
    /// build started from, not this one).
    pub fn report(&self, goal: Goal, proof: bool) -> Report<G::Move> {
        let values = |pos: &G| {
            self.table
                .probe(pos)
                .map(|v| (v.outcome, v.distance.unwrap_or(0)))
        };
        known::report(
            &self.root,
            self.oracle,
            goal,
            self.value(),
            proof,
            &values,
            self.cost,
        )
    }
}
