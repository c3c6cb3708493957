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

/// Asks the kernel to back `v` with huge pages (Linux transparent huge
/// pages, 2 MiB, where the system allows them with `madvise`). A table
/// read at random then costs one page fault per 2 MiB instead of per
/// 4 KiB when first touched, and far fewer TLB misses afterwards
/// (docs/log/solve.md). Only the whole huge pages inside `v` are advised;
/// elsewhere, or when the kernel declines, nothing changes.
pub fn advise_huge_pages<T>(v: &mut [T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(v);
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if to > from {
            // SAFETY: [from, to) lies inside `v`'s allocation, which `v`
            // borrows mutably; MADV_HUGEPAGE changes how the kernel backs
            // the pages, never their contents, and its failure is harmless.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
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

    #[test]
    fn huge_page_advice_keeps_the_contents() {
        let mut v = try_vec(5 << 20, "test array", 3u8).unwrap();
        advise_huge_pages(&mut v);
        advise_huge_pages(&mut v[..10]);
        assert!(v.iter().all(|&b| b == 3));
    }
}
