//! `zoo tb diff`: two sets of tables of one game compared entry by entry,
//! to see what a change of rules changes (docs/tablebase.md, "What a rule
//! changes").

use crate::tables::{check_pieces, rules_of, TableSet, TableVisitor};
use crate::AppError;
use zoo_animal::Board;
use zoo_animal_tb::Tablebase;

/// One material's differences, as the front ends show them.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MaterialChange {
    /// `RDvte`.
    pub material: String,
    /// Entries compared.
    pub entries: u64,
    /// Entries whose win/draw/loss differs.
    pub changed: u64,
    /// Of those, positions without a legal move.
    pub no_move: u64,
    /// Entries with the same result and another distance.
    pub distance_changed: u64,
    /// `from_to` counts: the side to move's result in the first set, then
    /// in the second (`draw_win` …); only those that occur.
    pub transitions: std::collections::BTreeMap<String, u64>,
    /// The first changed position's FEN, if any.
    pub example: Option<String>,
    /// Its value in the first set and in the second (`win 12`, `draw`).
    pub example_values: Option<(String, String)>,
    /// The first changed position whose side to move has a legal move.
    pub example_played: Option<String>,
    /// Its values in the two sets.
    pub example_played_values: Option<(String, String)>,
}

/// The comparison of two sets of tables.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TableDiffReport {
    /// The game.
    pub game: &'static str,
    /// The first set's rule set.
    pub rules: &'static str,
    /// The second set's rule set.
    pub other_rules: &'static str,
    /// The tables' size compared.
    pub pieces: u32,
    /// Entries compared in all.
    pub entries: u64,
    /// Entries whose result differs, in all.
    pub changed: u64,
    /// Of those, positions without a legal move.
    pub no_move: u64,
    /// Entries with another distance only, in all.
    pub distance_changed: u64,
    /// The materials with a difference, in the tables' order.
    pub materials: Vec<MaterialChange>,
}

impl TableSet {
    /// Compares this set's tables of `pieces` pieces with `other`'s (the
    /// same game; typically another rule set), calling `progress(done,
    /// total)` per material.
    pub fn diff(
        &self,
        other: &TableSet,
        pieces: u32,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<TableDiffReport, AppError> {
        if other.game() != self.game() {
            return Err(AppError::Input(format!(
                "tables of {} and of {} cannot be compared",
                self.game(),
                other.game()
            )));
        }
        self.game().visit_tables(DiffOf {
            a: self,
            b: other,
            pieces,
            progress,
        })?
    }
}

struct DiffOf<'a> {
    a: &'a TableSet,
    b: &'a TableSet,
    pieces: u32,
    progress: &'a (dyn Fn(usize, usize) + Sync),
}

const NAMES: [&str; 3] = ["draw", "win", "loss"];

fn value(code: (u8, u8)) -> String {
    match code.0 {
        zoo_tb::file::WDL_DRAW => "draw".into(),
        zoo_tb::file::WDL_WIN => format!("win {}", code.1),
        zoo_tb::file::WDL_LOSS => format!("loss {}", code.1),
        _ => "invalid".into(),
    }
}

impl TableVisitor for DiffOf<'_> {
    type Output = Result<TableDiffReport, AppError>;
    fn visit<B: Board>(self) -> Self::Output {
        check_pieces::<B>(self.pieces)?;
        let (ra, rb) = (rules_of::<B>(self.a)?, rules_of::<B>(self.b)?);
        let ta = Tablebase::<B>::open(self.a.dir(), ra);
        let tb = Tablebase::<B>::open(self.b.dir(), rb);
        let diffs = zoo_animal_tb::diff::diff(&ta, &tb, self.pieces, self.progress)?;
        let mut r = TableDiffReport {
            game: B::GAME,
            rules: ra.name,
            other_rules: rb.name,
            pieces: self.pieces,
            entries: diffs.iter().map(|d| d.entries).sum(),
            changed: diffs.iter().map(|d| d.changed).sum(),
            no_move: diffs.iter().map(|d| d.no_move).sum(),
            distance_changed: diffs.iter().map(|d| d.distance_changed).sum(),
            materials: Vec::new(),
        };
        for d in diffs
            .into_iter()
            .filter(|d| d.changed + d.distance_changed > 0)
        {
            let mut transitions = std::collections::BTreeMap::new();
            for (i, row) in d.transitions.iter().enumerate() {
                for (j, &n) in row.iter().enumerate() {
                    if n > 0 {
                        transitions.insert(format!("{}_{}", NAMES[i], NAMES[j]), n);
                    }
                }
            }
            r.materials.push(MaterialChange {
                material: d.material,
                entries: d.entries,
                changed: d.changed,
                no_move: d.no_move,
                distance_changed: d.distance_changed,
                transitions,
                example_values: d.example.as_ref().map(|e| (value(e.1), value(e.2))),
                example_played_values: d.example_played.as_ref().map(|e| (value(e.1), value(e.2))),
                example_played: d.example_played.map(|e| e.0),
                example: d.example.map(|e| e.0),
            });
        }
        Ok(r)
    }
}
