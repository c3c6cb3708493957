//! Saving and reading the files zoo keeps (saved games, proofs,
//! checkpoints, games files): one way to write and one way to read, so
//! that every command gives the same guarantees (docs/limits.md, "Files").
//!
//! A save goes to a temporary file in the same directory, is flushed,
//! synced, its size checked against the bytes written, and only then
//! renamed over the target — which must be a regular file or absent: a
//! device, FIFO, socket or directory (or a symbolic link to one) is
//! refused rather than replaced by a regular file. On any error the
//! temporary file is removed, so a full disk leaves nothing behind.
//!
//! A read refuses what is not a regular file by its type before opening
//! it (a FIFO would block the open forever), opens without blocking, and
//! stops at a limit, so `/dev/zero` or a 100 GB file is an error, not a
//! process that grows until the kernel kills it.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Text files a person writes or zoo saves for one game or position
/// (saved games, PDN, FEN lists, openings, plans): far below this.
pub const TEXT_LIMIT: u64 = 64 << 20;

/// Proof files (`zoo solve --proof`, `--check`): a line per node, so a
/// proof of tens of millions of nodes fits; a larger one is refused
/// rather than read into memory whole.
pub const PROOF_LIMIT: u64 = 4 << 30;

/// Why a file could not be saved or read. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The path names something that is not a regular file.
    #[error("{path} is a {kind}, not a regular file: {doing}")]
    NotRegular {
        /// The path given.
        path: PathBuf,
        /// What it is ("FIFO", "character device", …).
        kind: &'static str,
        /// What was refused ("refusing to replace it", "refusing to read it").
        doing: &'static str,
    },
    /// The directory a file would be saved in does not exist.
    #[error("cannot write {path}: its directory {dir} does not exist")]
    NoDirectory {
        /// The path given.
        path: PathBuf,
        /// Its parent.
        dir: PathBuf,
    },
    /// The bytes on disk after a save are not the bytes written.
    #[error("cannot write {path}: {on_disk} bytes on disk where {written} were written")]
    Short {
        /// The temporary file.
        path: PathBuf,
        /// Its size.
        on_disk: u64,
        /// Bytes written.
        written: u64,
    },
    /// A read would pass the limit.
    #[error("{path} is longer than {limit} bytes, the most zoo reads for {what}")]
    TooLong {
        /// The path given.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
        /// What the file was read as.
        what: &'static str,
    },
    /// Text that is not UTF-8.
    #[error("{path} is not UTF-8 text (byte {at})")]
    NotText {
        /// The path given.
        path: PathBuf,
        /// The offset of the first bad byte.
        at: usize,
    },
    /// Two outputs of one command name the same file: one would be
    /// written over the other.
    #[error("{first} and {second} are the same file: give each output its own")]
    SameFile {
        /// The first path given.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// An error of the system.
    #[error("cannot {doing} {path}: {error}")]
    Io {
        /// The path.
        path: PathBuf,
        /// "read" or "write".
        doing: &'static str,
        /// The system's error (in the message, so not a `source` as
        /// well: a chain printed whole would say it twice).
        error: io::Error,
    },
}

impl FileError {
    fn io(path: &Path, doing: &'static str, source: io::Error) -> FileError {
        FileError::Io {
            path: path.to_path_buf(),
            doing,
            error: source,
        }
    }

    /// Whether the file was simply not there (a read).
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io { error, .. } if error.kind() == io::ErrorKind::NotFound)
    }
}

/// What a file that is not regular is, in words.
fn kind_of(m: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    if m.is_dir() {
        "directory"
    } else if m.file_type().is_symlink() {
        "symbolic link"
    } else if m.is_file() {
        "regular file"
    } else {
        "special file"
    }
}

/// The file a save to `path` replaces: `path` itself, or the file a
/// symbolic link at `path` leads to (the link stays a link). `None` for
/// the file name when nothing is there yet.
fn save_target(path: &Path) -> Result<PathBuf, FileError> {
    let refuse = |m: &Metadata| FileError::NotRegular {
        path: path.to_path_buf(),
        kind: kind_of(m),
        doing: "refusing to replace it",
    };
    let target = match path.symlink_metadata() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(FileError::io(path, "write", e)),
        Ok(m) if m.file_type().is_symlink() => match path.metadata() {
            Ok(t) if t.is_file() => {
                std::fs::canonicalize(path).map_err(|e| FileError::io(path, "write", e))?
            }
            Ok(t) => return Err(refuse(&t)),
            // A link to nothing: the link itself is replaced.
            Err(_) => path.to_path_buf(),
        },
        Ok(m) if m.is_file() => path.to_path_buf(),
        Ok(m) => return Err(refuse(&m)),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(FileError::NoDirectory {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
        });
    }
    Ok(target)
}

/// The temporary name a save to `target` is written under, beside it.
pub fn temporary_of(target: &Path) -> PathBuf {
    let mut t = target.as_os_str().to_owned();
    t.push(".tmp");
    t.into()
}

fn create_temporary(tmp: &Path) -> io::Result<File> {
    create_no_follow(tmp)
}

/// Creates (or empties) `path` for reading and writing without following
/// a symbolic link at it: the names zoo writes under beside its files
/// (`.tmp`, scratch and spill files) are known in advance, and a link
/// planted there must not lead a write to a file elsewhere.
pub fn create_no_follow(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    o.open(path)
}

/// Checks before a long run that a save to `path` can be made: the target
/// is a regular file or absent, its directory exists and a file can be
/// created there. (The disk can still fill up before the save.)
pub fn check_writable(path: &Path) -> Result<(), FileError> {
    let target = save_target(path)?;
    let tmp = temporary_of(&target);
    let r = create_temporary(&tmp).map_err(|e| FileError::io(path, "write", e));
    let _ = std::fs::remove_file(&tmp);
    r.map(|_| ())
}

/// Checks that no two of a command's outputs are one file (the same
/// path, another spelling of it, or a link to it), so that none is
/// written over another.
pub fn check_distinct(paths: &[&Path]) -> Result<(), FileError> {
    let mut seen: Vec<(&Path, PathBuf)> = Vec::with_capacity(paths.len());
    for &p in paths {
        let target = save_target(p)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let dir = std::fs::canonicalize(dir).map_err(|e| FileError::io(p, "write", e))?;
        let full = dir.join(target.file_name().unwrap_or_default());
        if let Some((first, _)) = seen.iter().find(|(_, f)| *f == full) {
            return Err(FileError::SameFile {
                first: first.to_path_buf(),
                second: p.to_path_buf(),
            });
        }
        seen.push((p, full));
    }
    Ok(())
}

/// Counts what passes through, to check the file's size after.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(b)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Saves what `fill` writes at `path` (see the module's comment), and
/// returns the bytes written.
pub fn save(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<u64, FileError> {
    let target = save_target(path)?;
    let tmp = temporary_of(&target);
    let r = write_temporary(&tmp, fill).and_then(|n| {
        std::fs::rename(&tmp, &target)
            .map(|_| n)
            .map_err(|e| FileError::io(path, "write", e))
    });
    match r {
        Ok(n) => {
            // The rename itself survives a power cut once the directory is
            // synced; failing to sync it loses nothing written.
            if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                if let Ok(d) = File::open(dir) {
                    let _ = d.sync_all();
                }
            }
            Ok(n)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// [`save`] of bytes.
pub fn save_bytes(path: &Path, bytes: &[u8]) -> Result<u64, FileError> {
    save(path, |w| w.write_all(bytes))
}

fn write_temporary(
    tmp: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<u64, FileError> {
    let io = |e| FileError::io(tmp, "write", e);
    let f = create_temporary(tmp).map_err(io)?;
    let mut w = Counting {
        inner: BufWriter::with_capacity(1 << 16, f),
        bytes: 0,
    };
    fill(&mut w).map_err(io)?;
    w.flush().map_err(io)?;
    let written = w.bytes;
    let f = w.inner.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    let on_disk = f.metadata().map_err(io)?.len();
    if on_disk != written {
        return Err(FileError::Short {
            path: tmp.to_path_buf(),
            on_disk,
            written,
        });
    }
    Ok(written)
}

/// Opens `path` for reading if it is a regular file (or a link to one),
/// refusing anything else by its type before opening it.
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    let refuse = |m: &Metadata| FileError::NotRegular {
        path: path.to_path_buf(),
        kind: kind_of(m),
        doing: "refusing to read it",
    };
    let m = path
        .metadata()
        .map_err(|e| FileError::io(path, "read", e))?;
    if !m.is_file() {
        return Err(refuse(&m));
    }
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Replaced by a FIFO between the check and the open: no hang.
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path).map_err(|e| FileError::io(path, "read", e))?;
    let m = f.metadata().map_err(|e| FileError::io(path, "read", e))?;
    if !m.is_file() {
        return Err(refuse(&m));
    }
    Ok(f)
}

/// The bytes of the regular file `path`, at most `limit` of them (`what`
/// names the file's use in the error).
pub fn read_limited(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    let f = open_regular(path)?;
    let mut bytes = Vec::new();
    f.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, "read", e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLong {
            path: path.to_path_buf(),
            limit,
            what,
        });
    }
    Ok(bytes)
}

/// The text of the regular file `path`, at most `limit` bytes of it.
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, FileError> {
    String::from_utf8(read_limited(path, limit, what)?).map_err(|e| FileError::NotText {
        path: path.to_path_buf(),
        at: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("zoo-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_save_replaces_a_file_whole_and_leaves_no_temporary() {
        let d = dir("save");
        let p = d.join("a.txt");
        std::fs::write(&p, "old").unwrap();
        assert_eq!(save_bytes(&p, b"new text").unwrap(), 8);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new text");
        assert!(!temporary_of(&p).exists());
        // A link to a file: the file is written, the link stays.
        let l = d.join("link");
        std::os::unix::fs::symlink(&p, &l).unwrap();
        save_bytes(&l, b"via link").unwrap();
        assert!(l.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "via link");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_link_planted_at_a_scratch_name_is_not_followed() {
        let d = dir("nofollow");
        let (precious, planted) = (d.join("precious"), d.join("table.tmp"));
        std::fs::write(&precious, "keep").unwrap();
        std::os::unix::fs::symlink(&precious, &planted).unwrap();
        assert!(create_no_follow(&planted).is_err());
        assert!(save_bytes(&d.join("table"), b"new").is_err());
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn two_outputs_that_are_one_file_are_refused() {
        let d = dir("distinct");
        let (a, b) = (d.join("a"), d.join("b"));
        let l = d.join("link-to-a");
        std::fs::write(&a, "x").unwrap();
        std::os::unix::fs::symlink(&a, &l).unwrap();
        let sub = d.join("sub");
        std::fs::create_dir(&sub).unwrap();
        let a_again = sub.join("..").join("a");
        assert!(check_distinct(&[&a, &b]).is_ok());
        for other in [&a, &l, &a_again] {
            let e = check_distinct(&[&b, &a, other]).unwrap_err();
            assert!(matches!(e, FileError::SameFile { .. }), "{other:?}: {e}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn special_files_are_refused_not_replaced() {
        let d = dir("special");
        let l = d.join("null-link");
        std::os::unix::fs::symlink("/dev/null", &l).unwrap();
        for p in [Path::new("/dev/null"), Path::new("/dev/full"), &d, &l] {
            let e = save_bytes(p, b"x").unwrap_err();
            assert!(matches!(e, FileError::NotRegular { .. }), "{p:?}: {e}");
            assert!(e.to_string().contains(&p.display().to_string()), "{e}");
            assert!(check_writable(p).is_err());
        }
        assert!(Path::new("/dev/null")
            .metadata()
            .map(|m| !m.is_file())
            .unwrap());
        let e = save_bytes(&d.join("no/such/dir/f"), b"x").unwrap_err();
        assert!(matches!(e, FileError::NoDirectory { .. }), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_write_leaves_no_temporary() {
        let d = dir("fail");
        let p = d.join("f");
        let e = save(&p, |w| {
            w.write_all(b"part")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("disk full"), "{e}");
        assert!(!p.exists() && !temporary_of(&p).exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn reads_refuse_special_files_and_stop_at_the_limit() {
        let d = dir("read");
        let fifo = d.join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for p in [fifo.as_path(), Path::new("/dev/zero"), &d] {
            let e = read_limited(p, 10, "a test").unwrap_err();
            assert!(matches!(e, FileError::NotRegular { .. }), "{p:?}: {e}");
        }
        let p = d.join("long");
        std::fs::write(&p, "0123456789A").unwrap();
        let e = read_text(&p, 10, "a test").unwrap_err();
        assert!(e.to_string().contains("longer than 10 bytes"), "{e}");
        assert_eq!(read_text(&p, 11, "a test").unwrap(), "0123456789A");
        assert!(read_text(&d.join("none"), 1, "x")
            .unwrap_err()
            .is_not_found());
        let _ = std::fs::remove_dir_all(&d);
    }
}
