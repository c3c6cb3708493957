//! Endgame tables of any game with unmoves: the table file, probing, a
//! generator and a check, written against zoo-core's traits alone
//! ([`zoo_core::Retro`], [`zoo_core::TableIndex`] and
//! [`zoo_core::TableScheme`]).
//!
//! ```
//! use zoo_tb::file::{split_code, write_table, Header, Table, WDL_LOSS, WDL_WIN};
//!
//! // A table of 5 entries and one side to move: its value codes (0 draw,
//! // else the distance in plies + 1; odd distances win), written and read.
//! let dir = std::env::temp_dir().join(format!("zoo-tb-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("KvK.zootb");
//! let header = Header::new("toy", "plain", 0x0101, 1, 5);
//! write_table(&path, &header, &[&[0, 1, 2, 3, 4]]).unwrap();
//! let table = Table::open(&path, "toy", "plain", 0x0101, 1, 5).unwrap();
//! assert_eq!(table.get(0, 2), (WDL_WIN, 1)); // a win in 1 ply
//! assert_eq!(table.get(0, 1), split_code(1));
//! assert_eq!(table.get(0, 1).0, WDL_LOSS);
//! # std::fs::remove_dir_all(dir).unwrap();
//! ```
//!
//! - [`file`]: the checked file format (header, plain or zstd blocks,
//!   WDL-only files) with its streaming writer and memory-mapped reader;
//! - [`Tablebase`]: the tables of one rule set in a directory, opened on
//!   first use, probed through the game's [`zoo_core::TableScheme`];
//!   [`oracle::TbOracle`] makes them the search's and the solver's oracle;
//! - [`retro`]: a generator over [`zoo_core::TableIndex`] (level by level
//!   through unmoves) and [`verify`]: a check by forward value iteration,
//!   sharing no code with it;
//! - [`manifest`] (the checksum list of a directory) and [`cluster`]
//!   (the ranks of a build split across processes or machines).
//!
//! The animal games add their own fast generator, planner and tools in
//! `zoo-animal-tb`. See `docs/tablebase.md`.
#![warn(missing_docs)]

pub mod cluster;
pub mod error;
pub mod file;
pub mod manifest;
pub mod oracle;
pub mod retro;
mod tablebase;
pub mod verify;

pub use error::{Damage, TbError};
pub use tablebase::{decode, Tablebase};
