//! The census by brute force: every position is set up on a board and
//! classified with the rules themselves — the move generator for
//! stalemates, the unmove generator for reachability. Slow (each position
//! costs a move and an unmove generation) but it shares no counting with
//! [`super::count`], so the two checking each other is worth something.

use super::{light, Reading, Row};
use crate::board::{bit, Board, RAT};
use crate::position::Position;
use crate::retro::Unmove;
use crate::rules::RuleSet;
use std::fmt;
use std::sync::atomic::Ordering;
use zoo_core::Side;

/// How far back the fixpoint reading looks for a certificate before it
/// gives up on a position (docs/census.md, "The fixpoint reading").
pub const FIXPOINT_DEPTH: u32 = 8;

/// Why an enumeration has no row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnumerateError {
    /// Stopped by [`Options::stop`].
    Stopped,
    /// The fixpoint reading found neither a cycle nor a dead end within
    /// [`FIXPOINT_DEPTH`] moves back of this position (its FEN).
    Undecided(String),
}

impl fmt::Display for EnumerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnumerateError::Stopped => f.write_str("stopped"),
            EnumerateError::Undecided(fen) => write!(
                f,
                "the fixpoint reading cannot decide {fen}: no cycle and no dead end within {FIXPOINT_DEPTH} moves back"
            ),
        }
    }
}

impl std::error::Error for EnumerateError {}

/// What tracing a position back found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trace {
    Reached,
    Dead,
    Undecided,
}

/// A material: bit `side * KINDS + kind` for each piece on the board.
pub type Material = u32;

/// Every material with `pieces` pieces, in increasing order.
pub fn materials<B: Board>(pieces: u32) -> Vec<Material> {
    let all = 2 * B::KINDS as u32;
    (0..1u32 << all)
        .filter(|m| m.count_ones() == pieces)
        .collect()
}

pub use super::Options;

/// The pieces of a material, White's first, each kind in order.
pub fn pieces_of<B: Board>(m: Material) -> Vec<(Side, usize)> {
    (0..2 * B::KINDS)
        .filter(|i| m & (1 << i) != 0)
        .map(|i| {
            let side = if i < B::KINDS {
                Side::White
            } else {
                Side::Black
            };
            (side, i % B::KINDS)
        })
        .collect()
}

/// The row of `pieces` pieces under `reading` (not `Fixpoint`, which may
/// fail: use [`material_row`]), every material in turn.
pub fn row<B: Board>(rules: &'static RuleSet, pieces: u32, reading: Reading) -> Row {
    let opts = Options::new::<B>(reading);
    let mut row = Row {
        pieces,
        ..Row::default()
    };
    for m in materials::<B>(pieces) {
        row.add(
            &material_row::<B>(rules, m, &opts)
                .expect("nothing stops it, and the readings one, two and thesis always decide"),
        );
    }
    row.close()
}

/// The counts of one material.
pub fn material_row<B: Board>(
    rules: &'static RuleSet,
    m: Material,
    opts: &Options,
) -> Result<Row, EnumerateError> {
    let pieces = pieces_of::<B>(m);
    let mut e = Enumerator::<B> {
        opts,
        pieces: &pieces,
        pos: Position::empty(rules),
        row: Row {
            pieces: m.count_ones(),
            ..Row::default()
        },
        scratch: vec![Vec::new(); FIXPOINT_DEPTH as usize + 5],
        failed: None,
    };
    e.place(0);
    match e.failed {
        Some(err) => Err(err),
        None => Ok(e.row.close()),
    }
}

/// Classifies one set-up position (the side to move is chosen here, as
/// for every position of the enumeration) by adding it to a row: the
/// sampling estimate's step.
pub(crate) fn classify_one<B: Board>(
    pos: Position<B>,
    opts: &Options,
) -> Result<Row, EnumerateError> {
    let mut e = Enumerator::<B> {
        opts,
        pieces: &[],
        pos,
        row: Row::default(),
        scratch: vec![Vec::new(); FIXPOINT_DEPTH as usize + 5],
        failed: None,
    };
    e.classify();
    match e.failed {
        Some(err) => Err(err),
        None => Ok(e.row),
    }
}

struct Enumerator<'a, B: Board> {
    opts: &'a Options<'a>,
    pieces: &'a [(Side, usize)],
    pos: Position<B>,
    row: Row,
    scratch: Vec<Vec<Unmove>>,
    failed: Option<EnumerateError>,
}

impl<B: Board> Enumerator<'_, B> {
    fn place(&mut self, i: usize) {
        if self.failed.is_some() {
            return;
        }
        if i == self.pieces.len() {
            self.classify();
            return;
        }
        let (side, kind) = self.pieces[i];
        let taken = self.pos.occupied(Side::White) | self.pos.occupied(Side::Black);
        let mut free = B::all_squares() & !taken & !bit(B::DEN[side.index()]);
        if kind != RAT {
            free &= !B::WATER;
        }
        while free != 0 {
            if i == 0 {
                if let Some(stop) = self.opts.stop {
                    if stop.load(Ordering::Relaxed) {
                        self.failed = Some(EnumerateError::Stopped);
                        return;
                    }
                }
            }
            let s = free.trailing_zeros() as u8;
            free &= free - 1;
            self.pos.put(side, kind, s);
            self.place(i + 1);
            self.pos.remove(side, kind, s);
        }
    }

    fn classify(&mut self) {
        let (w, b) = (
            self.pos.occupied(Side::White),
            self.pos.occupied(Side::Black),
        );
        let w_on = w & bit(B::DEN[1]) != 0;
        let b_on = b & bit(B::DEN[0]) != 0;
        if w_on && b_on {
            return; // not a position of the game (module docs)
        }
        if w == 0 || b == 0 {
            if w_on || b_on {
                return;
            }
            let loser = if w == 0 { Side::White } else { Side::Black };
            self.pos.set_side_to_move(loser);
            if !self.allowed(&self.pos) {
                return;
            }
            if self.traced(false) {
                self.row.won_material += 1;
            } else {
                self.row.unreachable_won += 1;
            }
            return;
        }
        if w_on || b_on {
            let loser = if w_on { Side::Black } else { Side::White };
            self.pos.set_side_to_move(loser);
            if !self.allowed(&self.pos) {
                return; // the parity rule gives this placement the other side to move
            }
            if self.traced(true) {
                self.row.won_den += 1;
            } else {
                self.row.unreachable_won += 1;
            }
            return;
        }
        for stm in [Side::White, Side::Black] {
            self.pos.set_side_to_move(stm);
            if !self.allowed(&self.pos) {
                continue;
            }
            if !self.traced(false) {
                self.row.unreachable_unfinished += 1;
            } else if self.pos.count() == 0 {
                self.row.stalemates += 1;
            } else {
                self.row.unfinished += 1;
            }
        }
    }

    /// Whether the parity rule lets this side move here.
    fn allowed(&self, p: &Position<B>) -> bool {
        let occ = p.occupied(Side::White) | p.occupied(Side::Black);
        if Some(occ.count_ones()) != self.opts.parity_pieces {
            return true;
        }
        let mut light_count = 0;
        let mut o = occ;
        while o != 0 {
            light_count += light(o.trailing_zeros() as u8) as u32;
            o &= o - 1;
        }
        light_count.is_multiple_of(2) == (p.stm() == Side::White)
    }

    /// Whether the position is reachable under the reading (a den win or
    /// not); an undecided fixpoint is recorded as the failure.
    fn traced(&mut self, den_win: bool) -> bool {
        match self.opts.reading.depth(den_win) {
            Some(depth) => self.reachable(depth),
            None => {
                for depth in 1..=FIXPOINT_DEPTH {
                    match self.trace(depth) {
                        Trace::Reached => return true,
                        Trace::Dead => return false,
                        Trace::Undecided => {}
                    }
                }
                if self.failed.is_none() {
                    self.failed = Some(EnumerateError::Undecided(self.pos.fen()));
                }
                false
            }
        }
    }

    /// Whether this position lies on a cycle of four moves back (so a
    /// chain of predecessors goes back for ever): the side that just moved
    /// takes a piece back from `s` to `t`, the other side one from `a` to
    /// `b` (not `s`), and both step forward again, `t` to `s`, `b` to `a`.
    /// Positions with a piece on a den are never on a cycle.
    fn on_cycle(&mut self) -> bool {
        let mut firsts = Vec::new();
        self.pos
            .for_each_quiet_unmove(!0, !0, |_, u| firsts.push(u));
        for u1 in firsts {
            self.pos.apply_unmove(u1);
            let mut seconds = Vec::new();
            self.pos
                .for_each_quiet_unmove(!0, !bit(u1.to), |_, u| seconds.push(u));
            for u2 in seconds {
                self.pos.apply_unmove(u2);
                let u3 = Unmove {
                    from: u1.to,
                    to: u1.from,
                    uncapture: 0,
                };
                let u4 = Unmove {
                    from: u2.to,
                    to: u2.from,
                    uncapture: 0,
                };
                let mut back = false;
                if self.has_unmove(u3) {
                    self.pos.apply_unmove(u3);
                    back = self.has_unmove(u4);
                    self.pos.revert_unmove(u3);
                }
                self.pos.revert_unmove(u2);
                if back {
                    self.pos.revert_unmove(u1);
                    return true;
                }
            }
            self.pos.revert_unmove(u1);
        }
        false
    }

    fn has_unmove(&self, u: Unmove) -> bool {
        let mut found = false;
        self.pos
            .for_each_quiet_unmove(bit(u.to), bit(u.from), |_, v| found |= v == u);
        found
    }

    /// Traces the position back up to `depth` moves for a cycle.
    fn trace(&mut self, depth: u32) -> Trace {
        let finished = {
            let occ = self.pos.occupied(Side::White) | self.pos.occupied(Side::Black);
            self.pos.occupied(Side::White) == 0
                || self.pos.occupied(Side::Black) == 0
                || occ & (bit(B::DEN[0]) | bit(B::DEN[1])) != 0
        };
        if !finished && self.on_cycle() {
            return Trace::Reached;
        }
        if depth == 0 {
            return Trace::Undecided;
        }
        let mut list = std::mem::take(&mut self.scratch[depth as usize]);
        list.clear();
        self.pos.generate_unmoves(&mut list);
        let mut result = Trace::Dead;
        for &u in &list {
            self.pos.apply_unmove(u);
            let t = if self.allowed(&self.pos) {
                self.trace(depth - 1)
            } else {
                Trace::Dead
            };
            self.pos.revert_unmove(u);
            match t {
                Trace::Reached => {
                    result = Trace::Reached;
                    break;
                }
                Trace::Undecided => result = Trace::Undecided,
                Trace::Dead => {}
            }
        }
        self.scratch[depth as usize] = list;
        result
    }

    /// Whether a chain of `depth` legal moves from positions of the census
    /// ends here (the generator yields unfinished predecessors only).
    fn reachable(&mut self, depth: u32) -> bool {
        let mut list = std::mem::take(&mut self.scratch[depth as usize]);
        list.clear();
        self.pos.generate_unmoves(&mut list);
        let mut found = false;
        for &u in &list {
            self.pos.apply_unmove(u);
            let ok = self.allowed(&self.pos) && (depth == 1 || self.reachable(depth - 1));
            self.pos.revert_unmove(u);
            if ok {
                found = true;
                break;
            }
        }
        self.scratch[depth as usize] = list;
        found
    }
}
