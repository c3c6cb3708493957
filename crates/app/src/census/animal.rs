//! The census of Jungle and Jungle Checkers (docs/census.md): per number
//! of pieces the unfinished, unreachable, stalemated and won positions,
//! by counting (Jungle Checkers) or by enumerating every position with
//! the rules (both games, the independent check).

use super::checkpoint::{Checkpoint, Header};
use crate::{AppError, GameKind};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use zoo_animal::census::sample::{self, Estimate, EstimatedRow};
use zoo_animal::census::{count, enumerate, parity_pieces, Reading, Row};
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};

/// How the counts are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Jungle Checkers only, readings `one` and `thesis`: the exceptions
    /// counted from the squares that make them, the rest combinatorially
    /// (all eight rows in about a second).
    Count,
    /// Every position set up and classified with the move and unmove
    /// generators (minutes from 5 pieces on); every reading.
    Enumerate,
}

impl std::str::FromStr for Method {
    type Err = AppError;
    fn from_str(s: &str) -> Result<Self, AppError> {
        match s {
            "count" => Ok(Method::Count),
            "enumerate" => Ok(Method::Enumerate),
            _ => Err(AppError::Input(format!(
                "unknown method `{s}`: count or enumerate"
            ))),
        }
    }
}

/// What to count.
#[derive(Clone, Debug)]
pub struct CensusRequest {
    /// Jungle or Jungle Checkers.
    pub game: GameKind,
    /// A rule set's name; the game's default when `None`.
    pub rules: Option<String>,
    /// The smallest and largest number of pieces.
    pub pieces: (u32, u32),
    /// How reachability is read.
    pub reach: Reading,
    /// `None`: counting where it applies, else enumeration.
    pub method: Option<Method>,
    /// Worker threads of the enumeration.
    pub threads: usize,
    /// Where the enumeration keeps the materials it has counted, to go on
    /// after a stop (docs/census.md, "Long runs").
    pub checkpoint: Option<std::path::PathBuf>,
}

/// The counts and what they were made with.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AnimalCensusReport {
    /// The game counted.
    pub game: GameKind,
    /// The rule set's name.
    pub rules: &'static str,
    /// The reading of reachability.
    pub reach: &'static str,
    /// How the counts were made.
    pub method: Method,
    /// One row per number of pieces.
    pub rows: Vec<Row>,
    /// The reachable positions of all the rows.
    pub total: u128,
    /// Whether every row from 1 piece to the game's maximum is here (so
    /// `total` is the whole position space).
    pub complete: bool,
}

/// The `total` of an enumeration's progress: `done` is in millionths.
pub const MILLION: usize = 1_000_000;

/// Counts the census; `progress(done, total)` after each unit of work (a
/// row when counting; when enumerating, a material, `done` then the share
/// of the placements enumerated in millionths of [`MILLION`]); `stop` set
/// ends it with [`AppError::Interrupted`].
pub fn animal_census(
    req: &CensusRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<AnimalCensusReport, AppError> {
    match req.game {
        GameKind::JungleCheckers => census::<JungleCheckers>(req, progress, stop),
        GameKind::Jungle => census::<Jungle>(req, progress, stop),
        other => Err(AppError::Input(format!(
            "this census counts the animal games; {other} is counted without --reach and --method"
        ))),
    }
}

fn census<B: Board>(
    req: &CensusRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<AnimalCensusReport, AppError> {
    let rules = rule_set::<B>(req)?;
    let (lo, hi) = check_request::<B>(req)?;
    let most = 2 * B::KINDS as u32;
    let countable =
        B::GAME == JungleCheckers::GAME && matches!(req.reach, Reading::One | Reading::Thesis);
    let method = match req.method {
        Some(Method::Count) if !countable => {
            return Err(AppError::Input(format!(
                "the counting method covers Jungle Checkers under the readings one and thesis; use --method enumerate for {} under `{}`",
                B::GAME, req.reach
            )))
        }
        Some(m) => m,
        None if countable => Method::Count,
        None => Method::Enumerate,
    };
    if method == Method::Count && req.checkpoint.is_some() {
        return Err(AppError::Input(
            "counting takes about a second and keeps no checkpoint; --checkpoint is for --method enumerate".into(),
        ));
    }
    let rows = match method {
        Method::Count => {
            let opts = count::Options {
                reading: req.reach,
                parity_pieces: parity_pieces::<B>(),
                stop: Some(stop),
            };
            let mut rows = Vec::new();
            for n in lo..=hi {
                rows.push(count::row(rules, n, &opts).map_err(|e| match e {
                    count::CountError::Stopped => AppError::Interrupted,
                    e => AppError::Input(e.to_string()),
                })?);
                progress((n - lo + 1) as usize, (hi - lo + 1) as usize);
            }
            rows
        }
        Method::Enumerate => enumerate_rows::<B>(rules, req, progress, stop)?,
    };
    Ok(AnimalCensusReport {
        game: req.game,
        rules: rules.name,
        reach: req.reach.name(),
        method,
        total: rows.iter().map(|r| r.reachable).sum(),
        complete: lo == 1 && hi == most,
        rows,
    })
}

fn rule_set<B: Board>(req: &CensusRequest) -> Result<&'static RuleSet, AppError> {
    match &req.rules {
        Some(name) => {
            zoo_animal::board::by_name::<B>(name).map_err(|e| AppError::Input(e.to_string()))
        }
        None => Ok(B::rule_sets()[0]),
    }
}

/// The request's rows, its threads checked.
fn check_request<B: Board>(req: &CensusRequest) -> Result<(u32, u32), AppError> {
    let most = 2 * B::KINDS as u32;
    let (lo, hi) = req.pieces;
    if lo == 0 || lo > hi || hi > most {
        return Err(AppError::Input(format!(
            "{} has 1 to {most} pieces; asked for {lo} to {hi}",
            B::GAME
        )));
    }
    crate::options::check_threads(req.threads)?;
    Ok((lo, hi))
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, AppError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| AppError::Input(format!("cannot start {threads} threads: {e}")))
}

fn enumerate_error(e: enumerate::EnumerateError) -> AppError {
    match e {
        enumerate::EnumerateError::Stopped => AppError::Interrupted,
        e => AppError::Input(e.to_string()),
    }
}

fn enumerate_rows<B: Board>(
    rules: &'static RuleSet,
    req: &CensusRequest,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<Vec<Row>, AppError> {
    let (lo, hi) = req.pieces;
    let opts = enumerate::Options {
        reading: req.reach,
        parity_pieces: parity_pieces::<B>(),
        stop: Some(stop),
    };
    // The largest materials first, so that the threads end together.
    let mut work: Vec<(u32, enumerate::Material)> = (lo..=hi)
        .flat_map(|n| {
            enumerate::materials::<B>(n)
                .into_iter()
                .map(move |m| (n, m))
        })
        .collect();
    work.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    let checkpoint = match &req.checkpoint {
        Some(path) => Some(Checkpoint::open(
            path,
            &Header {
                game: B::GAME.to_string(),
                rules: rules.name.to_string(),
                reach: req.reach.name().to_string(),
            },
        )?),
        None => None,
    };
    let earlier: Vec<(u32, Row)> = match &checkpoint {
        Some(c) => work
            .iter()
            .filter_map(|&(_, m)| c.done.get(&m).copied())
            .collect(),
        None => Vec::new(),
    };
    if let Some(c) = &checkpoint {
        work.retain(|&(_, m)| !c.done.contains_key(&m));
    }
    let pool = pool(req.threads)?;
    // Progress is the share of the placements enumerated, in millionths:
    // a material of n pieces has about squares · (squares − 1) · … (n
    // factors) of them, so the 8-piece materials are most of the work.
    let weight = |n: u32| -> f64 {
        (0..n)
            .map(|k| (B::SQUARES as u32).saturating_sub(k) as f64)
            .product()
    };
    let total_work: f64 = work.iter().map(|&(n, _)| weight(n)).sum();
    let done = std::sync::Mutex::new(0.0f64);
    let counted: Result<Vec<(u32, Row)>, AppError> = pool.install(|| {
        work.par_iter()
            .map(|&(n, m)| {
                let r = enumerate::material_row::<B>(rules, m, &opts).map_err(enumerate_error)?;
                if let Some(c) = &checkpoint {
                    c.record(n, m, &r)?;
                }
                let share = {
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    *d += weight(n);
                    *d / total_work.max(1.0)
                };
                progress(((share * MILLION as f64) as usize).min(MILLION), MILLION);
                Ok((n, r))
            })
            .collect()
    });
    let counted = counted?;
    let mut rows: Vec<Row> = (lo..=hi)
        .map(|pieces| Row {
            pieces,
            ..Row::default()
        })
        .collect();
    for (n, r) in counted.into_iter().chain(earlier) {
        rows[(n - lo) as usize].add(&r);
    }
    Ok(rows)
}

/// A census estimated by sampling (the rows too large to enumerate).
#[derive(Clone, Debug, serde::Serialize)]
pub struct EstimateReport {
    /// The game.
    pub game: GameKind,
    /// The rule set's name.
    pub rules: &'static str,
    /// The reading of reachability.
    pub reach: &'static str,
    /// Draws per row.
    pub samples: u64,
    /// The generator's seed (the same seed, the same estimate).
    pub seed: u64,
    /// One estimated row per number of pieces.
    pub rows: Vec<EstimatedRow>,
    /// The reachable positions of all the rows, with the half-width of
    /// its 95% interval (the rows' errors independent).
    pub total: Estimate,
    /// Whether every row from 1 piece to the game's maximum is here.
    pub complete: bool,
}

/// Estimates the rows of `req` from `samples` draws each; `progress(done,
/// total)` per row.
pub fn animal_estimate(
    req: &CensusRequest,
    samples: u64,
    seed: u64,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<EstimateReport, AppError> {
    match req.game {
        GameKind::JungleCheckers => {
            estimate_rows::<JungleCheckers>(req, samples, seed, progress, stop)
        }
        GameKind::Jungle => estimate_rows::<Jungle>(req, samples, seed, progress, stop),
        other => Err(AppError::Input(format!(
            "this census counts the animal games; {other} is counted without --reach and --sample"
        ))),
    }
}

fn estimate_rows<B: Board>(
    req: &CensusRequest,
    samples: u64,
    seed: u64,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &AtomicBool,
) -> Result<EstimateReport, AppError> {
    let rules = rule_set::<B>(req)?;
    let (lo, hi) = check_request::<B>(req)?;
    if samples < 2 {
        return Err(AppError::Input(format!(
            "--sample {samples}: at least 2 draws per row"
        )));
    }
    let opts = enumerate::Options {
        reading: req.reach,
        parity_pieces: parity_pieces::<B>(),
        stop: Some(stop),
    };
    let pool = pool(req.threads)?;
    let done = AtomicUsize::new(0);
    let rows: Result<Vec<EstimatedRow>, AppError> = pool.install(|| {
        (lo..=hi)
            .into_par_iter()
            .map(|n| {
                let r = sample::estimate::<B>(rules, n, samples, seed, &opts)
                    .map_err(enumerate_error)?;
                progress(
                    done.fetch_add(1, Ordering::Relaxed) + 1,
                    (hi - lo + 1) as usize,
                );
                Ok(r)
            })
            .collect()
    });
    let rows = rows?;
    let total = Estimate {
        value: rows.iter().map(|r| r.reachable.value).sum(),
        half_width: rows
            .iter()
            .map(|r| r.reachable.half_width.powi(2))
            .sum::<f64>()
            .sqrt(),
    };
    Ok(EstimateReport {
        game: req.game,
        rules: rules.name,
        reach: req.reach.name(),
        samples,
        seed,
        rows,
        total,
        complete: lo == 1 && hi == 2 * B::KINDS as u32,
    })
}
