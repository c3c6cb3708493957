//! Zobrist keys of the checkers games (generator: `zoo_core::zobrist`).

use zoo_core::zobrist::splitmix;

/// Key of a piece: `PIECE[side][king as usize][square]`.
pub static PIECE: [[[u64; 32]; 2]; 2] = {
    let mut t = [[[0u64; 32]; 2]; 2];
    let mut state = 0xC4EC_4E25u64;
    let mut s = 0;
    while s < 2 {
        let mut k = 0;
        while k < 2 {
            let mut q = 0;
            while q < 32 {
                let (ns, v) = splitmix(state);
                state = ns;
                t[s][k][q] = v;
                q += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// Added when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_C4EC_u64).1;
