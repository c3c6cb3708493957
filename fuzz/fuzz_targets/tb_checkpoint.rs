//! Table-build checkpoints (`zoo tb build`'s `.ckpt`): never a panic,
//! and one that loads holds a state a solve can leave (its next level
//! below 255; it is checked entry by entry on loading). The input is the
//! next level (8 bytes) and the words after the header of a small
//! configuration's checkpoint; the first byte says whether the CRC-32 is
//! made right, so that the fuzzer gets past it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::atomic::AtomicU64;
use zoo_animal_tb::checkpoint::{load, Parts};
use zoo_animal_tb::index::Material;

/// Entries of the fuzzed configuration: two words of state per side.
const SIZE: u64 = 8;
const LEVELS: usize = 255;

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let flags = data[0];
    let level = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let zero = |n: usize| (0..n).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let (s0, s1) = (zero(2), zero(2));
    let marks: Vec<[Vec<AtomicU64>; 2]> = (0..LEVELS).map(|_| [zero(1), zero(1)]).collect();
    let parts = Parts::whole(Material::new(1, 8), SIZE, [&s0, &s1], &marks);
    let mut bytes = parts.head(level);
    bytes.extend_from_slice(&data[9..]);
    if flags & 1 != 0 {
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
    }
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        std::path::PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let path = dir.join(format!("zoo-fuzz-tb-{}.ckpt", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    if let Ok(Some(l)) = load(&path, &parts) {
        assert_eq!(l, level);
        assert!(l < LEVELS as u64);
    }
    let _ = std::fs::remove_file(&path);
});
