//! Moves a lone piece needs between two squares of a board (Jungle's or
//! Jungle Checkers'), by breadth-first search over its own moves on an
//! otherwise empty board: what `can_cross`, the `moves` reading and the
//! 3-piece features (docs/trees.md) ask of routes.

use std::sync::OnceLock;
use zoo_animal::board::{bit, Board, NONE};
use zoo_animal::{Jungle, JungleCheckers};
use zoo_core::Side;

/// How a kind moves: the rat swims, the lion and the tiger leap the
/// rivers, the others walk the land.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mover {
    Rat,
    Walker,
    Leaper,
}

fn mover<B: Board>(kind: usize) -> Mover {
    if kind == zoo_animal::board::RAT {
        Mover::Rat
    } else if B::LEAPERS & (1 << kind) != 0 {
        Mover::Leaper
    } else {
        Mover::Walker
    }
}

/// Unreachable (a square the piece may not stand on).
pub const FAR: u8 = u8::MAX;

/// Room for the larger board (Jungle's 63 squares).
const SQUARES: usize = 64;

/// `table[from][to]`: moves from `from` to `to`.
type Table = Vec<[u8; SQUARES]>;

fn build<B: Board>(m: Mover, side: Side) -> Table {
    let own_den = bit(B::DEN[side.index()]);
    let allowed = |s: u8| {
        s < B::SQUARES && bit(s) & own_den == 0 && (m == Mover::Rat || bit(s) & B::WATER == 0)
    };
    let t = B::tables();
    (0..SQUARES as u8)
        .map(|from| {
            let mut d = [FAR; SQUARES];
            if !allowed(from) {
                return d;
            }
            d[from as usize] = 0;
            let mut queue = vec![from];
            let mut head = 0;
            while head < queue.len() {
                let s = queue[head];
                head += 1;
                let mut next: Vec<u8> = (0..SQUARES as u8)
                    .filter(|&x| t.steps[s as usize] & bit(x) != 0)
                    .collect();
                if m == Mover::Leaper {
                    // On an empty board no rat blocks a leap.
                    next.extend(
                        t.leaps[s as usize]
                            .iter()
                            .map(|l| l.to)
                            .filter(|&x| x != NONE),
                    );
                }
                for x in next {
                    if allowed(x) && d[x as usize] == FAR {
                        d[x as usize] = d[s as usize] + 1;
                        queue.push(x);
                    }
                }
            }
            d
        })
        .collect()
}

/// Moves `side`'s `kind` needs from `from` to `to` on an empty Jungle
/// board, never through its own den; [`FAR`] when it cannot get there.
pub fn moves(side: Side, kind: usize, from: u8, to: u8) -> u8 {
    moves_on::<Jungle>(side, kind, from, to)
}

fn tables_of<B: Board>() -> Vec<Table> {
    let mut v = Vec::new();
    for side in [Side::White, Side::Black] {
        for m in [Mover::Rat, Mover::Walker, Mover::Leaper] {
            v.push(build::<B>(m, side));
        }
    }
    v
}

/// [`moves`] on board `B` (Jungle or Jungle Checkers).
pub fn moves_on<B: Board>(side: Side, kind: usize, from: u8, to: u8) -> u8 {
    // A static in a generic function is one for all boards: one per board
    // by name.
    static JUNGLE: OnceLock<Vec<Table>> = OnceLock::new();
    static CHECKERS: OnceLock<Vec<Table>> = OnceLock::new();
    let tables = if B::GAME == Jungle::GAME {
        JUNGLE.get_or_init(tables_of::<Jungle>)
    } else {
        debug_assert_eq!(B::GAME, JungleCheckers::GAME);
        CHECKERS.get_or_init(tables_of::<JungleCheckers>)
    };
    let m = match mover::<B>(kind) {
        Mover::Rat => 0,
        Mover::Walker => 1,
        Mover::Leaper => 2,
    };
    tables[side.index() * 3 + m][from as usize][to as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use zoo_animal::board::sq;

    #[test]
    fn walkers_go_round_the_river_leapers_jump_it_rats_swim() {
        // b3 to b7: four steps up through the water for the rat, a leap
        // for the lion, round the river (via a-file) for the cat.
        let (b3, b7) = (sq(1, 2), sq(1, 6));
        assert_eq!(moves(Side::White, 0, b3, b7), 4);
        assert_eq!(moves(Side::White, 6, b3, b7), 1);
        assert_eq!(moves(Side::White, 1, b3, b7), 6);
        // Nobody enters the water but the rat.
        assert_eq!(moves(Side::White, 1, b3, sq(1, 3)), FAR);
    }

    #[test]
    fn on_the_checkers_board_only_the_own_den_is_in_the_way() {
        // c1 to e1: round d1 for White (4 moves), straight for Black (2).
        let (c1, e1) = (sq(2, 0), sq(4, 0));
        assert_eq!(moves_on::<JungleCheckers>(Side::White, 3, c1, e1), 4);
        assert_eq!(moves_on::<JungleCheckers>(Side::Black, 3, c1, e1), 2);
        // d2 to Black's den d7 is five steps up the file for White; Black
        // never enters it.
        assert_eq!(
            moves_on::<JungleCheckers>(Side::White, 0, sq(3, 1), sq(3, 6)),
            5
        );
        assert_eq!(
            moves_on::<JungleCheckers>(Side::Black, 0, sq(3, 1), sq(3, 6)),
            FAR
        );
    }
}
