//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod checkers_engine;
mod equivalence;
mod limits;
mod mates;
mod multipv;
