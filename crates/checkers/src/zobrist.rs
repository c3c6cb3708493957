//! Zobrist keys, generated at compile time from a fixed seed so that keys
//! are the same in every build (files and logs may record them).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

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
