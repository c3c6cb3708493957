//! A check of random entries for tables too large for the exhaustive
//! verifier ([`crate::verify`] needs 2 × 64^n bytes per material).
//!
//! Each sampled entry (a stored side and an index of a canonical table) is
//! unranked to its position, its stored value read, and the value
//! recomputed from its children by one ply of search over the tables
//! ([`Tablebase::value_from_children`]: every legal move, the children
//! probed like any position, through the mirror and the colour swap, in the
//! same table or, after a capture, a smaller one). A table is consistent
//! when every entry equals the value of its children, which is what the
//! generator's backward induction establishes; a wrong value, distance or
//! index shows as a disagreement at the entry or at its parents. The
//! check trusts the children's values (it is local), so it complements the
//! exhaustive verifier rather than replacing it.
//!
//! The entries come from a seeded generator, in chunks of
//! [`CHUNK`] entries with a stream of their own per table and chunk, so a
//! run is reproduced by its seed whatever the number of threads.

use crate::index::Material;
use crate::{decode, slot_of, Tablebase, TbError};
use rayon::prelude::*;
use std::fmt;
use zoo_animal::{Board, Position};
use zoo_core::{Outcome, Side};

/// Entries drawn from one random stream (the unit of parallel work).
pub const CHUNK: u64 = 4096;

/// At most this many disagreements are kept (all are counted).
pub const KEPT: usize = 1000;

/// A value, or why there is none (damaged table, missing child table).
pub type Value = Result<(Outcome, u16), String>;

/// An entry whose stored value is not the value of its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The table (canonical material), stored side (0: White to move) and
    /// index of the entry.
    pub material: String,
    pub side: usize,
    pub index: u64,
    pub fen: String,
    pub stored: Value,
    /// From the children's values, one ply of search.
    pub recomputed: Value,
}

/// `win in 5`, `loss in 4`, `draw`, or the error.
pub fn value_text(v: &Value) -> String {
    match v {
        Ok((Outcome::Win, d)) => format!("win in {d}"),
        Ok((Outcome::Loss, d)) => format!("loss in {d}"),
        Ok((Outcome::Draw, _)) => "draw".into(),
        Err(e) => format!("error ({e})"),
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} side {} entry {}: {}: stored {}, from its moves {}",
            self.material,
            self.side,
            self.index,
            self.fen,
            value_text(&self.stored),
            value_text(&self.recomputed)
        )
    }
}

/// Per table: entries checked and disagreements found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSample {
    pub material: Material,
    pub positions: u64,
    pub disagreements: u64,
}

/// The outcome of a sampled check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SampleReport {
    pub tables: Vec<TableSample>,
    pub positions: u64,
    pub disagreement_count: u64,
    /// The first [`KEPT`] disagreements, by table, then in drawing order.
    pub disagreements: Vec<Disagreement>,
}

/// SplitMix64: a small seedable generator whose streams are independent
/// enough for choosing entries.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, material: Material, chunk: u64) -> Rng {
        let mut r = Rng(seed
            ^ (material.key() as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
            ^ chunk.wrapping_mul(0xA076_1D64_78BD_642F));
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        let mut s = zoo_core::rng::SplitMix64(self.0);
        let z = s.next_u64();
        self.0 = s.0;
        z
    }
    /// Uniform in `0..n` (multiply-shift; the bias is below 2^-32 here).
    fn below(&mut self, n: u64) -> u64 {
        ((self.next() as u128 * n as u128) >> 64) as u64
    }
}

/// The position of an entry of a canonical table: side 0 is White to move,
/// side 1 Black to move, of the material itself.
pub fn entry_position<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    side: usize,
    index: u64,
) -> Position<B> {
    let layout = tb.scheme().layout(m);
    let mut sqs = [0u8; 16];
    layout.unrank(index, &mut sqs);
    let stm = if side == 0 { Side::White } else { Side::Black };
    layout.position(&sqs[..layout.n], stm, tb.rules())
}

/// Checks one entry of the canonical table `m`: `Ok(None)` when its stored
/// value is the value of its children, the disagreement otherwise (a
/// damaged entry or a child that cannot be probed is one too). Fails only
/// when the table itself cannot be opened or the entry does not exist.
pub fn check_entry<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    side: usize,
    index: u64,
) -> Result<Option<Disagreement>, TbError> {
    let table = tb.table(m)?;
    if side >= table.header.sides || index >= table.header.size {
        return Err(TbError::NoSuchEntry {
            material: m.name::<B>(),
            side,
            index,
        });
    }
    let pos = entry_position(tb, m, side, index);
    let (wdl, dist) = table.get(side, index);
    let stored = decode(wdl, dist).ok_or_else(|| {
        "invalid value code (or a block that does not decompress): the table is damaged".into()
    });
    let recomputed = tb.value_from_children(&pos).map_err(|e| e.to_string());
    Ok((stored != recomputed).then(|| Disagreement {
        material: m.name::<B>(),
        side,
        index,
        fen: pos.fen(),
        stored,
        recomputed,
    }))
}

/// Checks `positions` random entries of each canonical table of
/// `materials` (a stored side, then an index, uniformly), drawn from
/// `seed`. The tables must exist, and so must the smaller ones their
/// captures lead to (a child that cannot be probed is reported as a
/// disagreement). Runs on the current rayon pool.
pub fn sample<B: Board>(
    tb: &Tablebase<B>,
    materials: &[Material],
    positions: u64,
    seed: u64,
) -> Result<SampleReport, TbError> {
    for &m in materials {
        if !m.is_canonical() {
            return Err(TbError::NotCanonical {
                material: m.name::<B>(),
                stored: m.swapped().name::<B>(),
            });
        }
        tb.table(m)?;
    }
    let chunks = positions.div_ceil(CHUNK);
    let work: Vec<(Material, u64)> = materials
        .iter()
        .flat_map(|&m| (0..chunks).map(move |c| (m, c)))
        .collect();
    let done: Vec<(Material, u64, u64, Vec<Disagreement>)> = work
        .par_iter()
        .map(|&(m, c)| {
            let table = tb.table(m)?;
            let (sides, size) = (table.header.sides as u64, table.header.size);
            let mut rng = Rng::new(seed, m, c);
            let (mut checked, mut bad, mut kept) = (0u64, 0u64, Vec::new());
            for _ in c * CHUNK..positions.min((c + 1) * CHUNK) {
                let side = rng.below(sides) as usize;
                let index = rng.below(size);
                // A placement of the index never has a piece on a den and
                // has both sides, so it is never a finished game.
                checked += 1;
                if let Some(d) = check_entry(tb, m, side, index)? {
                    bad += 1;
                    if kept.len() < KEPT {
                        kept.push(d);
                    }
                }
            }
            Ok((m, checked, bad, kept))
        })
        .collect::<Result<_, TbError>>()?;
    let mut report = SampleReport::default();
    for (m, checked, bad, kept) in done {
        match report.tables.last_mut() {
            Some(t) if t.material == m => {
                t.positions += checked;
                t.disagreements += bad;
            }
            _ => report.tables.push(TableSample {
                material: m,
                positions: checked,
                disagreements: bad,
            }),
        }
        report.positions += checked;
        report.disagreement_count += bad;
        let room = KEPT - report.disagreements.len();
        report.disagreements.extend(kept.into_iter().take(room));
    }
    Ok(report)
}

/// The canonical tables one capture away from `m` (one piece fewer, both
/// sides still present): what [`sample`] probes besides `m` itself.
pub fn capture_tables<B: Board>(m: Material) -> Vec<Material> {
    let mut out = Vec::new();
    for k in 0..B::KINDS {
        for c in [
            Material::new(m.white & !(1 << k), m.black),
            Material::new(m.white, m.black & !(1 << k)),
        ] {
            if c != m && c.white != 0 && c.black != 0 {
                let c = slot_of(c, Side::White).material;
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out.sort();
    out
}
