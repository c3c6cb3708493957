//! Probing the tables of one game and rule set in a directory.

use crate::file::{self, Table, WDL_DRAW, WDL_LOSS, WDL_WIN};
use crate::{Damage, TbError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, OnceLock};
use zoo_core::{Game, MoveList, OracleValue, Outcome, Stored, TableScheme};

/// Decodes a WDL code and distance.
pub fn decode(wdl: u8, dist: u8) -> Option<(Outcome, u16)> {
    match wdl {
        WDL_WIN => Some((Outcome::Win, dist as u16)),
        WDL_LOSS => Some((Outcome::Loss, dist as u16)),
        WDL_DRAW => Some((Outcome::Draw, 0)),
        _ => None,
    }
}

/// One table slot: the table, `None` when it has no file, or why its file
/// was refused (kept, so every probe reports it).
type Slot = OnceLock<Result<Option<Arc<Table>>, TbError>>;

/// The tables of one game and rule set in a directory, opened (and checked)
/// lazily on first use, read through memory maps.
pub struct Tablebase<S: TableScheme> {
    dir: PathBuf,
    scheme: S,
    /// Per material key: the full table.
    tables: Vec<Slot>,
    /// The same for the WDL-only files.
    wdl_tables: Vec<Slot>,
    /// Bytes still allowed for tables decoded whole as they are opened
    /// ([`Tablebase::decoding_whole`]); 0: none are.
    decode_budget: AtomicU64,
}

impl<S: TableScheme> Tablebase<S> {
    /// The tables under `dir/<game>/<rules>/`. Opening never fails: a missing
    /// or damaged table shows when a position needs it.
    pub fn open(dir: &Path, rules: <S::Pos as Game>::Rules) -> Tablebase<S> {
        let scheme = S::new(rules);
        Tablebase {
            dir: file::table_dir(dir, scheme.game(), scheme.rules_name()),
            scheme,
            tables: (0..S::KEYS).map(|_| OnceLock::new()).collect(),
            wdl_tables: (0..S::KEYS).map(|_| OnceLock::new()).collect(),
            decode_budget: AtomicU64::new(0),
        }
    }

    /// Compressed tables opened from now on are decoded whole into memory
    /// ([`Table::decode_whole`]) while their bytes fit in `bytes` in all:
    /// for a generator, whose lookups into the tables it reads are random
    /// and many. Beyond the budget tables are read block by block.
    pub fn decoding_whole(self, bytes: u64) -> Self {
        self.decode_budget.store(bytes, AtomicOrdering::Relaxed);
        self
    }
    /// The directory of the files (`dir/<game>/<rules>/`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
    /// How positions map to tables and entries.
    pub fn scheme(&self) -> &S {
        &self.scheme
    }
    /// The rule set the tables are built with.
    pub fn rules(&self) -> &<S::Pos as Game>::Rules {
        self.scheme.rules()
    }
    /// The file of a stored material's table.
    pub fn path_of(&self, m: S::Material) -> PathBuf {
        self.dir.join(file::file_name(&self.scheme.name(m)))
    }

    /// Where the WDL-only file of a stored material is, beside its table.
    pub fn wdl_path_of(&self, m: S::Material) -> PathBuf {
        self.dir.join(file::wdl_file_name(&self.scheme.name(m)))
    }

    /// The table of a stored material, opened and checked on first use.
    /// Its file holds distances (version 1 or 2).
    pub fn table(&self, m: S::Material) -> Result<&Table, TbError> {
        self.open_kind(m, false)
    }

    /// The WDL-only file of a stored material (version 3), opened and
    /// checked on first use.
    pub fn wdl_table(&self, m: S::Material) -> Result<&Table, TbError> {
        self.open_kind(m, true)
    }

    /// Opens a stored material's file as the header of this scheme expects it.
    pub fn open_file(&self, path: &Path, m: S::Material) -> Result<Table, TbError> {
        Table::open(
            path,
            self.scheme.game(),
            self.scheme.rules_name(),
            S::key(m),
            S::stored_sides(m),
            self.scheme.size(m),
        )
    }

    fn open_kind(&self, m: S::Material, wdl: bool) -> Result<&Table, TbError> {
        let slots = if wdl { &self.wdl_tables } else { &self.tables };
        // An opened table first: its path is a name formatted and joined,
        // more than a generator's lookup costs otherwise.
        if let Some(Ok(Some(t))) = slots[S::key(m) as usize].get() {
            return Ok(t);
        }
        let path = if wdl {
            self.wdl_path_of(m)
        } else {
            self.path_of(m)
        };
        let r = slots[S::key(m) as usize].get_or_init(|| {
            if !path.exists() {
                return Ok(None);
            }
            let mut t = self.open_file(&path, m)?;
            let want = t.decoded_bytes();
            let fits = t.encoding() == file::Encoding::Zstd
                && self
                    .decode_budget
                    .fetch_update(AtomicOrdering::Relaxed, AtomicOrdering::Relaxed, |left| {
                        left.checked_sub(want)
                    })
                    .is_ok();
            if fits {
                t.decode_whole()?;
            }
            match (wdl, t.has_distances()) {
                (false, false) => Err(TbError::Damaged(path.clone(), Damage::WdlOnly)),
                (true, true) => Err(TbError::Damaged(path.clone(), Damage::NotWdl)),
                _ => Ok(Some(Arc::new(t))),
            }
        });
        match r {
            Ok(Some(t)) => Ok(t),
            Ok(None) if !wdl && self.wdl_path_of(m).exists() => Err(TbError::WdlOnly {
                material: self.scheme.name(m),
                dir: self.dir.clone(),
            }),
            Ok(None) => Err(TbError::Missing {
                material: self.scheme.name(m),
                dir: self.dir.clone(),
            }),
            Err(e) => Err(e.clone()),
        }
    }

    fn check_rules(&self, pos: &S::Pos) -> Result<(), TbError> {
        if pos.rules_name() != self.scheme.rules_name() {
            return Err(TbError::WrongRules {
                position: pos.rules_name().into(),
                tables: self.scheme.rules_name().into(),
            });
        }
        Ok(())
    }

    /// Win, draw or loss for the side to move, from the full table when
    /// there is one, else from the WDL-only file: with WDL files alone the
    /// value is known and the distance is not ([`Tablebase::try_probe`]
    /// says [`TbError::WdlOnly`]). A finished game is its result.
    pub fn probe_wdl(&self, pos: &S::Pos) -> Result<Outcome, TbError> {
        self.check_rules(pos)?;
        if let Some(o) = pos.terminal() {
            return Ok(o);
        }
        let at = self.scheme.locate(pos);
        let (table, _) = self.any_table(at.material)?;
        let (wdl, _) = table.get(at.side, at.entry);
        decode(wdl, 0)
            .map(|(o, _)| o)
            .ok_or_else(|| TbError::Damaged(table.path().to_path_buf(), Damage::InvalidValue))
    }

    /// The value of a position as the engine's oracle gives it: from the
    /// full table when there is one, with its distance, else from the
    /// WDL-only file, without. A finished game is its result at 0.
    pub fn probe_value(&self, pos: &S::Pos) -> Result<OracleValue, TbError> {
        self.check_rules(pos)?;
        if let Some(o) = pos.terminal() {
            return Ok(OracleValue::exact(o, 0));
        }
        self.value_at(self.scheme.locate(pos))
    }

    /// [`Tablebase::probe_value`] where `keep` takes the stored material
    /// of `pos` (located once), `Ok(None)` where it does not: the oracle's
    /// look at which tables of a size built in part are there.
    pub fn probe_value_if(
        &self,
        pos: &S::Pos,
        keep: impl FnOnce(S::Material) -> bool,
    ) -> Result<Option<OracleValue>, TbError> {
        self.check_rules(pos)?;
        if let Some(o) = pos.terminal() {
            return Ok(Some(OracleValue::exact(o, 0)));
        }
        let at = self.scheme.locate(pos);
        if !keep(at.material) {
            return Ok(None);
        }
        self.value_at(at).map(Some)
    }

    /// The value of the entry `at`.
    #[inline]
    fn value_at(&self, at: Stored<S::Material>) -> Result<OracleValue, TbError> {
        let (table, full) = self.any_table(at.material)?;
        let (wdl, dist) = table.get(at.side, at.entry);
        match decode(wdl, dist) {
            Some((o, d)) if full => Ok(OracleValue::exact(o, d)),
            Some((o, _)) => Ok(OracleValue::wdl(o)),
            None => Err(TbError::Damaged(
                table.path().to_path_buf(),
                Damage::InvalidValue,
            )),
        }
    }

    /// The full table of a stored material when it has one (`true`),
    /// else its WDL-only file (`false`).
    #[inline]
    fn any_table(&self, m: S::Material) -> Result<(&Table, bool), TbError> {
        let k = S::key(m) as usize;
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
    pub fn try_probe(&self, pos: &S::Pos) -> Result<(Outcome, u16), TbError> {
        self.check_rules(pos)?;
        self.lookup(pos)
    }

    /// [`Tablebase::try_probe`] without the check of the rule set (for
    /// positions built with the tables' own rules, as a generator's are).
    #[inline]
    pub fn lookup(&self, pos: &S::Pos) -> Result<(Outcome, u16), TbError> {
        if let Some(o) = pos.terminal() {
            return Ok((o, 0));
        }
        let at = self.scheme.locate(pos);
        let table = self.table(at.material)?;
        let (wdl, dist) = table.get(at.side, at.entry);
        decode(wdl, dist)
            .ok_or_else(|| TbError::Damaged(self.path_of(at.material), Damage::InvalidValue))
    }

    /// Walks every entry of stored side `side` of the table of stored
    /// material `m` in index order, calling `f(entry, position, value)`
    /// with the value for the side to move and its distance in plies. The
    /// positions are decoded one by one ([`TableScheme::position`]); a
    /// game may have a faster walk of its own.
    pub fn walk(
        &self,
        m: S::Material,
        side: usize,
        mut f: impl FnMut(u64, &S::Pos, (Outcome, u16)),
    ) -> Result<(), TbError> {
        let table = self.table(m)?;
        if side >= table.header.sides {
            return Err(TbError::NoSuchEntry {
                material: self.scheme.name(m),
                side,
                index: 0,
            });
        }
        self.read_values(m, side, |x, value| {
            f(x, &self.scheme.position(m, side, x), value)
        })
    }

    /// Every value of stored side `side` of stored material `m` in index
    /// order, a block at a time (a compressed table decodes each block
    /// once): `f(entry, value)`.
    pub fn read_values(
        &self,
        m: S::Material,
        side: usize,
        mut f: impl FnMut(u64, (Outcome, u16)),
    ) -> Result<(), TbError> {
        let table = self.table(m)?;
        let size = table.header.size;
        let mut codes = vec![0u8; 1 << 16];
        let mut start = 0u64;
        while start < size {
            let len = (size - start).min(codes.len() as u64) as usize;
            table.read_codes(side, start, &mut codes[..len])?;
            for (j, &v) in codes[..len].iter().enumerate() {
                let (wdl, dist) = file::split_code(v);
                f(
                    start + j as u64,
                    decode(wdl, dist).expect("a value code is a value"),
                );
            }
            start += len as u64;
        }
        Ok(())
    }

    /// [`Tablebase::try_probe`] for callers that only want a value when one
    /// is known (the search engine).
    pub fn probe(&self, pos: &S::Pos) -> Option<(Outcome, u16)> {
        self.try_probe(pos).ok()
    }

    /// Every legal move with the value and distance it leads to (for the
    /// side to move after it), best first: the shortest win, then draws,
    /// then the longest loss.
    #[allow(clippy::type_complexity)]
    pub fn probe_moves(
        &self,
        pos: &S::Pos,
    ) -> Result<Vec<(<S::Pos as Game>::Move, Outcome, u16)>, TbError> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut out = Vec::with_capacity(list.len());
        let mut p = pos.clone();
        for m in list {
            let u = p.make(m);
            let r = self.try_probe(&p);
            p.unmake(m, u);
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
    /// else a loss at the longest child's distance + 1; no legal move is
    /// [`Game::no_moves_outcome`] at 0. That is the negation of
    /// [`Tablebase::probe_moves`]'s best move. A finished game is its
    /// result at 0, like [`Tablebase::try_probe`].
    pub fn value_from_children(&self, pos: &S::Pos) -> Result<(Outcome, u16), TbError> {
        if let Some(o) = pos.terminal() {
            return Ok((o, 0));
        }
        Ok(match self.probe_moves(pos)?.first() {
            None => (pos.no_moves_outcome(), 0),
            Some((_, Outcome::Draw, _)) => (Outcome::Draw, 0),
            Some(&(_, o, d)) => (o.flip(), d + 1),
        })
    }
}
