//! The integration tests of this crate, in one binary (the workspace's
//! convention: one link per crate).

mod api;
