//! The layout of a table file: its constants, header and value codes.

use crate::{Damage, TbError};
use std::path::{Path, PathBuf};

/// The first 8 bytes of every table file.
pub const MAGIC: &[u8; 8] = b"ZOOTB\r\n\x1a";
/// The plain format.
pub const VERSION: u32 = 1;
/// The zstd block format.
pub const VERSION_ZSTD: u32 = 2;
/// The WDL-only format: win/draw/loss codes in zstd blocks, no distances.
pub const VERSION_WDL: u32 = 3;
/// The header's length in bytes.
pub const HEADER: usize = 256;
/// The longest rule set name a header holds: 16 bytes at 48, then the
/// rest at 212 (those bytes were zero before names with changed fields,
/// `leiden+stalemate=loss`, were longer than 16; older files read alike).
pub const RULES_NAME_MAX: usize = 16 + (HEADER - 212);

/// The WDL code of a draw.
pub const WDL_DRAW: u8 = 0;
/// The WDL code of a win for the side to move.
pub const WDL_WIN: u8 = 1;
/// The WDL code of a loss for the side to move.
pub const WDL_LOSS: u8 = 2;
/// What [`Table::get`] answers for an entry it cannot read (a damaged block).
pub const WDL_INVALID: u8 = 3;

/// Entries per zstd block (measured in `docs/log/tablebase.md`).
pub const BLOCK_ENTRIES: u32 = 1 << 14;
/// zstd level of the blocks.
pub const ZSTD_LEVEL: i32 = 3;
/// Largest block size a reader accepts (a damaged header must not make it
/// allocate without bound).
const MAX_BLOCK: u64 = 1 << 24;

/// How the values are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Version 1: 2-bit WDL plus a distance byte per entry.
    Plain,
    /// Version 2: the value codes in independently compressed zstd blocks.
    Zstd,
    /// Version 3: only win/draw/loss, one code per entry (0 draw, 1 win,
    /// 2 loss) in zstd blocks; the WDL file beside a full table
    /// (`<material>.zoowdl`).
    Wdl,
}

impl Encoding {
    /// As `--encoding` names it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Plain => "plain",
            Encoding::Zstd => "zstd",
            Encoding::Wdl => "wdl",
        }
    }
    /// The header's format version.
    pub fn version(self) -> u32 {
        match self {
            Encoding::Plain => VERSION,
            Encoding::Zstd => VERSION_ZSTD,
            Encoding::Wdl => VERSION_WDL,
        }
    }
    /// Whether entries carry their distance (not a WDL-only file).
    pub fn has_distances(self) -> bool {
        self != Encoding::Wdl
    }
}

/// Counts of one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Over the index entries.
    pub entries: [u64; 3],
    /// Over the positions they stand for: positions, wins, draws, losses, longest.
    pub positions: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// The longest distance to the end, in plies.
    pub longest: u64,
}

impl SideCounts {
    /// The counts of two parts together.
    pub fn merged(self, b: SideCounts) -> SideCounts {
        SideCounts {
            entries: [
                self.entries[0] + b.entries[0],
                self.entries[1] + b.entries[1],
                self.entries[2] + b.entries[2],
            ],
            positions: self.positions + b.positions,
            wins: self.wins + b.wins,
            draws: self.draws + b.draws,
            losses: self.losses + b.losses,
            longest: self.longest.max(b.longest),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// What a table file says of itself.
pub struct Header {
    /// The game's name.
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// The material's key (`TableScheme::key`): two bytes at 64.
    pub material: u16,
    /// Sides to move stored: 1 or 2.
    pub sides: usize,
    /// Entries per stored side.
    pub size: u64,
    /// The counts of each stored side.
    pub counts: [SideCounts; 2],
}

impl Header {
    /// A header with no counts yet for a table of `sides` stored sides.
    pub fn new(game: &str, rules: &str, material: u16, sides: usize, size: u64) -> Header {
        Header {
            game: game.to_string(),
            rules: rules.to_string(),
            material,
            sides,
            size,
            counts: Default::default(),
        }
    }

    fn side_bytes(&self) -> usize {
        self.size.div_ceil(4) as usize + self.size as usize
    }
    /// The length of the plain (version 1) file.
    pub fn file_len(&self) -> usize {
        HEADER + self.sides * self.side_bytes() + 4
    }
    /// `block` is the entries per block of versions 2 and 3, 0 for version 1.
    pub(super) fn encode(&self, encoding: Encoding, block: u32) -> [u8; HEADER] {
        let mut h = [0u8; HEADER];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&encoding.version().to_le_bytes());
        h[12..16].copy_from_slice(&(self.sides as u32).to_le_bytes());
        h[16..16 + self.game.len()].copy_from_slice(self.game.as_bytes());
        // The builder refuses longer names (`TbError::RulesNameTooLong`).
        let rules = &self.rules.as_bytes()[..self.rules.len().min(RULES_NAME_MAX)];
        let (head, rest) = rules.split_at(rules.len().min(16));
        h[48..48 + head.len()].copy_from_slice(head);
        h[212..212 + rest.len()].copy_from_slice(rest);
        h[64..66].copy_from_slice(&self.material.to_le_bytes());
        h[72..80].copy_from_slice(&self.size.to_le_bytes());
        for s in 0..2 {
            let c = &self.counts[s];
            for j in 0..3 {
                let o = 80 + s * 24 + j * 8;
                h[o..o + 8].copy_from_slice(&c.entries[j].to_le_bytes());
            }
            for (j, v) in [c.positions, c.wins, c.draws, c.losses, c.longest]
                .into_iter()
                .enumerate()
            {
                let o = 128 + s * 40 + j * 8;
                h[o..o + 8].copy_from_slice(&v.to_le_bytes());
            }
        }
        h[208..212].copy_from_slice(&block.to_le_bytes());
        h
    }
    /// The header, the encoding and (version 2) the entries per block.
    pub(super) fn decode(h: &[u8], path: &Path) -> Result<(Header, Encoding, u64), TbError> {
        let bad = |why: Damage| TbError::Damaged(path.to_path_buf(), why);
        if h.len() < HEADER {
            return Err(bad(Damage::ShortHeader));
        }
        if &h[0..8] != MAGIC {
            return Err(bad(Damage::BadMagic));
        }
        let u64at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().expect("8 bytes"));
        let u32at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().expect("4 bytes"));
        let version = u32at(8);
        let (encoding, block) = match version {
            VERSION => (Encoding::Plain, 0),
            VERSION_ZSTD | VERSION_WDL => {
                let b = u32at(208) as u64;
                if b == 0 || b > MAX_BLOCK {
                    return Err(bad(Damage::BlockSize(b)));
                }
                let e = if version == VERSION_WDL {
                    Encoding::Wdl
                } else {
                    Encoding::Zstd
                };
                (e, b)
            }
            _ => {
                return Err(bad(Damage::Version {
                    found: version,
                    reads: [VERSION, VERSION_ZSTD, VERSION_WDL],
                }))
            }
        };
        let sides = u32at(12) as usize;
        if sides != 1 && sides != 2 {
            return Err(bad(Damage::Sides));
        }
        let text = |r: std::ops::Range<usize>| -> Result<String, TbError> {
            let b = &h[r];
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8(b[..end].to_vec()).map_err(|_| bad(Damage::NameNotUtf8))
        };
        let mut counts = [SideCounts::default(); 2];
        for (s, c) in counts.iter_mut().enumerate() {
            for j in 0..3 {
                c.entries[j] = u64at(80 + s * 24 + j * 8);
            }
            let v: Vec<u64> = (0..5).map(|j| u64at(128 + s * 40 + j * 8)).collect();
            (c.positions, c.wins, c.draws, c.losses, c.longest) = (v[0], v[1], v[2], v[3], v[4]);
        }
        let header = Header {
            game: text(16..48)?,
            rules: text(48..64)? + &text(212..HEADER)?,
            material: u16::from_le_bytes([h[64], h[65]]),
            sides,
            size: u64at(72),
            counts,
        };
        Ok((header, encoding, block))
    }
}

/// The file name of the table of the material named `material`.
pub fn file_name(material: &str) -> String {
    format!("{material}.zootb")
}

/// The file name of a material's WDL-only file, beside its table.
pub fn wdl_file_name(material: &str) -> String {
    format!("{material}.zoowdl")
}

/// Where the tables of a game and rule set live under `dir`.
pub fn table_dir(dir: &Path, game: &str, rules: &str) -> PathBuf {
    dir.join(game).join(rules)
}

/// WDL code and distance of a value code (0 draw, else distance + 1).
#[inline(always)]
pub fn split_code(v: u8) -> (u8, u8) {
    if v == 0 {
        (WDL_DRAW, 0)
    } else if (v - 1) % 2 == 1 {
        (WDL_WIN, v - 1)
    } else {
        (WDL_LOSS, v - 1)
    }
}
