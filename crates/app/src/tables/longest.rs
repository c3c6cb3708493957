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
/// `pieces` pieces in `tb` (or of the tables named in `only`, each one
/// of them), both sides to move. Ties go to the later table, side and
/// entry, so the same tables give the same positions.
pub fn longest_in<S: TableScheme>(
    tb: &Tablebase<S>,
    pieces: u32,
    count: usize,
    only: &[String],
) -> Result<Longest<S::Pos>, AppError> {
    // Min-heaps of (distance, table, side, entry): the shortest kept is
    // the first to go.
    type Heap = BinaryHeap<Reverse<(u16, usize, usize, u64)>>;
    let mut heaps: [Heap; 2] = [BinaryHeap::new(), BinaryHeap::new()];
    let mut materials = tb.scheme().stored(pieces);
    if !only.is_empty() {
        materials = stored_named(tb.scheme(), &materials, pieces, only)?;
        for &m in &materials {
            // A named table must be there even when no line is asked of
            // it: the sample's random positions are drawn from it.
            tb.table(m)?;
        }
    }
    for (k, &m) in materials.iter().enumerate().filter(|_| count > 0) {
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

/// The stored materials of `stored` (those of `pieces` pieces) named in
/// `names` (or whose table holds a named one's positions with the
/// colours swapped), in `stored`'s order; an error names one that is not
/// there (the wrong size, not a material, or none stored).
fn stored_named<S: TableScheme>(
    scheme: &S,
    stored: &[S::Material],
    pieces: u32,
    names: &[String],
) -> Result<Vec<S::Material>, AppError> {
    let mut wanted = Vec::new();
    for name in names {
        let m = scheme.parse(name).ok_or_else(|| {
            AppError::Option(format!("`{name}` is not a material of {}", scheme.game()))
        })?;
        if S::pieces(m) != pieces {
            return Err(AppError::Option(format!(
                "the material {name} has {} pieces, not {pieces}",
                S::pieces(m)
            )));
        }
        // A table not stored is stored with the colours swapped (the
        // animal games, where Black's material is White's mirrored).
        let swapped = name.split_once('v').and_then(|(w, b)| {
            scheme.parse(&format!(
                "{}v{}",
                b.to_ascii_uppercase(),
                w.to_ascii_lowercase()
            ))
        });
        let Some(m) = [Some(m), swapped]
            .into_iter()
            .flatten()
            .find(|m| stored.contains(m))
        else {
            return Err(AppError::Option(format!(
                "the material {name} has no table of its own, nor has it with the colours swapped"
            )));
        };
        wanted.push(m);
    }
    Ok(stored
        .iter()
        .copied()
        .filter(|m| wanted.contains(m))
        .collect())
}

/// [`longest_in`] for game `G`'s tables under `dir` and `rules`.
pub fn longest<G: AppGame>(
    dir: &Path,
    rules: &G::Rules,
    pieces: u32,
    count: usize,
    only: &[String],
) -> Result<Longest<G>, AppError> {
    let tb = Tablebase::<G::Scheme>::open(dir, rules.clone());
    longest_in(&tb, pieces, count, only)
}
