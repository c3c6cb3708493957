//! The integration tests of this crate, in one binary (one link instead
//! of one per file; what the tests build once is shared by all of them).
//! Each module is one file of tests; `cargo test --test it MODULE::` runs one.

mod bad_input_cli;
mod browser;
mod cb_cli;
mod checkers_engine_cli;
mod checkers_tb_cli;
mod common;
mod decide_cli;
mod examples_cli;
mod files_cli;
mod jcei_cli;
mod json_cli;
mod json_doc_cli;
mod limits_cli;
mod literature_d_cli;
mod match_cli;
mod messages_cli;
mod moves_cli;
mod mpi_cli;
mod mpi_solve_cli;
mod perft_cli;
mod play_cli;
mod progress_cli;
mod proof_cost_cli;
mod protocol_end_cli;
mod search_cli;
mod serve_cli;
mod solve_cli;
mod solve_store_cli;
mod tb_cli;
mod train_cli;
mod wdl_engine_cli;
