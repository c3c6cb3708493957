//! The checkpoint of a long census enumeration: one JSON line per finished
//! material after a header naming the census, so that a run stopped (by
//! Ctrl-C or the end of a session) goes on where it was.
//!
//! Every line carries a CRC-32 chained from the line before it (the
//! header's from the census it names), so a changed digit, a line from
//! another census, a line moved, or a bogus line is found and the file
//! refused with its name: a resumed census cannot give other totals than
//! an uninterrupted one. Lines are appended whole and written at once; a
//! last line cut short by a kill is dropped on reading. The file is
//! created by the one save of every command ([`crate::files::save`]), so
//! a device or FIFO is refused, and a write error stops the run at once.

use crate::AppError;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use zoo_animal::census::Row;

/// The format's name and version in the header.
const FORMAT: &str = "zoo-census-checkpoint";
const VERSION: u32 = 2;

/// The most a checkpoint is read of: a line per material, of which a
/// game has at most 2^16.
const LIMIT: u64 = 64 << 20;

/// Which census a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// The game's name.
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// The reading's name.
    pub reach: String,
}

// No `deny_unknown_fields` (serde does not join it with `flatten`): the
// line is compared whole with the one this census writes.
#[derive(serde::Serialize, serde::Deserialize)]
struct HeaderLine {
    format: String,
    version: u32,
    #[serde(flatten)]
    census: Header,
    crc: u32,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Done {
    pieces: u32,
    material: u32,
    row: Row,
    crc: u32,
}

/// The CRC of a line: of the previous line's CRC and the line's JSON with
/// `crc` 0.
fn chained(prev: u32, json: &str) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&prev.to_le_bytes());
    h.update(json.as_bytes());
    h.finalize()
}

fn header_line(census: &Header) -> (String, u32) {
    let mut h = HeaderLine {
        format: FORMAT.into(),
        version: VERSION,
        census: census.clone(),
        crc: 0,
    };
    h.crc = chained(0, &serde_json::to_string(&h).expect("a header serialises"));
    (
        serde_json::to_string(&h).expect("a header serialises") + "\n",
        h.crc,
    )
}

fn done_line(prev: u32, pieces: u32, material: u32, row: &Row) -> (String, u32) {
    let mut d = Done {
        pieces,
        material,
        row: *row,
        crc: 0,
    };
    d.crc = chained(prev, &serde_json::to_string(&d).expect("a row serialises"));
    (
        serde_json::to_string(&d).expect("a row serialises") + "\n",
        d.crc,
    )
}

/// What a checkpoint's text holds: the materials counted, and how many of
/// its bytes are whole lines (a last line cut short is not), with the
/// last whole line's CRC.
pub struct Parsed {
    /// Material → (pieces, row).
    pub done: HashMap<u32, (u32, Row)>,
    /// Bytes of whole lines.
    pub keep: usize,
    /// The CRC the next line chains from.
    pub last: u32,
}

/// Reads a checkpoint's text for `census`; `why` says what is wrong with
/// a damaged, edited or foreign one.
pub fn parse(text: &str, census: &Header) -> Result<Parsed, String> {
    let mut lines = text.split_inclusive('\n').enumerate();
    let mut done = HashMap::new();
    let Some((_, first)) = lines.next() else {
        return Ok(Parsed {
            done,
            keep: 0,
            last: 0,
        });
    };
    if !first.ends_with('\n') {
        // Killed while writing the header: nothing was counted.
        return Ok(Parsed {
            done,
            keep: 0,
            last: 0,
        });
    }
    let h: HeaderLine = serde_json::from_str(first.trim_end())
        .map_err(|e| format!("line 1 is not a census checkpoint's header ({e})"))?;
    if h.format != FORMAT || h.version != VERSION {
        return Err(format!(
            "format {} version {} (this zoo writes {FORMAT} version {VERSION})",
            h.format, h.version
        ));
    }
    if first != header_line(&h.census).0 {
        return Err("line 1: its checksum does not match (damaged or edited)".into());
    }
    if h.census != *census {
        return Err(format!(
            "it is the checkpoint of another census ({} {} reach {}); this one is {} {} reach {}",
            h.census.game, h.census.rules, h.census.reach, census.game, census.rules, census.reach
        ));
    }
    let mut last = h.crc;
    let mut keep = first.len();
    for (i, line) in lines {
        if !line.ends_with('\n') {
            // The last line, cut short when a run was killed: dropped.
            break;
        }
        let n = i + 1;
        let d: Done = serde_json::from_str(line.trim_end())
            .map_err(|e| format!("line {n}: not a counted material ({e})"))?;
        let (want, crc) = done_line(last, d.pieces, d.material, &d.row);
        if line != want {
            return Err(format!(
                "line {n}: its checksum does not match (damaged, edited, moved or from another file)"
            ));
        }
        let r = &d.row;
        let sum = [r.unfinished, r.stalemates, r.won_material, r.won_den]
            .iter()
            .try_fold(0u128, |a, &b| a.checked_add(b));
        if r.pieces != d.pieces || d.material.count_ones() != d.pieces || sum != Some(r.reachable) {
            return Err(format!("line {n}: a row that does not add up"));
        }
        if done.insert(d.material, (d.pieces, d.row)).is_some() {
            return Err(format!("line {n}: material {} counted twice", d.material));
        }
        last = crc;
        keep += line.len();
    }
    Ok(Parsed { done, keep, last })
}

/// An open checkpoint: the materials already counted, and the file new
/// ones are appended to.
pub struct Checkpoint {
    path: PathBuf,
    /// The file and the CRC the next line chains from.
    file: Mutex<(File, u32)>,
    /// Rows of the materials counted by earlier runs.
    pub done: HashMap<u32, (u32, Row)>,
}

impl Checkpoint {
    /// Opens `path` for the census `header`, reading what an earlier run of
    /// the same census left; a new file starts with the header.
    pub fn open(path: &Path, header: &Header) -> Result<Checkpoint, AppError> {
        let name = path.display();
        let text = match crate::files::read_text(path, LIMIT, "a census checkpoint") {
            Ok(t) => t,
            Err(e) if e.is_not_found() => String::new(),
            Err(e) => return Err(e.into()),
        };
        let p = parse(&text, header).map_err(|why| {
            AppError::Input(format!(
                "{name} is not a usable census checkpoint: {why}; remove it to count again"
            ))
        })?;
        // The whole lines are written again by the one save (a new file
        // gets its header), and lines are appended to that.
        let whole = if p.keep == 0 {
            header_line(header).0
        } else {
            text[..p.keep].to_string()
        };
        let last = if p.keep == 0 {
            header_line(header).1
        } else {
            p.last
        };
        if p.keep != text.len() || text.is_empty() {
            crate::files::save_bytes(path, whole.as_bytes())?;
        }
        let file = crate::files::open_regular(path)
            .and_then(|_| {
                OpenOptions::new().append(true).open(path).map_err(|e| {
                    crate::files::FileError::Io {
                        path: path.to_path_buf(),
                        doing: "write",
                        error: e,
                    }
                })
            })
            .map_err(AppError::from)?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file: Mutex::new((file, last)),
            done: p.done,
        })
    }

    /// Records one counted material; an error (a full disk) is returned at
    /// once and stops the run.
    pub fn record(&self, pieces: u32, material: u32, row: &Row) -> Result<(), AppError> {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (line, crc) = done_line(f.1, pieces, material, row);
        f.0.write_all(line.as_bytes()).map_err(|e| {
            AppError::Path(format!(
                "cannot write census checkpoint {}: {e}",
                self.path.display()
            ))
        })?;
        f.1 = crc;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn census() -> Header {
        Header {
            game: "jungle".into(),
            rules: "standard".into(),
            reach: "strict".into(),
        }
    }

    #[test]
    fn written_lines_read_back_and_a_cut_line_is_dropped() {
        let row = Row {
            pieces: 2,
            unfinished: 5,
            stalemates: 1,
            reachable: 6,
            ..Row::default()
        };
        let (h, c) = header_line(&census());
        let (l, _) = done_line(c, 2, 0b11, &row);
        let text = format!("{h}{l}{}", &l[..10]);
        let p = parse(&text, &census()).unwrap();
        assert_eq!(p.done[&0b11], (2, row));
        assert_eq!(p.keep, h.len() + l.len());
    }
}
