//! SplitMix64 (Steele, Lea and Flood 2014): the seeded sequences of zoo's
//! samples, self-play openings and training. A fixed sequence for a seed,
//! the same on every machine and in every version, so that a seed named in
//! the docs always means the same positions and the same net (a library
//! generator may change its stream between releases).
//!
//! ```
//! use zoo_core::rng::SplitMix64;
//! let mut r = SplitMix64(0);
//! assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
//! assert_eq!(SplitMix64::mix(0), 0xE220_A839_7B1D_CDAF);
//! ```

/// The generator; its state is the `u64` inside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next number of the sequence.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The first number of the sequence of seed `x`: a well-mixed 64-bit
    /// number from `x`.
    #[inline]
    pub fn mix(x: u64) -> u64 {
        SplitMix64(x).next_u64()
    }
}
