//! The tables of the games that only the generic generator builds
//! (English and Classical checkers): what `zoo tb build | plan | stats |
//! probe | verify | size | manifest` do for them, through
//! [`zoo_core::TableScheme`] and `zoo_tb` alone. The animal games have a
//! generator of their own ([`crate::tables`]); these games reach the same
//! [`TableSet`] methods, which send them here.
//!
//! ```
//! use zoo_app::{BuildOutcome, BuildRequest, GameKind, TableSet};
//! use zoo_core::Outcome;
//! let dir = std::env::temp_dir().join(format!("zoo-app-scheme-doc-{}", std::process::id()));
//! let set = TableSet::new(GameKind::EnglishCheckers, None, &dir)?;
//! // The four 2-piece materials: KvK, KvM, MvK, MvM.
//! let plan = set.plan(&BuildRequest { pieces: 2, ..Default::default() })?;
//! assert_eq!(plan.tables.len(), 4);
//! let stop = std::sync::atomic::AtomicBool::new(false);
//! let done = set.build(&plan, &|_| {}, &|_| {}, &stop)?;
//! assert_eq!(done, BuildOutcome::Done { built: 4 });
//! // A king each, far apart: neither can force the other's capture.
//! assert_eq!(set.probe("W:WK1:BK32")?.value, Outcome::Draw);
//! std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), zoo_app::AppError>(())
//! ```

pub use crate::games::{SchemeTables, SchemeVisitor};
use crate::tables::scheme_copy;
use crate::tables::{
    check_sample, keep_key, memory_budget, probed_moves, thread_pool, BuildOutcome, BuildPlan,
    BuildRequest, EntryValue, PlanWork, PlannedTable, ProbeReport, Sample, SampleCheck,
    SampleDisagreement, SampledTable, TableSet, TableStats, VerifyReport,
};
use crate::{AppError, AppGame};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use zoo_animal_tb::build::{Built, Ranks};
use zoo_animal_tb::disk::FileSize;
use zoo_animal_tb::generate::Work;
use zoo_checkers::tables::scheme::parse_material;
use zoo_checkers::tables::{CheckersScheme, Part, PartIndex, SLICED_FROM};
use zoo_checkers::{Position, Variant};
use zoo_core::{Game, Outcome, TableIndex, TableScheme};
use zoo_tb::file::{self, Encoding, Header};
use zoo_tb::{retro, Tablebase, TbError};

impl<V: Variant> SchemeTables for CheckersScheme<V>
where
    Position<V>: AppGame,
{
    type Index = PartIndex<V>;
    fn index_of(&self, p: Part) -> PartIndex<V> {
        self.part_index(p)
    }
    fn needs(&self, p: Part) -> Vec<Part> {
        self.needed_parts(p)
    }
    /// A material of 7 or more pieces stands for all its slices.
    fn named(&self, name: &str) -> Option<Vec<Part>> {
        if let Some(p) = self.parse(name) {
            return Some(vec![p]);
        }
        let m = parse_material(name).filter(|m| m.pieces() >= SLICED_FROM)?;
        Some(self.slices(m))
    }
    fn colour_source(&self, p: Part) -> Option<Part> {
        Some(p.swapped()).filter(|&q| q != p)
    }
}

/// Bytes a build holds per entry of the table it solves (both sides to
/// move counted): the value, the count of moves into the table and the
/// mark of those out of it (3 bytes), and the lists of entries decided
/// and waiting for their level (8 bytes each, 24 for those step 1
/// decides; about half the entries of a checkers table wait at once at
/// the peak, docs/log/checkers.md).
pub(crate) const WORKING_BYTES_PER_ENTRY: u64 = 16;

/// Bytes the forward check ([`zoo_tb::verify::verify_table`]) holds per
/// entry: its value, move count and the children of about a dozen moves
/// (16 bytes each).
const VERIFY_BYTES_PER_ENTRY: u64 = 220;

/// The share of the machine's memory the forward check may use.
const VERIFY_MEMORY_SHARE: f64 = 0.8;

pub(crate) fn scheme_of<S: SchemeTables>(set: &TableSet) -> Result<S, AppError> {
    Ok(S::new(crate::games::rules_of::<S::Pos>(set.rules_name())?))
}

pub(crate) fn check_pieces<S: SchemeTables>(scheme: &S, pieces: u32) -> Result<(), AppError> {
    let most = scheme.max_pieces();
    if pieces < 2 || pieces > most {
        return Err(AppError::Input(format!(
            "--pieces {pieces}: tables of {} have 2 to {most} pieces (one a side at least)",
            scheme.game()
        )));
    }
    Ok(())
}

/// Every stored material up to `pieces` pieces, in build order.
fn all_up_to<S: SchemeTables>(scheme: &S, pieces: u32) -> Vec<S::Material> {
    (2..=pieces).flat_map(|n| scheme.stored(n)).collect()
}

pub(crate) fn opened<S: SchemeTables>(set: &TableSet, scheme: &S) -> Tablebase<S> {
    Tablebase::<S>::open(set.dir(), scheme.rules().clone())
}

/// Refuses the rule set if the game has none of that name.
pub(crate) struct Rules<'a>(pub &'a TableSet);
impl SchemeVisitor for Rules<'_> {
    type Output = Result<(), AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        scheme_of::<S>(self.0).map(|_| ())
    }
}

/// The directory of the rule set's tables.
pub(crate) struct Dir<'a>(pub &'a TableSet);
impl SchemeVisitor for Dir<'_> {
    type Output = Result<PathBuf, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let s = scheme_of::<S>(self.0)?;
        Ok(file::table_dir(self.0.dir(), s.game(), s.rules_name()))
    }
}

/// The tables a build would make, in build order.
pub(crate) struct Plan<'a> {
    pub set: &'a TableSet,
    pub req: &'a BuildRequest,
}
impl SchemeVisitor for Plan<'_> {
    type Output = Result<BuildPlan, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        if self.req.encoding == Some(Encoding::Wdl) {
            return Err(AppError::Input(format!(
                "{} tables are built whole (plain or zstd), not as WDL-only files",
                scheme.game()
            )));
        }
        let (pieces, wanted) = match &self.req.material {
            None => {
                check_pieces(&scheme, self.req.pieces)?;
                (self.req.pieces, all_up_to(&scheme, self.req.pieces))
            }
            Some(name) => {
                let named = scheme.named(name).ok_or_else(|| {
                    AppError::Input(format!(
                        "--material {name}: not a material of {} (each side's kings `K` then men `M`, \
                         `v` between the sides, at most {} pieces: e.g. KKvK, KMvMM; from 7 pieces the \
                         material's slices, or one slice: KKMMvKKMM-75)",
                        scheme.game(),
                        scheme.max_pieces()
                    ))
                })?;
                let mut needed: std::collections::HashSet<S::Material> =
                    named.iter().copied().collect();
                for &m in &named {
                    needed.extend(scheme.needs(m));
                }
                let n = named.iter().map(|&m| S::pieces(m)).max().unwrap_or(2);
                let order: Vec<S::Material> = all_up_to(&scheme, n)
                    .into_iter()
                    .filter(|x| needed.contains(x))
                    .collect();
                (n, order)
            }
        };
        let tb = opened(self.set, &scheme);
        let budget = memory_budget(self.req)?;
        let mut present = 0;
        let mut tables = Vec::new();
        let mut planned = std::collections::HashSet::new();
        for &m in &wanted {
            if tb.path_of(m).exists() {
                present += 1;
                continue;
            }
            let entries = scheme.size(m) * S::stored_sides(m) as u64;
            // A table whose colour swap is there, or built before it, is
            // copied from it: its values alone are held.
            let copied_from = scheme.colour_source(m).filter(|q| {
                !self.req.solve_all && (tb.path_of(*q).exists() || planned.contains(q))
            });
            planned.insert(m);
            let working_bytes = if copied_from.is_some() {
                entries
            } else {
                entries.saturating_mul(WORKING_BYTES_PER_ENTRY)
            };
            if working_bytes > budget.unwrap_or(u64::MAX) {
                return Err(AppError::Input(format!(
                    "{}: about {} of memory to solve, more than the {} allowed (--memory); \
                     the generic generator keeps a table whole in memory",
                    scheme.name(m),
                    crate::human_bytes(working_bytes),
                    crate::human_bytes(budget.unwrap_or(0)),
                )));
            }
            tables.push(PlannedTable {
                name: scheme.name(m),
                pieces: S::pieces(m),
                positions: entries,
                working_bytes,
                copied_from: copied_from.map(|q| scheme.name(q)),
                state_in_file: false,
                needs: scheme.needs(m).iter().map(|&n| scheme.name(n)).collect(),
            });
        }
        Ok(BuildPlan {
            game: scheme.game(),
            rules: scheme.rules_name(),
            dir: file::table_dir(self.set.dir(), scheme.game(), scheme.rules_name()),
            pieces,
            present,
            budget_bytes: budget,
            tables,
            work: PlanWork::Scheme {
                encoding: self.req.encoding,
                threads: self.req.threads,
            },
        })
    }
}

/// Makes the tables of a plan.
pub(crate) struct Build<'a> {
    pub set: &'a TableSet,
    pub plan: &'a BuildPlan,
    pub ranks: &'a Ranks<'a>,
    pub progress: &'a (dyn Fn(u64) + Sync),
    pub finished: &'a (dyn Fn(&Built) + Sync),
    pub stop: &'a AtomicBool,
}
impl SchemeVisitor for Build<'_> {
    type Output = Result<BuildOutcome, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let plan = self.plan;
        let cluster = self.ranks.cluster;
        if cluster.ranks() > 1 {
            // Every rank has made its plan before any writes a table: a
            // rank that planned after another's first table was written
            // would leave it out (present), and the ranks' waves would
            // differ (as `zoo_animal_tb::build::build_on` does too).
            cluster.agree(Ok(()))?;
            // The same plan everywhere, or a clear error on every rank.
            let digest = plan.tables.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, t| {
                t.name
                    .bytes()
                    .chain([b'|'])
                    .fold(h, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
            });
            let all = cluster.all(&[digest])?;
            if all.iter().any(|d| d[0] != digest) {
                return Err(AppError::Input(
                    "the ranks made different plans of the same build (the table directory changed while they started); run it again".into(),
                ));
            }
        }
        let scheme = scheme_of::<S>(self.set)?;
        let (encoding, threads) = match &plan.work {
            PlanWork::Scheme { encoding, threads }
                if plan.game == scheme.game() && plan.rules == scheme.rules_name() =>
            {
                (*encoding, *threads)
            }
            _ => {
                return Err(AppError::Input(format!(
                    "a plan of {} {} given to the tables of {} {}",
                    plan.game,
                    plan.rules,
                    scheme.game(),
                    scheme.rules_name()
                )))
            }
        };
        std::fs::create_dir_all(&plan.dir).map_err(|e| TbError::io(&plan.dir, e))?;
        let parse = |name: &String| {
            scheme
                .parse(name)
                .ok_or_else(|| AppError::Input(format!("the plan names {name}, no material")))
        };
        let ms = plan
            .tables
            .iter()
            .map(|t| parse(&t.name))
            .collect::<Result<Vec<S::Material>, _>>()?;
        // The colour swap each copy is read from.
        let sources = plan
            .tables
            .iter()
            .map(|t| t.copied_from.as_ref().map(parse).transpose())
            .collect::<Result<Vec<Option<S::Material>>, _>>()?;
        // Waves: a table waits for the planned tables it reads, so the
        // tables of one wave can be built side by side by the ranks.
        let place: std::collections::HashMap<S::Material, usize> =
            ms.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        let mut wave = vec![0usize; ms.len()];
        for i in 0..ms.len() {
            // A copy waits for its source too.
            wave[i] = scheme
                .needs(ms[i])
                .iter()
                .chain(sources[i].iter())
                .filter_map(|n| place.get(n).filter(|&&j| j < i))
                .map(|&j| wave[j] + 1)
                .max()
                .unwrap_or(0);
        }
        let pool = thread_pool(threads)?;
        let (rank, ranks) = (cluster.rank(), cluster.ranks());
        let built = AtomicUsize::new(0);
        let waves = wave.iter().max().map_or(0, |w| w + 1);
        for w in 0..waves {
            let mine = (0..ms.len())
                .filter(|&i| wave[i] == w)
                .enumerate()
                .filter(|&(k, _)| k % ranks == rank)
                .map(|(_, i)| i);
            let mut done: Result<(), TbError> = Ok(());
            for i in mine {
                if self.stop.load(Ordering::Relaxed) {
                    done = Err(TbError::Interrupted);
                    break;
                }
                match pool.install(|| build_one(&self, &scheme, ms[i], sources[i], encoding)) {
                    Ok(b) => {
                        built.fetch_add(1, Ordering::Relaxed);
                        (self.finished)(&b);
                    }
                    Err(e) => {
                        done = Err(e);
                        break;
                    }
                }
            }
            // Every rank ends the wave together: the next one reads its
            // tables.
            let done = if ranks > 1 { cluster.agree(done) } else { done };
            match done {
                Ok(()) => {}
                Err(TbError::Interrupted) => {
                    let tb = opened(self.set, &scheme);
                    return Ok(BuildOutcome::Interrupted {
                        missing: ms.iter().filter(|&&m| !tb.path_of(m).exists()).count(),
                    });
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(BuildOutcome::Done {
            built: built.into_inner(),
        })
    }
}

/// The bytes of the tables a build reads that are decoded whole when the
/// machine's memory is not known.
const DECODE_WITHOUT_BUDGET: u64 = 2 << 30;

/// Solves and writes the table of `m`, or copies it from `source`, its
/// colour swap; the tables it reads are on disk.
fn build_one<S: SchemeTables>(
    b: &Build<'_>,
    scheme: &S,
    m: S::Material,
    source: Option<S::Material>,
    encoding: Option<Encoding>,
) -> Result<Built, TbError> {
    let t0 = Instant::now();
    let name = scheme.name(m);
    // Opened for each table: the tables built since are read from here.
    // Those it reads are decoded whole within what memory the table's own
    // solve leaves of the budget: its lookups into them are random, and a
    // compressed block decoded for each would cost more than the solve.
    let index = scheme.index_of(m);
    let entries = index.size() * S::stored_sides(m) as u64;
    let tb = opened(b.set, scheme);
    // A copy whose source has gone since the plan (removed by hand) is
    // solved instead; a damaged source is an error, as for any table read.
    let source = source.filter(|&q| tb.path_of(q).exists());
    // A copy holds its values alone (a byte an entry), a solve much more.
    let working = match source {
        Some(_) => entries,
        None => entries.saturating_mul(WORKING_BYTES_PER_ENTRY),
    };
    let decode = b
        .plan
        .budget_bytes
        .unwrap_or(DECODE_WITHOUT_BUDGET)
        .saturating_sub(working);
    let tb = tb.decoding_whole(decode);
    let (work, copied_from) = match source {
        Some(source) => {
            let from = tb.table(source)?;
            let values = scheme_copy::swapped_values(scheme, m, source, from, b.progress, b.stop)?;
            // The swap's counts, sides exchanged: the swap maps one side's
            // entries onto the other's one to one, stalemates onto
            // stalemates.
            let counts = [from.header.counts[1], from.header.counts[0]];
            write_values(&tb, scheme, m, counts, &values, encoding)?;
            let none = Work {
                taken_back: 0,
                told: 0,
            };
            (none, Some(scheme.name(source)))
        }
        None => {
            let outside = |c: &S::Pos| tb.lookup(c);
            let s = retro::solve_with(&index, &name, &outside, b.progress, b.stop)?;
            write_values(&tb, scheme, m, s.counts, &s.values, encoding)?;
            let work = Work {
                taken_back: s.taken_back,
                told: s.told,
            };
            (work, None)
        }
    };
    Ok(Built {
        name,
        secs: t0.elapsed().as_secs_f64(),
        work,
        copied_from,
        unsaved: None,
        traffic: None,
        resumed_at: None,
    })
}

/// Writes the table of `m`: both sides' value codes and their counts,
/// as `encoding` says (`None`: the smallest).
fn write_values<S: SchemeTables>(
    tb: &Tablebase<S>,
    scheme: &S,
    m: S::Material,
    counts: [file::SideCounts; 2],
    values: &[Vec<u8>; 2],
    encoding: Option<Encoding>,
) -> Result<(), TbError> {
    let header = Header {
        counts,
        ..Header::new(
            scheme.game(),
            scheme.rules_name(),
            S::key(m),
            S::stored_sides(m),
            values[0].len() as u64,
        )
    };
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        let at = start as usize;
        out.copy_from_slice(&values[side][at..at + out.len()]);
    };
    let path = tb.path_of(m);
    match encoding {
        None => file::write_table_smallest(&path, &header, &fill).map(|_| ()),
        Some(e) => file::write_table_with(&path, &header, e, &fill).map(|_| ()),
    }
}

/// The positions (both sides to move) of the missing tables up to a size.
pub(crate) struct Missing<'a> {
    pub set: &'a TableSet,
    pub pieces: u32,
}
impl SchemeVisitor for Missing<'_> {
    type Output = Result<(&'static str, u64), AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        check_pieces(&scheme, self.pieces)?;
        let tb = opened(self.set, &scheme);
        let positions = all_up_to(&scheme, self.pieces)
            .into_iter()
            .filter(|&m| !tb.path_of(m).exists())
            .map(|m| scheme.size(m) * S::stored_sides(m) as u64)
            .sum();
        Ok((scheme.game(), positions))
    }
}

/// Counts of one size, White to move, from the headers.
pub(crate) struct Stats<'a> {
    pub set: &'a TableSet,
    pub pieces: u32,
}
impl SchemeVisitor for Stats<'_> {
    type Output = Result<TableStats, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        check_pieces(&scheme, self.pieces)?;
        let tb = opened(self.set, &scheme);
        let mut s = TableStats {
            game: scheme.game(),
            rules: scheme.rules_name(),
            pieces: self.pieces,
            counted: "every material, White able to move",
            positions: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            longest: 0,
            missing: 0,
        };
        let stored = scheme.stored(self.pieces);
        // A size built in part (the 7-piece slices, a build at a time):
        // the counts of the tables there, the others named missing.
        let built: Vec<S::Material> = stored
            .iter()
            .copied()
            .filter(|&m| tb.path_of(m).exists())
            .collect();
        if let (true, Some(&m)) = (built.is_empty(), stored.first()) {
            return Err(TbError::Missing {
                material: scheme.name(m),
                dir: tb.dir().to_path_buf(),
            }
            .into());
        }
        s.missing = stored.len() - built.len();
        for m in built {
            let c = tb.table(m)?.header.counts[0];
            s.positions += c.positions;
            s.wins += c.wins;
            s.losses += c.losses;
            s.draws += c.draws;
            s.longest = s.longest.max(c.longest);
        }
        Ok(s)
    }
}

/// The position `fen` under the tables' rules, refused when the tables
/// cannot hold it.
fn table_position<S: SchemeTables>(scheme: &S, fen: &str) -> Result<S::Pos, AppError> {
    let pos = S::Pos::from_fen(fen, scheme.rules())?;
    if pos.outcome().is_none() && pos.piece_count() > scheme.max_pieces() {
        return Err(AppError::Input(format!(
            "{} pieces; {} tables hold positions of at most {}",
            pos.piece_count(),
            scheme.game(),
            scheme.max_pieces()
        )));
    }
    Ok(pos)
}

/// The tables' value of a position and of each of its moves.
pub(crate) struct Probe<'a> {
    pub set: &'a TableSet,
    pub fen: &'a str,
}
impl SchemeVisitor for Probe<'_> {
    type Output = Result<ProbeReport, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        let pos = table_position(&scheme, self.fen)?;
        let tb = opened(self.set, &scheme);
        let (value, distance) = tb.try_probe(&pos)?;
        // A side with no move has lost: the game is over there too.
        let mut legal = zoo_core::MoveList::new();
        pos.legal_moves(&mut legal);
        let game_over = pos.terminal().is_some() || legal.is_empty();
        let moves = if game_over {
            Vec::new()
        } else {
            tb.probe_moves(&pos)?
        };
        Ok(ProbeReport {
            game: scheme.game(),
            rules: scheme.rules_name(),
            fen: pos.to_fen(),
            value,
            distance,
            distance_known: true,
            game_over,
            moves: probed_moves(&pos, moves, true),
        })
    }
}

/// Every table up to a size against forward value iteration.
pub(crate) struct Verify<'a> {
    pub set: &'a TableSet,
    pub pieces: u32,
    pub sample: Sample,
    pub threads: usize,
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}
impl SchemeVisitor for Verify<'_> {
    type Output = Result<VerifyReport, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces(&scheme, pieces)?;
        let keep = keep_key(self.sample);
        let ms: Vec<S::Material> = all_up_to(&scheme, pieces)
            .into_iter()
            .filter(|&m| S::pieces(m) < pieces || keep(S::key(m) as u64))
            .collect();
        // The check holds one table's children at a time: refuse a table
        // that cannot fit rather than fail on an allocation.
        let largest = ms
            .iter()
            .map(|&m| scheme.size(m) * S::stored_sides(m) as u64)
            .max()
            .unwrap_or(0);
        let need = largest.saturating_mul(VERIFY_BYTES_PER_ENTRY);
        if let Some(total) = crate::machine::total_memory() {
            if need as f64 > VERIFY_MEMORY_SHARE * total as f64 {
                return Err(AppError::Input(format!(
                    "verifying {pieces} pieces needs about {} for its largest table, more than this \
                     machine's {} allow; verify fewer pieces, or check random positions of the \
                     {pieces}-piece tables with --positions K",
                    crate::human_bytes(need),
                    crate::human_bytes(total),
                )));
            }
        }
        let tb = opened(self.set, &scheme);
        for n in 2..=pieces {
            for m in scheme.stored(n) {
                tb.table(m).map_err(|e| {
                    AppError::Input(format!(
                        "cannot verify {} up to {pieces} pieces: {e}",
                        scheme.game()
                    ))
                })?;
            }
        }
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let mut r = VerifyReport {
            game: scheme.game(),
            rules: scheme.rules_name(),
            pieces,
            materials: ms.len(),
            positions: 0,
            seconds: 0.0,
            mismatch_count: 0,
            mismatches: Vec::new(),
        };
        for (i, &m) in ms.iter().enumerate() {
            let t = pool.install(|| zoo_tb::verify::verify_table(&tb, m))?;
            r.positions += t.entries;
            r.mismatch_count += t.wrong;
            for d in t.examples {
                let pos = scheme.position(m, d.side, d.entry);
                r.mismatches.push(format!(
                    "{} side {} entry {} ({}): table {:?} in {}, forward {:?} in {}",
                    scheme.name(m),
                    d.side,
                    d.entry,
                    pos.to_fen(),
                    d.table.0,
                    d.table.1,
                    d.found.0,
                    d.found.1
                ));
            }
            (self.progress)(i + 1, ms.len());
        }
        r.seconds = t0.elapsed().as_secs_f64();
        Ok(r)
    }
}

/// Random entries of one size against the values of their moves.
pub(crate) struct VerifySample<'a> {
    pub set: &'a TableSet,
    pub pieces: u32,
    pub sample: Sample,
    pub positions: u64,
    pub seed: u64,
    pub threads: usize,
}
impl SchemeVisitor for VerifySample<'_> {
    type Output = Result<SampleCheck, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        use rayon::prelude::*;
        let scheme = scheme_of::<S>(self.set)?;
        let pieces = self.pieces;
        check_sample(self.sample)?;
        check_pieces(&scheme, pieces)?;
        if self.positions == 0 {
            return Err(AppError::Input("--positions must be at least 1".into()));
        }
        let tb = opened(self.set, &scheme);
        let keep = keep_key(self.sample);
        let (mut present, mut missing) = (Vec::new(), Vec::new());
        for m in scheme.stored(pieces) {
            if !keep(S::key(m) as u64) {
                continue;
            }
            match tb.table(m) {
                Ok(_) => present.push(m),
                Err(TbError::Missing { .. }) => missing.push(scheme.name(m)),
                Err(e) => return Err(e.into()),
            }
        }
        if present.is_empty() {
            return Err(AppError::Input(format!(
                "no {pieces}-piece {} {} tables in {} to check",
                scheme.game(),
                scheme.rules_name(),
                tb.dir().display(),
            )));
        }
        let pool = thread_pool(self.threads)?;
        let t0 = Instant::now();
        let value = |v: &Result<(Outcome, u16), TbError>| match v {
            Ok((value, distance)) => EntryValue::Value {
                value: *value,
                distance: *distance,
            },
            Err(e) => EntryValue::Error {
                error: e.to_string(),
            },
        };
        let mut check = SampleCheck {
            game: scheme.game(),
            rules: scheme.rules_name(),
            pieces,
            seed: self.seed,
            positions_per_table: self.positions,
            positions: 0,
            seconds: 0.0,
            tables: Vec::new(),
            missing,
            disagreements: 0,
            colour_swaps: 0,
            listed: Vec::new(),
        };
        let swaps = std::sync::atomic::AtomicU64::new(0);
        for &m in &present {
            let sides = S::stored_sides(m) as u64;
            let size = scheme.size(m);
            let key = S::key(m) as u64;
            let wrong: Vec<SampleDisagreement> = pool.install(|| {
                (0..self.positions)
                    .into_par_iter()
                    .filter_map(|k| {
                        let r = splitmix(self.seed ^ key.wrapping_mul(0x1000_0000_01b3) ^ k);
                        let (side, entry) = ((r % sides) as usize, (r >> 8) % size);
                        let pos = scheme.position(m, side, entry);
                        let stored = tb.lookup(&pos);
                        let recomputed = tb.value_from_children(&pos);
                        let same = matches!((&stored, &recomputed), (Ok(a), Ok(b)) if a == b);
                        // The colour swap, where its table is built: the
                        // same value (a build that mixed up the colours,
                        // or a slice's leads, shows here).
                        let swapped = zoo_core::Retro::colour_swapped(&pos);
                        let swap = match tb.lookup(&swapped) {
                            Err(TbError::Missing { .. }) => None,
                            v => Some(v),
                        };
                        swaps.fetch_add(swap.is_some() as u64, Ordering::Relaxed);
                        let swap_same = match &swap {
                            None => true,
                            Some(v) => matches!((&stored, v), (Ok(a), Ok(b)) if a == b),
                        };
                        (!same || !swap_same).then(|| {
                            let text = if same {
                                format!(
                                    "{} side {side} entry {entry} ({}): stored {}, its colour swap {} stored {}",
                                    scheme.name(m),
                                    pos.to_fen(),
                                    describe(&stored),
                                    swapped.to_fen(),
                                    describe(swap.as_ref().unwrap_or(&stored)),
                                )
                            } else {
                                format!(
                                    "{} side {side} entry {entry} ({}): stored {}, moves give {}",
                                    scheme.name(m),
                                    pos.to_fen(),
                                    describe(&stored),
                                    describe(&recomputed)
                                )
                            };
                            SampleDisagreement {
                                table: scheme.name(m),
                                side,
                                index: entry,
                                fen: pos.to_fen(),
                                stored: value(&stored),
                                recomputed: value(&recomputed),
                                text,
                            }
                        })
                    })
                    .collect()
            });
            check.positions += self.positions;
            check.disagreements += wrong.len() as u64;
            check.tables.push(SampledTable {
                table: scheme.name(m),
                positions: self.positions,
                disagreements: wrong.len() as u64,
            });
            check.listed.extend(wrong.into_iter().take(8));
        }
        check.seconds = t0.elapsed().as_secs_f64();
        check.colour_swaps = swaps.into_inner();
        Ok(check)
    }
}

fn describe(v: &Result<(Outcome, u16), TbError>) -> String {
    match v {
        Ok((o, d)) => format!("{o:?} in {d}"),
        Err(e) => format!("no value ({e})"),
    }
}

/// A well-mixed 64-bit number from `x` (SplitMix64's finaliser): the
/// entries a seed draws.
fn splitmix(x: u64) -> u64 {
    zoo_core::rng::SplitMix64::mix(x)
}

/// The table files of each size, from their headers.
pub(crate) struct Files<'a> {
    pub set: &'a TableSet,
    pub pieces: Option<u32>,
}
/// Game, rule set, and per size the files there and the number of stored
/// materials.
pub(crate) type FilesBySize = (&'static str, &'static str, Vec<(u32, Vec<FileSize>, usize)>);
impl SchemeVisitor for Files<'_> {
    type Output = Result<FilesBySize, AppError>;
    fn visit<S: SchemeTables>(self) -> Self::Output {
        let scheme = scheme_of::<S>(self.set)?;
        let sizes: Vec<u32> = match self.pieces {
            Some(n) => {
                check_pieces(&scheme, n)?;
                vec![n]
            }
            None => (2..=scheme.max_pieces()).collect(),
        };
        let tb = opened(self.set, &scheme);
        let mut out = Vec::new();
        for n in sizes {
            let ms = scheme.stored(n);
            let mut files = Vec::new();
            for &m in &ms {
                let path = tb.path_of(m);
                if !path.exists() {
                    continue;
                }
                let (header, encoding, bytes) = file::read_header(&path)?;
                let sides = header.sides;
                files.push(FileSize {
                    material: scheme.name(m),
                    pieces: n,
                    encoding,
                    bytes,
                    entries: header.size * sides as u64,
                    positions: header.counts[..sides].iter().map(|c| c.positions).sum(),
                });
            }
            out.push((n, files, ms.len()));
        }
        Ok((scheme.game(), scheme.rules_name(), out))
    }
}
