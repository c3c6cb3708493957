//! One material's table built in memory from the tables of one piece
//! fewer, and probed there: how the proof solver values a root one piece
//! past the tables without searching it (`zoo-solve`'s `material`
//! module, docs/solve.md "One piece past the tables"). The build is the
//! generator's own ([`generate`]), with its state kept instead of
//! written: 2 bytes an entry and side.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN as RULES;
//! use zoo_animal::{JungleCheckers, JungleCheckersPos};
//! use zoo_animal_tb::build::{build, BuildOptions};
//! use zoo_animal_tb::{memory::InMemory, plan::plan};
//! use zoo_core::{Game, MaterialBuilder, Outcome};
//!
//! // The 2-piece tables, then a 3-piece material built from them in memory.
//! let dir = std::env::temp_dir().join(format!("zoo-memory-doc-{}", std::process::id()));
//! let opts = BuildOptions {
//!     pieces: 2,
//!     threads: 1,
//!     memory_bytes: None,
//!     encoding: None,
//!     copies: true,
//!     checkpoint_from: None,
//! };
//! let jobs = plan::<JungleCheckers>(&dir, &RULES, &opts).unwrap();
//! build::<JungleCheckers>(&dir, &RULES, &opts, &jobs, &|_| {}, &|_| {}, &AtomicBool::new(false))
//!     .unwrap();
//! let builder = InMemory::<JungleCheckers>::open(&dir, &RULES, 2);
//! // White's rat beside Black's den walks in, whatever Black's dog does.
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/d6/7/e6 w", &&RULES).unwrap();
//! assert!(builder.cost(&pos).is_some());
//! let table = builder.build(&pos, &|_| false).unwrap();
//! let v = table.probe(&pos).unwrap();
//! assert_eq!((v.outcome, v.distance), (Outcome::Win, Some(1)));
//! # std::fs::remove_dir_all(dir).unwrap();
//! ```

use crate::generate::{children_of, generate, working_bytes, Generated, Solve};
use crate::index::Material;
use crate::{slot_of, Tablebase};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use zoo_animal::{Board, Position, RuleSet};
use zoo_core::{BuildCost, Game, MaterialBuilder, Oracle, OracleValue, TableScheme};
use zoo_tb::file::split_code;

/// Bytes of the tables of fewer pieces decoded whole for a build.
pub const DECODED_BYTES: u64 = 1 << 30;

/// Builds, in memory, the table of a material one piece past the tables
/// of a directory.
pub struct InMemory<B: Board> {
    tb: Arc<Tablebase<B>>,
    /// The most pieces of the tables it builds from.
    max: u32,
}

impl<B: Board> InMemory<B> {
    /// A builder from the tables of `rules` under `dir` with at most `max`
    /// pieces (the oracle's): it builds materials of `max + 1` pieces.
    pub fn open(dir: &Path, rules: &'static RuleSet, max: u32) -> InMemory<B> {
        // The build probes the tables of its captures at random: read
        // block by block from zstd, their decompression takes most of the
        // time (3 times the build's own work on the 5-piece Jungle
        // Checkers materials), so they are decoded whole; those of one
        // piece fewer are a few MB each.
        InMemory {
            tb: Arc::new(Tablebase::<B>::open(dir, rules).decoding_whole(DECODED_BYTES)),
            max,
        }
    }

    /// The stored material of `pos`'s table, if this builder makes it.
    fn material(&self, pos: &Position<B>) -> Option<Material> {
        if pos.piece_count() != self.max + 1 || pos.terminal().is_some() {
            return None;
        }
        let m = Material::of(pos);
        if m.white == 0 || m.black == 0 {
            return None;
        }
        let stored = slot_of(m, pos.side_to_move()).material;
        // Every capture must land in a full table of the directory.
        children_of(&self.tb, self.tb.scheme().layout(stored), false).ok()?;
        Some(stored)
    }
}

impl<B: Board> MaterialBuilder<Position<B>> for InMemory<B> {
    fn cost(&self, pos: &Position<B>) -> Option<BuildCost> {
        let size = self.tb.scheme().layout(self.material(pos)?).size;
        Some(BuildCost {
            bytes: working_bytes(size),
            entries: 2 * size,
            // The forward pass and the sweeps each report every entry once.
            work: 4 * size,
        })
    }

    fn build(
        &self,
        pos: &Position<B>,
        tick: &(dyn Fn(u64) -> bool + Sync),
    ) -> Result<Box<dyn Oracle<Position<B>>>, String> {
        let Some(m) = self.material(pos) else {
            return Err(format!(
                "no table of {} pieces can be built from the tables of {}",
                pos.piece_count(),
                self.max
            ));
        };
        let stop = AtomicBool::new(false);
        let progress = |k: u64| {
            if tick(k) {
                stop.store(true, Relaxed);
            }
        };
        let solve = Solve {
            parallel: rayon::current_num_threads() > 1,
            checkpoint: None,
            state_dir: None,
        };
        let generated =
            generate(&self.tb, m, &solve, &progress, &stop).map_err(|e| e.to_string())?;
        Ok(Box::new(MemoryTable {
            generated,
            material: m,
            pieces: self.max + 1,
            tb: Arc::clone(&self.tb),
        }))
    }
}

/// One material's table, in memory: the value and distance of each of its
/// positions; other positions are not its.
pub struct MemoryTable<B: Board> {
    generated: Generated,
    material: Material,
    pieces: u32,
    tb: Arc<Tablebase<B>>,
}

impl<B: Board> Oracle<Position<B>> for MemoryTable<B> {
    fn max_pieces(&self) -> u32 {
        self.pieces
    }

    /// One material of its size: the others of `pieces` are not known.
    fn complete_pieces(&self) -> u32 {
        self.pieces - 1
    }

    fn probe(&self, pos: &Position<B>) -> Option<OracleValue> {
        if let Some(o) = pos.terminal() {
            return Some(OracleValue::exact(o, 0));
        }
        if pos.piece_count() != self.pieces {
            return None;
        }
        let at = self.tb.scheme().locate(pos);
        if at.material != self.material {
            return None;
        }
        let (wdl, dist) = split_code(self.generated.code(at.side, at.entry));
        zoo_tb::decode(wdl, dist).map(|(o, d)| OracleValue::exact(o, d))
    }
}
