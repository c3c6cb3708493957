//! Integration tests of the generic tables: a toy game that is not an
//! animal game gets tables from zoo-tb alone.

mod race;
mod retro_race;
mod scheme_race;
