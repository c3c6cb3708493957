//! The state of one side during a solve: 16 bits per entry, four to a word.

use super::*;

/// The state of one side: four 16-bit entries per `u64` word, so the
/// level sweep tests four entries per load (SWAR) and an update touches
/// one cache line.
///
/// The words live in an anonymous memory map advised to use transparent
/// huge pages: almost every state update lands on a random entry, and with
/// 4 KiB pages each of those also misses the TLB (a table of 8.5 G entries
/// has 4 M pages of state), whose page walk is another miss to memory.
/// Fresh anonymous pages are zero, the initial state, and are only touched
/// when the forward pass first writes them. A configuration larger than the
/// memory allowed keeps its words in a file instead (`Solve::state_dir`).
pub(super) struct State {
    map: MmapRaw,
    len: usize,
}

/// `0x0001` in every lane.
const LANES: u64 = 0x0001_0001_0001_0001;

impl State {
    /// Zero entries in memory, or with `file` in a file of that name (see
    /// [`Solve::state_dir`]).
    pub(super) fn new(size: u64, file: Option<&Path>) -> Result<State, TbError> {
        let len = size.div_ceil(4) as usize;
        let bytes = 8 * len.max(1);
        let map = match file {
            None => {
                let map = MmapOptions::new()
                    .len(bytes)
                    .map_anon()
                    .map_err(|e| TbError::Alloc {
                        bytes,
                        why: e.into(),
                    })?;
                // Only a hint: without huge pages the build is slower, not wrong.
                #[cfg(target_os = "linux")]
                let _ = map.advise(Advice::HugePage);
                map.into()
            }
            Some(path) => {
                let io = |e| TbError::io(path, e);
                let f = zoo_core::files::create_no_follow(path).map_err(io)?;
                // Without a name the file goes when `f` and the map do,
                // even if the build fails below or is killed later.
                std::fs::remove_file(path).map_err(io)?;
                // Its pages read as zero until written. The blocks are
                // reserved now, so a full disk is this error rather than a
                // SIGBUS when a page of the map is first written.
                f.set_len(bytes as u64).map_err(io)?;
                #[cfg(unix)]
                {
                    use std::os::fd::AsRawFd;
                    // SAFETY: a plain system call on a descriptor `f` owns.
                    let r =
                        unsafe { libc::posix_fallocate(f.as_raw_fd(), 0, bytes as libc::off_t) };
                    if r != 0 {
                        return Err(io(std::io::Error::from_raw_os_error(r)));
                    }
                }
                MmapOptions::new().len(bytes).map_raw(&f).map_err(io)?
            }
        };
        Ok(State { map, len })
    }

    #[inline(always)]
    pub(super) fn words(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned, `8 * len` bytes long, lives as
        // long as `self` and is only ever accessed through these atomics
        // (`AtomicU64` has the size and alignment of `u64`; any bits are a
        // valid value). `MmapRaw::as_mut_ptr` is a pointer with write access.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr().cast::<AtomicU64>(), self.len) }
    }

    /// The words holding entries `range` (of the entries of a range split
    /// build: the first is a multiple of 4, so no word is shared with the
    /// rank before), none for an empty range.
    pub(super) fn words_of(&self, range: std::ops::Range<u64>) -> &[AtomicU64] {
        if range.is_empty() {
            return &[];
        }
        &self.words()[(range.start / 4) as usize..range.end.div_ceil(4) as usize]
    }

    #[inline(always)]
    pub(super) fn get(&self, x: u64) -> u16 {
        (self.words()[(x / 4) as usize].load(Relaxed) >> (16 * (x % 4))) as u16
    }

    /// Entry `x` becomes `f(entry)` unless `f` says `None`; returns the
    /// entry it replaced. With `shared` an atomic read-modify-write,
    /// otherwise a plain load and store (see `Gen::shared`).
    #[inline(always)]
    pub(super) fn update(
        &self,
        x: u64,
        shared: bool,
        f: impl Fn(u16) -> Option<u16>,
    ) -> Option<u16> {
        let w = &self.words()[(x / 4) as usize];
        let sh = 16 * (x % 4);
        let lane = |word: u64| {
            let old = (word >> sh) as u16;
            f(old).map(|new| (word & !(0xffff << sh)) | (new as u64) << sh)
        };
        if shared {
            w.fetch_update(Relaxed, Relaxed, lane)
                .ok()
                .map(|old| (old >> sh) as u16)
        } else {
            let word = w.load(Relaxed);
            let new = lane(word)?;
            w.store(new, Relaxed);
            Some((word >> sh) as u16)
        }
    }

    /// Calls `f` with entries `start..end` in order, the whole words four
    /// lanes at a time with no test between (the passes over every entry:
    /// counting, writing the file).
    #[inline(always)]
    pub(super) fn for_each(&self, start: u64, end: u64, mut f: impl FnMut(u16)) {
        let mut x = start;
        while x < end && !x.is_multiple_of(4) {
            f(self.get(x));
            x += 1;
        }
        let whole = x + (end.saturating_sub(x) / 4) * 4;
        for w in &self.words()[(x / 4) as usize..(whole / 4) as usize] {
            let w = w.load(Relaxed);
            f(w as u16);
            f((w >> 16) as u16);
            f((w >> 32) as u16);
            f((w >> 48) as u16);
        }
        for x in whole..end {
            f(self.get(x));
        }
    }

    /// Sets entries `4k..4k + 4` at once (the forward pass owns them).
    pub(super) fn set4(&self, k: usize, v: [u16; 4]) {
        let word = v
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &e)| w | (e as u64) << (16 * i));
        self.words()[k].store(word, Relaxed);
    }
}

/// Lanes of `w` whose low byte is `code`: bit 15 of each such lane is set.
#[inline(always)]
pub(super) fn candidates(w: u64, code: u16) -> u64 {
    const HIGH: u64 = 0x8000_8000_8000_8000;
    // Low bytes equal to `code` become 0; setting bit 15 first keeps the
    // subtraction inside each lane, and bit 15 survives only where the
    // byte was not 0.
    let y = (w ^ (code as u64 * LANES)) & 0x00ff_00ff_00ff_00ff;
    !((y | HIGH) - LANES) & HIGH
}
