//! Zeroed arrays that start on a page: the search tables.
//!
//! Why not a zeroed `Vec`: the allocator hands a large zeroed block out
//! 16 bytes past a page's start (its header), so a table's 64-byte
//! buckets straddle two cache lines and a bucket read misses twice. A
//! private anonymous mapping starts on a page, and is zeroed as lazily:
//! pages are mapped as they are first written, so a question decided
//! soon pays only for what it wrote (docs/log/solve.md, 37th session).

use std::ops::{Deref, DerefMut};

/// `len` zeroed `T`s in memory of their own, starting on a page.
pub(crate) struct Pages<T> {
    map: memmap2::MmapMut,
    len: usize,
    _t: std::marker::PhantomData<T>,
}

impl<T: bytemuck::Zeroable> Pages<T> {
    /// `len` zeroed elements; an error when the system refuses the memory.
    pub(crate) fn zeroed(len: usize) -> std::io::Result<Self> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
        // A page's alignment covers any element's.
        assert!(std::mem::align_of::<T>() <= 4096);
        let map = memmap2::MmapMut::map_anon(bytes.max(1))?;
        Ok(Pages {
            map,
            len,
            _t: std::marker::PhantomData,
        })
    }
}

impl<T: bytemuck::Zeroable> Deref for Pages<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping holds `len` elements' bytes, starts on a
        // page (aligned for `T`), lives as long as `self`, and holds
        // zeros or what was written through `deref_mut`; zeros are a
        // valid `T` (`Zeroable`).
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast(), self.len) }
    }
}

impl<T: bytemuck::Zeroable> DerefMut for Pages<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the slice unique.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::Pages;

    #[test]
    fn a_table_starts_on_a_page_zeroed_and_keeps_what_is_written() {
        let mut p: Pages<[u64; 4]> = Pages::zeroed(10_000).unwrap();
        assert_eq!(p.as_ptr() as usize % 4096, 0);
        assert_eq!(p.len(), 10_000);
        assert!(p.iter().all(|e| *e == [0; 4]));
        p[9_999] = [1, 2, 3, 4];
        assert_eq!(p[9_999], [1, 2, 3, 4]);
        let empty: Pages<u64> = Pages::zeroed(0).unwrap();
        assert!(empty.is_empty());
        // More than any address space: an error, not an abort.
        assert!(Pages::<u64>::zeroed(usize::MAX / 16).is_err());
        assert!(Pages::<u64>::zeroed(usize::MAX).is_err());
    }
}
