//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod api;
mod common;
mod connections;
mod errors;
mod fuzz_bodies;
mod load;
mod load_mixed;
mod rule_flood;
mod stuck_search;
