//! The WDL file of an advantage build: the two passes' bits turned into
//! the `<material>.zoowdl` file the normal build's `zoo tb wdl` makes, so
//! a configuration too large for the 2-byte state still gets a table the
//! prober and the next size's generator read.
//!
//! Only one pass is in memory at a time: the first is spilled to a file
//! beside the table (a bit per entry and side, temporary name) while the
//! second runs, and read back through a memory map when the file is
//! written.

use super::{Pass, CHUNK};
use crate::file::{write_table_with, Encoding, Header, SideCounts};
use crate::index::Layout;
use crate::{Tablebase, TbError};
use memmap2::Mmap;
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use zoo_animal::{Board, Position};
use zoo_core::{Game, Outcome, Side};

/// The bits of a pass: in memory, or spilled to a file.
pub trait Holds: Sync {
    /// Whether the advantage side does not lose entry `x` of `side`.
    fn holds(&self, side: usize, x: u64) -> bool;
}

impl Holds for Pass {
    fn holds(&self, side: usize, x: u64) -> bool {
        Pass::holds(self, side, x)
    }
}

/// A pass's bits in a file: side 0's words, then side 1's, little-endian.
pub struct Spilled {
    map: Mmap,
    words: u64,
    path: PathBuf,
}

impl Holds for Spilled {
    fn holds(&self, side: usize, x: u64) -> bool {
        let byte = (side as u64 * self.words * 8 + x / 8) as usize;
        self.map[byte] >> (x % 8) & 1 != 0
    }
}

impl Drop for Spilled {
    fn drop(&mut self) {
        // Scratch: nothing reads it once the table is written.
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Pass {
    /// Writes this pass's bits to `path` and maps them back, freeing the
    /// memory they took.
    pub fn spill(self, path: &Path) -> Result<Spilled, TbError> {
        let io = |e: std::io::Error| TbError::io(path, e);
        let mut w = BufWriter::new(zoo_core::files::create_no_follow(path).map_err(io)?);
        for bits in &self.bits {
            for word in bits.words.iter() {
                w.write_all(
                    &word
                        .load(std::sync::atomic::Ordering::Relaxed)
                        .to_le_bytes(),
                )
                .map_err(io)?;
            }
        }
        w.into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)?;
        let words = self.bits[0].words.len() as u64;
        let file = File::open(path).map_err(io)?;
        // SAFETY: the file is this build's scratch file, written and closed
        // above and written by nobody else while the map lives.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Ok(Spilled {
            map,
            words,
            path: path.to_path_buf(),
        })
    }
}

/// The value for the side to move of entry `x` of `side`, from the passes
/// with White's and Black's advantage.
pub fn wdl(white: &dyn Holds, black: &dyn Holds, side: usize, x: u64) -> Outcome {
    let (ours, theirs) = if side == 0 {
        (white, black)
    } else {
        (black, white)
    };
    if !ours.holds(side, x) {
        Outcome::Loss
    } else if !theirs.holds(side, x) {
        Outcome::Win
    } else {
        Outcome::Draw
    }
}

/// The value code the table writer takes for `o` (distance + 1 with the
/// parity of the outcome, 0 a draw): 2 for a win, 1 for a loss.
fn code(o: Outcome) -> u8 {
    match o {
        Outcome::Draw => 0,
        Outcome::Win => 2,
        Outcome::Loss => 1,
    }
}

/// The header of the WDL file of `layout`'s material from the two passes:
/// the counts of the normal build, of both sides to move even where the
/// file stores one (positions without a legal move are
/// not counted among the positions), but no longest distance (0).
fn header<B: Board>(
    tb: &Tablebase<B>,
    layout: &Layout,
    white: &dyn Holds,
    black: &dyn Holds,
) -> Header {
    let mut h = crate::header::<B>(tb.rules().name, layout.material, layout.size);
    let stride = layout.first_stride();
    for (side, counts) in h.counts.iter_mut().enumerate() {
        let stm = if side == 0 { Side::White } else { Side::Black };
        *counts = (0..layout.size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(layout.size));
                let mut s = SideCounts::default();
                let mut sqs = [0u8; 16];
                for x in start..end {
                    let k = match wdl(white, black, side, x) {
                        Outcome::Draw => 0,
                        Outcome::Win => 1,
                        Outcome::Loss => 2,
                    };
                    s.entries[k] += 1;
                    layout.unrank(x, &mut sqs);
                    let pos: Position<B> = layout.position(&sqs[..layout.n], stm, tb.rules());
                    if pos.count_moves() == 0 {
                        continue; // a stalemate: not one of the statistics' positions
                    }
                    // Entries with the first piece on files a-c stand for
                    // themselves and their mirror image.
                    let w = if layout.first_file(x - x % stride) < 3 {
                        2
                    } else {
                        1
                    };
                    s.positions += w;
                    match k {
                        0 => s.draws += w,
                        1 => s.wins += w,
                        _ => s.losses += w,
                    }
                }
                s
            })
            .reduce(SideCounts::default, SideCounts::merged);
    }
    h
}

/// Writes the WDL file of the passes' material from the passes with
/// White's and Black's advantage (in the current rayon pool); returns its
/// length.
pub fn write<B: Board>(
    tb: &Tablebase<B>,
    white: &dyn Holds,
    black: &dyn Holds,
    layout: &Layout,
) -> Result<u64, TbError> {
    let h = header(tb, layout, white, black);
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        for (x, o) in (start..).zip(out.iter_mut()) {
            *o = code(wdl(white, black, side, x));
        }
    };
    write_table_with(&tb.wdl_path_of(layout.material), &h, Encoding::Wdl, &fill)
}

/// Where the first pass of material `layout.material` is spilled.
pub fn spill_path<B: Board>(tb: &Tablebase<B>, layout: &Layout) -> PathBuf {
    let mut p = tb.wdl_path_of(layout.material).into_os_string();
    p.push(".pass.tmp");
    PathBuf::from(p)
}
