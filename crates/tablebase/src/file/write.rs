//! Writing a table file: plain or in zstd blocks, streamed, under a
//! temporary name renamed when whole.

use super::*;
use crate::TbError;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// draw or the distance + 1 (wins odd distances, losses even), in the plain
/// encoding (version 1).
/// Writes a table from whole sides: `values[side]` holds, per entry, 0 for a
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
        Encoding::Zstd | Encoding::Wdl => BLOCK_ENTRIES,
    };
    write_table_encoded(path, header, encoding, block, ZSTD_LEVEL, fill)
}

/// Writes a table in zstd blocks, or plain when that would not be larger
/// (values without runs: tiny or random tables), so the choice depends on
/// the values alone and the same values give the same bytes. Returns the
/// file's length and the encoding chosen.
pub fn write_table_smallest(
    path: &Path,
    header: &Header,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<(u64, Encoding), TbError> {
    let len = write_table_with(path, header, Encoding::Zstd, fill)?;
    if len < header.file_len() as u64 {
        return Ok((len, Encoding::Zstd));
    }
    let len = write_table_with(path, header, Encoding::Plain, fill)?;
    Ok((len, Encoding::Plain))
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
    let encoding = if block == 0 {
        Encoding::Plain
    } else {
        Encoding::Zstd
    };
    write_table_encoded(path, header, encoding, block, level, fill)
}

fn write_table_encoded(
    path: &Path,
    header: &Header,
    encoding: Encoding,
    block: u32,
    level: i32,
    fill: &(dyn Fn(usize, u64, &mut [u8]) + Sync),
) -> Result<u64, TbError> {
    // A device or FIFO where the table would go is not replaced.
    if let Ok(m) = path.metadata() {
        if !m.is_file() {
            return Err(TbError::io(
                path,
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "not a regular file: refusing to replace it with a table",
                ),
            ));
        }
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    let r = write_tmp(&tmp, header, encoding, block, level, fill);
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
    encoding: Encoding,
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
    let f = zoo_core::files::create_no_follow(tmp).map_err(io)?;
    let mut out = Out {
        w: BufWriter::with_capacity(1 << 20, f),
        crc: crc32fast::Hasher::new(),
        len: 0,
        path: tmp,
    };
    out.put(&header.encode(encoding, block))?;
    match encoding {
        Encoding::Plain => write_plain(&mut out, header, fill)?,
        Encoding::Zstd => write_zstd(&mut out, header, block as u64, level, false, fill)?,
        Encoding::Wdl => write_zstd(&mut out, header, block as u64, level, true, fill)?,
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
pub(super) const PLAIN_CHUNK: u64 = 1 << 22;

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
    wdl_only: bool,
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
        if wdl_only {
            // Win/draw/loss alone: long runs, which zstd turns into a few bits.
            for v in vals.iter_mut() {
                *v = split_code(*v).0;
            }
        }
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
