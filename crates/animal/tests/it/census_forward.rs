//! The census's reachability checked forward: every unfinished position
//! of up to four pieces plays every legal move, and the positions it
//! reaches are marked — no unmove generator and no counting. The rows of
//! up to three pieces must then be those of `zoo_animal::census::count`.

use std::collections::HashMap;
use zoo_animal::board::{bit, file_of, rank_of, sq, Board, FILES};
use zoo_animal::census::{count, Reading, Row};
use zoo_animal::{rules, JungleCheckers, JungleCheckersPos};
use zoo_core::{Game, MoveList, Side};

type B = JungleCheckers;
const KINDS: usize = 4;

/// Marks of positions with at most three pieces: one bit per
/// (material, side to move, squares).
struct Marks(HashMap<(u32, usize), Vec<u64>>);

fn key(p: &JungleCheckersPos) -> ((u32, usize), usize) {
    let mut material = 0u32;
    let mut index = 0usize;
    for side in [Side::White, Side::Black] {
        for kind in 0..KINDS {
            if let Some(s) = p.square_of(side, kind) {
                material |= 1 << (side.index() * KINDS + kind);
                index = index * 49 + s as usize;
            }
        }
    }
    ((material, p.stm().index()), index)
}

impl Marks {
    fn set(&mut self, p: &JungleCheckersPos) {
        let (k, i) = key(p);
        let bits = self
            .0
            .entry(k)
            .or_insert_with(|| vec![0; 49 * 49 * 49 / 64 + 1]);
        bits[i / 64] |= 1 << (i % 64);
    }
    fn get(&self, p: &JungleCheckersPos) -> bool {
        let (k, i) = key(p);
        self.0
            .get(&k)
            .is_some_and(|b| b[i / 64] & (1 << (i % 64)) != 0)
    }
}

/// Calls `f` with every placement of `n` pieces on squares they may stand
/// on (not their own den), side to move not set; `contact`: only those
/// with a White piece next to a Black one ([`in_contact`]).
fn placements(n: u32, contact: bool, f: &mut impl FnMut(&mut JungleCheckersPos)) {
    for material in 0u32..256 {
        if material.count_ones() != n {
            continue;
        }
        // White's pieces first, so that the last one placed is Black's
        // wherever Black has one.
        let pieces: Vec<(Side, usize)> = (0..8)
            .filter(|i| material & (1 << i) != 0)
            .map(|i| (if i < 4 { Side::White } else { Side::Black }, i % 4))
            .collect();
        let mut p = JungleCheckersPos::empty(&rules::JUNGLE_CHECKERS_LEIDEN);
        place(&mut p, &pieces, contact, f);
    }
}

fn place(
    p: &mut JungleCheckersPos,
    pieces: &[(Side, usize)],
    contact: bool,
    f: &mut impl FnMut(&mut JungleCheckersPos),
) {
    let Some((&(side, kind), rest)) = pieces.split_first() else {
        if !contact || in_contact(p) {
            f(p);
        }
        return;
    };
    // The last piece, Black's, where no Black piece yet stands next to a
    // White one: only the squares next to White's can make the contact.
    let mut squares = u64::MAX;
    if contact && rest.is_empty() && side == Side::Black && !in_contact(p) {
        squares = neighbours(p.occupied(Side::White));
    }
    for s in 0..49u8 {
        if squares & bit(s) == 0 || s == B::DEN[side.index()] || p.piece_at(s).is_some() {
            continue;
        }
        p.put(side, kind, s);
        place(p, rest, contact, f);
        p.remove(side, kind, s);
    }
}

/// Both sides have pieces and no piece stands on a den.
fn unfinished(p: &JungleCheckersPos) -> bool {
    let (w, b) = (p.occupied(Side::White), p.occupied(Side::Black));
    let dens = bit(B::DEN[0]) | bit(B::DEN[1]);
    w != 0 && b != 0 && (w | b) & dens == 0
}

/// The squares orthogonally next to those of `squares`.
fn neighbours(mut squares: u64) -> u64 {
    let mut near = 0;
    while squares != 0 {
        let s = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let (f, r) = (file_of(s), rank_of(s));
        for n in [
            (f > 0).then(|| sq(f - 1, r)),
            (f + 1 < FILES).then(|| sq(f + 1, r)),
            (r > 0).then(|| sq(f, r - 1)),
            (r + 1 < B::RANKS).then(|| sq(f, r + 1)),
        ]
        .into_iter()
        .flatten()
        {
            near |= bit(n);
        }
    }
    near
}

/// Whether a White piece and a Black piece stand on orthogonally
/// adjacent squares. A move goes one square up, down, left or right
/// (docs/rules/jungle-checkers.md), so a capture needs such a pair: a
/// 4-piece position without one reaches no 3-piece position, and it
/// need not be placed or played (nine in ten of them, the bulk of the
/// work).
fn in_contact(p: &JungleCheckersPos) -> bool {
    neighbours(p.occupied(Side::White)) & p.occupied(Side::Black) != 0
}

/// Marks every position with at most three pieces that a legal move from
/// a position in `from` reaches; `den_entries_only`: only moves onto a den.
fn mark_successors(
    marks: &mut Marks,
    sizes: std::ops::RangeInclusive<u32>,
    from: Option<&Marks>,
    den_entries_only: bool,
) {
    let mut moves = MoveList::new();
    for n in sizes {
        placements(n, n == 4, &mut |p| {
            let contact = in_contact(p);
            if !unfinished(p) {
                return;
            }
            for stm in [Side::White, Side::Black] {
                p.set_side_to_move(stm);
                if from.is_some_and(|m| !m.get(p)) {
                    continue;
                }
                moves.clear();
                p.legal_moves(&mut moves);
                for &mv in moves.iter() {
                    if den_entries_only && !B::DEN.contains(&mv.to()) {
                        continue;
                    }
                    let undo = p.make(mv);
                    // What lets 4-piece positions out of contact go
                    // unplayed, checked on every smaller one.
                    assert!(contact || p.piece_count() == n, "a capture without contact");
                    if p.piece_count() <= 3 {
                        marks.set(p);
                    }
                    p.unmake(mv, undo);
                }
            }
        });
    }
}

fn rows(thesis: bool, once: &Marks, twice: &Marks) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut moves = MoveList::new();
    for n in 1..=3 {
        let mut r = Row {
            pieces: n,
            ..Row::default()
        };
        placements(n, false, &mut |p| {
            let (w, b) = (p.occupied(Side::White), p.occupied(Side::Black));
            let w_on = w & bit(B::DEN[1]) != 0;
            let b_on = b & bit(B::DEN[0]) != 0;
            if unfinished(p) {
                for stm in [Side::White, Side::Black] {
                    p.set_side_to_move(stm);
                    moves.clear();
                    p.legal_moves(&mut moves);
                    if !once.get(p) {
                        r.unreachable_unfinished += 1;
                    } else if moves.is_empty() {
                        r.stalemates += 1;
                    } else {
                        r.unfinished += 1;
                    }
                }
            } else if (w == 0 || b == 0) && !w_on && !b_on {
                p.set_side_to_move(if w == 0 { Side::White } else { Side::Black });
                if once.get(p) {
                    r.won_material += 1;
                } else {
                    r.unreachable_won += 1;
                }
            } else if w != 0 && b != 0 && w_on != b_on {
                p.set_side_to_move(if w_on { Side::Black } else { Side::White });
                if (if thesis { twice } else { once }).get(p) {
                    r.won_den += 1;
                } else {
                    r.unreachable_won += 1;
                }
            }
        });
        r.reachable = r.unfinished + r.stalemates + r.won_material + r.won_den;
        rows.push(r);
    }
    rows
}

#[test]
fn forward_marking_agrees_with_counting_up_to_three_pieces() {
    // Positions one legal move from an unfinished position (of up to four
    // pieces: a capture from four gives three).
    let mut once = Marks(HashMap::new());
    mark_successors(&mut once, 2..=4, None, false);
    // Den wins one move from a position so reached.
    let mut twice = Marks(HashMap::new());
    mark_successors(&mut twice, 2..=3, Some(&once), true);
    for (reach, thesis) in [(Reading::One, false), (Reading::Thesis, true)] {
        let forward = rows(thesis, &once, &twice);
        for f in forward {
            let c = count::row(
                &rules::JUNGLE_CHECKERS_LEIDEN,
                f.pieces,
                &count::Options::new::<JungleCheckers>(reach),
            )
            .unwrap();
            assert_eq!(
                f, c,
                "{reach}, {} pieces: forward marking, then counting",
                f.pieces
            );
        }
    }
}
