//! `zoo tb wdl`: the WDL-only files beside the tables, made from them and
//! checked against them (docs/tablebase.md, "WDL-only files").

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use serde::Serialize;
use zoo_animal::Board;
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;

/// What `zoo tb wdl` did, or found when checking.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WdlReport {
    /// The game.
    pub game: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// Up to this many pieces.
    pub pieces: u32,
    /// WDL files written (making) or compared (checking).
    pub files: usize,
    /// Tables with a WDL file already, left as they are (making).
    pub present: usize,
    /// Materials without a full table (nothing to make or check against).
    pub without_table: usize,
    /// Bytes of the files written or compared.
    pub bytes: u64,
    /// Entries compared (checking).
    pub entries: u64,
    /// Entries whose win/draw/loss differs from the table's (checking).
    pub disagreements: u64,
    /// Materials with a disagreement (checking).
    pub disagreeing: Vec<String>,
}

impl TableSet {
    /// Writes the WDL-only file of every table of 2 to `pieces` pieces that
    /// has none yet, beside it; `check`: compares every WDL file there is
    /// with its table instead. `progress(done, total)` per material.
    pub fn wdl(
        &self,
        pieces: u32,
        check: bool,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<WdlReport, AppError> {
        self.game().visit_tables(WdlOf {
            set: self,
            pieces,
            check,
            progress,
        })?
    }
}

struct WdlOf<'a> {
    set: &'a TableSet,
    pieces: u32,
    check: bool,
    progress: &'a (dyn Fn(usize, usize) + Sync),
}

impl TableVisitor for WdlOf<'_> {
    type Output = Result<WdlReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        check_pieces::<B>(self.pieces)?;
        let rules = rules_of::<B>(self.set)?;
        let tb = Tablebase::<B>::open(self.set.dir(), rules);
        let mut r = WdlReport {
            game: B::GAME,
            rules: rules.name,
            pieces: self.pieces,
            ..WdlReport::default()
        };
        let mats: Vec<Material> = (2..=self.pieces)
            .flat_map(Material::canonical::<B>)
            .collect();
        let mut written = Vec::new();
        for (i, &m) in mats.iter().enumerate() {
            (self.progress)(i, mats.len());
            let wdl = tb.wdl_path_of(m);
            if !tb.path_of(m).exists() {
                r.without_table += 1;
            } else if self.check {
                if wdl.exists() {
                    let c = zoo_animal_tb::wdl::check(&tb, m)?;
                    r.files += 1;
                    r.bytes += tb.wdl_table(m)?.file_len();
                    r.entries += c.entries;
                    r.disagreements += c.disagreements;
                    if c.disagreements > 0 {
                        r.disagreeing.push(m.name::<B>());
                    }
                }
            } else if wdl.exists() {
                r.present += 1;
            } else {
                r.bytes += zoo_animal_tb::wdl::make(&tb, m)?;
                r.files += 1;
                written.push(zoo_tb::file::wdl_file_name(&m.name::<B>()));
            }
        }
        // The manifest lists the WDL files beside the tables.
        if !written.is_empty() {
            zoo_tb::manifest::record(tb.dir(), &written)?;
        }
        (self.progress)(mats.len(), mats.len());
        Ok(r)
    }
}
