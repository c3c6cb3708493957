//! The animal games' endgame tables: their fast generator and the tools
//! around it, over the files and probes of `zoo-tb`.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN as RULES;
//! use zoo_animal::{JungleCheckers, JungleCheckersPos};
//! use zoo_animal_tb::build::{build, BuildOptions};
//! use zoo_animal_tb::{plan::plan, Tablebase};
//! use zoo_core::{Game, Outcome};
//!
//! // Every table of two pieces, built into a fresh directory.
//! let dir = std::env::temp_dir().join(format!("zoo-animal-tb-doc-{}", std::process::id()));
//! let opts = BuildOptions {
//!     pieces: 2,
//!     threads: 1,
//!     memory_bytes: None,
//!     encoding: None,
//!     copies: true,
//!     checkpoint_from: None,
//! };
//! let jobs = plan::<JungleCheckers>(&dir, &RULES, &opts).unwrap();
//! build::<JungleCheckers>(&dir, &RULES, &opts, &jobs, &|_| {}, &|_| {}, &AtomicBool::new(false))
//!     .unwrap();
//! // White's rat beside Black's den walks in: a win in 1 ply.
//! let tb = Tablebase::<JungleCheckers>::open(&dir, &RULES);
//! let pos = JungleCheckersPos::from_fen("7/3R3/7/7/7/7/e6 w", &&RULES).unwrap();
//! assert_eq!(tb.try_probe(&pos).unwrap(), (Outcome::Win, 1));
//! # std::fs::remove_dir_all(dir).unwrap();
//! ```
//!
//! One generator, generic over the board ([`zoo_animal::Board`]): the dense
//! index per material configuration ([`index`], in zoo-animal), backward
//! induction through unmoves with a counter of undecided children per
//! position ([`generate`]), the copies of configurations that are renamings
//! of others ([`isomorph`]), the 1-bit advantage mode ([`advantage`]), the
//! planner and the build driver ([`plan`], [`build`]), an independent check
//! by forward value iteration that shares nothing with the generator, not
//! even the index ([`verify`]) and, for tables too large for it, a one-ply
//! check of random entries ([`sample`]). The files, probing
//! ([`zoo_tb::Tablebase`] over [`AnimalScheme`]) and the generic generator
//! ([`zoo_tb::retro`]) are zoo-tb's. See `docs/tablebase.md`.

pub mod advantage;
pub mod build;
pub mod build_retro;
pub mod calibrate;
pub mod checkpoint;
pub mod diff;
pub mod disk;
pub mod estimate;
pub mod generate;
pub mod memory;
pub mod options;
pub use zoo_animal::tables::index;
pub mod isomorph;
pub mod plan;
pub mod recompress;
pub mod sample;
pub mod verify;
pub mod wdl;

pub use zoo_animal::tables::scheme::{slot_of, AnimalScheme, Layouts, Slot};
pub(crate) use zoo_tb::{cluster, decode, file, manifest, retro};
pub use zoo_tb::{Damage, TbError};

use index::Material;
use zoo_animal::tables::scheme::stored_stm;
use zoo_animal::{Board, Position};
use zoo_core::Outcome;

/// The header of material `m`'s table (no counts yet): the key and the
/// stored sides as `AnimalScheme` gives them.
pub fn header<B: Board>(rules: &str, m: Material, size: u64) -> file::Header {
    use zoo_core::TableScheme;
    file::Header::new(
        B::GAME,
        rules,
        AnimalScheme::<B>::key(m),
        AnimalScheme::<B>::stored_sides(m),
        size,
    )
}

/// The tables of an animal game and rule set in a directory.
pub type Tablebase<B> = zoo_tb::Tablebase<AnimalScheme<B>>;

/// The tables of an animal game as the search's and the solver's oracle.
pub type TbOracle<B> = zoo_tb::oracle::TbOracle<AnimalScheme<B>>;

/// Walks every entry of stored side `side` (0: White to move, 1: Black
/// to move) of the table of canonical material `m` in index order,
/// calling `f(index, position, value)` with the value for the side to
/// move and its distance in plies. Each entry is one position with its
/// first piece on files a-d (its mirror image has the same value). For
/// whole-table work (census, decision trees): the positions are built
/// by moving the pieces that change from one entry to the next, not
/// decoded one by one.
pub fn walk<B: Board>(
    tb: &Tablebase<B>,
    m: Material,
    side: usize,
    mut f: impl FnMut(u64, &Position<B>, (Outcome, u16)),
) -> Result<(), TbError> {
    let table = tb.table(m)?;
    let layout = tb.scheme().layout(m);
    if side >= table.header.sides {
        return Err(TbError::NoSuchEntry {
            material: m.name::<B>(),
            side,
            index: 0,
        });
    }
    let stm = stored_stm(side);
    let n = layout.n;
    let mut digits = [0u32; 16];
    let mut sqs = [0u8; 16];
    let mut pos = None;
    tb.read_values(m, side, |x, value| {
        let p = match &mut pos {
            None => {
                layout.locate(x, &mut digits, &mut sqs);
                pos.insert(layout.position::<B>(&sqs[..n], stm, tb.rules()))
            }
            Some(p) => {
                let old = sqs;
                let from = layout.advance(&mut digits, &mut sqs);
                for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&old[from..n]) {
                    p.remove(ps, pk, s);
                }
                for (&(ps, pk), &s) in layout.pieces[from..n].iter().zip(&sqs[from..n]) {
                    p.put(ps, pk, s);
                }
                p
            }
        };
        f(x, p, value);
    })
}
