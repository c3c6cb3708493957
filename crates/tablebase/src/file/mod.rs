//! The table file: a fixed 256-byte header, the values of each stored side
//! to move (plain or in zstd blocks; or, in a WDL-only file, win/draw/loss
//! alone in zstd blocks), and a CRC-32 of everything before it.
//!
//! ```text
//! 0    magic "ZOOTB\r\n\x1a"       8 bytes (the line ends catch text-mode copies)
//! 8    format version              u32: 1 plain, 2 zstd blocks, 3 WDL only
//! 12   number of sides stored      u32 (1 for a colour-symmetric material)
//! 16   game name                   32 bytes, zero padded
//! 48   rule set name               16 bytes, zero padded
//! 64   White kinds, Black kinds    u8, u8 (bit k = kind k), 6 bytes zero
//! 72   index size                  u64
//! 80   per side (2x): wins, draws, losses over all entries           3 x u64
//! 128  per side (2x): positions, wins, draws, losses, longest over
//!      the positions they stand for (mirror images counted, stalemates
//!      left out)                                                      5 x u64
//! 208  versions 2, 3: entries per block B   u32 (zero in version 1)
//! 212  zero up to 256
//!
//! version 1 (plain):
//! 256  per stored side: WDL, 2 bits per entry (0 draw, 1 win, 2 loss),
//!      4 entries per byte, low bits first, ceil(size/4) bytes;
//!      then the distance in plies, 1 byte per entry
//!
//! version 2 (zstd blocks), n = ceil(size/B) blocks per side:
//! 256  per stored side, its blocks 0..n: the value codes of entries
//!      kB..min((k+1)B, size), 1 byte per entry (0 draw, else distance + 1:
//!      odd distances win for the side to move, even ones lose), each block
//!      one independent zstd frame (content size and checksum included)
//! T    offset table: sides*n + 1 u64 file offsets; block k of side s is
//!      the bytes offset[s*n+k]..offset[s*n+k+1]; offset[0] = 256, the
//!      offsets strictly increase and the last one is T itself
//!
//! version 3 (WDL only, `<material>.zoowdl`): as version 2, each entry's
//!      byte its WDL code (0 draw, 1 win, 2 loss); the full table's header
//!
//! end  CRC-32 (IEEE) of all bytes before it, u32
//! ```
//! All integers little-endian. Every field is checked when a file is opened;
//! a version 2 block that does not decompress to exactly its length reads as
//! the invalid WDL code 3 (see [`Table::get`]), never as values.

mod format;
mod read;
mod write;

pub use format::*;
pub use read::*;
pub use write::*;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::path::{Path, PathBuf};
    use write::PLAIN_CHUNK;

    /// The writer as it was before the streaming one (version 1 only).
    fn old_write_table(path: &Path, header: &Header, values: &[&[u8]]) {
        let mut bytes = header.encode(Encoding::Plain, 0).to_vec();
        for vals in values.iter().take(header.sides) {
            let mut packed = vec![0u8; vals.len().div_ceil(4)];
            for (i, &v) in vals.iter().enumerate() {
                let wdl = if v == 0 {
                    WDL_DRAW
                } else if (v - 1) % 2 == 1 {
                    WDL_WIN
                } else {
                    WDL_LOSS
                };
                packed[i / 4] |= wdl << (2 * (i % 4));
            }
            bytes.extend_from_slice(&packed);
            bytes.extend(vals.iter().map(|&v| v.saturating_sub(1)));
        }
        let sum = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        std::fs::write(path, bytes).unwrap();
    }

    /// A material key as the animal games make it (White's kinds, then
    /// Black's), and its stored sides (one when both have the same kinds).
    #[derive(Clone, Copy)]
    struct Material {
        white: u8,
        black: u8,
    }
    impl Material {
        fn new(white: u8, black: u8) -> Material {
            Material { white, black }
        }
        fn key(self) -> u16 {
            u16::from_le_bytes([self.white, self.black])
        }
        fn sides(self) -> usize {
            if self.white == self.black {
                1
            } else {
                2
            }
        }
    }

    fn header(m: Material, size: u64) -> Header {
        Header::new("jungle-checkers", "leiden", m.key(), m.sides(), size)
    }

    /// Random codes with runs, like real tables.
    fn values(size: usize, seed: u64) -> Vec<u8> {
        let mut r = rand::rngs::StdRng::seed_from_u64(seed);
        let mut v = Vec::with_capacity(size);
        while v.len() < size {
            let c = if r.gen_bool(0.3) {
                0
            } else {
                r.gen_range(1..=255u8)
            };
            let run = r.gen_range(1..40);
            v.extend(std::iter::repeat_n(c, run.min(size - v.len())));
        }
        v
    }

    fn dir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("zoo-tb-file-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn plain_writer_matches_the_old_one() {
        let d = dir("plain");
        // Sizes around the chunk size and not multiples of 4.
        for (size, m) in [
            (1u64, Material::new(1, 2)),
            (4_099, Material::new(1, 2)),
            (PLAIN_CHUNK + 7, Material::new(1, 1)),
        ] {
            let h = header(m, size);
            let vals: Vec<Vec<u8>> = (0..h.sides)
                .map(|s| values(size as usize, s as u64))
                .collect();
            let refs: Vec<&[u8]> = vals.iter().map(|v| v.as_slice()).collect();
            let (a, b) = (d.join("new.zootb"), d.join("old.zootb"));
            write_table(&a, &h, &refs).unwrap();
            old_write_table(&b, &h, &refs);
            assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
            assert!(!d.join("new.zootb.tmp").exists());
        }
        let _ = std::fs::remove_dir_all(d);
    }

    /// A rule set with changed fields has a longer name than the 16 bytes
    /// at 48: the rest goes to 212, and a short name leaves those bytes
    /// zero, as files written before.
    #[test]
    fn long_rule_set_names_round_trip() {
        let m = Material::new(1, 2);
        for name in [
            "leiden",
            "leiden+stalemate=loss",
            &"x".repeat(RULES_NAME_MAX),
        ] {
            let h = Header::new("jungle", name, m.key(), m.sides(), 10);
            let bytes = h.encode(Encoding::Plain, 0);
            let (back, _, _) = Header::decode(&bytes, Path::new("t")).unwrap();
            assert_eq!(back, h);
            assert_eq!(bytes[64], m.white, "the material is not overwritten");
            if name.len() <= 16 {
                assert!(bytes[212..].iter().all(|&b| b == 0));
            }
        }
    }

    #[test]
    fn zstd_round_trip_with_the_cache() {
        let d = dir("zstd");
        let m = Material::new(1, 2);
        let size = 3 * 1000 + 17;
        let h = header(m, size);
        let vals: Vec<Vec<u8>> = (0..2).map(|s| values(size as usize, 10 + s)).collect();
        let fill = |s: usize, start: u64, out: &mut [u8]| {
            out.copy_from_slice(&vals[s][start as usize..start as usize + out.len()])
        };
        let p = d.join("z.zootb");
        let len = write_table_blocks(&p, &h, 1000, 3, &fill).unwrap();
        assert_eq!(len, std::fs::metadata(&p).unwrap().len());
        let t = Table::open(&p, &h.game, &h.rules, m.key(), m.sides(), size).unwrap();
        assert_eq!((t.encoding(), t.block_entries()), (Encoding::Zstd, 1000));
        let mut r = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..5000 {
            let (s, i) = (r.gen_range(0..2), r.gen_range(0..size));
            assert_eq!(t.get(s, i), split_code(vals[s][i as usize]));
        }
        // Out of range reads as invalid, not a panic.
        assert_eq!(t.get(2, 0).0, WDL_INVALID);
        assert_eq!(t.get(0, size).0, WDL_INVALID);
        let mut out = vec![0u8; 2018];
        t.read_codes(1, 999, &mut out).unwrap();
        assert_eq!(out, vals[1][999..3017]);
        assert!(t.read_codes(1, 999, &mut [0; 2019]).is_err());
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn split_code_parity() {
        assert_eq!(split_code(0), (WDL_DRAW, 0));
        assert_eq!(split_code(1), (WDL_LOSS, 0));
        assert_eq!(split_code(2), (WDL_WIN, 1));
        assert_eq!(split_code(255), (WDL_LOSS, 254));
    }
}
