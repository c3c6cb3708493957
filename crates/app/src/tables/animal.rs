//! The animal games' tables behind [`TableSet`](crate::TableSet): one
//! visitor per table command, run with the game's board type
//! (`zoo-animal-tb`); the checkers games' are in [`crate::tables::scheme`].

use crate::tables::*;
use crate::AppError;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use zoo_animal::{Board, Position, RuleSet};
use zoo_animal_tb::build::{BuildOptions, Built};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::{Game, Outcome};
use zoo_tb::TbError;

/// A share of the machine's memory the exhaustive check may not exceed.
const VERIFY_MEMORY_SHARE: f64 = 0.8;

/// The rule set a [`TableSet`] names.
pub(crate) fn rules_of<B: Board>(set: &TableSet) -> Result<&'static RuleSet, AppError> {
    Ok(match &set.rules_name() {
        Some(n) => zoo_animal::board::by_name::<B>(n)?,
        None => B::rule_sets()[0],
    })
}

/// A table has one piece a side at least and at most every piece.
pub(crate) fn check_pieces<B: Board>(pieces: u32) -> Result<(), AppError> {
    let most = 2 * B::KINDS as u32;
    if pieces < 2 || pieces > most {
        return Err(AppError::Input(format!(
            "--pieces {pieces}: tables of {} have 2 to {most} pieces (one a side at least)",
            B::GAME
        )));
    }
    Ok(())
}

/// The materials of `sample`, by a fixed hash of the material.
fn keep_part(sample: Sample) -> impl Fn(Material) -> bool + Sync {
    let keep = keep_key(sample);
    move |m: Material| keep(m.key() as u64)
}

fn build_options<B: Board>(req: &BuildRequest) -> Result<BuildOptions, AppError> {
    check_pieces::<B>(req.pieces)?;
    Ok(BuildOptions {
        pieces: req.pieces,
        threads: req.threads,
        memory_bytes: memory_budget(req)?,
        encoding: req.encoding,
        copies: !req.solve_all,
        checkpoint_from: req.checkpoint_from,
    })
}

pub(crate) struct CheckRules<'a>(pub(crate) &'a TableSet);
impl TableVisitor for CheckRules<'_> {
    type Output = Result<(), AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        rules_of::<B>(self.0).map(|_| ())
    }
}

pub(crate) struct TableDir<'a>(pub(crate) &'a TableSet);
impl TableVisitor for TableDir<'_> {
    type Output = Result<PathBuf, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.0)?;
        Ok(zoo_tb::file::table_dir(self.0.dir(), B::GAME, rules.name))
    }
}

pub(crate) struct PlanIt<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) req: &'a BuildRequest,
}
impl TableVisitor for PlanIt<'_> {
    type Output = Result<BuildPlan, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let dir = self.set.dir();
        let (jobs, options) = match &self.req.material {
            None => {
                let opts = build_options::<B>(self.req)?;
                (zoo_animal_tb::plan::plan::<B>(dir, rules, &opts)?, opts)
            }
            Some(name) => {
                let m = Material::parse::<B>(name).ok_or_else(|| {
                    AppError::Input(format!(
                        "--material {name}: not a material of {} (White's letters of {}, `v`, Black's in lower case)",
                        B::GAME,
                        std::str::from_utf8(B::LETTERS).unwrap_or("?")
                    ))
                })?;
                let opts = build_options::<B>(&BuildRequest {
                    pieces: m.pieces(),
                    ..self.req.clone()
                })?;
                (
                    zoo_animal_tb::plan::plan_for::<B>(dir, rules, &opts, m)?,
                    opts,
                )
            }
        };
        let name = |m: Material| m.name::<B>();
        Ok(BuildPlan {
            game: B::GAME,
            rules: rules.name,
            dir: zoo_tb::file::table_dir(dir, B::GAME, rules.name),
            pieces: options.pieces,
            present: jobs.present,
            budget_bytes: options.memory_bytes,
            tables: jobs
                .jobs
                .iter()
                .map(|j| PlannedTable {
                    name: name(j.material),
                    pieces: j.pieces,
                    positions: j.positions,
                    working_bytes: j.working_bytes,
                    copied_from: j.source.map(|r| name(r.source)),
                    state_in_file: j.state_in_file,
                    needs: j.needs.iter().map(|&m| name(m)).collect(),
                })
                .collect(),
            work: PlanWork::Animal { jobs, options },
        })
    }
}

pub(crate) struct GenericIt<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) pieces: u32,
    pub(crate) done: &'a (dyn Fn(&str, bool) + Sync),
    pub(crate) stop: &'a AtomicBool,
}
impl TableVisitor for GenericIt<'_> {
    type Output = Result<BuildOutcome, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        check_pieces::<B>(self.pieces)?;
        let r = zoo_animal_tb::build_retro::build_retro::<B>(
            self.set.dir(),
            rules,
            self.pieces,
            &|w| (self.done)(&w.material.name::<B>(), w.built),
            self.stop,
        );
        match r {
            Ok(w) => Ok(BuildOutcome::Done {
                built: w.iter().filter(|w| w.built).count(),
            }),
            Err(TbError::Interrupted) => {
                let tb = Tablebase::<B>::open(self.set.dir(), rules);
                let missing = (2..=self.pieces)
                    .flat_map(Material::canonical::<B>)
                    .filter(|&m| !tb.path_of(m).exists())
                    .count();
                Ok(BuildOutcome::Interrupted { missing })
            }
            Err(e) => Err(e.into()),
        }
    }
}

pub(crate) struct BuildIt<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) plan: &'a BuildPlan,
    pub(crate) ranks: &'a Ranks<'a>,
    pub(crate) progress: &'a (dyn Fn(u64) + Sync),
    pub(crate) finished: &'a (dyn Fn(&Built) + Sync),
    pub(crate) stop: &'a AtomicBool,
}
impl TableVisitor for BuildIt<'_> {
    type Output = Result<BuildOutcome, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let plan = self.plan;
        let PlanWork::Animal { jobs, options } = &plan.work else {
            return Err(AppError::Input(format!(
                "a plan of {} {} given to the tables of {} {}",
                plan.game,
                plan.rules,
                B::GAME,
                rules.name
            )));
        };
        if plan.game != B::GAME || plan.rules != rules.name {
            return Err(AppError::Input(format!(
                "a plan of {} {} given to the tables of {} {}",
                plan.game,
                plan.rules,
                B::GAME,
                rules.name
            )));
        }
        let made = AtomicUsize::new(0);
        let finished = |b: &Built| {
            made.fetch_add(1, Ordering::Relaxed);
            (self.finished)(b)
        };
        let r = zoo_animal_tb::build::build_on::<B>(
            self.set.dir(),
            rules,
            options,
            jobs,
            self.ranks,
            self.progress,
            &finished,
            self.stop,
        );
        match r {
            Ok(r) => Ok(BuildOutcome::Done {
                built: r.built.len(),
            }),
            Err(TbError::Interrupted) => Ok(BuildOutcome::Interrupted {
                missing: plan
                    .tables
                    .len()
                    .saturating_sub(made.load(Ordering::Relaxed)),
            }),
            Err(e) => Err(e.into()),
        }
    }
}

pub(crate) struct StatsOf<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) pieces: u32,
}
impl TableVisitor for StatsOf<'_> {
    type Output = Result<TableStats, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        check_pieces::<B>(self.pieces)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let s = zoo_animal_tb::build::stats(&tb, self.pieces)?;
        Ok(TableStats {
            game: B::GAME,
            rules: rules.name,
            pieces: self.pieces,
            counted: "both colours, no piece on a den, no stalemate",
            positions: s.positions,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            longest: s.longest,
            missing: 0,
        })
    }
}

pub(crate) struct ProbeOf<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) fen: &'a str,
}
impl TableVisitor for ProbeOf<'_> {
    type Output = Result<ProbeReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pos = Position::<B>::from_fen_str(self.fen, rules)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let game_over = pos.terminal_outcome().is_some();
        // The full tables when the position's and its children's are all
        // there, else the WDL files' values without distances.
        let full = tb.try_probe(&pos).and_then(|v| {
            let moves = if game_over {
                Vec::new()
            } else {
                tb.probe_moves(&pos)?
            };
            Ok((v, moves))
        });
        let ((value, distance), moves, distance_known) = match full {
            Ok((v, moves)) => (v, moves, true),
            Err(TbError::WdlOnly { .. }) => {
                let value = tb.probe_wdl(&pos)?;
                let mut moves = Vec::new();
                if !game_over {
                    let mut list = zoo_core::MoveList::new();
                    pos.generate(&mut list);
                    for m in list {
                        let mut p = pos.clone();
                        p.make_move(m);
                        moves.push((m, tb.probe_wdl(&p)?, 0));
                    }
                    // Best first for the mover: the child's loss, draw, win.
                    moves.sort_by_key(|&(_, o, _)| match o {
                        Outcome::Loss => 0,
                        Outcome::Draw => 1,
                        Outcome::Win => 2,
                    });
                }
                ((value, 0), moves, false)
            }
            Err(e) => return Err(e.into()),
        };
        Ok(ProbeReport {
            game: B::GAME,
            rules: rules.name,
            fen: pos.to_fen(),
            value,
            distance,
            distance_known,
            game_over,
            moves: probed_moves(&pos, moves, distance_known),
        })
    }
}

pub(crate) struct VerifyAll<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) pieces: u32,
    pub(crate) sample: Sample,
    pub(crate) threads: usize,
    pub(crate) progress: &'a (dyn Fn(usize, usize) + Sync),
}
impl TableVisitor for VerifyAll<'_> {
    type Output = Result<VerifyReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces::<B>(pieces)?;
        // The verifier addresses positions square by square (64 per
        // piece): a material being solved needs a 4-byte map from those
        // numbers to its positions (later its two value arrays, 2 bytes a
        // number), and the values of every material one size smaller are
        // kept. Refuse what cannot fit rather than fail on an allocation.
        let raw = |n: u32| 64f64.powi(n as i32);
        let need = self.threads.max(1) as f64 * 4.0 * raw(pieces)
            + Material::all::<B>(pieces - 1).len() as f64 * 2.0 * raw(pieces - 1);
        if let Some(total) = crate::machine::total_memory() {
            if need > VERIFY_MEMORY_SHARE * total as f64 {
                return Err(AppError::Input(format!(
                    "verifying {pieces} pieces needs at least {:.0} GB (the independent solver's arrays), \
                     more than this machine's {:.0} GB allow; verify fewer pieces, or check random \
                     positions of the {pieces}-piece tables with --positions K",
                    need / 1e9,
                    total as f64 / 1e9,
                )));
            }
        }
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        for n in 2..=pieces {
            for m in Material::canonical::<B>(n) {
                tb.table(m).map_err(|e| {
                    AppError::Input(format!(
                        "cannot verify {} up to {pieces} pieces: {e}",
                        B::GAME
                    ))
                })?;
            }
        }
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let keep = keep_part(self.sample);
        let r = pool.install(|| {
            zoo_animal_tb::verify::verify_with_progress(&tb, pieces, &keep, self.progress)
        });
        Ok(VerifyReport {
            game: B::GAME,
            rules: rules.name,
            pieces,
            materials: r.materials,
            positions: r.positions,
            seconds: t0.elapsed().as_secs_f64(),
            mismatch_count: r.mismatch_count,
            mismatches: r.mismatches,
        })
    }
}

pub(crate) struct VerifySample<'a> {
    pub(crate) set: &'a TableSet,
    pub(crate) pieces: u32,
    pub(crate) sample: Sample,
    pub(crate) positions: u64,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
}
impl TableVisitor for VerifySample<'_> {
    type Output = Result<SampleCheck, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces::<B>(pieces)?;
        if self.positions == 0 {
            return Err(AppError::Input("--positions must be at least 1".into()));
        }
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        // The tables of `ms` that open and those not built; any other
        // failure (a damaged file) stops the check.
        let split = |ms: Vec<Material>| -> Result<(Vec<Material>, Vec<Material>), AppError> {
            let (mut present, mut missing) = (Vec::new(), Vec::new());
            for m in ms {
                match tb.table(m) {
                    Ok(_) => present.push(m),
                    Err(TbError::Missing { .. }) => missing.push(m),
                    Err(e) => return Err(e.into()),
                }
            }
            Ok((present, missing))
        };
        let keep = keep_part(self.sample);
        let (present, missing) = split(
            Material::canonical::<B>(pieces)
                .into_iter()
                .filter(|&m| keep(m))
                .collect(),
        )?;
        let names = |v: &[Material]| v.iter().map(|m| m.name::<B>()).collect::<Vec<_>>();
        if present.is_empty() {
            return Err(AppError::Input(format!(
                "no {pieces}-piece {} {} tables in {} to check{}",
                B::GAME,
                rules.name,
                tb.dir().display(),
                if missing.is_empty() {
                    " (--sample left none)"
                } else {
                    " (build them with `zoo tb build`)"
                }
            )));
        }
        // Captures lead into smaller tables: every one of those must be
        // there, or each position with such a capture would read as a
        // disagreement.
        let mut needed: Vec<Material> = present
            .iter()
            .flat_map(|&m| zoo_animal_tb::sample::capture_tables::<B>(m))
            .collect();
        needed.sort();
        needed.dedup();
        let (_, absent) = split(needed)?;
        if !absent.is_empty() {
            return Err(AppError::Input(format!(
                "cannot check {pieces}-piece tables: the captures lead to {}-piece tables missing in {}: {}",
                pieces - 1,
                tb.dir().display(),
                names(&absent).join(", ")
            )));
        }
        let seed = self.seed;
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let r =
            pool.install(|| zoo_animal_tb::sample::sample(&tb, &present, self.positions, seed))?;
        let value = |v: &zoo_animal_tb::sample::Value| match v {
            Ok((value, distance)) => EntryValue::Value {
                value: *value,
                distance: *distance,
            },
            Err(e) => EntryValue::Error { error: e.clone() },
        };
        Ok(SampleCheck {
            game: B::GAME,
            rules: rules.name,
            pieces,
            seed,
            positions_per_table: self.positions,
            positions: r.positions,
            seconds: t0.elapsed().as_secs_f64(),
            tables: r
                .tables
                .iter()
                .map(|t| SampledTable {
                    table: t.material.name::<B>(),
                    positions: t.positions,
                    disagreements: t.disagreements,
                })
                .collect(),
            missing: names(&missing),
            disagreements: r.disagreement_count,
            colour_swaps: 0,
            listed: r
                .disagreements
                .iter()
                .map(|d| SampleDisagreement {
                    table: d.material.clone(),
                    side: d.side,
                    index: d.index,
                    fen: d.fen.clone(),
                    stored: value(&d.stored),
                    recomputed: value(&d.recomputed),
                    text: d.to_string(),
                })
                .collect(),
        })
    }
}
