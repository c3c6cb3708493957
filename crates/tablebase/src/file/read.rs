//! Reading a table file: opened and checked whole, then read through a
//! memory map (zstd blocks through a small per-thread cache).

use super::*;
use crate::{Damage, TbError};
use memmap2::Mmap;
use std::cell::RefCell;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Tables opened in this process, to tell them apart in the block caches.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Decompressed blocks kept per thread (16 of 16,384 entries: 256 kB).
/// The generator's forward pass probes the tables its captures lead to in
/// an order that follows its own index, so a few blocks of each child
/// table are in use at once; with 4 the misses cost a build from zstd
/// tables about a third more than from plain ones, with 16 as much
/// (docs/log/tablebase.md, 2026-11-23).
pub const CACHED_BLOCKS: usize = 16;

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

/// Opens a table file, refusing by its type what is not a regular file
/// (a FIFO in a table directory would block the open forever).
pub fn open_file(path: &Path) -> Result<File, TbError> {
    zoo_core::files::open_regular(path).map_err(|e| match e {
        zoo_core::files::FileError::Io { error, .. } => TbError::io(path, error),
        zoo_core::files::FileError::NotRegular { kind, .. } => TbError::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("a {kind}, not a regular file: not opened as a table"),
            ),
        ),
        e => TbError::io(path, std::io::Error::other(e.to_string())),
    })
}

/// The header and encoding of a table file and the file's length, from
/// its first bytes alone: nothing else is checked (see [`Table::open`]).
pub fn read_header(path: &Path) -> Result<(Header, Encoding, u64), TbError> {
    use std::io::Read;
    let io = |e: std::io::Error| TbError::io(path, e);
    let mut f = open_file(path)?;
    let len = f.metadata().map_err(io)?.len();
    let mut h = Vec::with_capacity(HEADER);
    f.by_ref()
        .take(HEADER as u64)
        .read_to_end(&mut h)
        .map_err(io)?;
    let (header, encoding, _) = Header::decode(&h, path)?;
    Ok((header, encoding, len))
}

/// An opened, checked table file.
pub struct Table {
    /// Its header, checked.
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
    /// A compressed table's value codes decoded whole, side after side
    /// ([`Table::decode_whole`]): a generator's random lookups would
    /// otherwise decompress a block each.
    codes: Option<Box<[u8]>>,
}

impl Table {
    /// Opens and checks a table: header fields against what the caller
    /// expects, the length, (version 2) the offset table, and the checksum
    /// over the whole file.
    pub fn open(
        path: &Path,
        game: &str,
        rules: &str,
        material: u16,
        sides: usize,
        size: u64,
    ) -> Result<Table, TbError> {
        let io = |e: std::io::Error| TbError::io(path, e);
        let bad = |why: Damage| TbError::Damaged(path.to_path_buf(), why);
        let f = open_file(path)?;
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
        let want_sides = sides;
        if header.sides != want_sides {
            return Err(bad(Damage::WrongSides {
                found: header.sides,
                expected: want_sides,
            }));
        }
        let (mut blocks, mut offsets_at) = (0, 0);
        match encoding {
            Encoding::Plain => {
                let (len, expected) = (map.len() as u64, header.file_len() as u64);
                if len < expected {
                    return Err(bad(Damage::Truncated { len, expected }));
                }
                if len > expected {
                    return Err(bad(Damage::Appended { len, expected }));
                }
            }
            Encoding::Zstd | Encoding::Wdl => {
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
            codes: None,
        })
    }

    /// The file it was read from.
    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How its values are stored.
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
        if let Some(codes) = &self.codes {
            let at = side as u64 * self.header.size + idx;
            return match codes.get(at as usize) {
                Some(&v) if idx < self.header.size => split_code(v),
                _ => (WDL_INVALID, 0),
            };
        }
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
            // No distance: 0 stands in, and callers ask `has_distances`.
            Encoding::Wdl => match self.code_zstd(side, idx) {
                Some(v) if v <= WDL_LOSS => (v, 0),
                _ => (WDL_INVALID, 0),
            },
        }
    }

    /// The bytes [`Table::decode_whole`] would hold: one a stored entry.
    pub fn decoded_bytes(&self) -> u64 {
        self.header.sides as u64 * self.header.size
    }

    /// Decodes a compressed table with distances whole into memory
    /// ([`Table::decoded_bytes`]), so that [`Table::get`] reads a byte
    /// instead of decompressing a block of 16,384 entries at each miss of
    /// the small block cache: what a generator's random lookups into the
    /// tables it reads do. A plain table (already a byte an entry, mapped)
    /// and a WDL-only one are left as they are.
    pub fn decode_whole(&mut self) -> Result<(), TbError> {
        if self.encoding != Encoding::Zstd || self.codes.is_some() {
            return Ok(());
        }
        let size = self.header.size as usize;
        let mut codes =
            zoo_core::memory::try_vec(self.decoded_bytes() as usize, "a decoded table", 0u8)
                .map_err(TbError::from)?;
        for side in 0..self.header.sides {
            self.read_codes(side, 0, &mut codes[side * size..(side + 1) * size])?;
        }
        self.codes = Some(codes.into_boxed_slice());
        Ok(())
    }

    /// Whether entries carry their distance (not a WDL-only file).
    pub fn has_distances(&self) -> bool {
        self.encoding.has_distances()
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
            Encoding::Wdl => {
                return Err(TbError::Damaged(self.path.clone(), Damage::WdlOnly));
            }
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
            Encoding::Zstd => self.read_blocks(side, start, out)?,
        }
        Ok(())
    }

    /// The WDL codes (0 draw, 1 win, 2 loss) of entries `start..start +
    /// out.len()` of `side`, of a full table or a WDL-only file alike: what
    /// a WDL file is checked with against its table.
    pub fn read_wdl(&self, side: usize, start: u64, out: &mut [u8]) -> Result<(), TbError> {
        if self.encoding == Encoding::Wdl {
            let end = start + out.len() as u64;
            if side >= self.header.sides || end > self.header.size {
                return Err(TbError::OutOfRange { side, start, end });
            }
            self.read_blocks(side, start, out)?;
            if out.iter().any(|&w| w > WDL_LOSS) {
                return Err(TbError::Damaged(self.path.clone(), Damage::InvalidCode));
            }
        } else {
            self.read_codes(side, start, out)?;
            for v in out.iter_mut() {
                *v = split_code(*v).0;
            }
        }
        Ok(())
    }

    /// The stored bytes of entries `start..start + out.len()` of `side` of
    /// a table in blocks (versions 2 and 3), a block decompressed at a time.
    fn read_blocks(&self, side: usize, start: u64, out: &mut [u8]) -> Result<(), TbError> {
        let end = start + out.len() as u64;
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
        Ok(())
    }
}
