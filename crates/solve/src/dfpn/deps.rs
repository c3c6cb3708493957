//! The chain of a stored value under [`Ghi::Path`](super::Ghi::Path): the
//! positions above a node that the repetitions its numbers rely on
//! return to.

use super::Child;

/// At most this many positions a stored value's repetitions return to
/// ([`Ghi::Path`](super::Ghi::Path)). A value relying on more is not stored: four keys keep
/// an entry at 56 bytes, and on the test samples 2 and 8 left as many or
/// more answers unknown (docs/solve.md); storing fewer values is never
/// wrong, only slower.
pub const MAX_DEPS: usize = 4;

/// The positions above a node that the repetitions its numbers rely on
/// return to ([`Ghi::Path`](super::Ghi::Path)), by key; `len > MAX_DEPS` means "too many to
/// keep" (never stored, and absorbing on the way up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Deps {
    keys: [u64; MAX_DEPS],
    pub(super) len: u8,
}

impl Deps {
    pub(super) const NONE: Deps = Deps {
        keys: [0; MAX_DEPS],
        len: 0,
    };
    pub(super) const TOO_MANY: Deps = Deps {
        keys: [0; MAX_DEPS],
        len: MAX_DEPS as u8 + 1,
    };

    pub(super) fn one(key: u64) -> Deps {
        let mut d = Deps::NONE;
        d.insert(key);
        d
    }

    pub(super) fn too_many(&self) -> bool {
        self.len as usize > MAX_DEPS
    }

    pub(super) fn keys(&self) -> &[u64] {
        if self.too_many() {
            &[]
        } else {
            &self.keys[..self.len as usize]
        }
    }

    pub(super) fn insert(&mut self, key: u64) {
        if self.too_many() || self.keys().contains(&key) {
            return;
        }
        if self.len as usize == MAX_DEPS {
            *self = Deps::TOO_MANY;
        } else {
            self.keys[self.len as usize] = key;
            self.len += 1;
        }
    }

    pub(super) fn union(&mut self, other: &Deps) {
        if other.too_many() {
            *self = Deps::TOO_MANY;
        }
        for &k in other.keys() {
            self.insert(k);
        }
    }

    /// Without `key`: the node's own position, which its subtree's
    /// repetitions may return to whatever the path above.
    pub(super) fn without(&self, key: u64) -> Deps {
        if self.too_many() {
            return *self;
        }
        let mut d = Deps::NONE;
        for &k in self.keys().iter().filter(|&&k| k != key) {
            d.insert(k);
        }
        d
    }

    /// How a stored entry keeps them: unused slots hold the entry's own
    /// key, which is never one of them (so no length is needed).
    pub(super) fn packed(&self, own: u64) -> [u64; MAX_DEPS] {
        let mut p = [own; MAX_DEPS];
        p[..self.len as usize].copy_from_slice(self.keys());
        p
    }

    pub(super) fn unpacked(p: &[u64; MAX_DEPS], own: u64) -> Deps {
        let mut d = Deps::NONE;
        for &k in p.iter().filter(|&&k| k != own) {
            d.insert(k);
        }
        d
    }
}

/// The chain of a node's numbers under [`Ghi::Path`](super::Ghi::Path), its own key still
/// in: proven for its side to move, that of the proving child with the
/// shortest chain (a clean one if any: the proof needs only it);
/// otherwise every child's, since the disproof (or the open numbers)
/// rests on all of them.
pub(super) fn path_deps<M>(kids: &[Child<M>], proven: bool) -> Deps {
    if proven {
        kids.iter()
            .filter(|k| k.delta == 0)
            .map(|k| k.deps)
            .min_by_key(|d| d.len)
            .unwrap_or(Deps::NONE)
    } else {
        let mut d = Deps::NONE;
        for k in kids {
            d.union(&k.deps);
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_keep_at_most_max_deps_keys() {
        let mut d = Deps::NONE;
        for k in 1..=MAX_DEPS as u64 {
            d.insert(k);
            d.insert(k);
        }
        assert_eq!(d.keys().len(), MAX_DEPS);
        assert_eq!(d.without(1).keys(), &[2, 3, 4]);
        // Packed with the entry's own key in the unused slots.
        let w = d.without(2);
        assert_eq!(Deps::unpacked(&w.packed(2), 2), w);
        d.insert(99);
        assert!(d.too_many());
        // Too many stays too many: which keys it held is forgotten.
        assert!(d.without(99).too_many());
        let mut e = Deps::one(7);
        e.union(&d);
        assert!(e.too_many());
    }
}
