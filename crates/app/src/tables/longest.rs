//! The longest wins and losses the tables of one size hold: the hardest
//! positions a proof search is measured on (`zoo experiment decide`,
//! docs/solve.md, "Samples of the tables").

use crate::{AppError, AppGame};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;
use zoo_core::{Outcome, TableScheme};
use zoo_tb::Tablebase;

/// The positions of the longest wins and of the longest losses for the
/// side to move, longest first, each with its distance in plies.
pub struct Longest<G> {
    /// Won for the side to move.
    pub wins: Vec<(G, u16)>,
    /// Lost for the side to move.
    pub losses: Vec<(G, u16)>,
}

/// The `count` longest wins and losses of every table of exactly
/// `pieces` pieces in `tb`, both sides to move. Ties go to the later
/// table, side and entry, so the same tables give the same positions.
pub fn longest_in<S: TableScheme>(
    tb: &Tablebase<S>,
    pieces: u32,
    count: usize,
) -> Result<Longest<S::Pos>, AppError> {
    // Min-heaps of (distance, table, side, entry): the shortest kept is
    // the first to go.
    type Heap = BinaryHeap<Reverse<(u16, usize, usize, u64)>>;
    let mut heaps: [Heap; 2] = [BinaryHeap::new(), BinaryHeap::new()];
    let materials = tb.scheme().stored(pieces);
    for (k, &m) in materials.iter().enumerate() {
        for side in 0..S::stored_sides(m) {
            tb.read_values(m, side, |x, (o, d)| {
                let h = match o {
                    Outcome::Win => &mut heaps[0],
                    Outcome::Loss => &mut heaps[1],
                    Outcome::Draw => return,
                };
                if h.len() < count {
                    h.push(Reverse((d, k, side, x)));
                } else if h
                    .peek()
                    .is_some_and(|Reverse(least)| (d, k, side, x) > *least)
                {
                    h.pop();
                    h.push(Reverse((d, k, side, x)));
                }
            })?;
        }
    }
    let [wins, losses] = heaps.map(|h| {
        let mut v: Vec<_> = h.into_iter().map(|Reverse(e)| e).collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v.into_iter()
            .map(|(d, k, side, x)| (tb.scheme().position(materials[k], side, x), d))
            .collect()
    });
    Ok(Longest { wins, losses })
}

/// [`longest_in`] for game `G`'s tables under `dir` and `rules`.
pub fn longest<G: AppGame>(
    dir: &Path,
    rules: &G::Rules,
    pieces: u32,
    count: usize,
) -> Result<Longest<G>, AppError> {
    let tb = Tablebase::<G::Scheme>::open(dir, rules.clone());
    longest_in(&tb, pieces, count)
}
