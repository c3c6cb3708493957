//! Growing a tree top-down as C4.5 does: at each node the test of best
//! gain ratio among those of at least average gain.

use crate::data::Kind;
use crate::tree::{Node, Split, Test, Tree};
use crate::{Dataset, LearnError};

/// How a tree is grown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrowOptions {
    /// A test is only admissible when at least two of its branches get
    /// this many rows (C4.5's `-m`, 2 by default). 1 grows the tree until
    /// every leaf is pure or its rows cannot be told apart.
    pub min_leaf: usize,
}

impl Default for GrowOptions {
    fn default() -> Self {
        GrowOptions { min_leaf: 2 }
    }
}

impl GrowOptions {
    /// Splits until every leaf is pure (or holds rows no test separates).
    pub fn perfect() -> GrowOptions {
        GrowOptions { min_leaf: 1 }
    }
}

/// Entropy in bits of a class distribution.
pub(crate) fn info(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// A candidate test with its gain and split information.
struct Candidate {
    feature: usize,
    test: Test,
    gain: f64,
    split_info: f64,
}

/// Gains below this are taken as none (floating-point noise).
const EPS: f64 = 1e-10;

struct Grower<'a> {
    data: &'a Dataset,
    opts: GrowOptions,
    classes: usize,
}

impl Tree {
    /// Grows a tree on `data` (unpruned: see [`Tree::pruned`]).
    pub fn grow(data: &Dataset, opts: GrowOptions) -> Result<Tree, LearnError> {
        if data.is_empty() {
            return Err(LearnError::Empty);
        }
        let g = Grower {
            data,
            opts: GrowOptions {
                min_leaf: opts.min_leaf.max(1),
            },
            classes: data.schema().classes.len(),
        };
        let mut rows: Vec<u32> = (0..data.len() as u32).collect();
        Ok(Tree {
            schema: data.schema().clone(),
            root: g.node(&mut rows),
        })
    }
}

impl Grower<'_> {
    fn counts(&self, rows: &[u32]) -> Vec<u64> {
        let mut c = vec![0u64; self.classes];
        for &r in rows {
            c[self.data.label(r as usize)] += 1;
        }
        c
    }

    fn node(&self, rows: &mut [u32]) -> Node {
        let counts = self.counts(rows);
        if counts.iter().filter(|&&c| c > 0).count() <= 1 {
            return Node::leaf(counts);
        }
        let Some(best) = self.choose(rows, &counts) else {
            let mut leaf = Node::leaf(counts);
            leaf.conflict = self.all_equal(rows);
            return leaf;
        };
        let children = self
            .partition(rows, &best)
            .into_iter()
            .map(|mut part| self.node(&mut part))
            .collect();
        Node {
            counts,
            split: Some(Split {
                feature: best.feature,
                test: best.test,
                children,
            }),
            conflict: false,
        }
    }

    /// Whether every row has the same values.
    fn all_equal(&self, rows: &[u32]) -> bool {
        let first = self.data.row(rows[0] as usize);
        rows.iter().all(|&r| self.data.row(r as usize) == first)
    }

    /// C4.5's choice: of the admissible tests with positive gain, those
    /// of at least average gain, the one of best gain ratio. With no gain
    /// anywhere but rows still mixed (an exclusive-or of features), the
    /// admissible test of the widest split, so that growth goes on until
    /// leaves are pure.
    fn choose(&self, rows: &mut [u32], counts: &[u64]) -> Option<Candidate> {
        let base = info(counts);
        let mut cands: Vec<Candidate> = (0..self.data.schema().features.len())
            .filter_map(|f| self.best_test(f, rows, base))
            .collect();
        let gaining: Vec<&Candidate> = cands.iter().filter(|c| c.gain > EPS).collect();
        if gaining.is_empty() {
            let i = (0..cands.len()).max_by(|&a, &b| {
                cands[a]
                    .split_info
                    .total_cmp(&cands[b].split_info)
                    .then(b.cmp(&a))
            })?;
            return Some(cands.swap_remove(i));
        }
        let avg = gaining.iter().map(|c| c.gain).sum::<f64>() / gaining.len() as f64;
        let mut best: Option<usize> = None;
        for (i, c) in cands.iter().enumerate() {
            if c.gain <= EPS || c.gain < avg - EPS {
                continue;
            }
            let ratio = c.gain / c.split_info.max(EPS);
            if best.is_none_or(|b| {
                let o = &cands[b];
                ratio > o.gain / o.split_info.max(EPS) + EPS
            }) {
                best = Some(i);
            }
        }
        best.map(|i| cands.swap_remove(i))
    }

    /// The best admissible test on feature `f` at this node, if any.
    fn best_test(&self, f: usize, rows: &mut [u32], base: f64) -> Option<Candidate> {
        let n = rows.len() as f64;
        let m = self.opts.min_leaf as u64;
        match &self.data.schema().features[f].kind {
            Kind::Nominal(names) => {
                let mut by_value = vec![vec![0u64; self.classes]; names.len()];
                for &r in rows.iter() {
                    let r = r as usize;
                    by_value[self.data.value(r, f) as usize][self.data.label(r)] += 1;
                }
                let sizes: Vec<u64> = by_value.iter().map(|c| c.iter().sum()).collect();
                if sizes.iter().filter(|&&s| s >= m).count() < 2 {
                    return None;
                }
                let mut rest = 0.0;
                let mut split_info = 0.0;
                let mut values = Vec::new();
                for (v, c) in by_value.iter().enumerate() {
                    if sizes[v] == 0 {
                        continue;
                    }
                    values.push(v as u32);
                    let p = sizes[v] as f64 / n;
                    rest += p * info(c);
                    split_info -= p * p.log2();
                }
                Some(Candidate {
                    feature: f,
                    test: Test::Nominal(values),
                    gain: base - rest,
                    split_info,
                })
            }
            Kind::Numeric => {
                rows.sort_unstable_by(|&a, &b| {
                    self.data
                        .value(a as usize, f)
                        .total_cmp(&self.data.value(b as usize, f))
                });
                let total = self.counts(rows);
                let mut left = vec![0u64; self.classes];
                let mut right = total.clone();
                let mut best: Option<(f64, f64, f64)> = None; // gain, threshold, left share
                for i in 0..rows.len() - 1 {
                    let r = rows[i] as usize;
                    let c = self.data.label(r);
                    left[c] += 1;
                    right[c] -= 1;
                    let v = self.data.value(r, f);
                    let next = self.data.value(rows[i + 1] as usize, f);
                    let nl = (i + 1) as u64;
                    if v == next || nl < m || (rows.len() as u64 - nl) < m {
                        continue;
                    }
                    let pl = nl as f64 / n;
                    let gain = base - pl * info(&left) - (1.0 - pl) * info(&right);
                    if best.is_none_or(|b| gain > b.0 + EPS) {
                        best = Some((gain, v, pl));
                    }
                }
                let (gain, t, pl) = best?;
                Some(Candidate {
                    feature: f,
                    test: Test::Threshold(t),
                    gain,
                    split_info: -pl * pl.log2() - (1.0 - pl) * (1.0 - pl).log2(),
                })
            }
        }
    }

    /// The rows of each branch of `c`.
    fn partition(&self, rows: &[u32], c: &Candidate) -> Vec<Vec<u32>> {
        match &c.test {
            Test::Nominal(values) => {
                let mut parts = vec![Vec::new(); values.len()];
                for &r in rows {
                    let v = self.data.value(r as usize, c.feature) as u32;
                    let i = values.iter().position(|&x| x == v).expect("a value seen");
                    parts[i].push(r);
                }
                parts
            }
            Test::Threshold(t) => {
                let (le, gt) = rows
                    .iter()
                    .partition(|&&r| self.data.value(r as usize, c.feature) <= *t);
                vec![le, gt]
            }
        }
    }
}
