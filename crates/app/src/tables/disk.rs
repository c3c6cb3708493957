//! `zoo tb size`: what the tables of a game take on disk, bits per
//! position and per entry, per file and per size (docs/tablebase.md,
//! "File format").

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use serde::Serialize;
use zoo_animal::Board;
use zoo_animal_tb::disk;
use zoo_animal_tb::Tablebase;

/// One table file.
#[derive(Clone, Debug, Serialize)]
pub struct TableFileSize {
    /// `RDvte`.
    pub material: String,
    /// Pieces of its material.
    pub pieces: u32,
    /// `plain` or `zstd`.
    pub encoding: &'static str,
    /// The file's length.
    pub bytes: u64,
    /// Index entries stored.
    pub entries: u64,
    /// Positions they stand for, as `zoo tb stats` counts them.
    pub positions: u64,
    /// `bytes` × 8 / `positions`.
    pub bits_per_position: f64,
    /// `bytes` × 8 / `entries`.
    pub bits_per_entry: f64,
}

/// The files of one size added up.
#[derive(Clone, Debug, Serialize)]
pub struct TableFamilySize {
    /// Pieces on the board.
    pub pieces: u32,
    /// Canonical materials of that size.
    pub materials: usize,
    /// Of them, those with a file.
    pub files: usize,
    /// Files written plain.
    pub plain: usize,
    /// Files in zstd blocks.
    pub zstd: usize,
    /// WDL-only files.
    pub wdl: usize,
    /// Bytes of all the files.
    pub bytes: u64,
    /// Entries of all the files.
    pub entries: u64,
    /// Positions of all the files.
    pub positions: u64,
    /// `bytes` × 8 / `positions`.
    pub bits_per_position: f64,
    /// `bytes` × 8 / `entries`.
    pub bits_per_entry: f64,
}

/// What the tables of a game and rule set take on disk.
#[derive(Clone, Debug, Serialize)]
pub struct TableDiskReport {
    /// The game.
    pub game: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// One row per size with a table file, fewest pieces first.
    pub families: Vec<TableFamilySize>,
    /// The same for the WDL-only files (`zoo tb wdl`), sizes with one.
    pub wdl_families: Vec<TableFamilySize>,
    /// Every file (tables, then WDL-only files), by size, then in the
    /// order of the materials.
    pub tables: Vec<TableFileSize>,
}

impl TableSet {
    /// The sizes of the table files of `pieces` pieces (`None`: every
    /// size that has one). Reads the headers only.
    pub fn disk(&self, pieces: Option<u32>) -> Result<TableDiskReport, AppError> {
        if let Some(r) = self.scheme(crate::tables::scheme::Files { set: self, pieces }) {
            let (game, rules, sizes) = r?;
            let mut report = TableDiskReport {
                game,
                rules,
                families: Vec::new(),
                wdl_families: Vec::new(),
                tables: Vec::new(),
            };
            for (n, files, materials) in sizes {
                if !files.is_empty() || pieces.is_some() {
                    report.add(n, materials, &files, false);
                }
            }
            return Ok(report);
        }
        self.game().visit_tables(DiskOf { set: self, pieces })?
    }
}

impl TableDiskReport {
    /// Adds the files of one size (`wdl`: WDL-only files) as a row and
    /// each file as a line.
    fn add(&mut self, pieces: u32, materials: usize, files: &[disk::FileSize], wdl: bool) {
        let f = disk::family(pieces, materials, files);
        let rows = if wdl {
            &mut self.wdl_families
        } else {
            &mut self.families
        };
        rows.push(TableFamilySize {
            pieces,
            materials,
            files: f.files,
            plain: f.by_encoding[0],
            zstd: f.by_encoding[1],
            wdl: f.by_encoding[2],
            bytes: f.bytes,
            entries: f.entries,
            positions: f.positions,
            bits_per_position: f.bits_per_position(),
            bits_per_entry: f.bits_per_entry(),
        });
        self.tables.extend(files.iter().map(|t| TableFileSize {
            material: t.material.clone(),
            pieces: t.pieces,
            encoding: t.encoding.name(),
            bytes: t.bytes,
            entries: t.entries,
            positions: t.positions,
            bits_per_position: t.bits_per_position(),
            bits_per_entry: t.bits_per_entry(),
        }));
    }
}

struct DiskOf<'a> {
    set: &'a TableSet,
    pieces: Option<u32>,
}

impl TableVisitor for DiskOf<'_> {
    type Output = Result<TableDiskReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        let rules = rules_of::<B>(self.set)?;
        let sizes: Vec<u32> = match self.pieces {
            Some(n) => {
                check_pieces::<B>(n)?;
                vec![n]
            }
            None => (2..=2 * B::KINDS as u32).collect(),
        };
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let mut r = TableDiskReport {
            game: B::GAME,
            rules: rules.name,
            families: Vec::new(),
            wdl_families: Vec::new(),
            tables: Vec::new(),
        };
        for (n, wdl) in [false, true]
            .into_iter()
            .flat_map(|w| sizes.iter().map(move |&n| (n, w)))
        {
            let (files, materials) = disk::files(&tb, n, wdl)?;
            if files.is_empty() && (wdl || self.pieces.is_none()) {
                continue;
            }
            r.add(n, materials, &files, wdl);
        }
        Ok(r)
    }
}
