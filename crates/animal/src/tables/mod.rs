//! What the endgame tables need to know of the animal games: material
//! configurations and the dense index of one configuration, which is
//! also the animal games' [`zoo_core::TableIndex`] ([`index::AnimalIndex`]),
//! and how positions are spread over the files ([`scheme::AnimalScheme`],
//! their [`zoo_core::TableScheme`]). The files, probes, the generic
//! generator and check are in `zoo-tb`; the animal games' fast generator in
//! `zoo-animal-tb`.

pub mod index;
pub mod scheme;
