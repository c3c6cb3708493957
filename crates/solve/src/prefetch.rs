//! Asking the processor to fetch memory before it is read: the tables of
//! df-pn and of the reachable graph are read at random, one cache miss a
//! child, and fetching every child's slot before reading any overlaps
//! those misses instead of waiting for each in turn (docs/log/solve.md).

/// Fetches the cache line holding `p` (a hint: any address will do, none
/// is read).
#[inline(always)]
pub(crate) fn line<T>(p: *const T) {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch
        // is a hint that never faults, whatever address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
    }
}
