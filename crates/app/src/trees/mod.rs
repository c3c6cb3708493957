//! `zoo tree`: C4.5 decision trees learned from the 2-piece Jungle table,
//! after literature E (docs/trees.md). Per partition (one White kind
//! against one Black kind, White to move) the features of each position
//! ([`features`]) and the table's value make a data set; zoo-learn grows
//! the perfect tree, prunes it, and gives the trade-off of leaves against
//! errors. One tree more for the whole table, with the material as a
//! feature.
//!
//! One job per file: the routes of a lone piece ([`routes`]), the
//! features ([`features`]), a partition's positions ([`partition`]), and
//! here the request, the report and the loop over partitions.

pub mod features;
pub mod partition;
pub mod routes;
pub mod three;

use crate::{AppError, GameKind, TableSet};
use serde::Serialize;
use zoo_animal::board::Board;
use zoo_animal::{Jungle, JungleCheckers};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_learn::{Dataset, Feature, GrowOptions, Schema, TradeOff, Tree};

pub use features::FeatureSet;
pub use partition::{Partition, CLASSES};

/// Which smaller tree to show beside the perfect one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TreeLimit {
    /// None: the perfect tree is the one shown.
    #[default]
    Perfect,
    /// The largest tree of the weakest-link sequence with at most this
    /// many leaves.
    Leaves(usize),
    /// The perfect tree cut at this depth.
    Depth(usize),
}

/// What `zoo tree` is asked.
#[derive(Clone, Debug)]
pub struct TreeRequest {
    /// Pieces of the table: 2 (Jungle) or 3 (both animal games).
    pub pieces: u32,
    /// Partitions as `LvE` (White's letter, `v`, Black's in lower case);
    /// empty: all 64.
    pub materials: Vec<String>,
    /// The tree shown besides the perfect one.
    pub limit: TreeLimit,
    /// Confidence of C4.5's pessimistic pruning.
    pub confidence: f64,
    /// Which reading of the features (docs/trees.md).
    pub features: FeatureSet,
    /// Also grow one tree over all the partitions asked, with the
    /// material as a feature (when there are two or more).
    pub whole: bool,
}

impl Default for TreeRequest {
    fn default() -> Self {
        TreeRequest {
            pieces: 2,
            materials: Vec::new(),
            limit: TreeLimit::Perfect,
            confidence: 0.25,
            features: FeatureSet::Literature,
            whole: true,
        }
    }
}

/// The trees of one partition (or of the whole table).
#[derive(Clone, Debug)]
pub struct PartitionTrees {
    /// `LvE`, or `all` for the whole table.
    pub material: String,
    /// Positions, White to move.
    pub positions: u64,
    /// Wins, draws and losses for White.
    pub values: [u64; 3],
    /// Grown until every leaf is pure (or its positions cannot be told
    /// apart by the features: a conflict).
    pub perfect: Tree,
    /// The perfect tree after C4.5's pessimistic pruning.
    pub pruned: Tree,
    /// The tree the request's limit asked for.
    pub limited: Option<Tree>,
    /// Leaves against errors, from the perfect tree down to one leaf.
    pub trade_off: Vec<TradeOff>,
    /// The pruning confidence used.
    pub confidence: f64,
}

/// A partition's numbers, as `--json` and the summary table give them.
#[derive(Clone, Debug, Serialize)]
pub struct TreeSummary {
    /// `LvE`, or `all`.
    pub material: String,
    /// Positions, White to move.
    pub positions: u64,
    /// Won for White.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for White.
    pub losses: u64,
    /// Leaves of the tree shown (the limited one if asked, else the perfect).
    pub leaves: usize,
    /// Its depth.
    pub depth: usize,
    /// Positions it misclassifies.
    pub errors: u64,
    /// Share of positions it classifies right.
    pub accuracy: f64,
    /// Leaves of the perfect tree.
    pub perfect_leaves: usize,
    /// Depth of the perfect tree.
    pub perfect_depth: usize,
    /// Positions the perfect tree misclassifies (those of conflicts).
    pub perfect_errors: u64,
    /// Leaves of the perfect tree whose positions have equal features and
    /// different values.
    pub conflicts: usize,
    /// Positions in those leaves.
    pub conflict_positions: u64,
    /// Leaves of the pruned tree.
    pub pruned_leaves: usize,
    /// Positions the pruned tree misclassifies.
    pub pruned_errors: u64,
    /// The pruning confidence.
    pub confidence: f64,
}

impl PartitionTrees {
    /// The tree asked for: the limited one, else the perfect one.
    pub fn shown(&self) -> &Tree {
        self.limited.as_ref().unwrap_or(&self.perfect)
    }

    /// The numbers of the partition's trees.
    pub fn summary(&self) -> TreeSummary {
        let shown = self.shown();
        let errors = shown.training_errors();
        let (conflicts, conflict_positions) = self.perfect.conflicts();
        TreeSummary {
            material: self.material.clone(),
            positions: self.positions,
            wins: self.values[0],
            draws: self.values[1],
            losses: self.values[2],
            leaves: shown.leaves(),
            depth: shown.depth(),
            errors,
            accuracy: 1.0 - errors as f64 / self.positions.max(1) as f64,
            perfect_leaves: self.perfect.leaves(),
            perfect_depth: self.perfect.depth(),
            perfect_errors: self.perfect.training_errors(),
            conflicts,
            conflict_positions,
            pruned_leaves: self.pruned.leaves(),
            pruned_errors: self.pruned.training_errors(),
            confidence: self.confidence,
        }
    }
}

/// Everything `zoo tree` made.
#[derive(Clone, Debug)]
pub struct TreeReport {
    /// The game.
    pub game: &'static str,
    /// The rule set.
    pub rules: &'static str,
    /// Pieces of the table.
    pub pieces: u32,
    /// The reading of the features.
    pub features: FeatureSet,
    /// Each partition asked, in order (White's kind, then Black's).
    pub partitions: Vec<PartitionTrees>,
    /// The tree of all of them with the material as a feature.
    pub whole: Option<PartitionTrees>,
    /// Why there is no tree of them all when there is none though two
    /// partitions or more were asked.
    pub whole_skipped: Option<String>,
}

/// The most positions the tree of several 3-piece partitions is grown
/// from: the learner keeps every row in memory (a row is 21 numbers), and
/// a whole 3-piece table (4.7 million positions in Jungle Checkers, 94
/// million in Jungle) would not fit beside another engineer's work.
pub const WHOLE_LIMIT: u64 = 1_000_000;

/// The partitions named, as (White's kind, Black's kind); all when none.
fn materials(names: &[String]) -> Result<Vec<(usize, usize)>, AppError> {
    if names.is_empty() {
        let k = Jungle::KINDS;
        return Ok((0..k).flat_map(|w| (0..k).map(move |b| (w, b))).collect());
    }
    let mut out = Vec::new();
    for name in names {
        // `LvE` as people write it, `Lve` as the tables name it.
        let canonical = match name.split_once(['v', 'V']) {
            Some((w, b)) => format!("{}v{}", w.to_ascii_uppercase(), b.to_ascii_lowercase()),
            None => name.clone(),
        };
        let m = Material::parse::<Jungle>(&canonical)
            .filter(|m| m.white.count_ones() == 1 && m.black.count_ones() == 1)
            .ok_or_else(|| {
                AppError::Input(format!(
                    "--material {name}: not a 2-piece Jungle material; give one White piece, `v`, one Black piece, as LvE or Cvc (letters {})",
                    std::str::from_utf8(Jungle::LETTERS).unwrap_or("?")
                ))
            })?;
        let pair = (
            m.white.trailing_zeros() as usize,
            m.black.trailing_zeros() as usize,
        );
        if !out.contains(&pair) {
            out.push(pair);
        }
    }
    Ok(out)
}

fn dataset(features: Vec<Feature>, rows: &[(&[f64], usize)]) -> Result<Dataset, AppError> {
    let mut d = Dataset::new(Schema {
        features,
        classes: CLASSES.iter().map(|c| c.to_string()).collect(),
    });
    for &(row, label) in rows {
        d.push(row, label).map_err(learn_error)?;
    }
    Ok(d)
}

fn learn_error(e: zoo_learn::LearnError) -> AppError {
    AppError::Input(format!("decision tree: {e}"))
}

/// The data set of one partition.
pub fn partition_data(p: &Partition) -> Result<Dataset, AppError> {
    let rows: Vec<(&[f64], usize)> = p
        .rows
        .iter()
        .zip(&p.labels)
        .map(|(r, &l)| (r.as_slice(), l))
        .collect();
    dataset(features::schema(), &rows)
}

/// The data set of several partitions, the material a feature more (last).
pub fn whole_data(parts: &[Partition]) -> Result<Dataset, AppError> {
    let mut schema = features::schema();
    let names: Vec<&str> = parts.iter().map(|p| p.material.as_str()).collect();
    schema.push(Feature::nominal("material", &names));
    let mut d = Dataset::new(Schema {
        features: schema,
        classes: CLASSES.iter().map(|c| c.to_string()).collect(),
    });
    let mut row = Vec::with_capacity(features::COUNT + 1);
    for (i, p) in parts.iter().enumerate() {
        for (r, &l) in p.rows.iter().zip(&p.labels) {
            row.clear();
            row.extend_from_slice(r);
            row.push(i as f64);
            d.push(&row, l).map_err(learn_error)?;
        }
    }
    Ok(d)
}

/// Grows, prunes and limits the trees of one data set.
fn learn(
    material: String,
    values: [u64; 3],
    data: &Dataset,
    req: &TreeRequest,
) -> Result<PartitionTrees, AppError> {
    let perfect = Tree::grow(data, GrowOptions::perfect()).map_err(learn_error)?;
    let pruned = perfect.pruned(req.confidence).map_err(learn_error)?;
    let limited = match req.limit {
        TreeLimit::Perfect => None,
        TreeLimit::Leaves(k) => Some(perfect.limit_leaves(k)),
        TreeLimit::Depth(d) => Some(perfect.cut_to_depth(d)),
    };
    Ok(PartitionTrees {
        material,
        positions: data.len() as u64,
        values,
        trade_off: perfect.trade_off(),
        perfect,
        pruned,
        limited,
        confidence: req.confidence,
    })
}

/// Reads the partitions `req` names from the tables of `set`.
pub fn partitions(set: &TableSet, req: &TreeRequest) -> Result<Vec<Partition>, AppError> {
    let (tb, _) = open(set, req)?;
    materials(&req.materials)?
        .into_iter()
        .map(|(w, b)| partition::partition(&tb, req.features, w, b))
        .collect()
}

/// The pieces asked are ones trees are made for.
fn check_pieces(set: &TableSet, req: &TreeRequest) -> Result<(), AppError> {
    if !matches!(req.pieces, 2 | 3) {
        return Err(AppError::Input(format!(
            "--pieces {}: decision trees are made from the 2-piece (jungle) and 3-piece (jungle, jungle-checkers) tables only",
            req.pieces
        )));
    }
    if req.pieces == 2 && set.game() != GameKind::Jungle {
        return Err(AppError::Input(format!(
            "2-piece decision trees are made for jungle only (their features use its rivers, traps and nine ranks), not {}; the 3-piece ones (--pieces 3) for jungle and jungle-checkers",
            set.game()
        )));
    }
    if req.pieces == 3 && !matches!(set.game(), GameKind::Jungle | GameKind::JungleCheckers) {
        return Err(AppError::Input(format!(
            "3-piece decision trees are made for jungle and jungle-checkers only, not {}",
            set.game()
        )));
    }
    check_options(req)
}

fn check_options(req: &TreeRequest) -> Result<(), AppError> {
    if !(req.confidence > 0.0 && req.confidence < 1.0) {
        return Err(learn_error(zoo_learn::LearnError::Confidence(
            req.confidence,
        )));
    }
    if matches!(req.limit, TreeLimit::Leaves(0)) {
        return Err(AppError::Input("--max-leaves must be at least 1".into()));
    }
    Ok(())
}

fn open(set: &TableSet, req: &TreeRequest) -> Result<(Tablebase<Jungle>, &'static str), AppError> {
    check_pieces(set, req)?;
    if req.pieces != 2 {
        return Err(AppError::Input(format!(
            "--pieces {}: the 2-piece partitions were asked of a {}-piece request",
            req.pieces, req.pieces
        )));
    }
    let rules = match set.rules_name() {
        Some(n) => zoo_animal::board::by_name::<Jungle>(n)?,
        None => Jungle::rule_sets()[0],
    };
    Ok((Tablebase::<Jungle>::open(set.dir(), rules), rules.name))
}

/// The trees of every partition `req` names, `progress` told of each as
/// it is done, then the tree of them all.
pub fn trees(
    set: &TableSet,
    req: &TreeRequest,
    progress: &mut dyn FnMut(&PartitionTrees),
) -> Result<TreeReport, AppError> {
    check_pieces(set, req)?;
    if req.pieces == 3 {
        return match set.game() {
            GameKind::JungleCheckers => trees3::<JungleCheckers>(set, req, progress),
            _ => trees3::<Jungle>(set, req, progress),
        };
    }
    let (tb, rules) = open(set, req)?;
    let mut parts = Vec::new();
    let mut done = Vec::new();
    for (w, b) in materials(&req.materials)? {
        let p = partition::partition(&tb, req.features, w, b)?;
        let t = learn(p.material.clone(), p.values(), &partition_data(&p)?, req)?;
        progress(&t);
        done.push(t);
        parts.push(p);
    }
    let whole = if req.whole && parts.len() > 1 {
        let mut values = [0u64; 3];
        for p in &parts {
            for (v, x) in values.iter_mut().zip(p.values()) {
                *v += x;
            }
        }
        Some(learn("all".into(), values, &whole_data(&parts)?, req)?)
    } else {
        None
    };
    Ok(TreeReport {
        game: Jungle::GAME,
        rules,
        pieces: req.pieces,
        features: req.features,
        partitions: done,
        whole,
        whole_skipped: None,
    })
}

/// The 3-piece materials named (`CLvr`, `Rvte`), every one with both sides
/// present when none is.
pub fn materials3<B: Board>(names: &[String]) -> Result<Vec<Material>, AppError> {
    if names.is_empty() {
        return Ok(Material::all::<B>(3));
    }
    let mut out = Vec::new();
    for name in names {
        let canonical = match name.split_once(['v', 'V']) {
            Some((w, b)) => format!("{}v{}", w.to_ascii_uppercase(), b.to_ascii_lowercase()),
            None => name.clone(),
        };
        let m = Material::parse::<B>(&canonical)
            .filter(|m| m.pieces() == 3 && m.white != 0 && m.black != 0)
            .ok_or_else(|| {
                AppError::Input(format!(
                    "--material {name}: not a 3-piece {} material; give White's letters, `v`, Black's, two on one side and one on the other, as RTvd or Rvte (letters {})",
                    B::GAME,
                    std::str::from_utf8(B::LETTERS).unwrap_or("?")
                ))
            })?;
        if !out.contains(&m) {
            out.push(m);
        }
    }
    Ok(out)
}

/// Opens the tables of `set` on board `B`.
fn open_on<B: Board>(set: &TableSet) -> Result<Tablebase<B>, AppError> {
    let rules = match set.rules_name() {
        Some(n) => zoo_animal::board::by_name::<B>(n)?,
        None => B::rule_sets()[0],
    };
    Ok(Tablebase::<B>::open(set.dir(), rules))
}

/// The data sets of the 3-piece partitions `req` names.
pub fn partitions3<B: Board>(
    set: &TableSet,
    req: &TreeRequest,
) -> Result<Vec<three::Partition3>, AppError> {
    check_pieces(set, req)?;
    let tb = open_on::<B>(set)?;
    materials3::<B>(&req.materials)?
        .into_iter()
        .map(|m| three::partition(&tb, m))
        .collect()
}

/// [`trees`] of the 3-piece partitions on board `B`.
fn trees3<B: Board>(
    set: &TableSet,
    req: &TreeRequest,
    progress: &mut dyn FnMut(&PartitionTrees),
) -> Result<TreeReport, AppError> {
    let tb = open_on::<B>(set)?;
    let materials = materials3::<B>(&req.materials)?;
    let mut done = Vec::new();
    // The partitions' rows, kept for the whole tree while they fit.
    let mut kept: Option<Vec<three::Partition3>> = Some(Vec::new());
    let mut total = 0u64;
    for m in &materials {
        let p = three::partition(&tb, *m)?;
        let t = learn(p.material.clone(), p.values, &p.data, req)?;
        progress(&t);
        done.push(t);
        total += p.data.len() as u64;
        if total > WHOLE_LIMIT {
            kept = None;
        }
        if let Some(k) = &mut kept {
            k.push(p);
        }
    }
    let mut whole_skipped = None;
    let whole = match kept {
        Some(parts) if req.whole && parts.len() > 1 => {
            let mut data = Dataset::new(three::dataset_schema());
            let mut values = [0u64; 3];
            for p in &parts {
                for i in 0..p.data.len() {
                    data.push(p.data.row(i), p.data.label(i))
                        .map_err(learn_error)?;
                }
                for (v, x) in values.iter_mut().zip(p.values) {
                    *v += x;
                }
            }
            Some(learn("all".into(), values, &data, req)?)
        }
        None if req.whole => {
            whole_skipped = Some(format!(
                "no tree of all the partitions: {total} positions, more than the {WHOLE_LIMIT} the learner is given at once; name fewer with --material"
            ));
            None
        }
        _ => None,
    };
    Ok(TreeReport {
        game: B::GAME,
        rules: tb.rules().name,
        pieces: 3,
        features: req.features,
        partitions: done,
        whole,
        whole_skipped,
    })
}
