//! The census by brute force: every position is set up on a board and
//! classified with the rules themselves — the move generator for
//! stalemates, the unmove generator for reachability. Slow (each position
//! costs a move and an unmove generation) but it shares no counting with
//! [`super::count`], so the two checking each other is worth something.

use super::{light, parity_pieces, Reading, Row};
use crate::board::{bit, Board, RAT};
use crate::position::Position;
use crate::retro::Unmove;
use crate::rules::RuleSet;
use std::sync::atomic::{AtomicBool, Ordering};
use zoo_core::Side;

/// A material: bit `side * KINDS + kind` for each piece on the board.
pub type Material = u32;

/// Every material with `pieces` pieces, in increasing order.
pub fn materials<B: Board>(pieces: u32) -> Vec<Material> {
    let all = 2 * B::KINDS as u32;
    (0..1u32 << all)
        .filter(|m| m.count_ones() == pieces)
        .collect()
}

/// What the enumeration needs besides the rules.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// How reachability is read.
    pub reading: Reading,
    /// The number of pieces at which the side to move follows from the
    /// square colours ([`parity_pieces`]); tests move it lower to check the
    /// rule's code on small boards.
    pub parity_pieces: Option<u32>,
    /// Set to stop early; the row is then `None`.
    pub stop: Option<&'a AtomicBool>,
}

impl Options<'_> {
    /// The game's own parity rule, nothing to stop.
    pub fn new<B: Board>(reading: Reading) -> Options<'static> {
        Options {
            reading,
            parity_pieces: parity_pieces::<B>(),
            stop: None,
        }
    }
}

/// The row of `pieces` pieces under `reading`, every material in turn.
pub fn row<B: Board>(rules: &'static RuleSet, pieces: u32, reading: Reading) -> Row {
    let opts = Options::new::<B>(reading);
    let mut row = Row {
        pieces,
        ..Row::default()
    };
    for m in materials::<B>(pieces) {
        row.add(&material_row::<B>(rules, m, &opts).expect("nothing stops it"));
    }
    row.close()
}

/// The counts of one material (`pieces` is its piece count); `None` when
/// stopped.
pub fn material_row<B: Board>(rules: &'static RuleSet, m: Material, opts: &Options) -> Option<Row> {
    let pieces: Vec<(Side, usize)> = (0..2 * B::KINDS)
        .filter(|i| m & (1 << i) != 0)
        .map(|i| {
            let side = if i < B::KINDS {
                Side::White
            } else {
                Side::Black
            };
            (side, i % B::KINDS)
        })
        .collect();
    let mut e = Enumerator::<B> {
        opts,
        pieces: &pieces,
        pos: Position::empty(rules),
        row: Row {
            pieces: m.count_ones(),
            ..Row::default()
        },
        scratch: vec![Vec::new(); 3],
        stopped: false,
    };
    e.place(0);
    (!e.stopped).then(|| e.row.close())
}

struct Enumerator<'a, B: Board> {
    opts: &'a Options<'a>,
    pieces: &'a [(Side, usize)],
    pos: Position<B>,
    row: Row,
    scratch: Vec<Vec<Unmove>>,
    stopped: bool,
}

impl<B: Board> Enumerator<'_, B> {
    fn place(&mut self, i: usize) {
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
                        self.stopped = true;
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
            if self.reachable(self.opts.reading.depth(false)) {
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
            if self.reachable(self.opts.reading.depth(true)) {
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
            if !self.reachable(self.opts.reading.depth(false)) {
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
