//! Whole sizes of the animal games' tables built by the generator of any
//! game with unmoves ([`crate::retro`]) instead of the animal one: the
//! same files, found by a method that shares none of the animal
//! generator's shortcuts (`zoo tb build --generator retro`).

use crate::file::{file_name, table_dir, write_table_smallest, Header};
use crate::index::{AnimalIndex, Material};
use crate::{manifest, retro, Tablebase, TbError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use zoo_animal::{Board, RuleSet};

/// One table written (or found already written, `built == false`).
#[derive(Clone, Debug)]
pub struct Written {
    /// The configuration.
    pub material: Material,
    /// Its file.
    pub path: PathBuf,
    /// Whether this run solved it (a table already on disk is kept: the
    /// build resumes at the first one missing).
    pub built: bool,
}

/// Builds every configuration of 2 to `pieces` pieces under `dir`, smallest
/// first, each from the tables of fewer pieces in the same directory,
/// then records them in the manifest. `done(w)` is told of each table as
/// it is written; `stop` ends the build between two tables
/// ([`TbError::Interrupted`]).
pub fn build_retro<B: Board>(
    dir: &Path,
    rules: &'static RuleSet,
    pieces: u32,
    done: &dyn Fn(&Written),
    stop: &AtomicBool,
) -> Result<Vec<Written>, TbError> {
    let tdir = table_dir(dir, B::GAME, rules.name);
    std::fs::create_dir_all(&tdir).map_err(|e| TbError::Io(tdir.clone(), e.into()))?;
    let tb = Tablebase::<B>::open(dir, rules);
    let mut written = Vec::new();
    for n in 2..=pieces {
        for m in Material::canonical::<B>(n) {
            if stop.load(Relaxed) {
                return Err(TbError::Interrupted);
            }
            let path = tb.path_of(m);
            let built = !path.exists();
            if built {
                let layout = tb.scheme().layout(m);
                let index = AnimalIndex::<B>::new(layout, rules);
                let solved = retro::solve(&index, &m.name::<B>(), &|c| tb.lookup(c))?;
                let header = Header {
                    counts: solved.counts,
                    ..crate::header::<B>(rules.name, m, layout.size)
                };
                let fill = |side: usize, start: u64, out: &mut [u8]| {
                    let s = start as usize;
                    out.copy_from_slice(&solved.values[side][s..s + out.len()]);
                };
                write_table_smallest(&path, &header, &fill)?;
            }
            let w = Written {
                material: m,
                path,
                built,
            };
            done(&w);
            written.push(w);
        }
    }
    let names: Vec<String> = written
        .iter()
        .map(|w| file_name(&w.material.name::<B>()))
        .collect();
    manifest::record(&tdir, &names)?;
    Ok(written)
}
