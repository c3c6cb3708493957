//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod common;
mod move_limit;
mod moves;
mod perft;
mod properties;
mod reference;
mod rules;
mod tables;
