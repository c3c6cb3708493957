//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod checkers;
mod common;
mod ghi;
mod graph;
mod material;
mod measure;
mod pns;
mod resume;
mod rounds;
mod sizes;
mod stored;
mod tables;
mod threads;
