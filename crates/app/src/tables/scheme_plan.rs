//! `zoo tb plan` for the tables the generic generator builds (checkers):
//! what every table up to a size takes — entries, disk, the memory of the
//! largest, the time at a rate measured here on a 4-piece table — and
//! which tables do not fit a machine's memory (the generic generator
//! keeps a table whole in memory; it has no state in files and does not
//! split a table across machines: the machines share the tables out).

use crate::tables::plan::{
    machines, CalibrationReport, CostPlan, PlanRates, PlanRequest, PlanTotals,
    PlannedConfiguration, PlannedSize, Scratch, UpdateRate,
};
use crate::tables::scheme::{
    check_pieces, scheme_of, Files, SchemeTables, SchemeVisitor, WORKING_BYTES_PER_ENTRY,
};
use crate::tables::{thread_pool, BuildRequest, TableSet};
use crate::AppError;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

/// Bytes per entry when no table file here says better: the plain
/// encoding's one byte, which zstd only lowers.
const ASSUMED_BYTES_PER_ENTRY: f64 = 1.0;

/// The cost plan of a generic generator's build.
pub(crate) struct CostOf<'a> {
    pub set: &'a TableSet,
    pub req: &'a PlanRequest,
}
impl SchemeVisitor for CostOf<'_> {
    type Output = Result<CostPlan, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let req = self.req;
        let scheme = scheme_of::<S>(self.set)?;
        check_pieces(&scheme, req.pieces)?;
        let m = machines(req)?;
        let (rates, calibration) = match &req.rates {
            Some(r) => (r.clone(), None),
            None => calibrate::<S>(self.set, &scheme)?,
        };
        // Bytes per entry: of the largest size with files here.
        let (_, _, files) = Files {
            set: self.set,
            pieces: None,
        }
        .visit::<S>()?;
        let measured = files
            .iter()
            .rev()
            .find(|(_, f, _)| !f.is_empty())
            .map(|(n, f, _)| {
                let bytes: u64 = f.iter().map(|t| t.bytes).sum();
                let entries: u64 = f.iter().map(|t| t.entries).sum();
                (*n, bytes as f64 / entries.max(1) as f64)
            });
        let bytes_per_entry = measured.map_or(ASSUMED_BYTES_PER_ENTRY, |(_, b)| b);
        let threads = m.threads as f64;
        let mut sizes = Vec::new();
        let mut configurations = Vec::new();
        let first = if req.only { req.pieces } else { 2 };
        for n in first..=req.pieces {
            let ms = scheme.stored(n);
            let mut size = PlannedSize {
                pieces: n,
                configurations: ms.len(),
                copies: 0,
                positions: 0,
                stored: 0,
                encoding: "zstd",
                bytes_per_entry,
                measured_pieces: measured.map(|(p, _)| p),
                table_bytes: 0,
                one_bit_bytes: 0,
                working_max_bytes: 0,
                split: 0,
                in_files: 0,
                messages: 0,
                message_bytes: 0,
                thread_seconds: 0.0,
                seconds: 0.0,
            };
            let mut longest: f64 = 0.0;
            // A table is copied from its colour swap when that is built
            // before it (the swap has as many pieces: one size's list).
            let place: std::collections::HashMap<S::Material, usize> =
                ms.iter().enumerate().map(|(i, &m)| (m, i)).collect();
            for (i, &mat) in ms.iter().enumerate() {
                let entries = scheme.size(mat) * S::stored_sides(mat) as u64;
                let source = scheme
                    .colour_source(mat)
                    .filter(|q| !req.solve_all && place.get(q).is_some_and(|&j| j < i));
                let (working, thread_secs, told) = match source {
                    // Its values alone are held.
                    Some(_) => (entries, entries as f64 * rates.copy_ns * 1e-9, 0),
                    None => (
                        entries.saturating_mul(WORKING_BYTES_PER_ENTRY),
                        entries as f64 * n as f64 * rates.solve_ns * 1e-9,
                        (entries as f64 * n as f64 * rates.told_per_entry) as u64,
                    ),
                };
                size.copies += usize::from(source.is_some());
                let fits = working <= m.memory_bytes;
                longest = longest.max(thread_secs / threads);
                size.positions += entries;
                size.stored += entries;
                size.working_max_bytes = size.working_max_bytes.max(working);
                size.in_files += usize::from(!fits);
                size.thread_seconds += thread_secs;
                configurations.push(PlannedConfiguration {
                    name: scheme.name(mat),
                    pieces: n,
                    positions: entries,
                    stored: entries,
                    working_bytes: working,
                    table_bytes: (entries as f64 * bytes_per_entry) as u64,
                    scratch_bytes: 0,
                    copied_from: source.map(|q| scheme.name(q)),
                    told,
                    messages: 0,
                    machines_needed: if fits { 1 } else { 0 },
                    placement: if fits { "machine" } else { "does_not_fit" },
                    machine: fits.then_some(i % m.count),
                    thread_seconds: thread_secs,
                    seconds: thread_secs / threads,
                });
            }
            size.table_bytes = (size.stored as f64 * bytes_per_entry) as u64;
            size.one_bit_bytes = size.stored.div_ceil(8);
            // The machines share a size's tables out: no faster than its
            // longest table, nor than its work spread over every thread.
            size.seconds = longest.max(size.thread_seconds / (threads * m.count as f64));
            sizes.push(size);
        }
        let table_bytes: u64 = sizes.iter().map(|s| s.table_bytes).sum();
        let totals = PlanTotals {
            configurations: configurations.len(),
            copies: sizes.iter().map(|s| s.copies).sum(),
            positions: sizes.iter().map(|s| s.positions).sum(),
            table_bytes,
            one_bit_bytes: sizes.iter().map(|s| s.one_bit_bytes).sum(),
            messages: 0,
            message_bytes: 0,
            thread_seconds: sizes.iter().map(|s| s.thread_seconds).sum(),
            seconds: sizes.iter().map(|s| s.seconds).sum(),
            machine_disk_bytes: table_bytes,
            fits_disk: m.disk_bytes.map(|d| table_bytes <= d),
        };
        Ok(CostPlan {
            game: scheme.game(),
            rules: scheme.rules_name(),
            generator: "generic",
            pieces: req.pieces,
            only: req.only,
            machines: m,
            rates,
            calibration,
            sizes,
            configurations,
            totals,
        })
    }
}

/// The rate of the generic generator on this machine: the largest 4-piece
/// table (and the smaller ones it reads) built by one thread in a scratch
/// directory; ns per entry and piece over all of them.
fn calibrate<S: SchemeTables>(
    set: &TableSet,
    scheme: &S,
) -> Result<(PlanRates, Option<CalibrationReport>), AppError> {
    let largest = scheme
        .stored(4)
        .into_iter()
        .max_by_key(|&m| scheme.size(m))
        .ok_or_else(|| AppError::Input(format!("{} has no 4-piece table", scheme.game())))?;
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "zoo-tb-plan-{}-{}",
        scheme.game(),
        std::process::id()
    )));
    let _ = std::fs::remove_dir_all(&scratch.0);
    let here = TableSet::new(set.game(), set.rules_name(), &scratch.0)?;
    let plan = here.plan(&BuildRequest {
        material: Some(scheme.name(largest)),
        threads: 1,
        ..BuildRequest::default()
    })?;
    let pieces_of = |name: &str| scheme.parse(name).map_or(0, |m| S::pieces(m) as u64);
    // Solves by entries and pieces, copies (from a colour swap) by
    // entries: each table's time as the build reports it.
    let entries_of = |name: &str| {
        plan.tables
            .iter()
            .find(|t| t.name == name)
            .map_or(0, |t| t.positions)
    };
    #[derive(Default)]
    struct Seen {
        told: u64,
        solve_work: u64,
        solve_secs: f64,
        copy_entries: u64,
        copy_secs: f64,
        largest: (u64, f64, u64),
    }
    let seen = Mutex::new(Seen::default());
    let t0 = Instant::now();
    thread_pool(1)?.install(|| {
        here.build(
            &plan,
            &|_| {},
            &|b| {
                let mut s = seen.lock().expect("calibration lock");
                s.told += b.work.told;
                if b.copied_from.is_some() {
                    s.copy_entries += entries_of(&b.name);
                    s.copy_secs += b.secs;
                } else {
                    s.solve_work += entries_of(&b.name) * pieces_of(&b.name);
                    s.solve_secs += b.secs;
                }
                if b.name == scheme.name(largest) {
                    s.largest = (b.work.taken_back, b.secs, b.work.told);
                }
            },
            &AtomicBool::new(false),
        )
    })?;
    let secs = t0.elapsed().as_secs_f64();
    let s = seen.into_inner().expect("calibration lock");
    let (taken_back, largest_secs, largest_told) = s.largest;
    let rates = PlanRates {
        solve_ns: s.solve_secs * 1e9 / s.solve_work.max(1) as f64,
        told_per_entry: s.told as f64 / s.solve_work.max(1) as f64,
        // The generic generator keeps its state in memory: no update
        // costs to measure.
        update_ns: vec![UpdateRate {
            state_bytes: 0,
            ns: 0.0,
        }],
        copy_ns: s.copy_secs * 1e9 / s.copy_entries.max(1) as f64,
    };
    let report = CalibrationReport {
        material: scheme.name(largest),
        positions: scheme.size(largest) * S::stored_sides(largest) as u64,
        seconds: largest_secs,
        taken_back,
        told: largest_told,
        total_seconds: secs,
    };
    Ok((rates, Some(report)))
}
