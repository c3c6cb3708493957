//! How many positions a game has, per number of pieces: the checkers
//! count of literature C ([`checkers`]) and the census of the animal
//! games' positions by kind and reachability, literature A's chapter
//! ([`animal`]).

pub mod animal;
pub mod checkers;
pub mod checkpoint;

pub use animal::{
    animal_census, animal_estimate, AnimalCensusReport, CensusRequest, EstimateReport, Method,
};
pub use checkers::{checkers_census, CensusReport};
/// The readings of reachability and a census row, as the animal crate defines them.
pub use zoo_animal::census::sample::{Estimate, EstimatedRow};
pub use zoo_animal::census::{Reading, Row};
