//! The unmoves against the forward rules, on random positions of up to 4
//! pieces: each leads to a predecessor whose legal moves include the
//! forward move, which comes back here (sound); each legal quiet move that
//! does not crown is found again from where it leads (complete).

use zoo_checkers::tables::{CheckersScheme, Material, Unmove};
use zoo_checkers::{Classical, English};
use zoo_checkers::{RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Game, MoveList, Retro, Side, TableIndex, TableScheme};
use zoo_testkit::Rng;

fn unmoves_match_moves<V: Variant>(rules: &'static RuleSet) {
    let scheme = CheckersScheme::<V>::new(rules);
    let mut rng = Rng(35);
    let (mut checked, mut refused) = (0u64, 0u64);
    for pieces in 2..=4 {
        for m in CheckersScheme::<V>::materials(pieces) {
            let index = scheme.index(m);
            for _ in 0..400 {
                let stm = [Side::White, Side::Black][rng.below(2) as usize];
                let pos = index.position(rng.below(index.size()), stm);
                let mut unmoves = Vec::new();
                pos.unmoves(&mut unmoves);
                for &u in &unmoves {
                    let mut pred = pos;
                    pred.apply_unmove(u);
                    assert_eq!(pred.key(), pred.compute_key());
                    assert_eq!(Material::of(&pred), m);
                    let mv = pred.unmove_forward(u);
                    let mut moves = MoveList::new();
                    pred.legal_moves(&mut moves);
                    assert!(moves.contains(&mv), "{pred:?}: {mv:?} not legal");
                    let mut fwd = pred;
                    fwd.make(mv);
                    assert_eq!(fwd, pos);
                    pred.revert_unmove(u);
                    assert_eq!(pred, pos);
                    checked += 1;
                }
                // Every predecessor by a quiet step, legal or not, to see
                // that the compulsory capture is what leaves some out.
                let mover = stm.flip();
                for mv in quiet_steps_back(&pos, mover) {
                    let found = unmoves.contains(&mv);
                    let mut pred = pos;
                    pred.apply_unmove(mv);
                    let mut moves = MoveList::new();
                    pred.legal_moves(&mut moves);
                    assert_eq!(
                        found,
                        moves.contains(&pred.unmove_forward(mv)),
                        "{pos:?} {mv:?}"
                    );
                    refused += !found as u64;
                }
                // Complete: the quiet moves of this position that stay in
                // the material are unmoves of where they lead.
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                for mv in moves {
                    let mut child = pos;
                    child.make(mv);
                    if mv.is_capture() || Material::of(&child) != m {
                        continue;
                    }
                    let mut back = Vec::new();
                    child.unmoves(&mut back);
                    assert!(
                        back.iter().any(|&u| child.unmove_forward(u) == mv),
                        "{pos:?}: {mv:?} not found back from {child:?}"
                    );
                }
            }
        }
    }
    assert!(
        checked > 10_000 && refused > 100,
        "{checked} unmoves, {refused} refused"
    );
}

/// Every step back of `mover`'s pieces onto an empty square as the
/// geometry allows it (men backwards one square, kings any way: one square
/// or, flying, any distance), legal in the predecessor or not.
fn quiet_steps_back<V: Variant>(pos: &zoo_checkers::Position<V>, mover: Side) -> Vec<Unmove> {
    let mut out = Vec::new();
    for to in 0..32u8 {
        let Some((side, king)) = pos.piece_at(to) else {
            continue;
        };
        if side != mover {
            continue;
        }
        let (r, c) = (to as i32 / 4, col(to));
        for (dr, dc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            // A man came from behind: rows grow for the side that moves up.
            let back = if zoo_checkers::Position::<V>::moves_up(mover) {
                -1
            } else {
                1
            };
            if !king && dr != back {
                continue;
            }
            let mut k = 1;
            while let Some(from) = square(r + k * dr, c + k * dc) {
                if pos.piece_at(from).is_some() {
                    break;
                }
                out.push(Unmove { from, to });
                if !(king && V::FLYING_KINGS) {
                    break;
                }
                k += 1;
            }
        }
    }
    out
}

/// Column of an internal square (docs/checkers.md, "Board and numbering").
fn col(s: u8) -> i32 {
    let i = (s % 4) as i32;
    if (s / 4).is_multiple_of(2) {
        7 - 2 * i
    } else {
        6 - 2 * i
    }
}

fn square(r: i32, c: i32) -> Option<u8> {
    if !(0..8).contains(&r) || !(0..8).contains(&c) || (r + c) % 2 == 0 {
        return None;
    }
    let i = if r % 2 == 0 { (7 - c) / 2 } else { (6 - c) / 2 };
    Some((r * 4 + i) as u8)
}

#[test]
fn english_unmoves_are_the_legal_quiet_moves_backwards() {
    unmoves_match_moves::<English>(&ENGLISH);
}

#[test]
fn classical_unmoves_are_the_legal_quiet_moves_backwards() {
    unmoves_match_moves::<Classical>(&CLASSICAL);
}
