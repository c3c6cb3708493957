//! The generator for any game with unmoves: retrograde analysis written
//! with nothing but [`zoo_core::Game`], [`Retro`] and a [`TableIndex`].
//!
//! It is the second generator of zoo, beside the animal one
//! ([`crate::generate`]), and exists for two reasons: a game that
//! implements [`Retro`] and an index has tables without writing a
//! generator, and the two must write the same tables, byte for byte
//! (`tests/it/retro.rs`), which checks the fast one's shortcuts (den doors,
//! counters, the odometer over the index, the bitboard move counts) by a
//! method that has none of them: the animal indexes fold mirror images,
//! and on an index that folds this generator keeps no counts (below).
//!
//! The method, level by level (level `c` is the value code `c`: distance
//! `c - 1` plies; wins have even codes, losses odd ones):
//!
//! 1. Every entry is evaluated once from the children the table does not
//!    hold: finished games ([`zoo_core::Game::terminal`]) and positions of other
//!    materials (the `outside` callback, for the tables already built).
//!    An entry with no move is a stalemate, decided at once by
//!    [`zoo_core::Game::no_moves_outcome`]. An entry that this decides (a move to a
//!    known loss; or every move to a known win) goes to the bucket of its
//!    level.
//! 2. Level by level, the undecided entries of the level's bucket take its
//!    value. Every position decided at the level is taken back through its
//!    unmoves, to each predecessor of this table and, where the index
//!    folds, its mirror image (which the index may fold into another
//!    entry). The predecessor of a loss is a win one level up; the
//!    predecessor of a win is a loss when all its moves lead to known
//!    wins, one level above the longest (found by looking at its moves
//!    again, or without a look by its count, below). Either goes to the bucket of its level,
//!    always above the current one, so entries are decided in order of
//!    distance: a win takes the nearest lost child, a loss the farthest
//!    won one.
//! 3. What is still undecided is a draw.
//!
//! An index that never folds a position with its mirror image
//! ([`TableIndex::folds`]) has each entry's moves into the table counted
//! in step 1, and a mark of its moves out of the table kept: the longest
//! win among them for the opponent, or that one is not such a win. A won
//! child then takes one from its predecessors' counts, and a predecessor
//! whose count reaches zero is lost without a look at its moves: the
//! child that took its last count is its longest win into the table (the
//! levels come in order), the mark gives the rest. With folding, a
//! symmetric predecessor may have two moves into one entry and hear of
//! them once, so such an index has every told predecessor looked at.
//! Step 1 counts a child the table holds ([`TableIndex::holds`]) without
//! ranking it: no value of the table is known yet.
//!
//! An evaluation reads the values only and the values change only between
//! evaluations, so both steps evaluate in parallel and set values on one
//! thread. On an index that folds, looking at a predecessor's moves again
//! (until the first that does not lead to a known win) costs more than
//! the fast generator's counter of undecided children; it needs no
//! per-game reasoning about which moves were counted, and that is the
//! point. On one that does not, the counts need only what
//! [`TableIndex::folds`] promises: one entry a position, and unmoves
//! that match the moves into the table one to one.

use crate::file::SideCounts;
use crate::TbError;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use zoo_core::memory::{try_vec, try_vec_with};
use zoo_core::{MoveList, Outcome, Retro, Side, TableIndex};

/// The largest value code: distances run up to 254 plies, as in the
/// tables' one byte per value.
const MAX_CODE: u16 = 255;

/// One configuration solved: per side to move, each entry's value code (0
/// a draw, else the distance + 1) and the counts of its header.
#[derive(Clone, Debug)]
pub struct Solved {
    /// `values[side][entry]`; side 0 is White to move.
    pub values: [Vec<u8>; 2],
    /// The counts of each side, as the file's header holds them.
    pub counts: [SideCounts; 2],
    /// Decided entries taken back through their unmoves.
    pub taken_back: u64,
    /// Predecessors a decided child decided (one may be found by several
    /// children on the same level).
    pub told: u64,
}

/// Values a position of another material: win, draw or loss for the side
/// to move and the distance in plies, from the tables already built.
pub type Outside<'a, G> = dyn Fn(&G) -> Result<(Outcome, u16), TbError> + Sync + 'a;

/// What an evaluation found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Not decided by the values known so far.
    Open,
    /// A draw for good (a stalemate that draws, a finished game drawn).
    Draw,
    /// Decided at this value code.
    Code(u16),
}

/// Entries evaluated together in step 1: a chunk keeps only the entries
/// it decided, so step 1 holds no more than the decided entries.
const CHUNK: u64 = 1 << 14;

/// Solves the table indexed by `index`. `outside(pos)` values a child of
/// another material (from the tables already built); `name` names the
/// configuration in errors.
pub fn solve<G, I>(index: &I, name: &str, outside: &Outside<'_, G>) -> Result<Solved, TbError>
where
    G: Retro,
    I: TableIndex<G>,
{
    solve_with(index, name, outside, &|_| {}, &AtomicBool::new(false))
}

/// [`solve`], telling `progress` of the work done (each entry twice: when
/// it is evaluated, and when it is decided or found drawn at the end: four
/// times [`TableIndex::size`] in all) and ending with
/// [`TbError::Interrupted`] at the next level once `stop` is set.
pub fn solve_with<G, I>(
    index: &I,
    name: &str,
    outside: &Outside<'_, G>,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Solved, TbError>
where
    G: Retro,
    I: TableIndex<G>,
{
    let size = index.size();
    let counted = !index.folds();
    let counters = |what| -> Result<Vec<AtomicU8>, TbError> {
        Ok(try_vec_with(
            if counted { size as usize } else { 0 },
            what,
            || AtomicU8::new(0),
        )?)
    };
    let mut s = Solver {
        index,
        name,
        outside,
        values: [
            try_vec(size as usize, "table's values", 0u8)?,
            try_vec(size as usize, "table's values", 0u8)?,
        ],
        open_moves: [
            counters("table's move counts")?,
            counters("table's move counts")?,
        ],
        marks: [
            try_vec_with(size as usize, "table's marks", || AtomicU8::new(0))?,
            try_vec_with(size as usize, "table's marks", || AtomicU8::new(0))?,
        ],
    };
    // Step 1.
    let first: Vec<Vec<(usize, u64, Verdict)>> = (0..2usize)
        .into_par_iter()
        .flat_map(|side| {
            (0..size.div_ceil(CHUNK))
                .into_par_iter()
                .map(move |c| (side, c))
        })
        .map(|(side, c)| {
            if stop.load(Ordering::Relaxed) {
                return Err(TbError::Interrupted);
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(size);
            let n = range.end - range.start;
            let mut kept = Vec::new();
            for x in range {
                let (v, mark, open) = s.eval(side, x)?;
                if counted {
                    // More than a byte holds: looked at each time, as
                    // without counts.
                    s.open_moves[side][x as usize]
                        .store(open.min(UNCOUNTED as usize) as u8, Ordering::Relaxed);
                }
                s.marks[side][x as usize].store(mark, Ordering::Relaxed);
                if let Verdict::Code(_) = v {
                    kept.push((side, x, v));
                }
            }
            progress(n);
            Ok(kept)
        })
        .collect::<Result<_, _>>()?;
    // Each level's entries, packed as `side << 63 | entry` so that they
    // sort as one word.
    let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); MAX_CODE as usize + 1];
    for &(side, x, v) in first.iter().flatten() {
        if let Verdict::Code(c) = v {
            buckets[c as usize].push(pack(side, x));
        }
    }
    drop(first);
    // Step 2.
    let (mut taken_back, mut told) = (0u64, 0u64);
    for level in 1..=MAX_CODE as usize {
        if stop.load(Ordering::Relaxed) {
            return Err(TbError::Interrupted);
        }
        let mut decided = std::mem::take(&mut buckets[level]);
        // Sorted so that the values, and the predecessors' values and
        // counts, are then read in order of entry rather than at random;
        // an entry told twice is kept once, its value set at the first.
        decided.par_sort_unstable();
        let values = &mut s.values;
        decided.retain(|&e| {
            let (side, x) = unpack(e);
            let v = &mut values[side][x as usize];
            let open = *v == 0;
            if open {
                *v = level as u8;
            }
            open
        });
        let next: Vec<(usize, u64, u16)> = decided
            .par_iter()
            .map(|&e| {
                let (side, x) = unpack(e);
                s.predecessors_decided(side, x)
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        taken_back += decided.len() as u64;
        told += next.len() as u64;
        progress(decided.len() as u64);
        for (side, x, c) in next {
            debug_assert!(c as usize > level, "decided below the current level");
            buckets[c as usize].push(pack(side, x));
        }
    }
    // Step 3: what is left is drawn.
    progress(2 * size - taken_back);
    let counts = [0, 1].map(|side| counts(index, &s.values[side], &s.marks[side]));
    Ok(Solved {
        values: s.values,
        counts,
        taken_back,
        told,
    })
}

/// A bucket's word for the entry `x` of side `side`.
#[inline]
fn pack(side: usize, x: u64) -> u64 {
    (side as u64) << 63 | x
}

/// [`pack`]'s inverse.
#[inline]
fn unpack(e: u64) -> (usize, u64) {
    ((e >> 63) as usize, e & !(1 << 63))
}

struct Solver<'a, G: Retro, I: TableIndex<G>> {
    index: &'a I,
    name: &'a str,
    outside: &'a Outside<'a, G>,
    values: [Vec<u8>; 2],
    /// Per entry, its moves into the table not yet known to be won for
    /// the opponent ([`UNCOUNTED`]: too many to count); empty when the
    /// index folds.
    open_moves: [Vec<AtomicU8>; 2],
    /// Per entry, what step 1 learnt of its moves out of the table (see
    /// [`STALEMATE`]): written once in step 1, read in step 2.
    marks: [Vec<AtomicU8>; 2],
}

/// An entry's mark: it has no move (the header's counts leave it out).
const STALEMATE: u8 = 255;
/// An entry's mark: one of its moves out of the table is not a win for
/// the opponent, so it is never lost (or step 1 decided it).
const NEVER_LOST: u8 = 254;
/// An entry's mark: its moves out of the table are wins for the
/// opponent, the longest too long for a mark; looked at when its last
/// move into the table is found won. Below this, a mark is the longest
/// such win's distance plus one (0: no move out of the table), so that
/// an entry whose last move into the table is found won is known lost
/// without looking at its moves again.
const LOOK: u8 = 253;

/// What telling an undecided entry that one of its moves into the table
/// leads to a position won for the opponent found.
enum Told {
    /// It has moves into the table not known to be won yet.
    NotLast,
    /// That was the last: the count is exact.
    Last,
    /// Not counted (or a count gone wrong): look at its moves.
    Look,
}

/// A move count that does not fit: the entry is looked at whenever a
/// child is won.
const UNCOUNTED: u8 = u8::MAX;

fn side_of(side: usize) -> Side {
    if side == 0 {
        Side::White
    } else {
        Side::Black
    }
}

impl<G: Retro, I: TableIndex<G>> Solver<'_, G, I> {
    fn too_long(&self, code: u16) -> TbError {
        TbError::TooLong {
            material: self.name.to_string(),
            distance: code as usize - 1,
        }
    }

    /// The value of a child as far as it is known.
    fn child_value(&self, child: &G, side: usize) -> Result<Option<(Outcome, u16)>, TbError> {
        if let Some(o) = child.terminal() {
            return Ok(Some((o, 0)));
        }
        match self.index.rank(child) {
            Some(e) => Ok(match self.values[side][e as usize] {
                0 => None,
                c if c % 2 == 0 => Some((Outcome::Win, c as u16 - 1)),
                c => Some((Outcome::Loss, c as u16 - 1)),
            }),
            None => (self.outside)(child).map(Some),
        }
    }

    /// Step 1: the entry's verdict from the children the table does not
    /// hold, its mark (what those children say, [`STALEMATE`] for an
    /// entry without moves), and how many of its moves lead into the
    /// table. No value of the table is known yet, so a child the table
    /// holds is only counted, never ranked.
    fn eval(&self, side: usize, x: u64) -> Result<(Verdict, u8, usize), TbError> {
        let mut pos = self.index.position(x, side_of(side));
        let at_once = |o: Outcome| match o {
            Outcome::Loss => Ok(Verdict::Code(1)),
            Outcome::Draw => Ok(Verdict::Draw),
            Outcome::Win => Err(TbError::UnstorableWin {
                material: self.name.to_string(),
            }),
        };
        if let Some(o) = pos.terminal() {
            return Ok((at_once(o)?, NEVER_LOST, 0));
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return Ok((at_once(pos.no_moves_outcome())?, STALEMATE, 0));
        }
        let mut nearest_loss: Option<u16> = None;
        // Of the children outside the table: whether all are won for the
        // opponent, and the longest such win (plies + 1; 0 with none).
        let mut outside_won = true;
        let mut longest_win = 0u16;
        let mut open = 0;
        for &mv in moves.iter() {
            let undo = pos.make(mv);
            let v = match pos.terminal() {
                Some(o) => Ok(Some((o, 0))),
                None if self.index.holds(&pos) => Ok(None),
                None => (self.outside)(&pos).map(Some),
            };
            pos.unmake(mv, undo);
            match v? {
                Some((Outcome::Loss, d)) => {
                    nearest_loss = Some(nearest_loss.map_or(d, |n| n.min(d)));
                }
                Some((Outcome::Win, d)) => longest_win = longest_win.max(d + 1),
                Some((Outcome::Draw, _)) => outside_won = false,
                None => open += 1,
            }
        }
        let code = match nearest_loss {
            // A win at d + 1 plies: code d + 2.
            Some(d) => d + 2,
            // Every move won for the opponent: a loss one ply past the
            // longest (code d + 2 for a win of d plies, stored as d + 1).
            None if outside_won && open == 0 => longest_win + 1,
            None => {
                let mark = match longest_win {
                    _ if !outside_won => NEVER_LOST,
                    l if l < LOOK as u16 => l as u8,
                    _ => LOOK,
                };
                return Ok((Verdict::Open, mark, open));
            }
        };
        if code > MAX_CODE {
            return Err(self.too_long(code));
        }
        // A win found here is told of its moves' values until its level
        // comes, and is no loss whatever they are.
        Ok((Verdict::Code(code), NEVER_LOST, open))
    }

    /// Tells the undecided entry `(side, x)` that one of its moves leads
    /// to a position now won for the opponent: without counts it is to be
    /// looked at; with them, it is known lost when that was its last move
    /// into the table not known to be won (a count gone wrong falls back
    /// to looking, and stays uncounted; a count too low, which an index
    /// that keeps its promise never has, would not be seen).
    fn tell_won_child(&self, side: usize, x: u64) -> Told {
        let Some(count) = self.open_moves[side].get(x as usize) else {
            return Told::Look;
        };
        match count.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |c| match c {
            UNCOUNTED => None,
            0 => Some(UNCOUNTED),
            c => Some(c - 1),
        }) {
            Ok(1) => Told::Last,
            Ok(0) | Err(_) => Told::Look,
            Ok(_) => Told::NotLast,
        }
    }

    /// The loss code of the undecided entry `(side, x)` whose last move
    /// into the table was just found won, at `code`, for the opponent:
    /// the levels come in order, so that child's win is the longest of
    /// those into the table, and step 1's mark holds the longest of the
    /// rest. `None` when a move out of the table is not won for the
    /// opponent.
    fn lost_by_count(&self, side: usize, x: u64, code: u16) -> Result<Option<u16>, TbError> {
        let longest = match self.marks[side][x as usize].load(Ordering::Relaxed) {
            // A stalemate has no move to be told of; never so here.
            NEVER_LOST | STALEMATE => return Ok(None),
            LOOK => return self.lost(side, x),
            // Distances plus one: the child's is its code's.
            mark => code.max(mark as u16),
        };
        // A loss one ply past the longest win: code (d + 1) + 1.
        let c = longest + 1;
        if c > MAX_CODE {
            return Err(self.too_long(c));
        }
        Ok(Some(c))
    }

    /// The predecessors of the decided entry `(side, x)` that this decides:
    /// side, entry and code of each. A lost entry makes each a win one
    /// level up (the nearest such child is the first to tell it, as levels
    /// come in order); a won one makes a loss of each whose children are
    /// now all won.
    fn predecessors_decided(&self, side: usize, x: u64) -> Result<Vec<(usize, u64, u16)>, TbError> {
        let code = self.values[side][x as usize] as u16;
        let mut pos = self.index.position(x, side_of(side));
        let mut unmoves = Vec::new();
        pos.unmoves(&mut unmoves);
        let pred_side = 1 - side;
        let mut out = Vec::new();
        for &u in &unmoves {
            pos.apply_unmove(u);
            // An index that does not fold has one entry a position: the
            // mirror image's predecessor is told by the mirror image, and
            // telling it here too would count its move twice.
            let images = if self.index.folds() {
                self.index.rank_images(&pos)
            } else {
                [self.index.rank(&pos), None]
            };
            pos.revert_unmove(u);
            // Un-captures lead to larger materials, outside this table.
            for e in images.into_iter().flatten() {
                if self.values[pred_side][e as usize] != 0 {
                    continue;
                }
                if code % 2 == 1 {
                    if code + 1 > MAX_CODE {
                        return Err(self.too_long(code + 1));
                    }
                    out.push((pred_side, e, code + 1));
                } else {
                    let lost = match self.tell_won_child(pred_side, e) {
                        Told::NotLast => None,
                        Told::Last => self.lost_by_count(pred_side, e, code)?,
                        Told::Look => self.lost(pred_side, e)?,
                    };
                    if let Some(c) = lost {
                        out.push((pred_side, e, c));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The loss code of an entry all of whose moves lead to known wins for
    /// the opponent, or `None` at the first move that does not (a win
    /// through a lost child is found from that child).
    fn lost(&self, side: usize, x: u64) -> Result<Option<u16>, TbError> {
        let mut pos = self.index.position(x, side_of(side));
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut longest_win = None;
        for &mv in moves.iter() {
            let undo = pos.make(mv);
            let v = self.child_value(&pos, 1 - side);
            pos.unmake(mv, undo);
            match v? {
                Some((Outcome::Win, d)) => {
                    longest_win = Some(longest_win.map_or(d, |l: u16| l.max(d)))
                }
                _ => return Ok(None),
            }
        }
        let Some(d) = longest_win else {
            return Ok(None); // no move: a stalemate, decided in step 1
        };
        if d + 2 > MAX_CODE {
            return Err(self.too_long(d + 2));
        }
        Ok(Some(d + 2))
    }
}

/// The header's counts of one side: entries by value, and positions (each
/// entry's [`TableIndex::weight`]) by value without the stalemates, with
/// the longest distance among them.
fn counts<G: Retro, I: TableIndex<G>>(index: &I, values: &[u8], marks: &[AtomicU8]) -> SideCounts {
    let mut c = SideCounts::default();
    for (x, (&v, mark)) in values.iter().zip(marks).enumerate() {
        let stalemate = mark.load(Ordering::Relaxed) == STALEMATE;
        let k = match v {
            0 => 0,
            v if v % 2 == 0 => 1,
            _ => 2,
        };
        c.entries[k] += 1;
        if stalemate {
            continue;
        }
        let w = index.weight(x as u64);
        c.positions += w;
        match k {
            0 => c.draws += w,
            1 => c.wins += w,
            _ => c.losses += w,
        }
        c.longest = c.longest.max(v.saturating_sub(1) as u64);
    }
    c
}
