//! `zoo tb build`: one machine, or ranks of a split build (MPI).

use super::args::*;
use crate::cmd::progress::seconds_left;
use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use zoo_app::tables::{Ranks, Single, Split};
use zoo_app::{human_bytes, BuildOutcome, BuildRequest};

pub(super) fn run_build(a: &BuildArgs) -> Result<()> {
    zoo_app::tables::check_build_dir(&a.tables.dir)?;
    if a.generator == GeneratorArg::Retro {
        return build_generic(a);
    }
    let split = match a.split {
        SplitArg::Configurations => Split::Configurations,
        SplitArg::Ranges => Split::Ranges,
    };
    #[cfg(feature = "mpi")]
    if let Some(world) = zoo_app::tables::mpi::Mpi::from_launcher()? {
        let ranks = Ranks {
            cluster: &world,
            split,
        };
        let r = build_on(a, &ranks);
        if let Err(e) = &r {
            // The others may wait for this rank at a collective it will
            // never reach: end them all, having said why.
            eprintln!("zoo: rank {}: {e:#}", world.rank());
            world.abort(1);
        }
        return r;
    }
    if zoo_app::tables::launched_by_mpi() {
        bail!(
            "started by mpirun, but this zoo was built without MPI: \
             cargo build --release -p zoo --features mpi (needs openmpi-bin, libopenmpi-dev, libclang-dev)"
        );
    }
    let alone = Ranks {
        cluster: &Single,
        split,
    };
    build_on(a, &alone)
}

/// `zoo tb build --generator retro`: a line per table, then the result.
fn build_generic(a: &BuildArgs) -> Result<()> {
    if zoo_app::tables::launched_by_mpi() {
        bail!("--generator retro runs on one process: start it without mpirun");
    }
    let set = a.tables.set(a.game)?;
    let pieces = a.pieces.unwrap_or(0);
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    let t0 = Instant::now();
    let outcome = set.build_generic(
        pieces,
        a.threads,
        &|name, built| {
            if built {
                eprintln!("{name}: solved by the generic generator");
            }
        },
        &stop,
    )?;
    let seconds = t0.elapsed().as_secs_f64();
    let (built, missing) = match outcome {
        BuildOutcome::Done { built } => (built, 0),
        BuildOutcome::Interrupted { missing } => (0, missing),
    };
    if a.json {
        crate::cmd::json::result(
            &serde_json::json!({"built": built, "seconds": seconds, "missing": missing}),
        )?;
    } else if missing > 0 {
        eprintln!("interrupted: {missing} tables still missing; the same command goes on");
    } else {
        eprintln!("{built} tables built in {seconds:.1} s");
    }
    Ok(())
}

/// `zoo tb build` as one of `ranks` (alone: the only one). Rank 0 prints
/// the plan and the result; each rank the tables it built.
fn build_on(a: &BuildArgs, ranks: &Ranks) -> Result<()> {
    let rank = ranks.cluster.rank();
    let lead = rank == 0;
    let tag = if ranks.cluster.ranks() > 1 {
        format!("rank {rank}: ")
    } else {
        String::new()
    };
    let set = a.tables.set(a.game)?;
    let req = BuildRequest {
        pieces: a.pieces.unwrap_or(0),
        material: a.material.clone(),
        threads: a.threads,
        memory_gb: a.memory,
        encoding: a.encoding.map(EncodingArg::encoding),
        solve_all: a.solve_all,
        checkpoint_from: a.checkpoint_from,
    };
    if !a.force {
        if let Some(why) = set.out_of_reach(&req)? {
            bail!("{why}");
        }
    }
    let plan = set.plan(&req)?;
    if !a.force {
        if let Some(why) = set.cannot_finish(&req, &plan)? {
            bail!("{why}");
        }
    }
    let json = a.json && lead;
    if lead {
        eprintln!(
        "{} {}: {} tables present, {} to build ({} of them copies, {} positions), up to {} pieces, in {}",
        plan.game,
        plan.rules,
        plan.present,
        plan.tables.len(),
        plan.copies(),
        plan.positions(),
        plan.pieces,
        plan.dir.display()
    );
    }
    if json {
        crate::cmd::json::line(
            "plan",
            &serde_json::json!({
                "game": plan.game, "rules": plan.rules, "pieces": plan.pieces,
                "present": plan.present, "tables": plan.tables.len(),
                "copies": plan.copies(), "positions": plan.positions(),
                "dir": plan.dir.display().to_string(),
            }),
        )?;
    }
    for p in plan.tables.iter().filter(|p| p.state_in_file && lead) {
        let need = human_bytes(p.working_bytes);
        eprintln!(
            "{}: {need} of working memory, more than the {} allowed (--memory): solved alone with its state \
             in files beside the tables, paged by the kernel (slower; {need} of disk until it is done)",
            p.name,
            human_bytes(plan.budget_bytes.unwrap_or(u64::MAX)),
        );
    }
    if plan.tables.is_empty() {
        // Nothing to solve, but the build still completes: its manifest
        // names every table there (one may be missing after a kill).
        set.build_on(&plan, ranks, &|_| {}, &|_| {}, &AtomicBool::new(false))?;
        if json {
            crate::cmd::json::result(
                &serde_json::json!({"built": 0, "seconds": 0.0, "missing": 0}),
            )?;
        }
        return Ok(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while the current tables finish their chunk ends at once.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    // Every entry is visited twice: by the forward pass and when it is
    // taken back (or found drawn at the end); the bar counts both, so it
    // covers the whole build, and shows positions per second as entries
    // solved (half the visits).
    let bar = ProgressBar::new(plan.positions().saturating_mul(2));
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {percent}%  {rate}  ~{left} left  {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.2} M positions/s", s.per_sec() / 2e6);
            },
        )
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let left = seconds_left(s.pos(), s.len().unwrap_or(0), s.elapsed().as_secs_f64());
                let _ = write!(w, "{}", indicatif::HumanDuration(left));
            },
        )
        .progress_chars("=> "),
    );
    let t0 = Instant::now();
    let last_line = std::sync::Mutex::new(Instant::now());
    let r = set.build_on(
        &plan,
        ranks,
        &|n| {
            bar.inc(n);
            // Without a terminal the bar is hidden: a line a minute in the
            // log says how far a long build is.
            if bar.is_hidden() {
                let mut last = last_line.lock().expect("progress lock");
                if last.elapsed().as_secs() >= 60 {
                    *last = Instant::now();
                    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
                    let secs = bar.elapsed().as_secs_f64();
                    eprintln!(
                        "{:.1}% after {secs:.0} s, {:.2} M positions/s, ~{:.0} s left",
                        100.0 * pos as f64 / len.max(1) as f64,
                        bar.per_sec() / 2e6,
                        seconds_left(pos, len, secs).as_secs_f64()
                    );
                }
            }
        },
        &|b| {
            die_after_tables_if_asked();
            // Without a terminal (a log file) each finished table is a line,
            // with the work of its backward pass (a measure that does not
            // depend on the machine's load, unlike the time).
            if bar.is_hidden() {
                // The work is then that done since the checkpoint.
                let resumed = b
                    .resumed_at
                    .map(|l| format!(", resumed from its checkpoint at level {l}"))
                    .unwrap_or_default();
                match (&b.copied_from, &b.traffic) {
                    (Some(s), _) => eprintln!("{tag}{} copied from {s} in {:.1} s", b.name, b.secs),
                    (None, None) => eprintln!(
                        "{tag}{} built in {:.1} s ({} positions taken back, {} predecessors told{resumed})",
                        b.name, b.secs, b.work.taken_back, b.work.told
                    ),
                    (None, Some(t)) => eprintln!(
                        "{tag}{} built by every rank in {:.1} s ({} positions taken back, {} predecessors told, \
                         {} of them through another rank; {} bytes sent in {} exchanges{resumed})",
                        b.name, b.secs, b.work.taken_back, b.work.told, t.messages, t.bytes, t.exchanges
                    ),
                }
            }
            if let Some(why) = &b.unsaved {
                bar.suspend(|| {
                    eprintln!(
                        "warning: {}: no checkpoint could be saved ({why}); the table was solved without one",
                        b.name
                    )
                });
            }
            if a.json {
                let _ = crate::cmd::json::line(
                    "table",
                    &serde_json::json!({
                        "name": b.name, "seconds": b.secs, "copied_from": b.copied_from,
                        "taken_back": b.work.taken_back, "told": b.work.told,
                        "unsaved": b.unsaved, "resumed_at": b.resumed_at, "rank": rank,
                        "messages": b.traffic.map(|t| t.messages),
                        "bytes_sent": b.traffic.map(|t| t.bytes),
                    }),
                );
            }
            bar.set_message(format!("{} done in {:.1} s", b.name, b.secs))
        },
        &stop,
    );
    bar.finish_and_clear();
    match r? {
        BuildOutcome::Done { .. } if !lead => Ok(()),
        BuildOutcome::Done { built } => {
            // Under several ranks each tells of its own tables; the lead
            // of them all.
            let built = if ranks.cluster.ranks() > 1 {
                plan.tables.len()
            } else {
                built
            };
            if json {
                crate::cmd::json::result(&serde_json::json!({
                    "built": built, "seconds": t0.elapsed().as_secs_f64(), "missing": 0,
                }))?;
            }
            eprintln!(
                "built {built} tables in {:.1} s",
                t0.elapsed().as_secs_f64()
            );
            Ok(())
        }
        BuildOutcome::Interrupted { missing } => {
            if json {
                crate::cmd::json::result(&serde_json::json!({
                    "built": null, "seconds": t0.elapsed().as_secs_f64(), "missing": missing,
                }))?;
            }
            eprintln!(
                "interrupted: {missing} tables still missing; run the same command again to resume"
            );
            std::process::exit(130);
        }
    }
}

/// The kill test's hook (crates/cli/tests/it/files_cli.rs): with
/// `ZOO_TEST_KILL_AFTER_TABLES=N` the process kills itself with SIGKILL
/// right after its Nth table is renamed into place, before anything else
/// is recorded, the window a random kill hits only now and then.
fn die_after_tables_if_asked() {
    static DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let Some(n) = std::env::var("ZOO_TEST_KILL_AFTER_TABLES")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    if DONE.fetch_add(1, Ordering::SeqCst) + 1 >= n {
        // SAFETY: kill(2) on our own pid with a constant signal.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}
