//! This machine's rates for [`crate::estimate`], measured in a few
//! seconds: every table of up to 3 pieces is built in a scratch directory
//! (its copies give the cost of a copy per entry), the largest 4-piece
//! configuration is solved by one thread (the cost of a solve per entry
//! and piece, and the predecessors it tells), and random state updates are
//! timed in a state of that configuration's size and in a large one (what
//! a told predecessor costs once the state no longer fits the caches).

use crate::build::{build, BuildOptions};
use crate::estimate::Rates;
use crate::file::Encoding;
use crate::generate::{generate, working_bytes, Solve, Work};
use crate::index::Material;
use crate::{plan, Tablebase, TbError};
use memmap2::MmapOptions;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use zoo_animal::{Board, RuleSet};

/// Random updates timed per state size: enough that the time is not the
/// timer's, few enough to take well under a second in a large state.
const UPDATES: u64 = 1 << 23;

/// What was measured.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub rates: Rates,
    /// The configuration solved.
    pub material: Material,
    /// Its entries, both sides.
    pub positions: u64,
    /// Its solve's time and work.
    pub secs: f64,
    pub work: Work,
    /// The whole calibration's time.
    pub total_secs: f64,
}

/// Measures the rates of `B`'s tables under `rules`, building in `scratch`
/// (an empty directory, left with the ≤ 3-piece tables in it). The large
/// state timed is `large_bytes`; the network's rate cannot be measured on
/// one machine and is `network_bytes_per_sec`.
pub fn calibrate<B: Board>(
    rules: &'static RuleSet,
    scratch: &Path,
    large_bytes: u64,
    network_bytes_per_sec: f64,
    stop: &AtomicBool,
) -> Result<Calibration, TbError> {
    let t0 = Instant::now();
    let opts = BuildOptions {
        pieces: 3,
        threads: 1,
        memory_bytes: None,
        encoding: Some(Encoding::Plain),
        copies: true,
        checkpoint_from: None,
    };
    let small = plan::plan::<B>(scratch, rules, &opts)?;
    let report = build::<B>(scratch, rules, &opts, &small, &|_| {}, &|_| {}, stop)?;
    let (mut copy_secs, mut copied) = (0.0, 0u64);
    for b in report.built.iter().filter(|b| b.copied_from.is_some()) {
        copy_secs += b.secs;
        copied += small
            .jobs
            .iter()
            .find(|j| j.material.name::<B>() == b.name)
            .map_or(0, |j| j.positions);
    }

    let tb = Tablebase::<B>::open(scratch, rules);
    let material = Material::canonical::<B>(4)
        .into_iter()
        .max_by_key(|&m| tb.scheme().layout(m).size)
        .ok_or_else(|| TbError::Plan(format!("{} has no 4-piece configuration", B::GAME)))?;
    let size = tb.scheme().layout(material).size;
    let start = Instant::now();
    let g = generate(&tb, material, &Solve::default(), &|_| {}, stop)?;
    let secs = start.elapsed().as_secs_f64();

    let state = working_bytes(size);
    let near = update_secs(state)?;
    let far = update_secs(large_bytes.max(state))?;
    let positions = 2 * size;
    let piece_entries = (positions * 4) as f64;
    let told = g.work.told as f64;
    // What is left once the updates are paid for is the moves' and
    // unmoves' own work; never less than a fifth of the time, so a noisy
    // update timing cannot make it vanish.
    let own = (secs - told * near).max(0.2 * secs);
    Ok(Calibration {
        rates: Rates {
            entry_secs: own / piece_entries,
            told_per_entry: told / piece_entries,
            update_secs: vec![(state, near), (large_bytes.max(state), far)],
            copy_secs: if copied > 0 {
                copy_secs / copied as f64
            } else {
                0.0
            },
            network_bytes_per_sec,
        },
        material,
        positions,
        secs,
        work: g.work,
        total_secs: t0.elapsed().as_secs_f64(),
    })
}

/// Seconds per update of a 16-bit entry in a state of `bytes`, as a
/// level's sweep tells predecessors: the decided positions are taken in
/// index order, and each predecessor differs from its child by one
/// piece's move, so its entry is the child's plus a few times the stride
/// of that piece's digit (the index's radices are about 46, the squares
/// free to a piece): near for the last pieces, far for the first. Plain
/// read-modify-writes (the processor overlaps their misses), in anonymous
/// memory advised to use huge pages, as the generator's state is.
pub fn update_secs(bytes: u64) -> Result<f64, TbError> {
    let len = bytes.max(4096) as usize;
    let mut map = MmapOptions::new()
        .len(len)
        .map_anon()
        .map_err(|e| TbError::Alloc {
            bytes: len,
            why: e.into(),
        })?;
    // Only a hint, as for the state.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    // Every page touched first, as the forward pass writes every word:
    // the page faults are not what is measured.
    for page in map.chunks_mut(4096) {
        page[0] = 1;
    }
    let entries = (len / 2) as u64;
    let mut strides = vec![1u64];
    while strides.len() < 16 && strides[strides.len() - 1] * RADIX < entries {
        strides.push(strides[strides.len() - 1] * RADIX);
    }
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut child = 0u64;
    let t0 = Instant::now();
    for k in 0..UPDATES {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if k % TOLD == 0 {
            child = (child + 1 + (x >> 60)) % entries;
        }
        let stride = strides[((x >> 8) % strides.len() as u64) as usize];
        let step = stride * (1 + (x >> 40) % 6);
        let at = if x & 1 == 0 {
            (child + step) % entries
        } else {
            (child + entries - step % entries) % entries
        };
        let i = 2 * at as usize;
        let v = u16::from_ne_bytes([map[i], map[i + 1]]).wrapping_sub(1);
        map[i..i + 2].copy_from_slice(&v.to_ne_bytes());
    }
    let secs = t0.elapsed().as_secs_f64();
    std::hint::black_box(&map);
    Ok(secs / UPDATES as f64)
}

/// The radix of a digit of the index: about the squares free to a piece.
const RADIX: u64 = 46;
/// Predecessors told per decided position, about.
const TOLD: u64 = 6;
