//! The checkpoint of a long census enumeration: one JSON line per finished
//! material after a header naming the census, so that a run stopped (by
//! Ctrl-C or the end of a session) goes on where it was. Lines are
//! appended whole and flushed; a last line cut short by a kill is dropped
//! on reading, any other bad line is an error naming it.

use crate::AppError;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use zoo_animal::census::Row;

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

#[derive(serde::Serialize, serde::Deserialize)]
struct Done {
    pieces: u32,
    material: u32,
    row: Row,
}

/// An open checkpoint: the materials already counted, and the file new
/// ones are appended to.
pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<File>,
    /// Rows of the materials counted by earlier runs.
    pub done: HashMap<u32, (u32, Row)>,
}

impl Checkpoint {
    /// Opens `path` for the census `header`, reading what an earlier run of
    /// the same census left; a new file starts with the header.
    pub fn open(path: &Path, header: &Header) -> Result<Checkpoint, AppError> {
        let name = path.display();
        let mut done = HashMap::new();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => {
                return Err(AppError::Path(format!(
                    "cannot read checkpoint {name}: {e}"
                )))
            }
        };
        let mut lines = text.split_inclusive('\n').enumerate();
        if let Some((_, first)) = lines.next() {
            let theirs: Header = serde_json::from_str(first.trim_end()).map_err(|e| {
                AppError::Input(format!(
                    "{name} line 1 is not a census checkpoint's header: {e}"
                ))
            })?;
            if &theirs != header {
                return Err(AppError::Input(format!(
                    "{name} is the checkpoint of another census ({} {} reach {}); this one is {} {} reach {}",
                    theirs.game, theirs.rules, theirs.reach, header.game, header.rules, header.reach
                )));
            }
        }
        let mut keep = text.len();
        let mut offset = text.lines().next().map_or(0, |l| l.len() + 1);
        for (i, line) in lines {
            if !line.ends_with('\n') {
                // The last line, cut short when a run was killed: dropped.
                keep = offset;
                break;
            }
            let d: Done = serde_json::from_str(line.trim_end()).map_err(|e| {
                AppError::Input(format!(
                    "{name} line {}: not a counted material ({e}); remove the file to start again",
                    i + 1
                ))
            })?;
            done.insert(d.material, (d.pieces, d.row));
            offset += line.len();
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| AppError::Path(format!("cannot write checkpoint {name}: {e}")))?;
        if keep < text.len() {
            file.set_len(keep as u64)
                .map_err(|e| AppError::Path(format!("cannot write checkpoint {name}: {e}")))?;
        }
        if text.is_empty() {
            writeln!(
                file,
                "{}",
                serde_json::to_string(header).expect("a header serialises")
            )
            .map_err(|e| AppError::Path(format!("cannot write checkpoint {name}: {e}")))?;
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            done,
        })
    }

    /// Records one counted material.
    pub fn record(&self, pieces: u32, material: u32, row: &Row) -> Result<(), AppError> {
        let line = serde_json::to_string(&Done {
            pieces,
            material,
            row: *row,
        })
        .expect("a row serialises")
            + "\n";
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(line.as_bytes())
            .and_then(|_| f.flush())
            .map_err(|e| {
                AppError::Path(format!(
                    "cannot write checkpoint {}: {e}",
                    self.path.display()
                ))
            })
    }
}
