//! Two sets of tables of one game compared entry by entry: what a change
//! of rules changes (`zoo tb diff`). Both must be built (the same index
//! layout, since the board is the same); the comparison reads the value
//! codes a chunk at a time, so it runs at the speed of reading the files.

use crate::file::{split_code, WDL_DRAW, WDL_INVALID, WDL_LOSS, WDL_WIN};
use crate::index::Material;
use crate::{Tablebase, TbError};
use zoo_animal::{Board, Position};
use zoo_core::Side;

/// A position's FEN and its value code (win/draw/loss, distance) in each
/// of the two sets.
pub type Example = (String, (u8, u8), (u8, u8));

/// How one material's entries differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MaterialDiff {
    /// `RDvte`.
    pub material: String,
    /// Entries compared (both sides stored).
    pub entries: u64,
    /// Entries whose win/draw/loss differs.
    pub changed: u64,
    /// Of those, positions whose side to move has no legal move (the
    /// change of the stalemate rule acts on these directly).
    pub no_move: u64,
    /// Entries with the same win/draw/loss and another distance.
    pub distance_changed: u64,
    /// Counts of `[from][to]` changes, indexed draw, win, loss as the
    /// side to move's value in the first set, then in the second.
    pub transitions: [[u64; 3]; 3],
    /// The first entry whose value differs, where there is one: its FEN
    /// and the two values as (win/draw/loss, distance) codes.
    pub example: Option<Example>,
    /// The same for the first such entry whose side to move has a legal
    /// move (its value changed through play, not by the rule itself).
    pub example_played: Option<Example>,
}

/// Compares every table of `pieces` pieces of `a` with `b`'s.
pub fn diff<B: Board>(
    a: &Tablebase<B>,
    b: &Tablebase<B>,
    pieces: u32,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<MaterialDiff>, TbError> {
    let mats = Material::canonical::<B>(pieces);
    let mut out = Vec::new();
    for (i, &m) in mats.iter().enumerate() {
        out.push(material_diff(a, b, m)?);
        progress(i + 1, mats.len());
    }
    Ok(out)
}

fn slot(wdl: u8) -> Option<usize> {
    match wdl {
        WDL_DRAW => Some(0),
        WDL_WIN => Some(1),
        WDL_LOSS => Some(2),
        _ => None,
    }
}

fn material_diff<B: Board>(
    a: &Tablebase<B>,
    b: &Tablebase<B>,
    m: Material,
) -> Result<MaterialDiff, TbError> {
    let (ta, tb) = (a.table(m)?, b.table(m)?);
    let layout = a.scheme().layout(m);
    let mut d = MaterialDiff {
        material: m.name::<B>(),
        ..MaterialDiff::default()
    };
    let mut ca = vec![0u8; 1 << 16];
    let mut cb = vec![0u8; 1 << 16];
    for side in 0..ta.header.sides {
        let stm = if side == 0 { Side::White } else { Side::Black };
        let mut start = 0u64;
        while start < layout.size {
            let len = (layout.size - start).min(ca.len() as u64) as usize;
            ta.read_codes(side, start, &mut ca[..len])?;
            tb.read_codes(side, start, &mut cb[..len])?;
            d.entries += len as u64;
            for j in 0..len {
                if ca[j] == cb[j] {
                    continue;
                }
                let (va, vb) = (split_code(ca[j]), split_code(cb[j]));
                if va.0 == vb.0 {
                    d.distance_changed += 1;
                    continue;
                }
                let (Some(fa), Some(fb)) = (slot(va.0), slot(vb.0)) else {
                    let bad = if va.0 == WDL_INVALID {
                        ta.path()
                    } else {
                        tb.path()
                    };
                    return Err(TbError::DamagedChild {
                        material: d.material.clone(),
                        child: bad.display().to_string(),
                    });
                };
                d.changed += 1;
                d.transitions[fa][fb] += 1;
                let pos = position_at::<B>(a, m, start + j as u64, stm);
                if pos.count() == 0 {
                    d.no_move += 1;
                } else if d.example_played.is_none() {
                    d.example_played = Some((pos.fen(), va, vb));
                }
                if d.example.is_none() {
                    d.example = Some((pos.fen(), va, vb));
                }
            }
            start += len as u64;
        }
    }
    Ok(d)
}

/// The position of entry `index` of material `m`, `stm` to move.
fn position_at<B: Board>(t: &Tablebase<B>, m: Material, index: u64, stm: Side) -> Position<B> {
    let layout = t.scheme().layout(m);
    let (mut digits, mut sqs) = ([0u32; 16], [0u8; 16]);
    layout.locate(index, &mut digits, &mut sqs);
    layout.position::<B>(&sqs[..layout.n], stm, t.rules())
}
