//! Tables already built, rewritten in the encoding a build now chooses
//! (zstd blocks or plain, whichever is smaller: `write_table_smallest`),
//! so the plain tables of earlier builds take the disk of new ones.
//!
//! The new file is written beside the old under another name, read back
//! entry by entry against the old one, and only then renamed over it: a
//! table is never lost, half written or changed in value.

use crate::file::{write_table_smallest, Encoding, Table};
use crate::index::Material;
use crate::{Tablebase, TbError};
use std::path::PathBuf;
use zoo_animal::Board;

/// Entries compared at once.
const CHUNK: usize = 1 << 20;

/// One table rewritten (or left as it was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recompressed {
    /// Its length before.
    pub before: u64,
    /// Its length after (the same when it was left).
    pub after: u64,
    /// Its encoding before.
    pub from: Encoding,
    /// Its encoding after.
    pub to: Encoding,
}

/// Rewrites the table of canonical material `m` in the smaller encoding,
/// unless it is in it already. Returns what it did.
pub fn recompress<B: Board>(tb: &Tablebase<B>, m: Material) -> Result<Recompressed, TbError> {
    let old = tb.table(m)?;
    let path = tb.path_of(m);
    let before = old.file_len();
    let mut scratch = path.clone().into_os_string();
    scratch.push(".recompress");
    let scratch = PathBuf::from(scratch);
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        // The table was checked whole when opened; a block that does not
        // read now reads as draws here and is caught by the comparison.
        if old.read_codes(side, start, out).is_err() {
            out.fill(0);
        }
    };
    let r = write_table_smallest(&scratch, &old.header, &fill).and_then(|(after, to)| {
        if to == old.encoding() {
            // The same encoding writes the same bytes: nothing to do.
            return Ok(Recompressed {
                before,
                after: before,
                from: to,
                to,
            });
        }
        let new = tb.open_file(&scratch, m)?;
        same_values(old, &new, &path)?;
        std::fs::rename(&scratch, &path).map_err(|e| TbError::io(&path, e))?;
        Ok(Recompressed {
            before,
            after,
            from: old.encoding(),
            to,
        })
    });
    let _ = std::fs::remove_file(&scratch);
    r
}

/// Fails unless `new` holds `old`'s header and value codes.
fn same_values(old: &Table, new: &Table, path: &std::path::Path) -> Result<(), TbError> {
    let differs = || TbError::RewriteDiffers(path.to_path_buf());
    if old.header != new.header {
        return Err(differs());
    }
    let (mut a, mut b) = (vec![0u8; CHUNK], vec![0u8; CHUNK]);
    for side in 0..old.header.sides {
        let mut start = 0;
        while start < old.header.size {
            let n = (old.header.size - start).min(CHUNK as u64) as usize;
            old.read_codes(side, start, &mut a[..n])?;
            new.read_codes(side, start, &mut b[..n])?;
            if a[..n] != b[..n] {
                return Err(differs());
            }
            start += n as u64;
        }
    }
    Ok(())
}
