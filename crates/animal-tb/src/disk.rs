//! What the tables take on disk: each file's bytes against the entries it
//! stores and the positions they stand for, and the totals per size
//! (`zoo tb size`). Only headers are read, so a measure of many gigabytes
//! of tables takes a moment, not a read of every byte.

use crate::file::{self, Encoding};
use crate::index::Material;
use crate::{Tablebase, TbError};
use zoo_animal::Board;

/// One table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSize {
    /// `RDvte`.
    pub material: String,
    pub pieces: u32,
    pub encoding: Encoding,
    /// The file's length.
    pub bytes: u64,
    /// Index entries stored (both sides to move where both are stored).
    pub entries: u64,
    /// Positions they stand for, as the header counts them (mirror images
    /// counted, stalemates left out): the figures of `zoo tb stats`.
    pub positions: u64,
}

/// The files of one size added up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Family {
    pub pieces: u32,
    /// Canonical materials of that size, and how many have a file.
    pub materials: usize,
    pub files: usize,
    pub bytes: u64,
    pub entries: u64,
    pub positions: u64,
    /// Files per encoding: plain, zstd, WDL-only.
    pub by_encoding: [usize; 3],
}

/// Bits per unit, 0 for none.
pub fn bits_per(bytes: u64, units: u64) -> f64 {
    if units == 0 {
        0.0
    } else {
        bytes as f64 * 8.0 / units as f64
    }
}

impl FileSize {
    pub fn bits_per_position(&self) -> f64 {
        bits_per(self.bytes, self.positions)
    }
    pub fn bits_per_entry(&self) -> f64 {
        bits_per(self.bytes, self.entries)
    }
}

impl Family {
    pub fn bits_per_position(&self) -> f64 {
        bits_per(self.bytes, self.positions)
    }
    pub fn bits_per_entry(&self) -> f64 {
        bits_per(self.bytes, self.entries)
    }
}

fn encoding_slot(e: Encoding) -> usize {
    match e {
        Encoding::Plain => 0,
        Encoding::Zstd => 1,
        Encoding::Wdl => 2,
    }
}

/// The table files of `pieces` pieces there are (`wdl`: the WDL-only
/// files), in the order of [`Material::canonical`], with the number of
/// canonical materials.
pub fn files<B: Board>(
    tb: &Tablebase<B>,
    pieces: u32,
    wdl: bool,
) -> Result<(Vec<FileSize>, usize), TbError> {
    let mats = Material::canonical::<B>(pieces);
    let mut out = Vec::new();
    for &m in &mats {
        let path = if wdl {
            tb.wdl_path_of(m)
        } else {
            tb.path_of(m)
        };
        if !path.exists() {
            continue;
        }
        let (header, encoding, bytes) = file::read_header(&path)?;
        let sides = header.sides;
        out.push(FileSize {
            material: m.name::<B>(),
            pieces,
            encoding,
            bytes,
            entries: header.size * sides as u64,
            positions: header.counts[..sides].iter().map(|c| c.positions).sum(),
        });
    }
    Ok((out, mats.len()))
}

/// The files of one size added up.
pub fn family(pieces: u32, materials: usize, files: &[FileSize]) -> Family {
    let mut f = Family {
        pieces,
        materials,
        files: files.len(),
        ..Family::default()
    };
    for t in files {
        f.bytes += t.bytes;
        f.entries += t.entries;
        f.positions += t.positions;
        f.by_encoding[encoding_slot(t.encoding)] += 1;
    }
    f
}
