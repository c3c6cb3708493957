//! Endgame tables of both checkers games through the generic table crate
//! (`zoo-tb`): the unmoves its generator needs ([`retro`], the
//! [`zoo_core::Retro`] implementation), the dense index of one material
//! ([`index`]) and of one slice of it ([`slice`]), and the spread of
//! materials over table files ([`scheme`]).
//!
//! A table holds every position of one material — White men, White kings,
//! Black men, Black kings — for both sides to move; from 7 pieces on, one
//! slice of it (the rows of each side's most advanced man). Within a material only
//! quiet moves that do not crown stay inside; captures lead to fewer
//! pieces and promotions to one man fewer and one king more, both to
//! tables built before (docs/checkers.md, "Endgame tables").

pub mod index;
pub mod retro;
pub mod scheme;
pub mod slice;

pub use index::{CheckersIndex, Material};
pub use retro::Unmove;
pub use scheme::{CheckersScheme, ClassicalScheme, EnglishScheme, SLICED_FROM};
pub use slice::{Leads, Part, PartIndex, SliceIndex};
