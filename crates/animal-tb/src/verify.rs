//! An independent check of the tables: exhaustive forward solving.
//!
//! Nothing of the generator is reused: no unmoves, no dense index, no
//! mirror, no colour swap, no table file. Positions of a material are
//! enumerated square by square and addressed by a plain base-64 number;
//! children come from the forward move generator (`Game::legal_moves`,
//! `make`, `terminal`), and each position's parents are those children
//! lists inverted, so the predecessors are never generated. Values are
//! then found depth by depth: a position is a win in k plies when a move
//! reaches a position lost in k-1, and a loss in k when every move reaches
//! a position won in less than k, the longest in k-1. Whatever no depth
//! decides is a draw (no side can force a result). Materials are done
//! smallest first, since captures lead to smaller ones; those values are
//! the verifier's own too.

use crate::index::Material;
use crate::Tablebase;
use rayon::prelude::*;
use std::collections::HashMap;
use zoo_animal::board::bit;
use zoo_animal::{Board, Position, RuleSet};
use zoo_core::{Game, MoveList, Outcome, Side, TableScheme};

/// The verifier's own values: per side to move, 0 draw or distance + 1.
struct Values {
    pieces: Vec<(Side, usize)>,
    vals: [Vec<u8>; 2],
}

fn pieces_of<B: Board>(m: Material) -> Vec<(Side, usize)> {
    let mut v = Vec::new();
    for (side, mask) in [(Side::White, m.white), (Side::Black, m.black)] {
        for k in 0..B::KINDS {
            if mask & (1 << k) != 0 {
                v.push((side, k));
            }
        }
    }
    v
}

/// The first piece is the most significant digit, as in the order
/// `for_each_placement` visits: a move of one of the last pieces then lands
/// near its parent in memory.
fn raw_index<B: Board>(pieces: &[(Side, usize)], pos: &Position<B>) -> usize {
    let mut r = 0usize;
    for &(side, kind) in pieces {
        r = r * 64 + pos.square_of(side, kind).expect("material matches") as usize;
    }
    r
}

/// Visits every legal placement (no piece on a den, only rats in the
/// water) in one fixed order, White to move, as one position changed in
/// place: nothing is collected, since a large material has millions.
fn for_each_placement<B: Board>(
    pieces: &[(Side, usize)],
    rules: &'static RuleSet,
    f: &mut impl FnMut(&mut Position<B>),
) {
    fn rec<B: Board>(
        pieces: &[(Side, usize)],
        i: usize,
        pos: &mut Position<B>,
        f: &mut impl FnMut(&mut Position<B>),
    ) {
        if i == pieces.len() {
            f(pos);
            return;
        }
        let (side, kind) = pieces[i];
        for s in 0..B::SQUARES {
            if s == B::DEN[0] || s == B::DEN[1] || pos.piece_at(s).is_some() {
                continue;
            }
            if kind != 0 && B::WATER & bit(s) != 0 {
                continue;
            }
            pos.put(side, kind, s);
            rec(pieces, i + 1, pos, f);
            pos.remove(side, kind, s);
        }
    }
    rec(pieces, 0, &mut Position::<B>::empty(rules), f);
}

/// One side to move's positions of a material: what their moves lead to.
/// Node `i` is the `i`-th placement `for_each_placement` visits, with this
/// side to move.
struct Side1 {
    /// No legal move.
    stalemate: Vec<bool>,
    /// Shortest win through a capture or an immediate win (`u16::MAX`: none).
    ext_win: Vec<u16>,
    /// A capture reaches a draw (or a loss for the opponent): never lost.
    ext_not_lost: Vec<bool>,
    /// Longest loss through captures (all of which lose).
    ext_loss: Vec<u16>,
    /// Moves inside the material not yet known to lose (counted down).
    open_moves: Vec<u16>,
}

impl Side1 {
    fn new(count: usize) -> Side1 {
        Side1 {
            stalemate: vec![false; count],
            ext_win: vec![u16::MAX; count],
            ext_not_lost: vec![false; count],
            ext_loss: vec![0; count],
            open_moves: vec![0; count],
        }
    }
}

fn value_of(v: u8) -> (Outcome, u16) {
    if v == 0 {
        (Outcome::Draw, 0)
    } else if (v - 1) % 2 == 1 {
        (Outcome::Win, v as u16 - 1)
    } else {
        (Outcome::Loss, v as u16 - 1)
    }
}

/// Parents lists, compressed: the parents of node `j` are
/// `parents[start[j]..start[j + 1]]`.
struct Parents {
    start: Vec<usize>,
    parents: Vec<u32>,
}

impl Parents {
    /// Inverts children lists (`kids[off[i]..off[i + 1]]` of node `i`) over
    /// `nodes` nodes on the other side.
    fn invert(nodes: usize, off: &[usize], kids: &[u32]) -> Parents {
        let mut start = vec![0usize; nodes + 1];
        for &c in kids {
            start[c as usize + 1] += 1;
        }
        for j in 0..nodes {
            start[j + 1] += start[j];
        }
        let mut fill = start.clone();
        let mut parents = vec![0u32; kids.len()];
        for i in 0..off.len() - 1 {
            for &c in &kids[off[i]..off[i + 1]] {
                parents[fill[c as usize]] = i as u32;
                fill[c as usize] += 1;
            }
        }
        Parents { start, parents }
    }

    fn of(&self, j: usize) -> &[u32] {
        &self.parents[self.start[j]..self.start[j + 1]]
    }
}

fn solve<B: Board>(
    m: Material,
    rules: &'static RuleSet,
    smaller: &HashMap<Material, Values>,
) -> Values {
    let pieces = pieces_of::<B>(m);
    let n = 1usize << (6 * pieces.len());
    // Node i is the i-th placement, raws[i] its raw index; the placements
    // are the same for both sides to move.
    let mut node_of = vec![u32::MAX; n];
    let mut raws: Vec<usize> = Vec::new();
    for_each_placement::<B>(&pieces, rules, &mut |pos| {
        let raw = raw_index(&pieces, pos);
        node_of[raw] = raws.len() as u32;
        raws.push(raw);
    });
    let count = raws.len();
    let mut sides = [Side1::new(count), Side1::new(count)];
    // Side s's moves: node i's children are kids[s][off[s][i]..off[s][i + 1]].
    let mut off = [vec![0usize], vec![0usize]];
    let mut kids: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut list = MoveList::new();
    let mut i = 0;
    for_each_placement::<B>(&pieces, rules, &mut |pos| {
        for (side, stm) in [Side::White, Side::Black].into_iter().enumerate() {
            let (s1, kids) = (&mut sides[side], &mut kids[side]);
            pos.set_side_to_move(stm);
            list.clear();
            pos.legal_moves(&mut list);
            s1.stalemate[i] = list.is_empty();
            for &mv in list.iter() {
                let u = pos.make(mv);
                if let Some(o) = pos.terminal() {
                    // The game ended with this move (den or last piece).
                    assert_eq!(
                        o,
                        Outcome::Loss,
                        "a move ends the game only as a win for the mover"
                    );
                    s1.ext_win[i] = 1;
                    s1.ext_not_lost[i] = true;
                } else {
                    let cm = Material::of(pos);
                    if cm == m {
                        kids.push(node_of[raw_index(&pieces, pos)]);
                    } else {
                        let sub = &smaller[&cm];
                        let v = sub.vals[1 - side][raw_index(&sub.pieces, pos)];
                        match value_of(v) {
                            (Outcome::Loss, d) => {
                                s1.ext_win[i] = s1.ext_win[i].min(d + 1);
                                s1.ext_not_lost[i] = true;
                            }
                            (Outcome::Draw, _) => s1.ext_not_lost[i] = true,
                            (Outcome::Win, d) => s1.ext_loss[i] = s1.ext_loss[i].max(d + 1),
                        }
                    }
                }
                pos.unmake(mv, u);
            }
            s1.open_moves[i] = (kids.len() - off[side][i]) as u16;
            off[side].push(kids.len());
        }
        pos.set_side_to_move(Side::White);
        i += 1;
    });
    drop(node_of);
    // The parents of side s's nodes are the other side's nodes whose
    // moves reach them.
    let parents = [
        Parents::invert(count, &off[1], &kids[1]),
        Parents::invert(count, &off[0], &kids[0]),
    ];
    drop((off, kids));

    // Retrograde propagation over the forward graph, depth by depth. A node
    // is decided at depth k (value k + 1; odd k a win, even k a loss) when
    // a move reaches a loss at k - 1 or an immediate or captured win of
    // k, or when every move is known to reach a win, the longest at k - 1.
    // Whatever is never decided is a draw (no side can force a result).
    const DEPTHS: usize = 255;
    fn schedule(due: &mut [Vec<(u8, u32)>], k: usize, side: usize, i: usize) {
        assert!(
            k < DEPTHS,
            "a distance beyond {} plies: the verifier keeps bytes",
            DEPTHS - 1
        );
        due[k].push((side as u8, i as u32));
    }
    // Per node until the end, then by raw index.
    let mut val = [vec![0u8; count], vec![0u8; count]];
    let mut due: Vec<Vec<(u8, u32)>> = vec![Vec::new(); DEPTHS];
    for (side, s1) in sides.iter().enumerate() {
        for i in 0..count {
            if s1.stalemate[i] {
                // A loss at once where a stalemated side loses; else a draw.
                if rules.stalemate_loses {
                    schedule(&mut due, 0, side, i);
                }
                continue;
            }
            if s1.ext_win[i] != u16::MAX {
                schedule(&mut due, s1.ext_win[i] as usize, side, i);
            }
            if s1.open_moves[i] == 0 && !s1.ext_not_lost[i] {
                schedule(&mut due, s1.ext_loss[i] as usize, side, i);
            }
        }
    }
    for k in 0..DEPTHS {
        let now = std::mem::take(&mut due[k]);
        for (side, i) in now {
            let (side, i) = (side as usize, i as usize);
            if val[side][i] != 0 {
                continue;
            }
            val[side][i] = k as u8 + 1;
            let other = 1 - side;
            for &p in parents[side].of(i) {
                let p = p as usize;
                if val[other][p] != 0 {
                    continue;
                }
                if k % 2 == 0 {
                    // This node is lost: its parents win at k + 1.
                    schedule(&mut due, k + 1, other, p);
                } else {
                    let sp = &mut sides[other];
                    sp.open_moves[p] -= 1;
                    if sp.open_moves[p] == 0 && !sp.ext_not_lost[p] {
                        let at = (k + 1).max(sp.ext_loss[p] as usize);
                        schedule(&mut due, at, other, p);
                    }
                }
            }
        }
    }
    let mut vals = [vec![0u8; n], vec![0u8; n]];
    for (i, &raw) in raws.iter().enumerate() {
        vals[0][raw] = val[0][i];
        vals[1][raw] = val[1][i];
    }
    Values { pieces, vals }
}

/// The outcome of a verification.
#[derive(Debug, Default)]
pub struct Report {
    pub materials: usize,
    pub positions: u64,
    /// The first disagreements (FEN, table value, verifier value).
    pub mismatches: Vec<String>,
    pub mismatch_count: u64,
}

/// Checks every position of every material with 2..=`pieces` pieces that
/// `keep(material)` selects (both sides to move) against the tables in `tb`.
/// The verifier still solves every smaller material itself.
pub fn verify<B: Board>(
    tb: &Tablebase<B>,
    pieces: u32,
    keep: &(dyn Fn(Material) -> bool + Sync),
) -> Report {
    verify_with_progress(tb, pieces, keep, &|_, _| {})
}

/// The share of the work of one material of `pieces` pieces: its
/// placements, `squares · (squares − 1) · …` (`pieces` factors), what
/// solving and checking it costs, up to the few squares a piece may not
/// take.
fn work_of(squares: u32, pieces: u32) -> f64 {
    (0..pieces)
        .map(|k| (squares - k.min(squares)) as f64)
        .product()
}

/// The units of `progress` in [`verify_with_progress`]: `done` of this.
pub const PROGRESS_UNITS: usize = 1_000_000;

/// [`verify`], calling `progress(done, total)` as each material is solved
/// (and checked where `keep` says): the share of the work done, in
/// millionths ([`PROGRESS_UNITS`]), each material weighted by its number of
/// placements, so that a time left estimated from the pace so far holds
/// (the largest materials come last and take most of the time).
pub fn verify_with_progress<B: Board>(
    tb: &Tablebase<B>,
    pieces: u32,
    keep: &(dyn Fn(Material) -> bool + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Report {
    let rules = tb.rules();
    let mut known: HashMap<Material, Values> = HashMap::new();
    let mut report = Report::default();
    let squares = B::SQUARES as u32;
    let total: f64 = (2..=pieces)
        .map(|n| {
            Material::all::<B>(n)
                .into_iter()
                .filter(|&m| n < pieces || keep(m))
                .count() as f64
                * work_of(squares, n)
        })
        .sum();
    let done = std::sync::Mutex::new(0.0f64);
    for n in 2..=pieces {
        // Below the top size every material is needed by the next size.
        let todo: Vec<Material> = Material::all::<B>(n)
            .into_iter()
            .filter(|&m| n < pieces || keep(m))
            .collect();
        let solved: Vec<(Material, Option<Values>, Report)> = todo
            .par_iter()
            .map(|&m| {
                let v = solve::<B>(m, rules, &known);
                let mut r = Report::default();
                if keep(m) {
                    check(tb, &v, &mut r);
                }
                let share = {
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    *d += work_of(squares, n);
                    *d / total.max(1.0)
                };
                progress(
                    ((share * PROGRESS_UNITS as f64) as usize).min(PROGRESS_UNITS),
                    PROGRESS_UNITS,
                );
                // The largest materials are not needed any more.
                (m, (n < pieces).then_some(v), r)
            })
            .collect();
        for (m, v, r) in solved {
            report.materials += r.materials;
            report.positions += r.positions;
            report.mismatch_count += r.mismatch_count;
            for s in r.mismatches {
                if report.mismatches.len() < 20 {
                    report.mismatches.push(s);
                }
            }
            if let Some(v) = v {
                known.insert(m, v);
            }
        }
    }
    report
}

/// Compares every position of one material, both sides to move, with the
/// tables. Each position is placed where a probe places it
/// (`TableScheme::locate`: the mirror and the colour swap included); the
/// stored sides it lands in are read whole, a block at a time, rather than
/// decompressing a block for every position.
fn check<B: Board>(tb: &Tablebase<B>, v: &Values, r: &mut Report) {
    type Read = Result<Vec<(Outcome, u16)>, String>;
    let mut read: Vec<((Material, usize), Read)> = Vec::new();
    r.materials += 1;
    for_each_placement::<B>(&v.pieces, tb.rules(), &mut |pos| {
        for (side, stm) in [Side::White, Side::Black].into_iter().enumerate() {
            pos.set_side_to_move(stm);
            let want = value_of(v.vals[side][raw_index(&v.pieces, pos)]);
            r.positions += 1;
            let got = match pos.terminal() {
                Some(o) => Ok((o, 0)),
                None => {
                    let at = tb.scheme().locate(pos);
                    let key = (at.material, at.side);
                    let k = match read.iter().position(|(k, _)| *k == key) {
                        Some(k) => k,
                        None => {
                            let mut vals = Vec::new();
                            let whole = tb
                                .read_values(at.material, at.side, |_, x| vals.push(x))
                                .map(|()| vals)
                                .map_err(|e| e.to_string());
                            read.push((key, whole));
                            read.len() - 1
                        }
                    };
                    read[k]
                        .1
                        .as_ref()
                        .map(|vals| vals[at.entry as usize])
                        .map_err(|e| e.clone())
                }
            };
            if got != Ok(want) {
                r.mismatch_count += 1;
                if r.mismatches.len() < 20 {
                    r.mismatches
                        .push(format!("{}: table {:?}, search {:?}", pos.fen(), got, want));
                }
            }
        }
        pos.set_side_to_move(Side::White);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{build, BuildOptions};
    use zoo_animal::JungleCheckers;

    /// The comparison is not vacuous: one value of the verifier's changed
    /// is one disagreement, named by its position.
    #[test]
    fn one_changed_value_is_one_disagreement() {
        let rules = JungleCheckers::rule_sets()[0];
        let dir = std::env::temp_dir().join(format!("zoo-verify-unit-{}", std::process::id()));
        let opts = BuildOptions {
            pieces: 2,
            threads: 1,
            memory_bytes: None,
            encoding: None,
            copies: true,
            checkpoint_from: None,
        };
        let plan = crate::plan::plan::<JungleCheckers>(&dir, rules, &opts).expect("a plan");
        let stop = std::sync::atomic::AtomicBool::new(false);
        build::<JungleCheckers>(&dir, rules, &opts, &plan, &|_| {}, &|_| {}, &stop).expect("build");
        let tb = Tablebase::<JungleCheckers>::open(&dir, rules);
        let m = Material::parse::<JungleCheckers>("Rvd").expect("a material");
        let mut v = solve::<JungleCheckers>(m, rules, &HashMap::new());
        let mut r = Report::default();
        check(&tb, &v, &mut r);
        assert_eq!((r.mismatch_count, r.positions), (0, 2 * 47 * 46));
        // White's rat on a1, Black's dog on g7, White to move.
        let raw = raw_index(
            &v.pieces,
            &Position::<JungleCheckers>::from_fen_str("6d/7/7/7/7/7/R6 w", rules).unwrap(),
        );
        v.vals[0][raw] = if v.vals[0][raw] == 0 { 1 } else { 0 };
        let mut r = Report::default();
        check(&tb, &v, &mut r);
        assert_eq!(r.mismatch_count, 1, "{:?}", r.mismatches);
        assert!(
            r.mismatches[0].starts_with("6d/7/7/7/7/7/R6 w"),
            "{:?}",
            r.mismatches
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
