//! The build plan: every table still to make, as a list of jobs with the
//! tables each one needs, worked out once. The local build runs it
//! ([`crate::build::build`]); a scheduler across machines can hand the same
//! jobs out, since a job may start as soon as the tables it needs exist.

use crate::generate::working_bytes;
use crate::index::Material;
use crate::isomorph::{self, Rename};
use crate::options::BuildOptions;
use crate::sample::capture_tables;
use crate::{Tablebase, TbError};
use std::path::Path;
use zoo_animal::{Board, RuleSet};

/// One table still to build.
#[derive(Clone, Debug)]
pub struct Job {
    /// Its (canonical) material.
    pub material: Material,
    /// Its number of pieces.
    pub pieces: u32,
    /// Index entries of both sides (the positions the forward pass visits).
    pub positions: u64,
    /// The memory it needs while it is made.
    pub working_bytes: u64,
    /// Copied through this renaming instead of solved.
    pub source: Option<Rename>,
    /// Solved with its state in files: its working set is larger than the
    /// memory allowed.
    pub state_in_file: bool,
    /// The tables that must exist before it starts: those its captures lead
    /// to and, for a copy, its source.
    pub needs: Vec<Material>,
}

/// The jobs of a build, fewer pieces first, and how many tables of the
/// sizes it covers are there already.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The tables to make, in an order that respects [`Job::needs`].
    pub jobs: Vec<Job>,
    /// Tables already built among the sizes planned.
    pub present: usize,
}

/// The tables missing under `dir` for up to `opts.pieces` pieces, in build
/// order. With `opts.copies`, a configuration that is a table there, or one
/// solved before it at its size, renamed is planned as a copy if the copy
/// fits `opts.memory_bytes`.
///
/// A table file that is there but cannot be used (damaged, truncated, of
/// another rule set) is an error now, naming the file, rather than counted
/// as present and met when a larger table needs it.
pub fn plan<B: Board>(
    dir: &Path,
    rules: &'static RuleSet,
    opts: &BuildOptions,
) -> Result<Plan, TbError> {
    let tb = Tablebase::<B>::open(dir, rules);
    let budget = opts.budget();
    let mut plan = Plan::default();
    for n in 2..=opts.pieces {
        let (mut sources, missing): (Vec<Material>, Vec<Material>) = Material::canonical::<B>(n)
            .into_iter()
            .partition(|&m| tb.path_of(m).exists());
        for &m in &sources {
            // Opened and checked as a probe or a larger build would.
            tb.table(m)?;
        }
        plan.present += sources.len();
        for m in missing {
            // A copy holds its source's values and its own in memory.
            let source = opts
                .copies
                .then(|| isomorph::find::<B>(rules, m, &sources))
                .flatten()
                .filter(|r| isomorph::copy_bytes(&tb, m, r) <= budget);
            let size = tb.scheme().layout(m).size;
            let working_bytes = match &source {
                Some(r) => isomorph::copy_bytes(&tb, m, r),
                None => {
                    sources.push(m);
                    working_bytes(size)
                }
            };
            let mut needs = capture_tables::<B>(m);
            needs.extend(source.map(|r| r.source));
            plan.jobs.push(Job {
                material: m,
                pieces: n,
                positions: size.saturating_mul(2),
                working_bytes,
                source,
                state_in_file: working_bytes > budget,
                needs,
            });
        }
    }
    Ok(plan)
}

/// The plan that makes `target` (any colour order) and, of the tables it
/// needs directly or through others, those still missing: building one
/// configuration on its own. Nothing to do when it is there already.
pub fn plan_for<B: Board>(
    dir: &Path,
    rules: &'static RuleSet,
    opts: &BuildOptions,
    target: Material,
) -> Result<Plan, TbError> {
    let target = crate::slot_of(target, zoo_core::Side::White).material;
    let pieces = target.pieces();
    if target.white == 0 || target.black == 0 || pieces > 2 * B::KINDS as u32 {
        return Err(TbError::NoSuchMaterial(target.name::<B>()));
    }
    let whole = plan::<B>(
        dir,
        rules,
        &BuildOptions {
            pieces,
            ..opts.clone()
        },
    )?;
    // The jobs `target` depends on, by walking the needs back from it; a
    // job's needs are earlier in the list, so one pass from the end does.
    let mut wanted = vec![target];
    let mut jobs: Vec<Job> = whole
        .jobs
        .into_iter()
        .rev()
        .filter(|j| {
            let keep = wanted.contains(&j.material);
            if keep {
                wanted.extend(j.needs.iter().copied());
            }
            keep
        })
        .collect();
    jobs.reverse();
    Ok(Plan {
        jobs,
        present: whole.present,
    })
}

impl Plan {
    /// The entries of every table to make.
    pub fn positions(&self) -> u64 {
        self.jobs
            .iter()
            .fold(0u64, |t, j| t.saturating_add(j.positions))
    }
}
