//! Move-path counts (perft) of any game, as the front ends ask for them.

use crate::games::{position_of, rules_of};
use crate::{AppError, AppGame, GameKind, GameVisitor};
use serde::Serialize;
use std::time::Instant;
use zoo_core::{perft_divide_counting, perft_parallel, Counting, Game, History, Repetition};

/// What to count.
#[derive(Clone, Debug)]
pub struct PerftRequest {
    /// The game.
    pub game: GameKind,
    /// Its rule set (`None`: the default).
    pub rules: Option<String>,
    /// The position (`None`: the start).
    pub fen: Option<String>,
    /// Plies to count.
    pub depth: u32,
    /// Which repetitions end a path (`none` for the published counts).
    pub repetition: Repetition,
    /// Which paths count: finished games as leaves (the published counts)
    /// or only paths of the full length (chess's and JCEI engines' perft).
    pub counting: Counting,
    /// Count below each root move too.
    pub divide: bool,
    /// Threads over the root moves.
    pub threads: usize,
    /// Count deeper than [`MAX_PERFT_DEPTH`] (`zoo perft --no-cap`).
    pub no_cap: bool,
}

/// The deepest count `zoo perft` starts without `--no-cap`: the paths grow
/// by a factor of the branching (tens of moves) a ply, so a count much
/// deeper than the published ones (docs/rules/*.md §8) runs for months; a
/// mistyped `--depth 1000` is refused rather than started.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// A count and what it took.
#[derive(Clone, Debug, Serialize)]
pub struct PerftReport {
    /// The game's name.
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// The position counted from.
    pub fen: String,
    /// The repetition policy's name.
    pub repetition: &'static str,
    /// Plies counted.
    pub depth: u32,
    /// `finished-as-leaves` or `full-length` (zoo_core's `Counting`).
    pub counting: &'static str,
    /// Paths of `depth` plies (finished games count where they end, or
    /// not at all when `counting` is `full-length`).
    pub nodes: u64,
    /// How long it took.
    pub seconds: f64,
    /// Paths per second.
    pub nodes_per_second: f64,
    /// Threads used.
    pub threads: usize,
    /// With `divide`: each root move (coordinates, the game's notation)
    /// and the count below it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<DividedMove>>,
}

/// One root move of a divided count.
#[derive(Clone, Debug, Serialize)]
pub struct DividedMove {
    /// The move in coordinates.
    #[serde(rename = "move")]
    pub coord: String,
    /// The move in the game's notation.
    pub san: String,
    /// Paths below it.
    pub nodes: u64,
}

/// Counts the paths of `r.depth` plies from `r`'s position.
pub fn perft(r: &PerftRequest) -> Result<PerftReport, AppError> {
    perft_with_progress(r, &|_, _| {})
}

/// [`perft`], calling `progress(done, total)` as the count below each root
/// move is finished.
pub fn perft_with_progress(
    r: &PerftRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PerftReport, AppError> {
    struct Count<'a>(&'a PerftRequest, &'a (dyn Fn(usize, usize) + Sync));
    impl GameVisitor for Count<'_> {
        type Output = Result<PerftReport, AppError>;
        fn visit<G: AppGame>(self) -> Self::Output {
            count::<G>(self.0, self.1)
        }
    }
    r.game.visit(Count(r, progress))
}

fn count<G: Game>(
    r: &PerftRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PerftReport, AppError> {
    let rules = rules_of::<G>(r.rules.as_deref())?;
    let pos: G = position_of(&rules, r.fen.as_deref())?;
    let hist = History::starting_at(r.repetition, pos.key(), pos.piece_count());
    crate::options::check_threads(r.threads)?;
    if r.depth > MAX_PERFT_DEPTH && !r.no_cap {
        return Err(AppError::Option(format!(
            "depth {} is more than perft's cap of {MAX_PERFT_DEPTH} plies (such a count runs for \
             months); give --no-cap to count anyway",
            r.depth
        )));
    }
    let threads = r.threads;
    let t0 = Instant::now();
    // Split at the root (also on one thread) when there is a root to
    // split: each root move finished is progress.
    let full = r.counting == Counting::FullLength;
    let (nodes, divide) = if r.divide || r.depth >= 2 || full {
        let d = perft_divide_counting(&pos, r.depth, &hist, threads, r.counting, progress);
        // No move: the position itself is the one path (a path of the full
        // length only when no ply was asked for).
        let n = if d.is_empty() {
            if full && r.depth > 0 {
                0
            } else {
                1
            }
        } else {
            d.iter().map(|&(_, n)| n).sum()
        };
        let moves = d
            .iter()
            .map(|&(m, nodes)| DividedMove {
                coord: pos.move_to_coord(m),
                san: pos.move_to_string(m),
                nodes,
            })
            .collect();
        (n, r.divide.then_some(moves))
    } else {
        (perft_parallel(&pos, r.depth, &hist, threads), None)
    };
    let seconds = t0.elapsed().as_secs_f64();
    Ok(PerftReport {
        game: pos.game_name(),
        rules: pos.rules_name(),
        fen: pos.to_fen(),
        repetition: r.repetition.name(),
        depth: r.depth,
        counting: r.counting.name(),
        nodes,
        seconds,
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        threads,
        divide,
    })
}
