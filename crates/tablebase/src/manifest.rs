//! The manifest beside the tables: each table file's size and SHA-256, so
//! a copy of the tables (to another machine, or back from one) can be
//! checked without reading them through the format (`sha256sum` gives the
//! same digests). One line per file:
//!
//! ```text
//! # zoo tables: file bytes sha256
//! DEvd.zootb 134810 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
//! DEvd.zoowdl 2210 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae
//! ```
//!
//! Not a CRC-32: a table file ends with the CRC-32 of what precedes it, and
//! the CRC-32 of such a file is the same constant for every file.
//!
//! A build records the tables it writes ([`record`]); `zoo tb manifest`
//! rewrites it whole ([`write`]) and checks it ([`check`]).

use crate::TbError;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The manifest's file name, in the directory of one game's rule set.
pub const NAME: &str = "manifest.txt";

/// The extensions of the files listed: tables and WDL-only files.
const TABLE_EXTS: [&str; 2] = ["zootb", "zoowdl"];

/// One table file as the manifest records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its size in bytes.
    pub bytes: u64,
    /// The SHA-256 of its bytes.
    pub sha256: [u8; 32],
}

/// Every file of a manifest, by name.
pub type Manifest = BTreeMap<String, Entry>;

/// How a table file differs from the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Listed, but not in the directory.
    Missing(String),
    /// In the directory, but not listed.
    Unlisted(String),
    /// Its own checksum shows it damaged (whatever the manifest says).
    Damaged(String),
    /// Its size or its CRC is not the one listed.
    Differs {
        /// The file.
        name: String,
        /// What the manifest says.
        listed: Entry,
        /// What the file is.
        found: Entry,
    },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Missing(n) => write!(f, "{n}: listed in the manifest, not in the directory"),
            Problem::Unlisted(n) => write!(f, "{n}: not listed in the manifest"),
            Problem::Damaged(n) => write!(f, "{n}: damaged (its own checksum does not match)"),
            Problem::Differs {
                name,
                listed,
                found,
            } => write!(
                f,
                "{name}: {} bytes, SHA-256 {}; the manifest says {} bytes, SHA-256 {}",
                found.bytes,
                hex(&found.sha256),
                listed.bytes,
                hex(&listed.sha256)
            ),
        }
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TbError + '_ {
    move |e| TbError::io(path, e)
}

/// Lower-case hexadecimal, as `sha256sum` prints digests.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of a hexadecimal digest.
fn unhex(s: &str) -> Option<[u8; 32]> {
    let s = s.as_bytes();
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in s.chunks(2).enumerate() {
        let pair = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

/// The CRC-32 of a whole table file: every table and WDL file ends with
/// the CRC-32 of the bytes before it (little-endian), and the CRC-32 of
/// such a file is this constant whatever it holds.
const INTACT_CRC: u32 = 0x2144_DF1C;

/// Whether a file read as `e` with whole-file CRC-32 `crc` passes its own
/// checksum.
fn intact(e: &Entry, crc: u32) -> bool {
    e.bytes >= 4 && crc == INTACT_CRC
}

/// The size and SHA-256 of a table file, read in large pieces, refused
/// when its own checksum shows it damaged: a manifest written or
/// recorded from a damaged file would pass its check.
fn entry_of_intact(path: &Path) -> Result<Entry, TbError> {
    let (e, crc) = read_entry(path)?;
    if !intact(&e, crc) {
        return Err(TbError::Damaged(
            path.to_path_buf(),
            crate::error::Damage::Checksum,
        ));
    }
    Ok(e)
}

/// The size and SHA-256 of a file, read in large pieces.
pub fn entry_of(path: &Path) -> Result<Entry, TbError> {
    read_entry(path).map(|(e, _)| e)
}

/// The size, SHA-256 and CRC-32 of a file, in one reading.
fn read_entry(path: &Path) -> Result<(Entry, u32), TbError> {
    use sha2::Digest;
    let mut f = crate::file::open_file(path)?;
    let mut h = sha2::Sha256::new();
    let mut crc = crc32fast::Hasher::new();
    // At most 1 MiB at a time, less for a small file (a 3-piece build
    // writes dozens of small tables; zeroing 1 MiB for each cost more than
    // hashing them).
    let len = f.metadata().map_err(io(path))?.len();
    let mut buf = vec![0u8; len.clamp(1, 1 << 20) as usize];
    let mut bytes = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(io(path))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        crc.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok((
        Entry {
            bytes,
            sha256: h.finalize().into(),
        },
        crc.finalize(),
    ))
}

/// The table files in `dir`, by name.
fn table_files(dir: &Path) -> Result<Vec<String>, TbError> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).map_err(io(dir))? {
        let e = e.map_err(io(dir))?;
        let p = e.path();
        if p.extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| TABLE_EXTS.contains(&x))
        {
            if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
                out.push(n.to_string());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The manifest in `dir`, empty when there is none.
pub fn read(dir: &Path) -> Result<Manifest, TbError> {
    let path = dir.join(NAME);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Manifest::new()),
        Err(e) => return Err(TbError::io(path, e)),
    };
    let mut m = Manifest::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || TbError::BadManifest {
            path: path.clone(),
            line: i + 1,
            why: "not `file bytes sha256`".into(),
        };
        let mut w = line.split_whitespace();
        let (Some(name), Some(bytes), Some(digest), None) =
            (w.next(), w.next(), w.next(), w.next())
        else {
            return Err(bad());
        };
        let bytes = bytes.parse().map_err(|_| bad())?;
        let sha256 = unhex(digest).ok_or_else(bad)?;
        // A second line for one file is refused: whichever line were
        // taken, the other would go unchecked.
        if m.insert(name.to_string(), Entry { bytes, sha256 })
            .is_some()
        {
            return Err(TbError::BadManifest {
                path: path.clone(),
                line: i + 1,
                why: format!("{name} is listed a second time"),
            });
        }
    }
    Ok(m)
}

/// Writes `m` as the manifest of `dir`, whole or not at all.
fn save(dir: &Path, m: &Manifest) -> Result<(), TbError> {
    let path = dir.join(NAME);
    let tmp: PathBuf = dir.join(format!("{NAME}.tmp"));
    let mut text = String::from("# zoo tables: file bytes sha256\n");
    for (name, e) in m {
        text.push_str(&format!("{name} {} {}\n", e.bytes, hex(&e.sha256)));
    }
    let mut f = zoo_core::files::create_no_follow(&tmp).map_err(io(&tmp))?;
    f.write_all(text.as_bytes()).map_err(io(&tmp))?;
    f.sync_all().map_err(io(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io(&path))
}

/// Records the files `written` in the manifest of `dir`: their entries are
/// computed afresh, the files not in the directory any more are dropped,
/// and tables not listed yet are added; other entries are kept as they
/// are (reading every table again after each build would cost minutes).
/// A damaged file is left out (its check then names it), so that one bad
/// file elsewhere in the directory does not fail the build that records.
pub fn record(dir: &Path, written: &[String]) -> Result<Manifest, TbError> {
    let mut m = read(dir)?;
    let files = table_files(dir)?;
    m.retain(|name, _| files.contains(name));
    for name in files {
        if written.contains(&name) || !m.contains_key(&name) {
            match entry_of_intact(&dir.join(&name)) {
                Ok(e) => {
                    m.insert(name, e);
                }
                Err(TbError::Damaged(..)) => {
                    m.remove(&name);
                }
                Err(e) => return Err(e),
            }
        }
    }
    save(dir, &m)?;
    Ok(m)
}

/// Rewrites the manifest of `dir` from every table file there.
pub fn write(dir: &Path) -> Result<Manifest, TbError> {
    let mut m = Manifest::new();
    for name in table_files(dir)? {
        let e = entry_of_intact(&dir.join(&name))?;
        m.insert(name, e);
    }
    save(dir, &m)?;
    Ok(m)
}

/// How the table files of `dir` differ from its manifest (none: they
/// agree). Every file is read.
pub fn check(dir: &Path) -> Result<Vec<Problem>, TbError> {
    let path = dir.join(NAME);
    if !path.exists() {
        return Err(TbError::NoManifest(dir.to_path_buf()));
    }
    let m = read(dir)?;
    let files = table_files(dir)?;
    let mut out = Vec::new();
    for (name, &listed) in &m {
        if !files.contains(name) {
            out.push(Problem::Missing(name.clone()));
            continue;
        }
        let (found, crc) = read_entry(&dir.join(name))?;
        if !intact(&found, crc) {
            out.push(Problem::Damaged(name.clone()));
        } else if found != listed {
            out.push(Problem::Differs {
                name: name.clone(),
                listed,
                found,
            });
        }
    }
    for name in files {
        if !m.contains_key(&name) {
            out.push(Problem::Unlisted(name));
        }
    }
    Ok(out)
}
