//! The checkers tables through the generic table crate: the index, the
//! unmoves, every small table built by `zoo_tb::retro::solve` and checked
//! by the forward verifier, the colour-swap symmetry and hand-checked
//! probes.

mod build;
mod counts;
mod figures;
mod index;
mod positions;
mod probes;
mod slices;
mod unmoves;
mod verify;
mod zugzwang;
