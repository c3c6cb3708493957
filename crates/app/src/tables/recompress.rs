//! `zoo tb recompress`: the tables of a set rewritten in the encoding a
//! build now chooses (docs/tablebase.md, "Bits per position").

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use serde::Serialize;
use zoo_animal::Board;
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_tb::TbError;

/// What `zoo tb recompress` did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RecompressReport {
    /// The game.
    pub game: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// Up to this many pieces.
    pub pieces: u32,
    /// Tables rewritten.
    pub rewritten: usize,
    /// Tables already in the smaller encoding, left as they are.
    pub unchanged: usize,
    /// Materials without a full table.
    pub without_table: usize,
    /// Bytes of the tables looked at, before and after.
    pub bytes_before: u64,
    /// After.
    pub bytes_after: u64,
}

impl TableSet {
    /// Rewrites every table of 2 to `pieces` pieces in the smaller of the
    /// zstd and plain encodings, each checked against the original before
    /// it replaces it; records the new files in the manifest.
    /// `progress(done, total)` per material.
    pub fn recompress(
        &self,
        pieces: u32,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<RecompressReport, AppError> {
        self.game().visit_tables(RecompressOf {
            set: self,
            pieces,
            progress,
        })?
    }
}

struct RecompressOf<'a> {
    set: &'a TableSet,
    pieces: u32,
    progress: &'a (dyn Fn(usize, usize) + Sync),
}

impl TableVisitor for RecompressOf<'_> {
    type Output = Result<RecompressReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        check_pieces::<B>(self.pieces)?;
        let rules = rules_of::<B>(self.set)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let mut r = RecompressReport {
            game: B::GAME,
            rules: rules.name,
            pieces: self.pieces,
            ..RecompressReport::default()
        };
        let mats: Vec<Material> = (2..=self.pieces)
            .flat_map(Material::canonical::<B>)
            .collect();
        let mut written = Vec::new();
        let mut outcome = Ok(());
        for (i, &m) in mats.iter().enumerate() {
            (self.progress)(i, mats.len());
            match zoo_animal_tb::recompress::recompress(&tb, m) {
                Ok(c) => {
                    r.bytes_before += c.before;
                    r.bytes_after += c.after;
                    if c.from == c.to {
                        r.unchanged += 1;
                    } else {
                        r.rewritten += 1;
                    }
                    // Recorded either way: a run stopped before its
                    // manifest was written (Ctrl-C) rewrote files the next
                    // run finds unchanged, and their entries are stale.
                    written.push(zoo_tb::file::file_name(&m.name::<B>()));
                }
                Err(TbError::Missing { .. } | TbError::WdlOnly { .. }) => r.without_table += 1,
                Err(e) => {
                    // The manifest must still name what was rewritten.
                    outcome = Err(e);
                    break;
                }
            }
        }
        if !written.is_empty() {
            zoo_tb::manifest::record(tb.dir(), &written)?;
        }
        outcome?;
        (self.progress)(mats.len(), mats.len());
        Ok(r)
    }
}
