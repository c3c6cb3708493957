//! The generator behind every game's Zobrist keys: tables are filled at
//! compile time from a fixed seed so that keys are the same in every build
//! (table files and logs may record them).

/// One step of SplitMix64: the next state and its output.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}
