//! WDL-only files: the win/draw/loss of every entry of a table without its
//! distance (version 3, `<material>.zoowdl` beside `<material>.zootb`), in
//! the manner of Syzygy's WDL files beside its DTZ ones. Made from a full
//! table, checked against it; a prober with the WDL file alone knows a
//! position's value ([`Tablebase::probe_wdl`]) and says the distance is
//! unknown ([`TbError::WdlOnly`]).

use crate::file::{write_table_with, Encoding};
use crate::index::Material;
use crate::{Tablebase, TbError};
use zoo_animal::Board;

/// Entries compared at once by [`check`].
const CHUNK: usize = 1 << 20;

/// Writes the WDL-only file of canonical material `m` from its full table,
/// beside it. Returns the file's length. The header is the table's, counts
/// included, so the statistics of a set of WDL files are its tables'.
pub fn make<B: Board>(tb: &Tablebase<B>, m: Material) -> Result<u64, TbError> {
    let t = tb.table(m)?;
    let fill = |side: usize, start: u64, out: &mut [u8]| {
        // The table was checked whole when opened; a block that does not
        // decompress now reads as draws and is caught by `check`.
        if t.read_codes(side, start, out).is_err() {
            out.fill(0);
        }
    };
    write_table_with(&tb.wdl_path_of(m), &t.header, Encoding::Wdl, &fill)
}

/// What [`check`] compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Entries compared (both stored sides).
    pub entries: u64,
    /// Entries whose win/draw/loss differs from the table's.
    pub disagreements: u64,
}

/// Compares the WDL-only file of `m` with its full table, entry by entry,
/// and their headers (a header that differs is one disagreement). A WDL
/// file with no longest distance (0: one the advantage mode wrote, which
/// knows no distances) is compared without it.
pub fn check<B: Board>(tb: &Tablebase<B>, m: Material) -> Result<Checked, TbError> {
    let (t, w) = (tb.table(m)?, tb.wdl_table(m)?);
    let mut expected = t.header.clone();
    for (e, got) in expected.counts.iter_mut().zip(&w.header.counts) {
        if got.longest == 0 {
            e.longest = 0;
        }
    }
    let mut c = Checked {
        disagreements: u64::from(expected != w.header),
        ..Checked::default()
    };
    let (mut a, mut b) = (vec![0u8; CHUNK], vec![0u8; CHUNK]);
    for side in 0..t.header.sides {
        let mut start = 0;
        while start < t.header.size {
            let n = (t.header.size - start).min(CHUNK as u64) as usize;
            t.read_wdl(side, start, &mut a[..n])?;
            w.read_wdl(side, start, &mut b[..n])?;
            c.disagreements += a[..n].iter().zip(&b[..n]).filter(|(x, y)| x != y).count() as u64;
            c.entries += n as u64;
            start += n as u64;
        }
    }
    Ok(c)
}
