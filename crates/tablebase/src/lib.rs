//! Endgame tablebases for the animal games by retrograde analysis.
//!
//! One generator, generic over the board ([`zoo_animal::Board`]): a dense
//! index per material configuration ([`index`]), backward induction through
//! unmoves with a counter of undecided children per position ([`generate`]),
//! one checked file per colour-swapped pair of configurations ([`file`]),
//! probing through memory maps ([`Tablebase`]), an independent check by
//! forward value iteration ([`verify`]) and, for tables too large for it, a
//! one-ply check of random entries ([`sample`]). See `docs/tablebase.md`.

pub mod advantage;
pub mod build;
pub mod build_retro;
pub mod calibrate;
pub mod checkpoint;
pub mod cluster;
pub mod diff;
pub mod disk;
pub mod error;
pub mod estimate;
pub mod file;
pub mod generate;
pub use zoo_animal::tables::index;
pub mod isomorph;
pub mod manifest;
pub mod oracle;
pub mod plan;
pub mod recompress;
pub mod retro;
pub mod sample;
pub mod verify;
pub mod wdl;

use file::{Table, WDL_DRAW, WDL_LOSS, WDL_WIN};
use index::{Layout, Material};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use zoo_animal::{Board, Position, RuleSet};
use zoo_core::{OracleValue, Outcome, Side};

pub use error::{Damage, TbError};

/// The material layouts, built once per material.
pub struct Layouts<B: Board> {
    slots: Vec<OnceLock<Arc<Layout>>>,
    _b: PhantomData<B>,
}

impl<B: Board> Default for Layouts<B> {
    fn default() -> Self {
        Layouts {
            slots: (0..1usize << 16).map(|_| OnceLock::new()).collect(),
            _b: PhantomData,
        }
    }
}

impl<B: Board> Layouts<B> {
    pub fn get(&self, m: Material) -> &Layout {
        self.slots[m.key()].get_or_init(|| Arc::new(Layout::new::<B>(m)))
    }
}

/// Where a position's value is stored: material (canonical), stored side
/// (0: White to move, 1: Black to move) and whether the position had to be
/// colour-swapped to get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub material: Material,
    pub side: usize,
    pub swap: bool,
}

/// Which file, which side and whether to swap, for a position of material
/// `m` with `stm` to move.
#[inline(always)]
pub fn slot_of(m: Material, stm: Side) -> Slot {
    if m.is_canonical() {
        if stm == Side::White || !m.is_symmetric() {
            Slot {
                material: m,
                side: stm.index(),
                swap: false,
            }
        } else {
            // Black to move in a symmetric material: the colour swap is a
            // White-to-move position of the same material.
            Slot {
                material: m,
                side: 0,
                swap: true,
            }
        }
    } else {
        // The swapped material is stored; the swap also switches who moves.
        Slot {
            material: m.swapped(),
            side: 1 - stm.index(),
            swap: true,
        }
    }
}

/// Decodes a WDL code and distance.
pub(crate) fn decode(wdl: u8, dist: u8) -> Option<(Outcome, u16)> {
    match wdl {
        WDL_WIN => Some((Outcome::Win, dist as u16)),
        WDL_LOSS => Some((Outcome::Loss, dist as u16)),
        WDL_DRAW => Some((Outcome::Draw, 0)),
        _ => None,
    }
}

/// The tables of one game and rule set in a directory, opened (and checked)
/// lazily on first use, read through memory maps.
pub struct Tablebase<B: Board> {
    dir: PathBuf,
    rules: &'static RuleSet,
    /// Per material key: the table, `None` when it has no file, or why
    /// its file was refused (kept, so every probe reports it).
    tables: Vec<OnceLock<Result<Option<Arc<Table>>, TbError>>>,
    /// The same for the WDL-only files.
    wdl_tables: Vec<OnceLock<Result<Option<Arc<Table>>, TbError>>>,
    layouts: Layouts<B>,
}

impl<B: Board> Tablebase<B> {
    /// The tables under `dir/<game>/<rules>/`. Opening never fails: a missing
    /// or damaged table shows when a position needs it.
    pub fn open(dir: &Path, rules: &'static RuleSet) -> Tablebase<B> {
        Tablebase {
            dir: file::table_dir(dir, B::GAME, rules.name),
            rules,
            tables: (0..1usize << 16).map(|_| OnceLock::new()).collect(),
            wdl_tables: (0..1usize << 16).map(|_| OnceLock::new()).collect(),
            layouts: Layouts::default(),
        }
    }
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    pub fn rules(&self) -> &'static RuleSet {
        self.rules
    }
    pub fn layout(&self, m: Material) -> &Layout {
        self.layouts.get(m)
    }
    pub fn path_of(&self, m: Material) -> PathBuf {
        self.dir.join(file::file_name::<B>(m))
    }

    /// Where the WDL-only file of a canonical material is, beside its table.
    pub fn wdl_path_of(&self, m: Material) -> PathBuf {
        self.dir.join(file::wdl_file_name::<B>(m))
    }

    /// The table of a canonical material, opened and checked on first use.
    /// Its file holds distances (version 1 or 2).
    pub fn table(&self, m: Material) -> Result<&Table, TbError> {
        self.open_kind(m, false)
    }

    /// The WDL-only file of a canonical material (version 3), opened and
    /// checked on first use.
    pub fn wdl_table(&self, m: Material) -> Result<&Table, TbError> {
        self.open_kind(m, true)
    }

    fn open_kind(&self, m: Material, wdl: bool) -> Result<&Table, TbError> {
        let (slots, path) = if wdl {
            (&self.wdl_tables, self.wdl_path_of(m))
        } else {
            (&self.tables, self.path_of(m))
        };
        let r = slots[m.key()].get_or_init(|| {
            if !path.exists() {
                return Ok(None);
            }
            let t = Table::open(&path, B::GAME, self.rules.name, m, self.layout(m).size)?;
            match (wdl, t.has_distances()) {
                (false, false) => Err(TbError::Damaged(path.clone(), Damage::WdlOnly)),
                (true, true) => Err(TbError::Damaged(path.clone(), Damage::NotWdl)),
                _ => Ok(Some(Arc::new(t))),
            }
        });
        match r {
            Ok(Some(t)) => Ok(t),
            Ok(None) if !wdl && self.wdl_path_of(m).exists() => Err(TbError::WdlOnly {
                material: m.name::<B>(),
                dir: self.dir.clone(),
            }),
            Ok(None) => Err(TbError::Missing {
                material: m.name::<B>(),
                dir: self.dir.clone(),
            }),
            Err(e) => Err(e.clone()),
        }
    }

    /// Win, draw or loss for the side to move, from the full table when
    /// there is one, else from the WDL-only file: with WDL files alone the
    /// value is known and the distance is not ([`Tablebase::try_probe`]
    /// says [`TbError::WdlOnly`]). A finished game is its result.
    pub fn probe_wdl(&self, pos: &Position<B>) -> Result<Outcome, TbError> {
        if pos.rule_set().name != self.rules.name {
            return Err(TbError::WrongRules {
                position: pos.rule_set().name.into(),
                tables: self.rules.name.into(),
            });
        }
        if let Some(o) = pos.terminal_outcome() {
            return Ok(o);
        }
        let slot = slot_of(Material::of(pos), pos.stm());
        let (table, _) = self.any_table(slot.material)?;
        let layout = self.layout(slot.material);
        let mut sqs = [0u8; 16];
        layout.squares_of(pos, slot.swap, &mut sqs);
        let (wdl, _) = table.get(slot.side, layout.rank(&sqs[..layout.n]));
        decode(wdl, 0)
            .map(|(o, _)| o)
            .ok_or_else(|| TbError::Damaged(table.path().to_path_buf(), Damage::InvalidValue))
    }

    /// The value of a position as the engine's oracle gives it: from the
    /// full table when there is one, with its distance, else from the
    /// WDL-only file, without. A finished game is its result at 0.
    pub fn probe_value(&self, pos: &Position<B>) -> Result<OracleValue, TbError> {
        if pos.rule_set().name != self.rules.name {
            return Err(TbError::WrongRules {
                position: pos.rule_set().name.into(),
                tables: self.rules.name.into(),
            });
        }
        if let Some(o) = pos.terminal_outcome() {
            return Ok(OracleValue::exact(o, 0));
        }
        let slot = slot_of(Material::of(pos), pos.stm());
        let (table, full) = self.any_table(slot.material)?;
        let layout = self.layout(slot.material);
        let mut sqs = [0u8; 16];
        layout.squares_of(pos, slot.swap, &mut sqs);
        let (wdl, dist) = table.get(slot.side, layout.rank(&sqs[..layout.n]));
        match decode(wdl, dist) {
            Some((o, d)) if full => Ok(OracleValue::exact(o, d)),
            Some((o, _)) => Ok(OracleValue::wdl(o)),
            None => Err(TbError::Damaged(
                table.path().to_path_buf(),
                Damage::InvalidValue,
            )),
        }
    }

    /// The full table of a canonical material when it has one (`true`),
    /// else its WDL-only file (`false`).
    #[inline]
    fn any_table(&self, m: Material) -> Result<(&Table, bool), TbError> {
        let k = m.key();
        // Tables opened already first: the way through `table` builds the
        // file's path, and when the full table is missing looks for the
        // WDL file on disk and builds an error, on every probe.
        match (self.tables[k].get(), self.wdl_tables[k].get()) {
            (Some(Ok(Some(t))), _) => Ok((t.as_ref(), true)),
            (_, Some(Ok(Some(w)))) => Ok((w.as_ref(), false)),
            _ => match self.table(m) {
                Err(TbError::WdlOnly { .. }) => Ok((self.wdl_table(m)?, false)),
                t => Ok((t?, true)),
            },
        }
    }

    /// Value for the side to move and distance to the end in plies, or the
    /// reason there is none (missing or damaged table). A finished game is
    /// its result at distance 0.
    pub fn try_probe(&self, pos: &Position<B>) -> Result<(Outcome, u16), TbError> {
        if pos.rule_set().name != self.rules.name {
            return Err(TbError::WrongRules {
                position: pos.rule_set().name.into(),
                tables: self.rules.name.into(),
            });
        }
        self.lookup(pos)
    }

    /// [`Tablebase::try_probe`] without the check of the rule set (the
    /// generator's positions are built with the tables' own).
    #[inline]
    pub(crate) fn lookup(&self, pos: &Position<B>) -> Result<(Outcome, u16), TbError> {
        if let Some(o) = pos.terminal_outcome() {
            return Ok((o, 0));
        }
        let slot = slot_of(Material::of(pos), pos.stm());
        let table = self.table(slot.material)?;
        let layout = self.layout(slot.material);
        let mut sqs = [0u8; 16];
        layout.squares_of(pos, slot.swap, &mut sqs);
        let (wdl, dist) = table.get(slot.side, layout.rank(&sqs[..layout.n]));
        decode(wdl, dist)
            .ok_or_else(|| TbError::Damaged(self.path_of(slot.material), Damage::InvalidValue))
    }

    /// Walks every entry of stored side `side` (0: White to move, 1: Black
    /// to move) of the table of canonical material `m` in index order,
    /// calling `f(index, position, value)` with the value for the side to
    /// move and its distance in plies. Each entry is one position with its
    /// first piece on files a-d (its mirror image has the same value). For
    /// whole-table work (census, decision trees): the positions are built
    /// by moving the pieces that change from one entry to the next, not
    /// decoded one by one.
    pub fn walk(
        &self,
        m: Material,
        side: usize,
        mut f: impl FnMut(u64, &Position<B>, (Outcome, u16)),
    ) -> Result<(), TbError> {
        let table = self.table(m)?;
        let layout = self.layout(m);
        if side >= table.header.sides {
            return Err(TbError::NoSuchEntry {
                material: m.name::<B>(),
                side,
                index: 0,
            });
        }
        let stm = if side == 0 { Side::White } else { Side::Black };
        let n = layout.n;
        let mut digits = [0u32; 16];
        let mut sqs = [0u8; 16];
        let mut pos = None;
        // The value codes a block at a time: a compressed table decodes each
        // block once.
        let mut codes = vec![0u8; 1 << 16];
        let mut start = 0u64;
        while start < layout.size {
            let len = (layout.size - start).min(codes.len() as u64) as usize;
            table.read_codes(side, start, &mut codes[..len])?;
            for (j, &v) in codes[..len].iter().enumerate() {
                let x = start + j as u64;
                let p = match &mut pos {
                    None => {
                        layout.locate(x, &mut digits, &mut sqs);
                        pos.insert(layout.position::<B>(&sqs[..n], stm, self.rules))
                    }
                    Some(p) => {
                        let old = sqs;
                        let from = layout.advance(&mut digits, &mut sqs);
                        for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&old[from..n]) {
                            p.remove(ps, pk, s);
                        }
                        for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&sqs[from..n]) {
                            p.put(ps, pk, s);
                        }
                        p
                    }
                };
                let (wdl, dist) = file::split_code(v);
                let value = decode(wdl, dist).expect("a value code is a value");
                f(x, p, value);
            }
            start += len as u64;
        }
        Ok(())
    }

    /// [`Tablebase::try_probe`] for callers that only want a value when one
    /// is known (the search engine).
    pub fn probe(&self, pos: &Position<B>) -> Option<(Outcome, u16)> {
        self.try_probe(pos).ok()
    }

    /// Every legal move with the value and distance it leads to (for the
    /// side to move after it), best first: the shortest win, then draws,
    /// then the longest loss.
    pub fn probe_moves(
        &self,
        pos: &Position<B>,
    ) -> Result<Vec<(zoo_animal::Move, Outcome, u16)>, TbError> {
        let mut list = zoo_core::MoveList::new();
        pos.generate(&mut list);
        let mut out = Vec::with_capacity(list.len());
        let mut p = pos.clone();
        for m in list {
            let u = p.make_move(m);
            let r = self.try_probe(&p);
            p.unmake_move(m, u);
            let (o, d) = r?;
            out.push((m, o, d));
        }
        // From the mover's view: child loss = our win (shorter better), then draw,
        // then child win = our loss (longer better).
        out.sort_by_key(|&(_, o, d)| match o {
            Outcome::Loss => (0, d as i32),
            Outcome::Draw => (1, 0),
            Outcome::Win => (2, -(d as i32)),
        });
        Ok(out)
    }

    /// The value a position must have given the values of its children, by
    /// the rules the tables are built with: the shortest win over a child
    /// lost for the opponent (distance + 1; a move that ends the game is a
    /// win in 1), else a draw when a child is not won for the opponent,
    /// else a loss at the longest child's distance + 1; no legal move is a
    /// loss at 0 when the rule set's `stalemate_loses`, else a draw. That
    /// is the negation of [`Tablebase::probe_moves`]'s best move. A
    /// finished game is its result at 0, like [`Tablebase::try_probe`].
    pub fn value_from_children(&self, pos: &Position<B>) -> Result<(Outcome, u16), TbError> {
        if let Some(o) = pos.terminal_outcome() {
            return Ok((o, 0));
        }
        Ok(match self.probe_moves(pos)?.first() {
            None if pos.rule_set().stalemate_loses => (Outcome::Loss, 0),
            None | Some((_, Outcome::Draw, _)) => (Outcome::Draw, 0),
            Some(&(_, o, d)) => (o.flip(), d + 1),
        })
    }
}
