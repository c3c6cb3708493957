//! Checkpoints of a large configuration being solved, so a build that is
//! stopped (Ctrl-C, or the machine going away) resumes at the last level
//! saved instead of from the start: a 6-piece Jungle Checkers
//! configuration takes about half an hour.
//!
//! A checkpoint is the generator's whole working state between two levels:
//! the state words of both sides, the level marks and the next level.
//!
//! ```text
//! 0   magic "ZOOCKPT3"                      8 bytes
//! 8   White kinds, Black kinds, 6 zero bytes
//! 16  index size, next level, state words per side, mark words per side
//!     and level, levels                     5 x u64
//! 56  zero up to 64
//! 64  state words of side 0, of side 1; then the marks, level by level,
//!     side 0 then side 1                    u64 each
//! end CRC-32 of all bytes before it         u32
//! ```
//!
//! It is written under a temporary name and renamed, like a table. One that
//! does not match the configuration or fails its checksum is removed and
//! the configuration solved from the start: it is only a shortcut.

use crate::index::Material;
use crate::TbError;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The version is that of the meaning of the state words: 2 since the
/// forward pass leaves out the moves of positions with an enemy piece next
/// to their den (a version-1 state would be wrong under the new sweep), 3
/// since the wins in one into the den carry a flag the sweep relies on.
const MAGIC: &[u8; 8] = b"ZOOCKPT3";
const HEAD: usize = 64;
const BUF: usize = 8 << 20;

/// The generator state a checkpoint holds.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub material: Material,
    pub size: u64,
    pub state: [&'a [AtomicU64]; 2],
    pub marks: &'a [[Vec<AtomicU64>; 2]],
}

impl Parts<'_> {
    fn head(&self, level: u64) -> [u8; HEAD] {
        let mut h = [0u8; HEAD];
        h[..8].copy_from_slice(MAGIC);
        h[8] = self.material.white;
        h[9] = self.material.black;
        let mark_words = self.marks.first().map_or(0, |m| m[0].len());
        for (i, v) in [
            self.size,
            level,
            self.state[0].len() as u64,
            mark_words as u64,
            self.marks.len() as u64,
        ]
        .into_iter()
        .enumerate()
        {
            h[16 + 8 * i..24 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        h
    }

    /// The words, in the file's order, a slice of at most `BUF / 8` at a
    /// time (one buffer's worth).
    fn chunks(&self) -> impl Iterator<Item = &[AtomicU64]> {
        [self.state[0], self.state[1]]
            .into_iter()
            .chain(self.marks.iter().flat_map(|l| [&l[0][..], &l[1][..]]))
            .flat_map(|s| s.chunks(BUF / 8))
    }
}

/// Where the checkpoint of the table at `table` is kept.
pub fn path_for(table: &Path) -> PathBuf {
    table.with_extension("ckpt")
}

/// Saves `parts` with `level` as the next level to solve. On failure
/// (a full disk) nothing is left behind but the previous checkpoint.
pub fn save(path: &Path, parts: &Parts, level: u64) -> Result<(), TbError> {
    let tmp = path.with_extension("ckpt.tmp");
    let r = write(&tmp, parts, level)
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| TbError::io(path, e)));
    if r.is_err() {
        // 17 GB of a half-written checkpoint would keep the disk full.
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

fn write(tmp: &Path, parts: &Parts, level: u64) -> Result<(), TbError> {
    let io = |e| TbError::io(tmp, e);
    let f = File::create(tmp).map_err(io)?;
    let mut w = BufWriter::with_capacity(BUF, f);
    let mut crc = crc32fast::Hasher::new();
    let head = parts.head(level);
    crc.update(&head);
    w.write_all(&head).map_err(io)?;
    let mut buf = vec![0u8; BUF];
    for chunk in parts.chunks() {
        let bytes = &mut buf[..8 * chunk.len()];
        for (b, word) in bytes.chunks_exact_mut(8).zip(chunk) {
            b.copy_from_slice(&word.load(Relaxed).to_le_bytes());
        }
        crc.update(bytes);
        w.write_all(bytes).map_err(io)?;
    }
    w.write_all(&crc.finalize().to_le_bytes()).map_err(io)?;
    let f = w.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)
}

/// Loads a checkpoint into `parts` and returns its next level; `None`
/// when there is none, or it does not fit (then it is removed).
pub fn load(path: &Path, parts: &Parts) -> Result<Option<u64>, TbError> {
    let Ok(f) = File::open(path) else {
        return Ok(None);
    };
    match read(f, parts) {
        Ok(level) => Ok(Some(level)),
        Err(_) => {
            // Partly read: the caller starts from a clean state.
            for w in parts.chunks().flatten() {
                w.store(0, Relaxed);
            }
            std::fs::remove_file(path).map_err(|e| TbError::io(path, e))?;
            Ok(None)
        }
    }
}

fn read(f: File, parts: &Parts) -> std::io::Result<u64> {
    let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
    let mut r = BufReader::with_capacity(BUF, f);
    let mut head = [0u8; HEAD];
    r.read_exact(&mut head)?;
    let level = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
    if head != parts.head(level) {
        return Err(bad("another configuration or layout"));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let mut buf = vec![0u8; BUF];
    for chunk in parts.chunks() {
        let bytes = &mut buf[..8 * chunk.len()];
        r.read_exact(bytes)?;
        crc.update(bytes);
        for (w, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
            w.store(u64::from_le_bytes(b.try_into().expect("8 bytes")), Relaxed);
        }
    }
    let mut tail = [0u8; 4];
    r.read_exact(&mut tail)?;
    if u32::from_le_bytes(tail) != crc.finalize() {
        return Err(bad("checksum mismatch"));
    }
    if r.read(&mut [0u8; 1])? != 0 {
        return Err(bad("bytes after the checksum"));
    }
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[u64]) -> Vec<AtomicU64> {
        v.iter().map(|&x| AtomicU64::new(x)).collect()
    }

    #[test]
    fn round_trip_and_refusal() {
        let dir = std::env::temp_dir().join(format!("zoo-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("RvE.ckpt");
        let m = Material::new(1, 8);
        let (s0, s1) = (words(&[1, 2, 3]), words(&[4, 5, 6]));
        let marks = vec![[words(&[7]), words(&[8])], [words(&[9]), words(&[10])]];
        let parts = Parts {
            material: m,
            size: 12,
            state: [&s0, &s1],
            marks: &marks,
        };
        save(&path, &parts, 5).unwrap();

        let (t0, t1) = (words(&[0; 3]), words(&[0; 3]));
        let tm = vec![[words(&[0]), words(&[0])], [words(&[0]), words(&[0])]];
        let into = Parts {
            material: m,
            size: 12,
            state: [&t0, &t1],
            marks: &tm,
        };
        assert_eq!(load(&path, &into).unwrap(), Some(5));
        let all: Vec<u64> = into.chunks().flatten().map(|w| w.load(Relaxed)).collect();
        assert_eq!(all, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

        // Another material: refused and removed, the state left clean.
        let other = Parts {
            material: Material::new(1, 4),
            ..into
        };
        assert_eq!(load(&path, &other).unwrap(), None);
        assert!(!path.exists());
        assert!(other.chunks().flatten().all(|w| w.load(Relaxed) == 0));

        // A flipped byte: refused by the checksum.
        save(&path, &parts, 5).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEAD + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(load(&path, &into).unwrap(), None);
        // None there at all.
        assert_eq!(load(&path, &parts).unwrap(), None);

        // A save that fails (here its rename, onto a directory that is not
        // empty) leaves no temporary file behind.
        std::fs::create_dir_all(path.join("x")).unwrap();
        assert!(save(&path, &parts, 5).is_err());
        assert!(!path.with_extension("ckpt.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
