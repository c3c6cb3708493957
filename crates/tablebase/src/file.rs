//! The table file: a fixed 256-byte header, the packed values of each stored
//! side to move, and a CRC-32 of everything before it.
//!
//! ```text
//! 0    magic "ZOOTB\r\n\x1a"       8 bytes (the line ends catch text-mode copies)
//! 8    format version              u32
//! 12   number of sides stored      u32 (1 for a colour-symmetric material)
//! 16   game name                   32 bytes, zero padded
//! 48   rule set name               16 bytes, zero padded
//! 64   White kinds, Black kinds    u8, u8 (bit k = kind k), 6 bytes zero
//! 72   index size                  u64
//! 80   per side (2x): wins, draws, losses over all entries           3 x u64
//! 128  per side (2x): positions, wins, draws, losses, longest over
//!      the positions they stand for (mirror images counted, stalemates
//!      left out)                                                      5 x u64
//! 208  zero up to 256
//! 256  per stored side: WDL, 2 bits per entry (0 draw, 1 win, 2 loss),
//!      4 entries per byte, low bits first, ceil(size/4) bytes;
//!      then the distance in plies, 1 byte per entry
//! end  CRC-32 (IEEE) of all bytes before it, u32
//! ```
//! All integers little-endian. Every field is checked when a file is opened.

use crate::index::Material;
use crate::TbError;
use memmap2::Mmap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use zoo_animal::Board;

pub const MAGIC: &[u8; 8] = b"ZOOTB\r\n\x1a";
pub const VERSION: u32 = 1;
pub const HEADER: usize = 256;

pub const WDL_DRAW: u8 = 0;
pub const WDL_WIN: u8 = 1;
pub const WDL_LOSS: u8 = 2;

/// Counts of one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Over the index entries.
    pub entries: [u64; 3],
    /// Over the positions they stand for: positions, wins, draws, losses, longest.
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub longest: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub rules: String,
    pub material: Material,
    pub sides: usize,
    pub size: u64,
    pub counts: [SideCounts; 2],
}

impl Header {
    fn side_bytes(&self) -> usize {
        self.size.div_ceil(4) as usize + self.size as usize
    }
    pub fn file_len(&self) -> usize {
        HEADER + self.sides * self.side_bytes() + 4
    }
    fn encode(&self) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(self.sides as u32).to_le_bytes());
        h[16..16 + self.game.len()].copy_from_slice(self.game.as_bytes());
        h[48..48 + self.rules.len()].copy_from_slice(self.rules.as_bytes());
        h[64] = self.material.white;
        h[65] = self.material.black;
        h[72..80].copy_from_slice(&self.size.to_le_bytes());
        for s in 0..2 {
            let c = &self.counts[s];
            for j in 0..3 {
                let o = 80 + s * 24 + j * 8;
                h[o..o + 8].copy_from_slice(&c.entries[j].to_le_bytes());
            }
            for (j, v) in [c.positions, c.wins, c.draws, c.losses, c.longest]
                .into_iter()
                .enumerate()
            {
                let o = 128 + s * 40 + j * 8;
                h[o..o + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        h
    }
    fn decode(h: &[u8], path: &Path) -> Result<Header, TbError> {
        let bad = |why: &str| TbError::Damaged(path.to_path_buf(), why.to_string());
        if h.len() < HEADER {
            return Err(bad("shorter than a header"));
        }
        if &h[0..8] != MAGIC {
            return Err(bad("not a zoo table file (wrong magic)"));
        }
        let u64at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(bad(&format!(
                "format version {version}, this program reads {VERSION}"
            )));
        }
        let sides = u32::from_le_bytes(h[12..16].try_into().expect("4 bytes")) as usize;
        if sides != 1 && sides != 2 {
            return Err(bad("bad number of sides"));
        }
        let text = |r: std::ops::Range<usize>| -> Result<String, TbError> {
            let b = &h[r];
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8(b[..end].to_vec()).map_err(|_| bad("name not UTF-8"))
        };
        let mut counts = [SideCounts::default(); 2];
        for (s, c) in counts.iter_mut().enumerate() {
            for j in 0..3 {
                c.entries[j] = u64at(80 + s * 24 + j * 8);
            }
            let v: Vec<u64> = (0..5).map(|j| u64at(128 + s * 40 + j * 8)).collect();
            (c.positions, c.wins, c.draws, c.losses, c.longest) = (v[0], v[1], v[2], v[3], v[4]);
        }
        Ok(Header {
            game: text(16..48)?,
            rules: text(48..64)?,
            material: Material::new(h[64], h[65]),
            sides,
            size: u64at(72),
            counts,
        })
    }
}

/// The file name of a material's table.
pub fn file_name<B: Board>(m: Material) -> String {
    format!("{}.zootb", m.name::<B>())
}

/// Where the tables of a game and rule set live under `dir`.
pub fn table_dir(dir: &Path, game: &str, rules: &str) -> PathBuf {
    dir.join(game).join(rules)
}

/// Writes a table: `values[side]` holds, per entry, 0 for a draw or the
/// distance + 1 (wins odd distances, losses even). Written under a temporary
/// name and renamed when complete, so a file with the final name is whole.
pub fn write_table(path: &Path, header: &Header, values: &[&[u8]]) -> Result<(), TbError> {
    let io = |e: std::io::Error| TbError::Io(path.to_path_buf(), e);
    let tmp = path.with_extension("zootb.tmp");
    let f = File::create(&tmp).map_err(io)?;
    let mut w = BufWriter::with_capacity(1 << 20, f);
    let mut crc = crc32fast::Hasher::new();
    let mut put = |w: &mut BufWriter<File>, b: &[u8]| -> Result<(), TbError> {
        crc.update(b);
        w.write_all(b).map_err(io)
    };
    put(&mut w, &header.encode())?;
    for vals in values.iter().take(header.sides) {
        let mut packed = vec![0u8; vals.len().div_ceil(4)];
        for (i, &v) in vals.iter().enumerate() {
            let wdl = if v == 0 {
                WDL_DRAW
            } else if (v - 1) % 2 == 1 {
                WDL_WIN
            } else {
                WDL_LOSS
            };
            packed[i / 4] |= wdl << (2 * (i % 4));
        }
        put(&mut w, &packed)?;
        let dist: Vec<u8> = vals.iter().map(|&v| v.saturating_sub(1)).collect();
        put(&mut w, &dist)?;
    }
    let sum = crc.finalize();
    w.write_all(&sum.to_le_bytes()).map_err(io)?;
    let f = w.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(())
}

/// An opened, checked table file.
pub struct Table {
    pub header: Header,
    map: Mmap,
}

impl Table {
    /// Opens and checks a table: header fields against what the caller
    /// expects, the length, and the checksum over the whole file.
    pub fn open(
        path: &Path,
        game: &str,
        rules: &str,
        material: Material,
        size: u64,
    ) -> Result<Table, TbError> {
        let io = |e: std::io::Error| TbError::Io(path.to_path_buf(), e);
        let bad = |why: String| TbError::Damaged(path.to_path_buf(), why);
        let f = File::open(path).map_err(io)?;
        // SAFETY: the map is read-only and table files are only ever created
        // whole under a temporary name and renamed; nothing writes a file
        // with its final name while it may be mapped. A file changed behind
        // our back by someone else could change the bytes read, never memory
        // safety of these plain byte reads (no references into it escape
        // past a checked length).
        let map = unsafe { Mmap::map(&f) }.map_err(io)?;
        let header = Header::decode(&map, path)?;
        if header.game != game {
            return Err(bad(format!("a table of {}, not {game}", header.game)));
        }
        if header.rules != rules {
            return Err(bad(format!(
                "built with rule set {}, not {rules}",
                header.rules
            )));
        }
        if header.material != material {
            return Err(bad(
                "holds another material configuration than its name says".into(),
            ));
        }
        if header.size != size {
            return Err(bad(format!(
                "index size {} where {size} is expected",
                header.size
            )));
        }
        let want_sides = if material.is_symmetric() { 1 } else { 2 };
        if header.sides != want_sides {
            return Err(bad(format!(
                "{} sides stored, {want_sides} expected",
                header.sides
            )));
        }
        if map.len() != header.file_len() {
            return Err(bad(format!(
                "{} bytes where {} are expected (truncated?)",
                map.len(),
                header.file_len()
            )));
        }
        let body = &map[..map.len() - 4];
        let stored = u32::from_le_bytes(map[map.len() - 4..].try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return Err(bad("checksum mismatch: the file is damaged".into()));
        }
        Ok(Table { header, map })
    }

    /// WDL code and distance of an entry of a stored side.
    #[inline(always)]
    pub fn get(&self, side: usize, idx: u64) -> (u8, u8) {
        let size = self.header.size as usize;
        let base = HEADER + side * (size.div_ceil(4) + size);
        let i = idx as usize;
        let wdl = (self.map[base + i / 4] >> (2 * (i % 4))) & 3;
        let dist = self.map[base + size.div_ceil(4) + i];
        (wdl, dist)
    }
}
