//! The table file: a fixed 256-byte header, the values of each stored side
//! to move (plain or in zstd blocks), and a CRC-32 of everything before it.
//!
//! ```text
//! 0    magic "ZOOTB\r\n\x1a"       8 bytes (the line ends catch text-mode copies)
//! 8    format version              u32: 1 plain, 2 zstd blocks
//! 12   number of sides stored      u32 (1 for a colour-symmetric material)
//! 16   game name                   32 bytes, zero padded
//! 48   rule set name               16 bytes, zero padded
//! 64   White kinds, Black kinds    u8, u8 (bit k = kind k), 6 bytes zero
//! 72   index size                  u64
//! 80   per side (2x): wins, draws, losses over all entries           3 x u64
//! 128  per side (2x): positions, wins, draws, losses, longest over
//!      the positions they stand for (mirror images counted, stalemates
//!      left out)                                                      5 x u64
//! 208  version 2: entries per block B   u32 (zero in version 1)
//! 212  zero up to 256
//!
//! version 1 (plain):
//! 256  per stored side: WDL, 2 bits per entry (0 draw, 1 win, 2 loss),
//!      4 entries per byte, low bits first, ceil(size/4) bytes;
//!      then the distance in plies, 1 byte per entry
//!
//! version 2 (zstd blocks), n = ceil(size/B) blocks per side:
//! 256  per stored side, its blocks 0..n: the value codes of entries
//!      kB..min((k+1)B, size), 1 byte per entry (0 draw, else distance + 1:
//!      odd distances win for the side to move, even ones lose), each block
//!      one independent zstd frame (content size and checksum included)
//! T    offset table: sides*n + 1 u64 file offsets; block k of side s is
//!      the bytes offset[s*n+k]..offset[s*n+k+1]; offset[0] = 256, the
//!      offsets strictly increase and the last one is T itself
//!
//! end  CRC-32 (IEEE) of all bytes before it, u32
//! ```
//! All integers little-endian. Every field is checked when a file is opened;
//! a version 2 block that does not decompress to exactly its length reads as
//! the invalid WDL code 3 (see [`Table::get`]), never as values.

use crate::index::Material;
use crate::{Damage, TbError};
use memmap2::Mmap;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use zoo_animal::Board;

pub const MAGIC: &[u8; 8] = b"ZOOTB\r\n\x1a";
/// The plain format.
pub const VERSION: u32 = 1;
/// The zstd block format.
pub const VERSION_ZSTD: u32 = 2;
pub const HEADER: usize = 256;

pub const WDL_DRAW: u8 = 0;
pub const WDL_WIN: u8 = 1;
pub const WDL_LOSS: u8 = 2;
/// What [`Table::get`] answers for an entry it cannot read (a damaged block).
pub const WDL_INVALID: u8 = 3;

/// Entries per zstd block (measured in `docs/log/tablebase.md`).
pub const BLOCK_ENTRIES: u32 = 1 << 14;
/// zstd level of the blocks.
pub const ZSTD_LEVEL: i32 = 3;
/// Largest block size a reader accepts (a damaged header must not make it
/// allocate without bound).
const MAX_BLOCK: u64 = 1 << 24;

/// How the values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Version 1: 2-bit WDL plus a distance byte per entry.
    Plain,
    /// Version 2: the value codes in independently compressed zstd blocks.
    Zstd,
}

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
    /// A header with no counts yet, one side stored for a colour-symmetric
    /// material and two otherwise.
    pub fn new(game: &str, rules: &str, material: Material, size: u64) -> Header {
        Header {
            game: game.to_string(),
            rules: rules.to_string(),
            material,
            sides: material.stored_sides(),
            size,
            counts: Default::default(),
        }
    }

    fn side_bytes(&self) -> usize {
        self.size.div_ceil(4) as usize + self.size as usize
    }
    /// The length of the plain (version 1) file.
    pub fn file_len(&self) -> usize {
        HEADER + self.sides * self.side_bytes() + 4
    }
    /// `block` is the entries per block of version 2, 0 for version 1.
    fn encode(&self, block: u32) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[0..8].copy_from_slice(MAGIC);
        let version = if block == 0 { VERSION } else { VERSION_ZSTD };
        h[8..12].copy_from_slice(&version.to_le_bytes());
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
        h[208..212].copy_from_slice(&block.to_le_bytes());
        h
    }
    /// The header, the encoding and (version 2) the entries per block.
    fn decode(h: &[u8], path: &Path) -> Result<(Header, Encoding, u64), TbError> {
        let bad = |why: Damage| TbError::Damaged(path.to_path_buf(), why);
        if h.len() < HEADER {
            return Err(bad(Damage::ShortHeader));
        }
        if &h[0..8] != MAGIC {
            return Err(bad(Damage::BadMagic));
        }
        let u64at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let u32at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let version = u32at(8);
        let (encoding, block) = match version {
            VERSION => (Encoding::Plain, 0),
            VERSION_ZSTD => {
                let b = u32at(208) as u64;
                if b == 0 || b > MAX_BLOCK {
                    return Err(bad(Damage::BlockSize(b)));
                }
                (Encoding::Zstd, b)
            }
            _ => {
                return Err(bad(Damage::Version {
                    found: version,
                    reads: [VERSION, VERSION_ZSTD],
                }))
            }
        };
        let sides = u32at(12) as usize;
        if sides != 1 && sides != 2 {
            return Err(bad(Damage::Sides));
        }
        let text = |r: std::ops::Range<usize>| -> Result<String, TbError> {
            let b = &h[r];
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8(b[..end].to_vec()).map_err(|_| bad(Damage::NameNotUtf8))
        };
        let mut counts = [SideCounts::default(); 2];
        for (s, c) in counts.iter_mut().enumerate() {
            for j in 0..3 {
                c.entries[j] = u64at(80 + s * 24 + j * 8);
            }
            let v: Vec<u64> = (0..5).map(|j| u64at(128 + s * 40 + j * 8)).collect();
            (c.positions, c.wins, c.draws, c.losses, c.longest) = (v[0], v[1], v[2], v[3], v[4]);
        }
        let header = Header {
            game: text(16..48)?,
            rules: text(48..64)?,
            material: Material::new(h[64], h[65]),
            sides,
            size: u64at(72),
            counts,
        };
        Ok((header, encoding, block))
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

/// WDL code and distance of a value code (0 draw, else distance + 1).
#[inline(always)]
pub fn split_code(v: u8) -> (u8, u8) {
    if v == 0 {
        (WDL_DRAW, 0)
    } else if (v - 1) % 2 == 1 {
        (WDL_WIN, v - 1)
    } else {
        (WDL_LOSS, v - 1)
    }
}

/// Writes a table from whole sides: `values[side]` holds, per entry, 0 for a
/// draw or the distance + 1 (wins odd distances, losses even), in the plain
/// encoding (version 1).
pub fn write_table(path: &Path, header: &Header, values: &[&[u8]]) -> Result<(), TbError> {
    for vals in values.iter().take(header.sides) {
        if vals.len() as u64 != header.size {
            return Err(TbError::WrongValueCount {
                path: path.to_path_buf(),
                got: vals.len() as u64,
                size: header.size,
            });
        }
    }
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        let s = start as usize;
        out.copy_from_slice(&values[side][s..s + out.len()]);
    };
    write_table_with(path, header, Encoding::Plain, &fill).map(|_| ())
}

/// Writes a table. `fill(side, start, out)` writes the value codes (0 draw,
/// else distance + 1) of entries `start..start + out.len()` of `side`; it
/// is called from several threads, for pieces of a side in any order, and
/// the plain encoding asks for every entry twice. The values are streamed:
/// no side is held in memory whole. Written under `<name>.zootb.tmp`,
/// synced and renamed, so a file with the final name is whole. Returns the
/// file's length in bytes.
pub fn write_table_with(
    path: &Path,
    header: &Header,
    encoding: Encoding,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    let block = match encoding {
        Encoding::Plain => 0,
        Encoding::Zstd => BLOCK_ENTRIES,
    };
    write_table_blocks(path, header, block, ZSTD_LEVEL, fill)
}

/// [`write_table_with`] with a chosen block size (0: plain encoding) and
/// zstd level, for measurements.
#[doc(hidden)]
pub fn write_table_blocks(
    path: &Path,
    header: &Header,
    block: u32,
    level: i32,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    let tmp = path.with_extension("zootb.tmp");
    let r = write_tmp(&tmp, header, block, level, fill);
    let r = r.and_then(|len| {
        std::fs::rename(&tmp, path)
            .map(|_| len)
            .map_err(|e| TbError::io(path, e))
    });
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// A file being written, with the CRC and length of what went into it.
struct Out<'a> {
    w: BufWriter<File>,
    crc: crc32fast::Hasher,
    len: u64,
    path: &'a Path,
}

impl Out<'_> {
    fn put(&mut self, b: &[u8]) -> Result<(), TbError> {
        self.crc.update(b);
        self.len += b.len() as u64;
        self.w.write_all(b).map_err(|e| TbError::io(self.path, e))
    }
}

fn write_tmp(
    tmp: &Path,
    header: &Header,
    block: u32,
    level: i32,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    let io = |e: std::io::Error| TbError::io(tmp, e);
    if header.sides != 1 && header.sides != 2 {
        return Err(TbError::BadSides {
            path: tmp.to_path_buf(),
            sides: header.sides,
        });
    }
    let f = File::create(tmp).map_err(io)?;
    let mut out = Out {
        w: BufWriter::with_capacity(1 << 20, f),
        crc: crc32fast::Hasher::new(),
        len: 0,
        path: tmp,
    };
    out.put(&header.encode(block))?;
    if block == 0 {
        write_plain(&mut out, header, fill)?;
    } else {
        write_zstd(&mut out, header, block as u64, level, fill)?;
    }
    let sum = out.crc.finalize();
    out.w.write_all(&sum.to_le_bytes()).map_err(io)?;
    let f = out.w.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    Ok(out.len + 4)
}

/// Fills `out` with entries `start..` of `side`, in parallel pieces.
fn fill_par(
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
    side: usize,
    start: u64,
    out: &mut [u8],
) {
    const PIECE: usize = 1 << 16;
    out.par_chunks_mut(PIECE)
        .enumerate()
        .for_each(|(i, c)| fill(side, start + (i * PIECE) as u64, c));
}

/// Entries per chunk of the plain writer (a multiple of 4, so the packed
/// WDL bytes of the chunks follow each other).
const PLAIN_CHUNK: u64 = 1 << 22;

fn write_plain(
    out: &mut Out,
    header: &Header,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<(), TbError> {
    let size = header.size;
    let mut buf = vec![0u8; PLAIN_CHUNK.min(size) as usize];
    let mut packed = vec![0u8; buf.len().div_ceil(4)];
    for side in 0..header.sides {
        // WDL, 2 bits per entry.
        let mut start = 0;
        while start < size {
            let n = PLAIN_CHUNK.min(size - start) as usize;
            let vals = &mut buf[..n];
            fill_par(fill, side, start, vals);
            let p = &mut packed[..n.div_ceil(4)];
            p.fill(0);
            for (i, &v) in vals.iter().enumerate() {
                p[i / 4] |= split_code(v).0 << (2 * (i % 4));
            }
            out.put(p)?;
            start += n as u64;
        }
        // Distances, 1 byte per entry.
        let mut start = 0;
        while start < size {
            let n = PLAIN_CHUNK.min(size - start) as usize;
            let vals = &mut buf[..n];
            fill_par(fill, side, start, vals);
            for v in vals.iter_mut() {
                *v = v.saturating_sub(1);
            }
            out.put(vals)?;
            start += n as u64;
        }
    }
    Ok(())
}

/// Blocks compressed at once (bounds the memory of the writer).
const BATCH_BYTES: u64 = 1 << 23;

fn write_zstd(
    out: &mut Out,
    header: &Header,
    block: u64,
    level: i32,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<(), TbError> {
    use zstd::zstd_safe::CParameter;
    thread_local! {
        static CCTX: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
            const { RefCell::new(None) };
    }
    let size = header.size;
    let n = size.div_ceil(block);
    let batch = (BATCH_BYTES / block).max(1);
    let mut offsets = Vec::with_capacity((header.sides as u64 * n + 1) as usize);
    let path = out.path;
    let zerr = |e: std::io::Error| TbError::Zstd(path.to_path_buf(), e.into());
    let compress = |side: usize, k: u64| -> std::io::Result<Vec<u8>> {
        let start = k * block;
        let len = block.min(size - start) as usize;
        let mut vals = vec![0u8; len];
        fill(side, start, &mut vals);
        CCTX.with(|c| {
            let mut c = c.borrow_mut();
            if c.as_ref().map(|(l, _)| *l) != Some(level) {
                let mut z = zstd::bulk::Compressor::new(level)?;
                z.set_parameter(CParameter::ChecksumFlag(true))?;
                z.set_parameter(CParameter::ContentSizeFlag(true))?;
                *c = Some((level, z));
            }
            c.as_mut().expect("set above").1.compress(&vals)
        })
    };
    for side in 0..header.sides {
        let mut k0 = 0;
        while k0 < n {
            let k1 = (k0 + batch).min(n);
            let frames: Vec<std::io::Result<Vec<u8>>> = (k0..k1)
                .into_par_iter()
                .map(|k| compress(side, k))
                .collect();
            for f in frames {
                offsets.push(out.len);
                out.put(&f.map_err(zerr)?)?;
            }
            k0 = k1;
        }
    }
    offsets.push(out.len);
    let table: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    out.put(&table)
}

/// Tables opened in this process, to tell them apart in the block caches.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Decompressed blocks kept per thread.
const CACHED_BLOCKS: usize = 4;

struct CachedBlock {
    table: u64,
    side: usize,
    block: u64,
    data: Vec<u8>,
}

#[derive(Default)]
struct BlockCache {
    /// Most recently used first.
    blocks: Vec<CachedBlock>,
    dctx: Option<zstd::bulk::Decompressor<'static>>,
}

thread_local! {
    static CACHE: RefCell<BlockCache> = RefCell::new(BlockCache::default());
}

/// Decompresses a frame into `out`, which must come out exactly full.
fn unzstd(
    dctx: &mut Option<zstd::bulk::Decompressor<'static>>,
    src: &[u8],
    out: &mut [u8],
) -> bool {
    if dctx.is_none() {
        match zstd::bulk::Decompressor::new() {
            Ok(d) => *dctx = Some(d),
            Err(_) => return false,
        }
    }
    let d = dctx.as_mut().expect("set above");
    matches!(d.decompress_to_buffer(src, out), Ok(n) if n == out.len())
}

/// An opened, checked table file.
pub struct Table {
    pub header: Header,
    path: PathBuf,
    map: Mmap,
    encoding: Encoding,
    /// Version 2: entries per block, blocks per side, where the offset
    /// table starts.
    block: u64,
    blocks: u64,
    offsets_at: usize,
    id: u64,
}

impl Table {
    /// Opens and checks a table: header fields against what the caller
    /// expects, the length, (version 2) the offset table, and the checksum
    /// over the whole file.
    pub fn open(
        path: &Path,
        game: &str,
        rules: &str,
        material: Material,
        size: u64,
    ) -> Result<Table, TbError> {
        let io = |e: std::io::Error| TbError::io(path, e);
        let bad = |why: Damage| TbError::Damaged(path.to_path_buf(), why);
        let f = File::open(path).map_err(io)?;
        // SAFETY: the map is read-only and table files are only ever created
        // whole under a temporary name and renamed; nothing writes a file
        // with its final name while it may be mapped. A file changed behind
        // our back by someone else could change the bytes read, never memory
        // safety of these plain byte reads (no references into it escape
        // past a checked length).
        let map = unsafe { Mmap::map(&f) }.map_err(io)?;
        let (header, encoding, block) = Header::decode(&map, path)?;
        if header.game != game {
            return Err(bad(Damage::WrongGame {
                found: header.game,
                expected: game.into(),
            }));
        }
        if header.rules != rules {
            return Err(bad(Damage::WrongRules {
                found: header.rules,
                expected: rules.into(),
            }));
        }
        if header.material != material {
            return Err(bad(Damage::WrongMaterial));
        }
        if header.size != size {
            return Err(bad(Damage::WrongSize {
                found: header.size,
                expected: size,
            }));
        }
        let want_sides = material.stored_sides();
        if header.sides != want_sides {
            return Err(bad(Damage::WrongSides {
                found: header.sides,
                expected: want_sides,
            }));
        }
        let (mut blocks, mut offsets_at) = (0, 0);
        match encoding {
            Encoding::Plain => {
                if map.len() != header.file_len() {
                    return Err(bad(Damage::Truncated {
                        len: map.len() as u64,
                        expected: header.file_len() as u64,
                    }));
                }
            }
            Encoding::Zstd => {
                blocks = size.div_ceil(block);
                let entries = header.sides as u64 * blocks + 1;
                // Header, one byte at least per block, the table, the CRC.
                let least = HEADER as u64 + (entries - 1) + entries * 8 + 4;
                if (map.len() as u64) < least {
                    return Err(bad(Damage::TooShort {
                        len: map.len() as u64,
                        least,
                    }));
                }
                offsets_at = map.len() - 4 - entries as usize * 8;
                let mut prev = None;
                for o in map[offsets_at..map.len() - 4].chunks_exact(8) {
                    let o = u64::from_le_bytes(o.try_into().expect("8 bytes"));
                    let ok = match prev {
                        None => o == HEADER as u64,
                        Some(p) => o > p && o <= offsets_at as u64,
                    };
                    if !ok {
                        return Err(bad(Damage::OffsetsNotIncreasing));
                    }
                    prev = Some(o);
                }
                if prev != Some(offsets_at as u64) {
                    return Err(bad(Damage::OffsetsEnd));
                }
            }
        }
        let body = &map[..map.len() - 4];
        let stored = u32::from_le_bytes(map[map.len() - 4..].try_into().expect("4 bytes"));
        if crc32fast::hash(body) != stored {
            return Err(bad(Damage::Checksum));
        }
        Ok(Table {
            header,
            path: path.to_path_buf(),
            map,
            encoding,
            block,
            blocks,
            offsets_at,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Entries per block (version 2), 0 for a plain table.
    pub fn block_entries(&self) -> u64 {
        self.block
    }

    /// The file's length in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// WDL code and distance of an entry of a stored side. An entry of a
    /// block that cannot be decompressed (or a side or index out of range of
    /// a version 2 table) reads as [`WDL_INVALID`], which probing reports as
    /// a damaged table.
    #[inline(always)]
    pub fn get(&self, side: usize, idx: u64) -> (u8, u8) {
        match self.encoding {
            Encoding::Plain => {
                let size = self.header.size as usize;
                let base = HEADER + side * (size.div_ceil(4) + size);
                let i = idx as usize;
                let wdl = (self.map[base + i / 4] >> (2 * (i % 4))) & 3;
                let dist = self.map[base + size.div_ceil(4) + i];
                (wdl, dist)
            }
            Encoding::Zstd => match self.code_zstd(side, idx) {
                Some(v) => split_code(v),
                None => (WDL_INVALID, 0),
            },
        }
    }

    /// The compressed bytes and entry count of block `k` of `side`.
    fn frame(&self, side: usize, k: u64) -> Option<(&[u8], usize)> {
        if side >= self.header.sides || k >= self.blocks {
            return None;
        }
        let e = self.offsets_at + 8 * (side as u64 * self.blocks + k) as usize;
        let at = |o: usize| u64::from_le_bytes(self.map[o..o + 8].try_into().expect("8 bytes"));
        let (a, b) = (at(e) as usize, at(e + 8) as usize);
        let len = self.block.min(self.header.size - k * self.block) as usize;
        Some((self.map.get(a..b)?, len))
    }

    #[inline]
    fn code_zstd(&self, side: usize, idx: u64) -> Option<u8> {
        if idx >= self.header.size {
            return None;
        }
        let k = idx / self.block;
        let i = (idx % self.block) as usize;
        let hit = |c: &mut BlockCache| -> Option<u8> {
            let p = c
                .blocks
                .iter()
                .position(|b| b.table == self.id && b.side == side && b.block == k);
            if let Some(p) = p {
                if p != 0 {
                    c.blocks[..=p].rotate_right(1);
                }
                return Some(c.blocks[0].data[i]);
            }
            let (src, len) = self.frame(side, k)?;
            let mut slot = if c.blocks.len() < CACHED_BLOCKS {
                CachedBlock {
                    table: 0,
                    side: 0,
                    block: 0,
                    data: Vec::new(),
                }
            } else {
                c.blocks.pop().expect("full")
            };
            slot.data.resize(len, 0);
            if !unzstd(&mut c.dctx, src, &mut slot.data) {
                return None;
            }
            (slot.table, slot.side, slot.block) = (self.id, side, k);
            let v = slot.data[i];
            c.blocks.insert(0, slot);
            Some(v)
        };
        CACHE
            .try_with(|c| hit(&mut c.borrow_mut()))
            .unwrap_or_else(|_| hit(&mut BlockCache::default()))
    }

    /// The value codes (0 draw, else distance + 1) of entries
    /// `start..start + out.len()` of `side`, for converting and checking
    /// whole tables.
    pub fn read_codes(&self, side: usize, start: u64, out: &mut [u8]) -> Result<(), TbError> {
        let end = start + out.len() as u64;
        if side >= self.header.sides || end > self.header.size {
            return Err(TbError::OutOfRange { side, start, end });
        }
        match self.encoding {
            Encoding::Plain => {
                for (j, o) in out.iter_mut().enumerate() {
                    let (wdl, dist) = self.get(side, start + j as u64);
                    *o = match wdl {
                        WDL_DRAW => 0,
                        WDL_WIN | WDL_LOSS => dist + 1,
                        _ => return Err(TbError::Damaged(self.path.clone(), Damage::InvalidCode)),
                    };
                }
            }
            Encoding::Zstd => {
                let mut dctx = None;
                let mut buf = Vec::new();
                let mut idx = start;
                while idx < end {
                    let k = idx / self.block;
                    let Some((src, len)) = self.frame(side, k) else {
                        return Err(TbError::Damaged(
                            self.path.clone(),
                            Damage::BlockOutside { side, block: k },
                        ));
                    };
                    buf.resize(len, 0);
                    if !unzstd(&mut dctx, src, &mut buf) {
                        return Err(TbError::Damaged(
                            self.path.clone(),
                            Damage::BlockUndecodable { side, block: k },
                        ));
                    }
                    let from = (idx - k * self.block) as usize;
                    let to = (len as u64).min(end - k * self.block) as usize;
                    let at = (idx - start) as usize;
                    out[at..at + to - from].copy_from_slice(&buf[from..to]);
                    idx = k * self.block + to as u64;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The writer as it was before the streaming one (version 1 only).
    fn old_write_table(path: &Path, header: &Header, values: &[&[u8]]) {
        let mut bytes = header.encode(0).to_vec();
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
            bytes.extend_from_slice(&packed);
            bytes.extend(vals.iter().map(|&v| v.saturating_sub(1)));
        }
        let sum = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        std::fs::write(path, bytes).unwrap();
    }

    fn header(m: Material, size: u64) -> Header {
        Header::new("jungle-checkers", "leiden", m, size)
    }

    /// Random codes with runs, like real tables.
    fn values(size: usize, seed: u64) -> Vec<u8> {
        let mut r = rand::rngs::StdRng::seed_from_u64(seed);
        let mut v = Vec::with_capacity(size);
        while v.len() < size {
            let c = if r.gen_bool(0.3) {
                0
            } else {
                r.gen_range(1..=255u8)
            };
            let run = r.gen_range(1..40);
            v.extend(std::iter::repeat_n(c, run.min(size - v.len())));
        }
        v
    }

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("zoo-tb-file-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn plain_writer_matches_the_old_one() {
        let d = dir("plain");
        // Sizes around the chunk size and not multiples of 4.
        for (size, m) in [
            (1u64, Material::new(1, 2)),
            (4_099, Material::new(1, 2)),
            (PLAIN_CHUNK + 7, Material::new(1, 1)),
        ] {
            let h = header(m, size);
            let vals: Vec<Vec<u8>> = (0..h.sides)
                .map(|s| values(size as usize, s as u64))
                .collect();
            let refs: Vec<&[u8]> = vals.iter().map(|v| v.as_slice()).collect();
            let (a, b) = (d.join("new.zootb"), d.join("old.zootb"));
            write_table(&a, &h, &refs).unwrap();
            old_write_table(&b, &h, &refs);
            assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
            assert!(!d.join("new.zootb.tmp").exists());
        }
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn zstd_round_trip_with_the_cache() {
        let d = dir("zstd");
        let m = Material::new(1, 2);
        let size = 3 * 1000 + 17;
        let h = header(m, size);
        let vals: Vec<Vec<u8>> = (0..2).map(|s| values(size as usize, 10 + s)).collect();
        let fill = |s: usize, start: u64, out: &mut [u8]| {
            out.copy_from_slice(&vals[s][start as usize..start as usize + out.len()])
        };
        let p = d.join("z.zootb");
        let len = write_table_blocks(&p, &h, 1000, 3, &fill).unwrap();
        assert_eq!(len, std::fs::metadata(&p).unwrap().len());
        let t = Table::open(&p, &h.game, &h.rules, m, size).unwrap();
        assert_eq!((t.encoding(), t.block_entries()), (Encoding::Zstd, 1000));
        let mut r = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..5000 {
            let (s, i) = (r.gen_range(0..2), r.gen_range(0..size));
            assert_eq!(t.get(s, i), split_code(vals[s][i as usize]));
        }
        // Out of range reads as invalid, not a panic.
        assert_eq!(t.get(2, 0).0, WDL_INVALID);
        assert_eq!(t.get(0, size).0, WDL_INVALID);
        let mut out = vec![0u8; 2018];
        t.read_codes(1, 999, &mut out).unwrap();
        assert_eq!(out, vals[1][999..3017]);
        assert!(t.read_codes(1, 999, &mut [0; 2019]).is_err());
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn split_code_parity() {
        assert_eq!(split_code(0), (WDL_DRAW, 0));
        assert_eq!(split_code(1), (WDL_LOSS, 0));
        assert_eq!(split_code(2), (WDL_WIN, 1));
        assert_eq!(split_code(255), (WDL_LOSS, 254));
    }
}
