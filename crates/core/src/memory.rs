//! Fallible allocation of the large arrays (search tables, table buffers,
//! proof trees, census arrays): running out of memory — under a ulimit, a
//! cgroup or a full machine — is an error the caller reports, never the
//! abort Rust's infallible allocation gives.

use std::fmt;

/// An allocation of `bytes` bytes for `what` that the system refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    /// What the memory was for ("search table", "proof tree" …).
    pub what: &'static str,
    /// The bytes asked for.
    pub bytes: u64,
}

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of memory: the {} needs {} MiB more than the system gives this process \
             (free memory, its cgroup or its ulimit); ask for less",
            self.what,
            self.bytes.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for OutOfMemory {}

/// A vector of `n` elements made by `fill`, or [`OutOfMemory`] when the
/// system refuses the memory.
pub fn try_vec_with<T>(
    n: usize,
    what: &'static str,
    fill: impl FnMut() -> T,
) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    try_reserve(&mut v, n, what)?;
    v.resize_with(n, fill);
    Ok(v)
}

/// A vector of `n` copies of `value`, or [`OutOfMemory`].
pub fn try_vec<T: Clone>(n: usize, what: &'static str, value: T) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    try_reserve(&mut v, n, what)?;
    v.resize(n, value);
    Ok(v)
}

/// Reserves room for `n` more elements in `v` exactly, or [`OutOfMemory`].
pub fn try_reserve<T>(v: &mut Vec<T>, n: usize, what: &'static str) -> Result<(), OutOfMemory> {
    v.try_reserve_exact(n).map_err(|_| OutOfMemory {
        what,
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impossible_allocation_is_an_error() {
        let e = try_vec(usize::MAX / 16, "test array", 0u64).unwrap_err();
        assert_eq!(e.what, "test array");
        assert!(e.to_string().contains("out of memory"), "{e}");
        assert_eq!(try_vec(3, "small", 7u8).unwrap(), vec![7, 7, 7]);
    }
}
