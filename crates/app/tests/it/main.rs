//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod ballots;
mod census;
mod fuzz_inputs;
mod fuzz_protocol;
mod fuzz_table_files;
mod jcei;
mod perft;
mod positions;
mod protocol;
mod saved;
mod session;
mod solve_checkpoint;
mod solve_front;
mod solve_store;
mod tables;
mod trees;
