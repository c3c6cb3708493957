//! Builds the tables of one game with the generic generator
//! (`zoo_tb::retro::solve`), writes them as table files and keeps what the
//! tests and the figures need: the per-table counts, longest wins, times.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use zoo_checkers::tables::{CheckersScheme, Material, Part};
use zoo_checkers::{Classical, English};
use zoo_checkers::{Position, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Outcome, TableIndex, TableScheme};
use zoo_tb::file::{table_dir, write_table, Header};
use zoo_tb::{retro, Tablebase, TbError};

/// The tables the tests build: every material of up to this many pieces,
/// 3 unless `ZOO_CHECKERS_TB_PIECES` says more (4 takes about a minute:
/// docs/checkers.md, "Endgame tables").
pub fn test_pieces() -> u32 {
    pieces_or(3)
}

/// `ZOO_CHECKERS_TB_PIECES`, or `default` when it is not set (the
/// measurements default to 4).
pub fn pieces_or(default: u32) -> u32 {
    std::env::var("ZOO_CHECKERS_TB_PIECES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A value code of the generator: 0 a draw, else the distance + 1 (even
/// codes win).
pub fn decode(code: u8) -> (Outcome, u16) {
    match code as u16 {
        0 => (Outcome::Draw, 0),
        c if c % 2 == 0 => (Outcome::Win, c - 1),
        c => (Outcome::Loss, c - 1),
    }
}

/// One table built: entries of both sides by value, the longest win.
#[derive(Clone, Debug)]
pub struct Row {
    pub material: Part,
    pub name: String,
    pub entries: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win in plies (0 when none).
    pub longest_win: u16,
    pub time: Duration,
}

/// The tables of one game: open (every file mapped), their rows in build
/// order.
pub struct Built<V: Variant> {
    pub tb: Tablebase<CheckersScheme<V>>,
    pub rows: Vec<Row>,
}

/// The tables of one size added up.
pub struct Size<'a> {
    pub tables: usize,
    pub entries: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub time: Duration,
    /// The table with the longest win.
    pub longest: Option<&'a Row>,
}

impl<V: Variant> Built<V> {
    /// The tables of `pieces` pieces added up.
    pub fn size(&self, pieces: u32) -> Size<'_> {
        let rows: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.material.pieces() == pieces)
            .collect();
        let sum = |f: fn(&Row) -> u64| rows.iter().map(|r| f(r)).sum::<u64>();
        Size {
            tables: rows.len(),
            entries: sum(|r| r.entries),
            wins: sum(|r| r.wins),
            draws: sum(|r| r.draws),
            losses: sum(|r| r.losses),
            time: rows.iter().map(|r| r.time).sum(),
            longest: rows.iter().copied().max_by_key(|r| r.longest_win),
        }
    }
}

/// Every material of 2..=`max` pieces, in build order.
pub fn up_to<V: Variant>(max: u32) -> Vec<Material> {
    (2..=max).flat_map(CheckersScheme::<V>::materials).collect()
}

/// Builds the tables of `materials` under `rules` into `dir`, in that
/// order: each after every table its moves lead to (a missing one is
/// [`TbError::Missing`]).
pub fn build_these<V: Variant>(
    rules: &'static RuleSet,
    materials: &[Material],
    dir: &Path,
) -> Result<Built<V>, TbError> {
    let scheme = CheckersScheme::<V>::new(rules);
    let tdir = table_dir(dir, scheme.game(), scheme.rules_name());
    std::fs::create_dir_all(&tdir).map_err(|e| TbError::io(&tdir, e))?;
    let mut solved: HashMap<Part, [Vec<u8>; 2]> = HashMap::new();
    let mut rows = Vec::new();
    for &m in materials {
        let start = Instant::now();
        let outside = |c: &Position<V>| {
            let at = scheme.locate(c);
            let values = solved.get(&at.material).ok_or_else(|| TbError::Missing {
                material: scheme.name(at.material),
                dir: tdir.clone(),
            })?;
            Ok(decode(values[at.side][at.entry as usize]))
        };
        let index = scheme.index(m);
        let s = retro::solve(&index, &scheme.name(m.into()), &outside)?;
        let time = start.elapsed();
        let header = Header {
            counts: s.counts,
            ..Header::new(
                scheme.game(),
                scheme.rules_name(),
                CheckersScheme::<V>::key(m.into()),
                2,
                index.size(),
            )
        };
        let path = tdir.join(zoo_tb::file::file_name(&scheme.name(m.into())));
        write_table(&path, &header, &[&s.values[0], &s.values[1]])?;
        let mut row = Row {
            material: m.into(),
            name: scheme.name(m.into()),
            entries: 2 * index.size(),
            wins: 0,
            draws: 0,
            losses: 0,
            longest_win: 0,
            time,
        };
        for &c in s.values.iter().flatten() {
            match decode(c) {
                (Outcome::Win, d) => {
                    row.wins += 1;
                    row.longest_win = row.longest_win.max(d);
                }
                (Outcome::Draw, _) => row.draws += 1,
                (Outcome::Loss, _) => row.losses += 1,
            }
        }
        rows.push(row);
        solved.insert(m.into(), s.values);
    }
    Ok(Built {
        tb: Tablebase::open(dir, rules),
        rows,
    })
}

/// Builds `materials` into a fresh directory of the system's temporary
/// one (named for `tag`), maps every table and removes the directory (the
/// maps stay readable).
pub fn built<V: Variant>(rules: &'static RuleSet, materials: &[Material], tag: &str) -> Built<V> {
    let dir = std::env::temp_dir().join(format!(
        "zoo-checkers-tables-{}-{}-{tag}",
        std::process::id(),
        rules.name
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let b = build_these::<V>(rules, materials, &dir).expect("tables built");
    for r in &b.rows {
        b.tb.table(r.material).expect("table opens");
    }
    let _ = std::fs::remove_dir_all(&dir);
    b
}

/// English tables of up to [`test_pieces`], built once per test run.
pub fn english() -> &'static Built<English> {
    static B: OnceLock<Built<English>> = OnceLock::new();
    B.get_or_init(|| built(&ENGLISH, &up_to::<English>(test_pieces()), "all"))
}

/// Classical tables of up to [`test_pieces`], built once per test run.
pub fn classical() -> &'static Built<Classical> {
    static B: OnceLock<Built<Classical>> = OnceLock::new();
    B.get_or_init(|| built(&CLASSICAL, &up_to::<Classical>(test_pieces()), "all"))
}
