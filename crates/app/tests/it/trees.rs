//! `zoo tree`'s trees against the 2-piece Jungle table (built here into a
//! temporary directory, in well under a second), and literature E's
//! findings checked on the table itself.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use zoo_animal::{rules::JUNGLE_LEIDEN, Jungle, JunglePos};
use zoo_animal_tb::Tablebase;
use zoo_app::trees::{self, features, partition::class_of, FeatureSet, Partition, CLASSES};
use zoo_app::{AppError, BuildRequest, GameKind, TableSet, TreeLimit, TreeRequest};
use zoo_core::{Game, Side};

fn tables() -> &'static TableSet {
    static SET: OnceLock<TableSet> = OnceLock::new();
    SET.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-app-trees");
        let _ = std::fs::remove_dir_all(&dir);
        let set = TableSet::new(GameKind::Jungle, None, &dir).unwrap();
        let plan = set
            .plan(&BuildRequest {
                pieces: 2,
                ..Default::default()
            })
            .unwrap();
        set.build(&plan, &|_| {}, &|_| {}, &AtomicBool::new(false))
            .unwrap();
        set
    })
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-app-trees")
}

fn all_partitions() -> &'static Vec<Partition> {
    static P: OnceLock<Vec<Partition>> = OnceLock::new();
    P.get_or_init(|| trees::partitions(tables(), &TreeRequest::default()).unwrap())
}

fn part(name: &str) -> &'static Partition {
    all_partitions()
        .iter()
        .find(|p| p.material == name)
        .unwrap()
}

/// The features as a key (they are small whole numbers).
fn key(row: &[f64]) -> Vec<i64> {
    row.iter().map(|&v| v as i64).collect()
}

/// Per feature vector, the positions of each value.
fn groups(p: &Partition) -> HashMap<Vec<i64>, [u64; 3]> {
    let mut g: HashMap<Vec<i64>, [u64; 3]> = HashMap::new();
    for (r, &l) in p.rows.iter().zip(&p.labels) {
        g.entry(key(r)).or_default()[l] += 1;
    }
    g
}

/// The conflicts of each partition under each reading of the features:
/// groups of positions with equal features and more than one value, and
/// the positions outside each group's majority (what the perfect tree must
/// misclassify). The expectations are `tests/data/tree_conflicts.txt`; the
/// perfect trees are checked to have exactly these conflict leaves and
/// errors.
#[test]
fn conflicts_per_partition_are_as_recorded() {
    let expected = include_str!("../data/tree_conflicts.txt");
    let mut actual = String::new();
    for set in FeatureSet::ALL {
        let req = TreeRequest {
            features: set,
            ..Default::default()
        };
        let parts = trees::partitions(tables(), &req).unwrap();
        let report = trees::trees(tables(), &req, &mut |_| {}).unwrap();
        let mut perfect = 0;
        for (p, t) in parts.iter().zip(&report.partitions) {
            let g = groups(p);
            let mixed = g
                .values()
                .filter(|c| c.iter().filter(|&&n| n > 0).count() > 1)
                .count();
            let minority: u64 = g
                .values()
                .map(|c| c.iter().sum::<u64>() - c.iter().max().unwrap())
                .sum();
            assert_eq!(
                t.perfect.conflicts().0,
                mixed,
                "{} {}",
                set.name(),
                p.material
            );
            assert_eq!(t.perfect.training_errors(), minority, "{}", p.material);
            perfect += usize::from(mixed == 0);
            actual += &format!("{} {} {mixed} {minority}\n", set.name(), p.material);
        }
        actual += &format!("{} perfect-partitions {perfect}\n", set.name());
    }
    let expected: Vec<&str> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let actual: Vec<&str> = actual.lines().collect();
    assert_eq!(actual, expected, "actual:\n{}", actual.join("\n"));
}

#[test]
fn the_partitions_are_the_whole_table() {
    let n: usize = all_partitions().iter().map(|p| p.labels.len()).sum();
    // Literature E's count of 2-piece positions (White to move).
    assert_eq!(n, 160_068);
    assert_eq!(all_partitions().len(), 64);
}

/// Each perfect tree classifies every position as the table does, but for
/// the positions whose features equal another's of a different value
/// (conflicts): there it misses exactly the minority of each such group,
/// no more.
#[test]
fn each_perfect_tree_agrees_with_the_table_but_where_features_cannot_tell() {
    let tb = Tablebase::<Jungle>::open(&dir(), &JUNGLE_LEIDEN);
    let report = trees::trees(tables(), &TreeRequest::default(), &mut |_| {}).unwrap();
    for (p, t) in all_partitions().iter().zip(&report.partitions) {
        assert_eq!(p.material, t.material);
        let g = groups(p);
        let mut misses = 0u64;
        for (i, row) in p.rows.iter().enumerate() {
            // The value read again, through the probe of the tables.
            let (value, _) = tb.try_probe(&p.position(i, &JUNGLE_LEIDEN)).unwrap();
            let table = class_of(value);
            assert_eq!(table, p.labels[i]);
            if t.perfect.classify(row) != table {
                misses += 1;
                let c = g[&key(row)];
                assert!(
                    c.iter().filter(|&&n| n > 0).count() > 1,
                    "{}: {} misclassified, yet no other position has its features",
                    p.material,
                    p.position(i, &JUNGLE_LEIDEN).to_fen()
                );
            }
        }
        let minority: u64 = g
            .values()
            .map(|c| c.iter().sum::<u64>() - c.iter().max().unwrap())
            .sum();
        assert_eq!(misses, minority, "{}", p.material);
        assert_eq!(t.perfect.training_errors(), minority, "{}", p.material);
        let (_, in_conflicts) = t.perfect.conflicts();
        assert_eq!(in_conflicts == 0, minority == 0, "{}", p.material);
    }
}

/// Literature E: equal pieces never draw. Checked for every kind (the
/// tiger and the lion, which leap, never draw either).
#[test]
fn equal_pieces_never_draw() {
    for k in b"RCWDPTLE" {
        let name = format!("{}v{}", *k as char, (*k as char).to_ascii_lowercase());
        let [_, draws, _] = part(&name).values();
        assert_eq!(draws, 0, "{name}");
    }
}

/// "Parity decides" for cat against cat: not on its own. Both parities
/// have wins and losses (the race to the dens decides as much); where
/// Black's cat is nearer its goal, an even distance is always lost for
/// White to move (White can never step next to Black's cat without being
/// taken first).
#[test]
fn cat_against_cat_parity_decides_only_with_the_race() {
    let p = part("Cvc");
    let schema = features::schema();
    let at = |name: &str| schema.iter().position(|f| f.name == name).unwrap();
    let (parity, closest) = (at("parity"), at("closest"));
    let mut by_parity = [[0u64; 3]; 2];
    let mut black_closest = [[0u64; 3]; 2];
    for (r, &l) in p.rows.iter().zip(&p.labels) {
        by_parity[r[parity] as usize][l] += 1;
        if r[closest] == 1.0 {
            black_closest[r[parity] as usize][l] += 1;
        }
    }
    // Parity alone is not a function to the value: wins and losses on both.
    for c in by_parity {
        assert!(c[0] > 0 && c[2] > 0, "{by_parity:?}");
    }
    // Black nearer its den and an even distance: lost, every one.
    assert!(black_closest[0][2] > 0);
    assert_eq!((black_closest[0][0], black_closest[0][1]), (0, 0));
}

/// The lion leaps: the cats' rule above (Black nearer its goal, even
/// distance: lost) fails for lions, in a position the cats lose.
#[test]
fn a_lion_reverses_parity_by_leaping() {
    let tb = Tablebase::<Jungle>::open(&dir(), &JUNGLE_LEIDEN);
    let lions = part("Lvl");
    let mut found = None;
    for (i, r) in lions.rows.iter().enumerate() {
        let (parity_even, black_closest) = (r[7] == 0.0, r[0] == 1.0);
        if parity_even && black_closest && CLASSES[lions.labels[i]] == "win" {
            // The same squares with cats.
            let (w, b) = lions.squares[i];
            let mut cats = JunglePos::empty(&JUNGLE_LEIDEN);
            cats.put(Side::White, 1, w);
            cats.put(Side::Black, 1, b);
            let (v, _) = tb.try_probe(&cats).unwrap();
            if v == zoo_core::Outcome::Loss {
                found = Some(lions.position(i, &JUNGLE_LEIDEN).to_fen());
                break;
            }
        }
    }
    let fen = found.expect("a lion-against-lion win the cats lose");
    println!("lions win, cats lose: {fen}");
}

/// Literature E: small trees of lion against elephant misclassify a few
/// positions; the perfect tree misclassifies only those its features
/// cannot tell apart.
#[test]
fn lion_against_elephant_small_trees_make_errors() {
    let req = TreeRequest {
        materials: vec!["LvE".into()],
        limit: TreeLimit::Leaves(10),
        ..Default::default()
    };
    let r = trees::trees(tables(), &req, &mut |_| {}).unwrap();
    let t = &r.partitions[0];
    assert_eq!(t.material, "Lve");
    let small = t.limited.as_ref().unwrap();
    assert!(small.leaves() <= 10);
    let minority: u64 = groups(part("Lve"))
        .values()
        .map(|c| c.iter().sum::<u64>() - c.iter().max().unwrap())
        .sum();
    assert_eq!(t.perfect.training_errors(), minority);
    assert!(small.training_errors() > t.perfect.training_errors());
    assert!(t.pruned.training_errors() > t.perfect.training_errors());
    assert!(t.pruned.leaves() < t.perfect.leaves());
    // The trade-off ends at one leaf, the majority (a win: 993 of 2352).
    assert_eq!(t.trade_off.last().unwrap().leaves, 1);
    assert_eq!(t.trade_off.last().unwrap().errors, 2352 - 993);
}

#[test]
fn bad_requests_are_clear_errors() {
    let bad = |req: TreeRequest| trees::trees(tables(), &req, &mut |_| {}).unwrap_err();
    let e = bad(TreeRequest {
        materials: vec!["LvX".into()],
        ..Default::default()
    });
    assert!(
        matches!(e, AppError::Input(_)) && e.to_string().contains("LvX"),
        "{e}"
    );
    let e = bad(TreeRequest {
        materials: vec!["LCve".into()],
        ..Default::default()
    });
    assert!(e.to_string().contains("2-piece"), "{e}");
    for pieces in [0, 1, 4, 16] {
        let e = bad(TreeRequest {
            pieces,
            ..Default::default()
        });
        assert!(
            matches!(e, AppError::Input(_))
                && e.to_string().contains(&format!("--pieces {pieces}:")),
            "{e}"
        );
    }
    let jc = TableSet::new(GameKind::JungleCheckers, None, &dir()).unwrap();
    let e = trees::trees(&jc, &TreeRequest::default(), &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("jungle only"), "{e}");
    // 3-piece materials: three pieces, both sides, the game's letters.
    for name in ["LvE", "CLWvr", "CLv", "CCvr", "LXvr"] {
        let e = trees::trees(
            tables3(GameKind::Jungle),
            &TreeRequest {
                pieces: 3,
                materials: vec![name.into()],
                ..Default::default()
            },
            &mut |_| {},
        );
        let e = e.err().unwrap_or_else(|| panic!("{name} accepted"));
        assert!(
            e.to_string().contains("not a 3-piece jungle material"),
            "{e}"
        );
    }
    // A Jungle material; the checkers board has no lion.
    let e = trees::trees(
        tables3(GameKind::JungleCheckers),
        &TreeRequest {
            pieces: 3,
            materials: vec!["DTvl".into()],
            ..Default::default()
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("letters RDTE"), "{e}");
    // 3-piece trees without the 3-piece tables.
    let e = bad(TreeRequest {
        pieces: 3,
        materials: vec!["CLvr".into()],
        ..Default::default()
    });
    assert!(e.to_string().contains("--pieces 3"), "{e}");
    let empty = TableSet::new(GameKind::Jungle, None, &dir().join("nothing")).unwrap();
    let e = trees::trees(&empty, &TreeRequest::default(), &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("zoo tb build"), "{e}");
}

/// The 3-piece tables of `game` (and its 2-piece ones), built once.
fn tables3(game: GameKind) -> &'static TableSet {
    static SETS: OnceLock<[TableSet; 2]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [GameKind::Jungle, GameKind::JungleCheckers].map(|g| {
            let dir =
                PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-app-trees3-{g}"));
            let _ = std::fs::remove_dir_all(&dir);
            let set = TableSet::new(g, None, &dir).unwrap();
            let plan = set
                .plan(&BuildRequest {
                    pieces: 3,
                    ..Default::default()
                })
                .unwrap();
            set.build(&plan, &|_| {}, &|_| {}, &AtomicBool::new(false))
                .unwrap();
            set
        })
    });
    &sets[usize::from(game == GameKind::JungleCheckers)]
}

/// The 3-piece trees of a few partitions of each game: every perfect tree
/// classifies each position as the table does but where another position
/// has the same features and another value, misses exactly the minority
/// of such groups, and the conflicts are as recorded in
/// `tests/data/tree3_conflicts.txt` (game, material, groups in conflict,
/// positions outside their majority); the tree of the partitions asked
/// likewise.
#[test]
fn three_piece_trees_agree_with_the_tables_but_where_features_cannot_tell() {
    let expected = include_str!("../data/tree3_conflicts.txt");
    let mut actual = String::new();
    let cases: [(GameKind, &[&str]); 2] = [
        (GameKind::Jungle, &["CLvr", "Rvte", "WDve"]),
        (GameKind::JungleCheckers, &["DTve", "Rvte", "RDvt"]),
    ];
    for (game, names) in cases {
        let set = tables3(game);
        let req = TreeRequest {
            pieces: 3,
            materials: names.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let parts = match game {
            GameKind::Jungle => trees::partitions3::<Jungle>(set, &req).unwrap(),
            _ => trees::partitions3::<zoo_animal::JungleCheckers>(set, &req).unwrap(),
        };
        let report = trees::trees(set, &req, &mut |_| {}).unwrap();
        assert_eq!(report.pieces, 3);
        let mut all: HashMap<Vec<i64>, [u64; 3]> = HashMap::new();
        for (p, t) in parts.iter().zip(&report.partitions) {
            assert_eq!(p.material, t.material);
            assert_eq!(t.positions, p.data.len() as u64);
            let mut g: HashMap<Vec<i64>, [u64; 3]> = HashMap::new();
            for i in 0..p.data.len() {
                g.entry(key(p.data.row(i))).or_default()[p.data.label(i)] += 1;
                all.entry(key(p.data.row(i))).or_default()[p.data.label(i)] += 1;
            }
            let mut misses = 0;
            for i in 0..p.data.len() {
                if t.perfect.classify(p.data.row(i)) != p.data.label(i) {
                    misses += 1;
                    let c = g[&key(p.data.row(i))];
                    assert!(c.iter().filter(|&&n| n > 0).count() > 1, "{}", p.material);
                }
            }
            let mixed = g
                .values()
                .filter(|c| c.iter().filter(|&&n| n > 0).count() > 1)
                .count();
            let minority: u64 = g
                .values()
                .map(|c| c.iter().sum::<u64>() - c.iter().max().unwrap())
                .sum();
            assert_eq!(misses, minority, "{}", p.material);
            assert_eq!(t.perfect.conflicts().0, mixed, "{}", p.material);
            actual += &format!("{game} {} {mixed} {minority}\n", p.material);
        }
        let w = report
            .whole
            .as_ref()
            .expect("a tree of the partitions asked");
        let mixed = all
            .values()
            .filter(|c| c.iter().filter(|&&n| n > 0).count() > 1)
            .count();
        let minority: u64 = all
            .values()
            .map(|c| c.iter().sum::<u64>() - c.iter().max().unwrap())
            .sum();
        assert_eq!(w.perfect.training_errors(), minority);
        assert_eq!(w.perfect.conflicts().0, mixed);
        actual += &format!("{game} all {mixed} {minority}\n");
    }
    let expected: Vec<&str> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let actual: Vec<&str> = actual.lines().collect();
    assert_eq!(actual, expected, "actual:\n{}", actual.join("\n"));
}

/// A 3-piece position read back from its partition has the table's value.
#[test]
fn three_piece_values_are_the_tables() {
    let set = tables3(GameKind::Jungle);
    let req = TreeRequest {
        pieces: 3,
        materials: vec!["Rvte".into()],
        ..Default::default()
    };
    let p = &trees::partitions3::<Jungle>(set, &req).unwrap()[0];
    let tb = Tablebase::<Jungle>::open(&set_dir(set), &JUNGLE_LEIDEN);
    for i in (0..p.data.len()).step_by(997) {
        let (v, _) = tb
            .try_probe(&p.position::<Jungle>(i, &JUNGLE_LEIDEN))
            .unwrap();
        assert_eq!(class_of(v), p.data.label(i));
    }
    let [w, d, l] = p.values;
    assert_eq!(w + d + l, p.data.len() as u64);
}

fn set_dir(set: &TableSet) -> PathBuf {
    let g = set.game();
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-app-trees3-{g}"))
}
