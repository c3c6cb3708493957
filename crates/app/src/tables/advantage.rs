//! `zoo tb advantage`: one configuration solved in the 1-bit advantage
//! mode (literature B; `zoo_animal_tb::advantage`), its win/draw/loss counts, and
//! the comparison with its normal table when there is one
//! (docs/tablebase.md, "The 1-bit advantage mode").

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use zoo_animal::Board;
pub use zoo_animal_tb::advantage::Sweep;
use zoo_animal_tb::advantage::{compare, solve, spill_path, write, Holds, Pass};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::{Outcome, Side};
use zoo_tb::TbError;

/// Counts of one side to move's entries (each an index entry, as in the
/// table header's entry counts: mirror images not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WdlCounts {
    /// Entries won for the side to move.
    pub wins: u64,
    /// Entries drawn.
    pub draws: u64,
    /// Entries lost for the side to move.
    pub losses: u64,
}

/// One pass of the two.
#[derive(Clone, Debug, Serialize)]
pub struct PassReport {
    /// `white` or `black`: the side the draws were given to.
    pub advantage: &'static str,
    /// Sweeps over every entry, the last of which changed nothing.
    pub sweeps: u32,
    /// Seconds the pass took (without the comparison).
    pub seconds: f64,
    /// Entries that disagree with the normal table (`None`: no table).
    pub disagreements: Option<u64>,
}

/// What `zoo tb advantage` found.
#[derive(Clone, Debug, Serialize)]
pub struct AdvantageReport {
    /// The game's name (`jungle-checkers`).
    pub game: &'static str,
    /// The rule set's name.
    pub rules: &'static str,
    /// Canonical name (`DTEvdt`).
    pub material: String,
    /// Index entries per side to move.
    pub entries: u64,
    /// Bytes of bits one pass holds (both sides to move).
    pub bits_bytes: u64,
    /// White's pass, then Black's.
    pub passes: Vec<PassReport>,
    /// Per side to move (White, then Black): from the two passes.
    pub counts: [WdlCounts; 2],
    /// The same counts read from the normal table's header, when it is
    /// there (per stored side; a colour-symmetric table stores White's
    /// side only).
    pub table_counts: Option<Vec<WdlCounts>>,
    /// The WDL file written from the passes (`--write`), and its length.
    pub written: Option<(String, u64)>,
}

impl AdvantageReport {
    /// Whether a normal table was there and agrees entry by entry and in
    /// its counts.
    pub fn agrees(&self) -> Option<bool> {
        let t = self.table_counts.as_ref()?;
        Some(
            self.passes.iter().all(|p| p.disagreements == Some(0))
                && t.iter().zip(&self.counts).all(|(a, b)| a == b),
        )
    }
}

impl TableSet {
    /// Solves `material` in the advantage mode, with `threads` threads,
    /// reading the smaller tables of this set; compares each pass with the
    /// normal table of `material` if it is there. With `write`, writes its
    /// WDL file (`<material>.zoowdl`) from the passes. `progress` is told of
    /// each sweep.
    pub fn advantage(
        &self,
        material: &str,
        threads: usize,
        write: bool,
        progress: &(dyn Fn(Sweep) + Sync),
        stop: &AtomicBool,
    ) -> Result<AdvantageReport, AppError> {
        self.game().visit_tables(AdvantageOf {
            set: self,
            material,
            threads,
            write,
            progress,
            stop,
        })?
    }
}

/// What `zoo tb advantage --pieces N` did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SizeReport {
    /// The game.
    pub game: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// The size built.
    pub pieces: u32,
    /// Materials whose WDL file was written.
    pub written: Vec<String>,
    /// Materials with a table or WDL file already, left alone.
    pub present: usize,
    /// Bytes of the files written.
    pub bytes: u64,
}

impl TableSet {
    /// The WDL file of every canonical material of `pieces` pieces that has
    /// neither a table nor a WDL file, each made by the advantage mode
    /// from the smaller tables or WDL files of this set; `done` is told of
    /// each material.
    pub fn advantage_size(
        &self,
        pieces: u32,
        threads: usize,
        progress: &(dyn Fn(Sweep) + Sync),
        done: &mut dyn FnMut(&AdvantageReport),
        stop: &AtomicBool,
    ) -> Result<SizeReport, AppError> {
        let todo = self.game().visit_tables(Todo { set: self, pieces })??;
        let mut r = todo.0;
        for m in todo.1 {
            let a = self.advantage(&m, threads, true, progress, stop)?;
            if let Some((_, bytes)) = &a.written {
                r.bytes += bytes;
            }
            done(&a);
            r.written.push(m);
        }
        Ok(r)
    }
}

/// The report of a size so far, and the materials still to write.
struct Todo<'a> {
    set: &'a TableSet,
    pieces: u32,
}

impl TableVisitor for Todo<'_> {
    type Output = Result<(SizeReport, Vec<String>), AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        check_pieces::<B>(self.pieces)?;
        let rules = rules_of::<B>(self.set)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let mut r = SizeReport {
            game: B::GAME,
            rules: rules.name,
            pieces: self.pieces,
            ..SizeReport::default()
        };
        let mut todo = Vec::new();
        for m in Material::canonical::<B>(self.pieces) {
            if tb.path_of(m).exists() || tb.wdl_path_of(m).exists() {
                r.present += 1;
            } else {
                todo.push(m.name::<B>());
            }
        }
        Ok((r, todo))
    }
}

struct AdvantageOf<'a> {
    set: &'a TableSet,
    material: &'a str,
    threads: usize,
    write: bool,
    progress: &'a (dyn Fn(Sweep) + Sync),
    stop: &'a AtomicBool,
}

impl TableVisitor for AdvantageOf<'_> {
    type Output = Result<AdvantageReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let m = Material::parse::<B>(self.material)
            .filter(|m| m.white != 0 && m.black != 0)
            .ok_or_else(|| {
                AppError::Input(format!(
                    "--material {}: not a material of {} with pieces of both sides (White's letters of {}, `v`, Black's in lower case)",
                    self.material,
                    B::GAME,
                    std::str::from_utf8(B::LETTERS).unwrap_or("?")
                ))
            })?;
        // Its table holds the colour swap.
        let m = if m.is_canonical() { m } else { m.swapped() };
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let table_counts = match tb.table(m) {
            Ok(t) => Some(
                t.header.counts[..t.header.sides]
                    .iter()
                    .map(|c| WdlCounts {
                        draws: c.entries[0],
                        wins: c.entries[1],
                        losses: c.entries[2],
                    })
                    .collect::<Vec<_>>(),
            ),
            Err(TbError::Missing { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        let pool = crate::tables::thread_pool(self.threads)?;
        let size = tb.scheme().layout(m).size;
        let mut counts = [WdlCounts::default(); 2];
        let mut written = None;
        let mut passes = Vec::new();
        let layout = tb.scheme().layout(m);
        // One pass at a time: its bits are counted and compared, then
        // dropped (or, to write the file, spilled to disk) before the next,
        // so one pass's bits are all it holds.
        let mut first: Option<Box<dyn Holds>> = None;
        for advantage in [Side::White, Side::Black] {
            let start = Instant::now();
            let pass: Pass = pool.install(|| {
                solve(
                    &tb,
                    m,
                    advantage,
                    self.threads > 1,
                    self.progress,
                    self.stop,
                )
            })?;
            let seconds = start.elapsed().as_secs_f64();
            for (side, c) in counts.iter_mut().enumerate() {
                let n = pass.cleared(side);
                match pass.cleared_is(side) {
                    Outcome::Win => c.wins = n,
                    _ => c.losses = n,
                }
            }
            let disagreements = match table_counts {
                Some(_) => Some(pool.install(|| compare(&tb, &pass))?.disagreements),
                None => None,
            };
            passes.push(PassReport {
                advantage: if advantage == Side::White {
                    "white"
                } else {
                    "black"
                },
                sweeps: pass.sweeps,
                seconds,
                disagreements,
            });
            if !self.write {
                continue;
            }
            match first.take() {
                None => first = Some(Box::new(pass.spill(&spill_path(&tb, layout))?)),
                Some(white) => {
                    let len = pool.install(|| write(&tb, &*white, &pass, layout))?;
                    written = Some((tb.wdl_path_of(m).display().to_string(), len));
                }
            }
        }
        for c in &mut counts {
            c.draws = size - c.wins - c.losses;
        }
        Ok(AdvantageReport {
            game: B::GAME,
            rules: rules.name,
            material: m.name::<B>(),
            entries: size,
            bits_bytes: zoo_animal_tb::advantage::working_bytes(size),
            passes,
            counts,
            table_counts,
            written,
        })
    }
}
