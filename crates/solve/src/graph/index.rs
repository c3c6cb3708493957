//! The graph's index: position keys to node numbers.
//!
//! Hand-written rather than a `HashMap` because its probes are the
//! build's cost: std's map took 65% of the time of a 4.7-million-position
//! build in its probes, each a cache miss (perf, docs/log/solve.md). Open
//! addressing with linear probing in two flat arrays lets the build fetch
//! every child's slot before it reads any ([`Index::prefetch`]).

use crate::prefetch;

/// Keys to node numbers; the key 0 marks an empty slot, so a position
/// whose key is 0 is stored as 1 (a 64-bit collision, as likely as any
/// other between keys, which the graph accepts as df-pn's table does).
pub(crate) struct Index {
    keys: Vec<u64>,
    nodes: Vec<u32>,
    mask: usize,
    len: usize,
}

#[inline]
fn stored(key: u64) -> u64 {
    key.max(1)
}

impl Index {
    /// An empty index.
    pub(crate) fn new() -> Index {
        Index {
            keys: vec![0; 1024],
            nodes: vec![0; 1024],
            mask: 1023,
            len: 0,
        }
    }

    /// Keys held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes allocated.
    pub(crate) fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.nodes.capacity() * 4
    }

    /// Fetches `key`'s first slot into the cache.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        let i = stored(key) as usize & self.mask;
        prefetch::line(self.keys.as_ptr().wrapping_add(i));
        prefetch::line(self.nodes.as_ptr().wrapping_add(i));
    }

    /// The node of `key`, if held.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let key = stored(key);
        let mut i = key as usize & self.mask;
        loop {
            match self.keys[i] {
                0 => return None,
                k if k == key => return Some(self.nodes[i]),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    /// The node of `key`, or `next` stored as it when the key is new
    /// (`Ok((node, new))`); `Err` when the memory to grow is not there.
    #[inline]
    pub(crate) fn get_or_insert(&mut self, key: u64, next: u32) -> Result<(u32, bool), ()> {
        // Kept at most 5/8 full: linear probing slows sharply beyond.
        if (self.len + 1) * 8 > (self.mask + 1) * 5 {
            self.grow()?;
        }
        let key = stored(key);
        let mut i = key as usize & self.mask;
        loop {
            match self.keys[i] {
                0 => {
                    self.keys[i] = key;
                    self.nodes[i] = next;
                    self.len += 1;
                    return Ok((next, true));
                }
                k if k == key => return Ok((self.nodes[i], false)),
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    fn grow(&mut self) -> Result<(), ()> {
        let size = (self.mask + 1) * 2;
        let mut keys: Vec<u64> = Vec::new();
        let mut nodes: Vec<u32> = Vec::new();
        keys.try_reserve_exact(size).map_err(|_| ())?;
        nodes.try_reserve_exact(size).map_err(|_| ())?;
        keys.resize(size, 0);
        nodes.resize(size, 0);
        let mask = size - 1;
        for (&k, &n) in self.keys.iter().zip(&self.nodes) {
            if k != 0 {
                let mut i = k as usize & mask;
                while keys[i] != 0 {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                nodes[i] = n;
            }
        }
        self.keys = keys;
        self.nodes = nodes;
        self.mask = mask;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_find_their_nodes_through_growth_and_key_zero() {
        let mut ix = Index::new();
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for i in 0..10_000u64 {
            assert_eq!(ix.get_or_insert(key(i), i as u32), Ok((i as u32, true)));
        }
        for i in 0..10_000u64 {
            assert_eq!(ix.get(key(i)), Some(i as u32));
            assert_eq!(ix.get_or_insert(key(i), 7), Ok((i as u32, false)));
        }
        assert_eq!(ix.get(key(10_001)), None);
        assert_eq!(ix.len(), 10_000);
        // Key 0 (i = 0 above) is stored as 1: found under 0.
        assert_eq!(ix.get(0), Some(0));
    }
}
