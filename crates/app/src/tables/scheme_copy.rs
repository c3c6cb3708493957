//! A checkers table made from its colour swap's instead of solved: the
//! position with the board turned half a turn, the colours and the side to
//! move swapped is the same game seen from the other side
//! ([`zoo_core::Retro::colour_swapped`]), so each entry of `KvKKKKKM`
//! (White to move) is the value of the entry of `KKKKKMvK` (Black to move)
//! it turns into, and likewise each slice's (`KKMMvKMM-75` from
//! `KMMvKKMM-57`). Reading it costs a decode and a lookup an entry, a
//! small part of a solve's moves, children and levels; a material that
//! is its own swap (`KKMMvKKMM`) is solved as before. `zoo tb verify`
//! checks a copy like any table, and its colour-swap comparison checks it
//! against its source.

use crate::games::SchemeTables;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use zoo_core::memory::try_vec;
use zoo_core::{Retro, Side, TableIndex};
use zoo_tb::file::{Table, WDL_DRAW, WDL_LOSS, WDL_WIN};
use zoo_tb::{Damage, TbError};

/// Entries copied between two looks at the stop flag and two reports of
/// progress.
const CHUNK: usize = 1 << 16;

/// The values of the table of `m`, both sides to move, read from `from`,
/// the table of `source`, its colour swap; `progress` told as a solve
/// tells it, `stop` looked at every chunk.
pub(crate) fn swapped_values<S: SchemeTables>(
    scheme: &S,
    m: S::Material,
    source: S::Material,
    from: &Table,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<[Vec<u8>; 2], TbError> {
    let index = scheme.index_of(m);
    let size = index.size();
    if from.header.sides != 2 {
        // Every checkers table stores both sides to move (the swap maps
        // one onto the other).
        return Err(TbError::Damaged(
            from.path().to_path_buf(),
            Damage::WrongSides {
                found: from.header.sides,
                expected: 2,
            },
        ));
    }
    // The values, written in place chunk by chunk: a byte an entry, all
    // a copy holds beside its source.
    const WHAT: &str = "copied table's values";
    let mut values = [
        try_vec(size as usize, WHAT, 0u8)?,
        try_vec(size as usize, WHAT, 0u8)?,
    ];
    for (side, out) in values.iter_mut().enumerate() {
        let stm = if side == 0 { Side::White } else { Side::Black };
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(c, codes)| {
                if stop.load(Ordering::Relaxed) {
                    return Err(TbError::Interrupted);
                }
                let first = c as u64 * CHUNK as u64;
                for (x, code) in (first..).zip(codes.iter_mut()) {
                    let turned = index.position(x, stm).colour_swapped();
                    let at = scheme.locate(&turned);
                    debug_assert!(at.material == source, "a colour swap lands in its source");
                    *code = match from.get(at.side, at.entry) {
                        (WDL_DRAW, _) => 0,
                        // A code is the distance + 1 (at most 255).
                        (WDL_WIN | WDL_LOSS, d) => d.saturating_add(1),
                        _ => {
                            return Err(TbError::Damaged(
                                from.path().to_path_buf(),
                                Damage::InvalidValue,
                            ))
                        }
                    };
                }
                // A solve reports each entry twice a side (see
                // `retro::solve_with`): the same units, so the bar's time
                // left holds.
                progress(2 * codes.len() as u64);
                Ok(())
            })?;
    }
    Ok(values)
}
