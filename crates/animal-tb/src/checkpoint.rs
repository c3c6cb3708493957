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
//! It is written under a temporary name and renamed, like a table, so a
//! kill leaves the last whole one. One that does not match the
//! configuration, fails its checksum or holds a state no solve can leave
//! is refused with its name and what to do (remove it): a rerun never
//! resumes from it, and never deletes it unasked.
//!
//! A configuration split by ranges across ranks ([`crate::generate::split`])
//! keeps one checkpoint per rank, [`path_for_rank`]: the rank's own range of
//! the state words and of the marks, magic `ZOOCKPR3` and 32 more bytes of
//! header before the words:
//!
//! ```text
//! 64  rank, ranks, first entry, end of the range    4 x u64
//! 96  the words, as above, of the range only
//! ```
//!
//! The ranks save and load them together (`generate::split_checkpoint`), so
//! a rerun resumes only when every rank has one of the same level.

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
/// A rank's share of a split solve: the same state words (the digit is
/// that of [`MAGIC`]'s version), a longer header.
const MAGIC_RANK: &[u8; 8] = b"ZOOCKPR3";
const HEAD: usize = 64;
const HEAD_RANK: usize = HEAD + 32;
const BUF: usize = 8 << 20;

/// The generator state a checkpoint holds.
#[derive(Clone)]
pub struct Parts<'a> {
    pub material: Material,
    pub size: u64,
    /// A rank's share of a split solve, or `None`: the whole configuration.
    pub share: Option<Share>,
    /// The state words of each side (with a share: those of its range).
    pub state: [&'a [AtomicU64]; 2],
    /// Per level, the mark words of each side (with a share: those of its
    /// range).
    pub marks: Vec<[&'a [AtomicU64]; 2]>,
}

/// Which rank's range a checkpoint holds: the header says so, so a file of
/// another rank, another number of ranks or another range is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    pub rank: u64,
    pub ranks: u64,
    /// The entries of the range, `start..end`.
    pub start: u64,
    pub end: u64,
}

impl<'a> Parts<'a> {
    /// The whole state of a configuration: `marks[level][side]`.
    pub fn whole(
        material: Material,
        size: u64,
        state: [&'a [AtomicU64]; 2],
        marks: &'a [[Vec<AtomicU64>; 2]],
    ) -> Self {
        Parts {
            material,
            size,
            share: None,
            state,
            marks: marks.iter().map(|l| [&l[0][..], &l[1][..]]).collect(),
        }
    }

    /// The header of a checkpoint of these parts at `level` (public for
    /// the fuzz target, which writes checkpoints to load).
    pub fn head(&self, level: u64) -> Vec<u8> {
        let mut h = vec![
            0u8;
            if self.share.is_some() {
                HEAD_RANK
            } else {
                HEAD
            }
        ];
        h[..8].copy_from_slice(if self.share.is_some() {
            MAGIC_RANK
        } else {
            MAGIC
        });
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
        if let Some(s) = self.share {
            for (i, v) in [s.rank, s.ranks, s.start, s.end].into_iter().enumerate() {
                h[HEAD + 8 * i..HEAD + 8 + 8 * i].copy_from_slice(&v.to_le_bytes());
            }
        }
        h
    }

    /// The words, in the file's order, a slice of at most `BUF / 8` at a
    /// time (one buffer's worth).
    fn chunks(&self) -> impl Iterator<Item = &[AtomicU64]> {
        [self.state[0], self.state[1]]
            .into_iter()
            .chain(self.marks.iter().flat_map(|l| [l[0], l[1]]))
            .flat_map(|s| s.chunks(BUF / 8))
    }
}

/// Zeroes every word of `parts`: the state of a solve that starts over.
pub fn clear(parts: &Parts) {
    for w in parts.chunks().flatten() {
        w.store(0, Relaxed);
    }
}

/// Where the checkpoint of the table at `table` is kept.
pub fn path_for(table: &Path) -> PathBuf {
    table.with_extension("ckpt")
}

/// Where rank `rank` of `ranks` keeps its checkpoint of a split solve
/// whose whole checkpoint would be at `ckpt` ([`path_for`]):
/// `DTve.ckpt` → `DTve.r0of3.ckpt`. The number of ranks is in the name,
/// so a rerun on another number of ranks finds none of its own and
/// removes the others ([`remove_other_ranks`]).
pub fn path_for_rank(ckpt: &Path, rank: usize, ranks: usize) -> PathBuf {
    ckpt.with_extension(format!("r{rank}of{ranks}.ckpt"))
}

/// The temporary name a checkpoint at `path` is written under.
fn tmp_for(path: &Path) -> PathBuf {
    path.with_extension("ckpt.tmp")
}

/// Saves `parts` with `level` as the next level to solve. On failure
/// (a full disk) nothing is left behind but the previous checkpoint.
pub fn save(path: &Path, parts: &Parts, level: u64) -> Result<(), TbError> {
    prepare(path, parts, level)?;
    commit(path)
}

/// The first half of [`save`]: `parts` written under the temporary name,
/// which is removed on failure. The ranks of a split solve each prepare
/// theirs and [`commit`] only when all have.
pub fn prepare(path: &Path, parts: &Parts, level: u64) -> Result<(), TbError> {
    let tmp = tmp_for(path);
    let r = write(&tmp, parts, level);
    if r.is_err() {
        // 17 GB of a half-written checkpoint would keep the disk full.
        discard(path);
    }
    r
}

/// The second half of [`save`]: the prepared checkpoint takes the place
/// of the previous one.
pub fn commit(path: &Path) -> Result<(), TbError> {
    let tmp = tmp_for(path);
    let r = std::fs::rename(&tmp, path).map_err(|e| TbError::io(path, e));
    if r.is_err() {
        discard(path);
    }
    r
}

/// Removes a prepared checkpoint that is not to be committed (if any).
pub fn discard(path: &Path) {
    let _ = std::fs::remove_file(tmp_for(path));
}

/// The rank files of the split checkpoints beside `ckpt` ([`path_for_rank`]),
/// temporary ones included, with the number of ranks in their name.
fn rank_files(ckpt: &Path) -> Vec<(PathBuf, usize)> {
    let (Some(dir), Some(stem)) = (ckpt.parent(), ckpt.file_stem().and_then(|s| s.to_str())) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let prefix = format!("{stem}.r");
    entries
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name();
            let name = name.to_str()?;
            let rest = name.strip_prefix(&prefix)?;
            let rest = rest
                .strip_suffix(".ckpt")
                .or_else(|| rest.strip_suffix(".ckpt.tmp"))?;
            let (rank, ranks) = rest.split_once("of")?;
            let number = |s: &str| {
                let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                digits.then(|| s.parse::<usize>().ok()).flatten()
            };
            number(rank)?;
            Some((e.path(), number(ranks)?))
        })
        .collect()
}

/// Removes the split checkpoints beside `ckpt` of a number of ranks other
/// than `ranks`: a run on `ranks` can never use them. Several ranks may
/// remove the same files at once; a file gone already is no error, and one
/// that cannot be removed only takes disk.
pub fn remove_other_ranks(ckpt: &Path, ranks: usize) {
    for (p, k) in rank_files(ckpt) {
        if k != ranks {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Removes every checkpoint of the table whose checkpoint is `ckpt`: its
/// own and those of split solves of any number of ranks (the table is
/// written; they could only take disk). Best effort, as
/// [`remove_other_ranks`].
pub fn remove_all(ckpt: &Path) {
    let _ = std::fs::remove_file(ckpt);
    discard(ckpt);
    for (p, _) in rank_files(ckpt) {
        let _ = std::fs::remove_file(p);
    }
}

fn write(tmp: &Path, parts: &Parts, level: u64) -> Result<(), TbError> {
    let io = |e| TbError::io(tmp, e);
    let f = zoo_core::files::create_no_follow(tmp).map_err(io)?;
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
/// when there is none.
///
/// One that cannot be resumed — cut short, failing its checksum, of
/// another configuration or version, or edited with its checksum made
/// right again into a state no solve can leave — is an error naming it
/// and saying what to do: it is never removed behind the user's back,
/// and resuming from it could give wrong values. Writes go through a
/// temporary file and a rename, so a kill never leaves one of these.
pub fn load(path: &Path, parts: &Parts) -> Result<Option<u64>, TbError> {
    // Not a regular file (a FIFO would block the open): no checkpoint.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let f = File::open(path).map_err(|e| TbError::io(path, e))?;
    let why = match read(f, parts) {
        Ok(level) => match check(parts, level) {
            Ok(()) => return Ok(Some(level)),
            Err(why) => why,
        },
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => "cut short".to_string(),
        Err(e) => e.to_string(),
    };
    // Partly read: a caller that goes on starts from a clean state.
    clear(parts);
    Err(refused(path, &why))
}

/// The error of a checkpoint at `path` that cannot be resumed, and what
/// to do.
pub fn refused(path: &Path, why: &str) -> TbError {
    TbError::io(
        path,
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "table-build checkpoint refused: {why}; remove it to solve the configuration from the start"
            ),
        ),
    )
}

/// Whether the state read into `parts` is one a solve can leave before
/// `level`: every entry's value possible, and (for a whole configuration)
/// every entry decided at `level` or later marked to be swept then.
fn check(parts: &Parts, level: u64) -> Result<(), String> {
    use crate::generate::codes::{valid_state, CHECKPOINT_LEVELS, MARK_BLOCK};
    if level >= CHECKPOINT_LEVELS {
        return Err(format!("next level {level}"));
    }
    // The levels before `level` are swept: a sweep clears a block's mark
    // and nothing marks a level after its sweep.
    if parts.share.is_none() {
        for (l, sides) in parts.marks.iter().enumerate().take(level as usize) {
            if sides.iter().any(|w| w.iter().any(|x| x.load(Relaxed) != 0)) {
                return Err(format!("level {l} still marked before next level {level}"));
            }
        }
    }
    for (side, words) in parts.state.iter().enumerate() {
        for (k, w) in words.iter().enumerate() {
            let w = w.load(Relaxed);
            for lane in 0..4u64 {
                let v = (w >> (16 * lane)) as u16;
                let x = 4 * k as u64 + lane;
                // A pending win at w is decided by the sweep of level w - 1.
                let pending_past =
                    v & 0xc000 == 0xc000 && v & 0xff != 0 && (v & 0xff) as u64 <= level;
                if !valid_state(v) || pending_past {
                    return Err(format!("entry {x} of side {side} holds {v:#06x}"));
                }
                let decided_at = (v & 0x8000 == 0 && v != 0).then(|| (v & 0xff) as u64 - 1);
                if let (None, Some(d)) = (parts.share, decided_at) {
                    // Level `level` itself may be half swept (a stop between
                    // blocks clears the marks of the blocks done).
                    if d > level {
                        let b = x / MARK_BLOCK;
                        let mark = parts
                            .marks
                            .get(d as usize)
                            .and_then(|l| l[side].get((b / 64) as usize))
                            .map_or(0, |w| w.load(Relaxed));
                        if mark & (1 << (b % 64)) == 0 {
                            return Err(format!(
                                "entry {x} of side {side} decided at {d} in a block not marked for it"
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn read(f: File, parts: &Parts) -> std::io::Result<u64> {
    let bad = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_string());
    let mut head = parts.head(0);
    let words: usize = parts.chunks().map(<[AtomicU64]>::len).sum();
    let len = f.metadata()?.len();
    if len != (head.len() + 8 * words + 4) as u64 {
        return Err(bad("not the size of its configuration's checkpoint"));
    }
    // Buffers no larger than the file (which holds every chunk): a small
    // configuration's checkpoint, and each input of the fuzz target, does
    // not zero 16 MiB to be read.
    let cap = BUF.min(len as usize);
    let mut r = BufReader::with_capacity(cap, f);
    r.read_exact(&mut head)?;
    let level = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
    // Magic, material, layout and (for a rank) its share must all be
    // those expected.
    if head != parts.head(level) {
        return Err(bad("another configuration or layout"));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let mut buf = vec![0u8; cap];
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
        // A state a solve can leave before level 0: entries decided at 0
        // and at 1, the latter's block (0, side 0) marked for level 1.
        let (s0, s1) = (words(&[1, 2, 1]), words(&[1, 1, 1]));
        let marks = vec![[words(&[7]), words(&[8])], [words(&[9]), words(&[10])]];
        let parts = Parts::whole(m, 12, [&s0, &s1], &marks);
        save(&path, &parts, 0).unwrap();

        let (t0, t1) = (words(&[0; 3]), words(&[0; 3]));
        let tm = vec![[words(&[0]), words(&[0])], [words(&[0]), words(&[0])]];
        let into = Parts::whole(m, 12, [&t0, &t1], &tm);
        assert_eq!(load(&path, &into).unwrap(), Some(0));
        let all: Vec<u64> = into.chunks().flatten().map(|w| w.load(Relaxed)).collect();
        assert_eq!(all, vec![1, 2, 1, 1, 1, 1, 7, 8, 9, 10]);

        // Its next level edited to 1, the checksum made right: level 0 is
        // still marked, so it is refused with its name.
        save(&path, &parts, 1).unwrap();
        let err = load(&path, &into).unwrap_err().to_string();
        assert!(
            err.contains("RvE.ckpt") && err.contains("remove it"),
            "{err}"
        );
        save(&path, &parts, 0).unwrap();

        // Another material: refused with its name and kept, the state
        // left clean.
        let other = Parts {
            material: Material::new(1, 4),
            ..into.clone()
        };
        let err = load(&path, &other).unwrap_err().to_string();
        assert!(
            err.contains("RvE.ckpt") && err.contains("another configuration"),
            "{err}"
        );
        assert!(path.exists());
        assert!(other.chunks().flatten().all(|w| w.load(Relaxed) == 0));

        // A flipped byte: refused by the checksum; cut short: refused.
        save(&path, &parts, 5).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEAD + 3] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = load(&path, &into).unwrap_err().to_string();
        assert!(
            err.contains("RvE.ckpt") && err.contains("checksum"),
            "{err}"
        );
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(load(&path, &into).is_err());
        // None there at all.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(load(&path, &parts).unwrap(), None);

        // A save that fails (here its rename, onto a directory that is not
        // empty) leaves no temporary file behind.
        std::fs::create_dir_all(path.join("x")).unwrap();
        assert!(save(&path, &parts, 5).is_err());
        assert!(!path.with_extension("ckpt.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rank_checkpoint_is_refused_by_another_rank_and_by_the_whole() {
        let dir = std::env::temp_dir().join(format!("zoo-ckpt-rank-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ckpt = dir.join("RvE.ckpt");
        let path = path_for_rank(&ckpt, 1, 3);
        assert_eq!(path, dir.join("RvE.r1of3.ckpt"));
        let m = Material::new(1, 8);
        let (s0, s1) = (words(&[1, 2]), words(&[3, 4]));
        let (m0, m1) = (words(&[5]), words(&[6]));
        let share = Share {
            rank: 1,
            ranks: 3,
            start: 8,
            end: 16,
        };
        let parts = Parts {
            material: m,
            size: 24,
            share: Some(share),
            state: [&s0, &s1],
            marks: vec![[&m0, &m1]],
        };
        save(&path, &parts, 2).unwrap();
        let (t0, t1) = (words(&[0; 2]), words(&[0; 2]));
        let (n0, n1) = (words(&[0]), words(&[0]));
        let into = Parts {
            state: [&t0, &t1],
            marks: vec![[&n0, &n1]],
            ..parts.clone()
        };
        assert_eq!(load(&path, &into).unwrap(), Some(2));
        let all: Vec<u64> = into.chunks().flatten().map(|w| w.load(Relaxed)).collect();
        assert_eq!(all, vec![1, 2, 3, 4, 5, 6]);
        // Loaded as another rank's share, another range, or as a whole
        // configuration's checkpoint: refused with its name, and kept.
        for other in [
            Some(Share { rank: 0, ..share }),
            Some(Share { ranks: 2, ..share }),
            Some(Share { start: 0, ..share }),
            None,
        ] {
            save(&path, &parts, 2).unwrap();
            let wrong = Parts {
                share: other,
                ..into.clone()
            };
            let err = load(&path, &wrong).unwrap_err().to_string();
            assert!(err.contains("RvE.r1of3.ckpt"), "{other:?}: {err}");
            assert!(path.exists());
        }

        // Files of another number of ranks go; this number's and the whole
        // configuration's stay, until the table is written.
        let names = ["RvE.r0of2.ckpt", "RvE.r1of2.ckpt.tmp", "RvE.r0of3.ckpt"];
        for n in names
            .iter()
            .chain(&["RvE.ckpt", "RvEd.r0of2.ckpt", "RvE.rxof2.ckpt"])
        {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        remove_other_ranks(&ckpt, 3);
        let left = |d: &Path| {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        assert_eq!(
            left(&dir),
            [
                "RvE.ckpt",
                "RvE.r0of3.ckpt",
                "RvE.r1of3.ckpt",
                "RvE.rxof2.ckpt",
                "RvEd.r0of2.ckpt"
            ]
        );
        remove_all(&ckpt);
        assert_eq!(left(&dir), ["RvE.rxof2.ckpt", "RvEd.r0of2.ckpt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
