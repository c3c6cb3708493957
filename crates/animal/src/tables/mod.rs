//! What the endgame tables need to know of the animal games: material
//! configurations and the dense index of one configuration, which is
//! also the animal games' [`zoo_core::TableIndex`] ([`index::AnimalIndex`]).
//! The generators, files and probes are in `zoo-tb`.

pub mod index;
