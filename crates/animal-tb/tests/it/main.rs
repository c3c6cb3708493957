//! Integration tests of the tables, in one binary so the 2- and 3-piece
//! tables of both games are built once.

mod advantage;
mod common;
mod copies;
mod encodings;
mod estimate;
mod files;
mod generate;
mod known;
mod oracle;
mod plan;
mod props;
mod ranks;
mod retro;
mod sample;
mod stats;
mod verify;
mod walk;
mod wdl;
mod wdl_oracle;
