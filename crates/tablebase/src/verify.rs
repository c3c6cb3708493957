//! A check of any game's table by forward value iteration, written with
//! nothing but the forward rules (`Game`) and the scheme's entries
//! ([`TableScheme`]): no unmove, no generator code.
//!
//! Every entry's position is decoded, its moves are generated and played,
//! and each child is either finished (its result), in another table (its
//! value read from that table, which its own check vouches for: checking
//! every table this way, the smallest first, checks them all by induction
//! on their size), or in this table (an entry whose value the iteration
//! finds). Then level by level of distance `k = 0, 1, 2, …`: an entry not
//! yet decided is a win at `k` when a child is lost at exactly `k − 1`, a
//! loss at `k` when every child is won, all in less than `k` and one in
//! `k − 1`; an entry with no move takes the game's result for that
//! ([`Game::no_moves_outcome`]) at 0. Once a level decides nothing and no
//! child from outside is still to come, every undecided entry is a draw.
//! The values found are compared with the table's, entry by entry.
//!
//! It keeps every entry's children in memory (16 bytes a move): it is
//! meant for the tables of a new game and for tests, not for the largest
//! tables of the animal games, which have a verifier of their own.

use crate::tablebase::Tablebase;
use crate::TbError;
use rayon::prelude::*;
use zoo_core::{Game, MoveList, Outcome, TableScheme};

/// A value as the iteration keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    Unknown,
    Known(Outcome, u16),
}

/// A child of an entry: outside this table with its value, or an entry of
/// this table (its place in the iteration's array of both sides).
#[derive(Clone, Copy, Debug)]
enum Child {
    Outside(Outcome, u16),
    Inside(u64),
}

/// Entries whose children one task generates.
const CHUNK: u64 = 4096;

/// The children of a run of entries: how many each has, all of them in
/// order, and what having no move gives an entry that has none.
#[derive(Default)]
struct Chunk {
    counts: Vec<u32>,
    children: Vec<Child>,
    no_moves: Vec<Option<Outcome>>,
}

/// An entry whose table value is not the one the iteration found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Stored side.
    pub side: usize,
    /// Entry.
    pub entry: u64,
    /// What the table says (side to move's outcome, distance in plies).
    pub table: (Outcome, u16),
    /// What forward iteration found.
    pub found: (Outcome, u16),
}

/// The check of one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Entries compared (all stored sides).
    pub entries: u64,
    /// How many disagree.
    pub wrong: u64,
    /// The first few that disagree, in entry order.
    pub examples: Vec<Disagreement>,
    /// The levels of distance the iteration went through.
    pub levels: u32,
}

/// How many disagreements a report lists.
const EXAMPLES: usize = 8;

/// Checks the table of stored material `m` against forward value
/// iteration; the tables it captures into must be in `tb` (they are read,
/// not checked).
pub fn verify_table<S: TableScheme>(tb: &Tablebase<S>, m: S::Material) -> Result<Report, TbError> {
    let scheme = tb.scheme();
    let sides = S::stored_sides(m);
    let size = scheme.size(m);
    let total = size * sides as u64;
    // Children of every entry, both sides in one array (side s entry e is
    // place s * size + e), kept flat: entry i's are `flat[at[i]..at[i + 1]]`.
    let chunks: Vec<Result<Chunk, TbError>> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut chunk = Chunk::default();
            for place in c * CHUNK..((c + 1) * CHUNK).min(total) {
                let (side, entry) = ((place / size) as usize, place % size);
                let pos = scheme.position(m, side, entry);
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                chunk.counts.push(moves.len() as u32);
                chunk
                    .no_moves
                    .push(moves.is_empty().then(|| pos.no_moves_outcome()));
                let mut p = pos.clone();
                for mv in moves {
                    let u = p.make(mv);
                    let child = match p.terminal() {
                        Some(o) => Child::Outside(o, 0),
                        None => {
                            let at = scheme.locate(&p);
                            if at.material == m {
                                Child::Inside(at.side as u64 * size + at.entry)
                            } else {
                                let (o, d) = tb.lookup(&p)?;
                                Child::Outside(o, d)
                            }
                        }
                    };
                    p.unmake(mv, u);
                    chunk.children.push(child);
                }
            }
            Ok(chunk)
        })
        .collect();
    let mut at = Vec::with_capacity(total as usize + 1);
    at.push(0usize);
    let mut children = Vec::new();
    let mut no_moves = Vec::with_capacity(total as usize);
    for c in chunks {
        let c = c?;
        for n in c.counts {
            at.push(at.last().expect("starts with 0") + n as usize);
        }
        children.extend(c.children);
        no_moves.extend(c.no_moves);
    }
    let last_outside = children
        .iter()
        .filter_map(|c| match c {
            Child::Outside(_, d) => Some(*d as u32),
            Child::Inside(_) => None,
        })
        .max()
        .unwrap_or(0);
    let mut vals: Vec<V> = no_moves
        .iter()
        .map(|n| match n {
            Some(o) if *o != Outcome::Draw => V::Known(*o, 0),
            Some(_) => V::Known(Outcome::Draw, 0),
            None => V::Unknown,
        })
        .collect();
    let mut k = 1u32;
    loop {
        let level = k as u16;
        let decided: Vec<(usize, V)> = (0..vals.len())
            .into_par_iter()
            .filter(|&i| vals[i] == V::Unknown)
            .filter_map(|i| {
                let value = |c: &Child| match *c {
                    Child::Outside(o, d) => V::Known(o, d),
                    Child::Inside(j) => vals[j as usize],
                };
                let mut all_won = true;
                let mut longest = 0;
                for c in &children[at[i]..at[i + 1]] {
                    match value(c) {
                        V::Known(Outcome::Loss, d) if d + 1 == level => {
                            return Some((i, V::Known(Outcome::Win, level)));
                        }
                        V::Known(Outcome::Win, d) if d < level => longest = longest.max(d),
                        _ => all_won = false,
                    }
                }
                (all_won && longest + 1 == level).then_some((i, V::Known(Outcome::Loss, level)))
            })
            .collect();
        for &(i, v) in &decided {
            vals[i] = v;
        }
        if decided.is_empty() && k > last_outside {
            break;
        }
        k += 1;
    }
    let mut report = Report {
        entries: total,
        wrong: 0,
        examples: Vec::new(),
        levels: k,
    };
    for side in 0..sides {
        tb.read_values(m, side, |entry, table| {
            let found = match vals[side * size as usize + entry as usize] {
                V::Known(o, d) => (o, d),
                V::Unknown => (Outcome::Draw, 0),
            };
            if found != table {
                report.wrong += 1;
                if report.examples.len() < EXAMPLES {
                    report.examples.push(Disagreement {
                        side,
                        entry,
                        table,
                        found,
                    });
                }
            }
        })?;
    }
    Ok(report)
}
