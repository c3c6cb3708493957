//! An independent check of the tables: exhaustive forward value iteration.
//!
//! Nothing of the generator is reused: no unmoves, no dense index, no
//! mirror, no colour swap, no table file. Positions of a material are
//! enumerated square by square and addressed by a plain base-64 number;
//! children come from the forward move generator (`Game::legal_moves`,
//! `make`, `terminal`). Values are found by depth-limited minimax done
//! breadth-first over all positions at once (Jacobi value iteration): at
//! depth k, a position is a win in k plies when a move reaches a position
//! known lost in k-1, and a loss in k when every move reaches a position
//! known won in less than k, the longest in k-1. Whatever no depth decides
//! is a draw (no side can force a result). Each position's moves are
//! generated once and kept as a list of children, so the k sweeps are array
//! look-ups. Materials are done smallest first, since captures lead to
//! smaller ones; those values are the verifier's own too.

use crate::index::Material;
use crate::Tablebase;
use rayon::prelude::*;
use std::collections::HashMap;
use zoo_animal::board::bit;
use zoo_animal::{Board, Position, RuleSet};
use zoo_core::{Game, MoveList, Outcome, Side};

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

fn raw_index<B: Board>(pieces: &[(Side, usize)], pos: &Position<B>) -> usize {
    let mut r = 0usize;
    for &(side, kind) in pieces.iter().rev() {
        r = r * 64 + pos.square_of(side, kind).expect("material matches") as usize;
    }
    r
}

/// Every legal placement: no piece on a den, only rats in the water.
fn placements<B: Board>(pieces: &[(Side, usize)], rules: &'static RuleSet) -> Vec<Position<B>> {
    fn rec<B: Board>(
        pieces: &[(Side, usize)],
        i: usize,
        pos: &mut Position<B>,
        out: &mut Vec<Position<B>>,
    ) {
        if i == pieces.len() {
            out.push(pos.clone());
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
            rec(pieces, i + 1, pos, out);
            pos.remove(side, kind, s);
        }
    }
    let mut out = Vec::new();
    rec(pieces, 0, &mut Position::<B>::empty(rules), &mut out);
    out
}

/// What one position's moves lead to.
#[derive(Default)]
struct Node {
    stalemate: bool,
    /// Shortest win through a capture or an immediate win (`u16::MAX`: none).
    ext_win: u16,
    /// A capture reaches a draw (or a loss for the opponent).
    ext_not_lost: bool,
    /// Longest loss through captures (all of which lose).
    ext_loss: u16,
    /// Raw indices of the children of this material (other side to move).
    inside: Vec<u32>,
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

fn solve<B: Board>(
    m: Material,
    rules: &'static RuleSet,
    smaller: &HashMap<Material, Values>,
) -> Values {
    let pieces = pieces_of::<B>(m);
    let n = 1usize << (6 * pieces.len());
    let mut nodes: [Vec<(usize, Node)>; 2] = [Vec::new(), Vec::new()];
    for (side, stm) in [Side::White, Side::Black].into_iter().enumerate() {
        for mut pos in placements::<B>(&pieces, rules) {
            pos.set_side_to_move(stm);
            let raw = raw_index(&pieces, &pos);
            let mut node = Node {
                ext_win: u16::MAX,
                ..Node::default()
            };
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            node.stalemate = list.is_empty();
            for mv in list {
                let u = pos.make(mv);
                if let Some(o) = pos.terminal() {
                    // The game ended with this move (den or last piece).
                    assert_eq!(
                        o,
                        Outcome::Loss,
                        "a move ends the game only as a win for the mover"
                    );
                    node.ext_win = 1;
                    node.ext_not_lost = true;
                } else {
                    let cm = Material::of(&pos);
                    if cm == m {
                        node.inside.push(raw_index(&pieces, &pos) as u32);
                    } else {
                        let sub = &smaller[&cm];
                        let v = sub.vals[1 - side][raw_index(&sub.pieces, &pos)];
                        match value_of(v) {
                            (Outcome::Loss, d) => {
                                node.ext_win = node.ext_win.min(d + 1);
                                node.ext_not_lost = true;
                            }
                            (Outcome::Draw, _) => node.ext_not_lost = true,
                            (Outcome::Win, d) => node.ext_loss = node.ext_loss.max(d + 1),
                        }
                    }
                }
                pos.unmake(mv, u);
            }
            nodes[side].push((raw, node));
        }
    }
    let mut vals = [vec![0u8; n], vec![0u8; n]];
    let mut open: [Vec<usize>; 2] = [(0..nodes[0].len()).collect(), (0..nodes[1].len()).collect()];
    let longest_ext = nodes
        .iter()
        .flatten()
        .map(|(_, nd)| {
            if nd.ext_win != u16::MAX {
                nd.ext_win.max(nd.ext_loss)
            } else {
                nd.ext_loss
            }
        })
        .max()
        .unwrap_or(0) as usize;
    let mut k = 0usize;
    loop {
        let mut decided: Vec<(usize, usize, u8)> = Vec::new();
        for side in 0..2 {
            open[side].retain(|&i| {
                let (raw, nd) = &nodes[side][i];
                let v = if nd.stalemate {
                    // Decided before any move, at k = 0: a loss at distance 0,
                    // or a draw that simply leaves the open list.
                    if rules.stalemate_loses {
                        Some(1)
                    } else {
                        return false;
                    }
                } else {
                    let mut win = nd.ext_win as usize <= k;
                    let mut all_won = !nd.ext_not_lost;
                    let mut longest = nd.ext_loss as usize;
                    for &c in &nd.inside {
                        match value_of(vals[1 - side][c as usize]) {
                            (Outcome::Loss, d) if (d as usize) < k => win = true,
                            (Outcome::Win, d) if (d as usize) < k => {
                                longest = longest.max(d as usize + 1)
                            }
                            _ => all_won = false,
                        }
                    }
                    // Decided at depth k either way; the parity of k tells which.
                    (win || (all_won && longest <= k)).then_some(k as u8 + 1)
                };
                match v {
                    Some(v) => {
                        decided.push((side, *raw, v));
                        false
                    }
                    None => true,
                }
            });
        }
        let none = decided.is_empty();
        for (side, raw, v) in decided {
            vals[side][raw] = v;
        }
        k += 1;
        if (none && k > longest_ext + 1) || k >= 255 {
            break;
        }
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

/// [`verify`], calling `progress(done, total)` as each material is solved
/// (and checked where `keep` says).
pub fn verify_with_progress<B: Board>(
    tb: &Tablebase<B>,
    pieces: u32,
    keep: &(dyn Fn(Material) -> bool + Sync),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Report {
    let rules = tb.rules();
    let mut known: HashMap<Material, Values> = HashMap::new();
    let mut report = Report::default();
    let total: usize = (2..=pieces)
        .map(|n| {
            Material::all::<B>(n)
                .into_iter()
                .filter(|&m| n < pieces || keep(m))
                .count()
        })
        .sum();
    let done = std::sync::atomic::AtomicUsize::new(0);
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
                progress(
                    done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                    total,
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

fn check<B: Board>(tb: &Tablebase<B>, v: &Values, r: &mut Report) {
    r.materials += 1;
    for (side, stm) in [Side::White, Side::Black].into_iter().enumerate() {
        for mut pos in placements::<B>(&v.pieces, tb.rules()) {
            pos.set_side_to_move(stm);
            let want = value_of(v.vals[side][raw_index(&v.pieces, &pos)]);
            r.positions += 1;
            let got = tb.try_probe(&pos).map_err(|e| e.to_string());
            if got.as_ref() != Ok(&want) {
                r.mismatch_count += 1;
                if r.mismatches.len() < 20 {
                    r.mismatches
                        .push(format!("{}: table {:?}, search {:?}", pos.fen(), got, want));
                }
            }
        }
    }
}
