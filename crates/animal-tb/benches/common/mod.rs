//! What the benches share: Jungle Checkers tables built once into a
//! temporary directory before the clock runs.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckers;
use zoo_animal_tb::build::{build, BuildOptions};
use zoo_animal_tb::plan::plan;
use zoo_tb::file::Encoding;

/// The Jungle Checkers tables of up to `pieces` pieces, in `encoding`,
/// built into a fresh temporary directory named for `name`.
pub fn tables(name: &str, pieces: u32, encoding: Encoding) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zoo-tb-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = BuildOptions {
        pieces,
        threads: 1,
        memory_bytes: None,
        encoding: Some(encoding),
        copies: true,
        checkpoint_from: None,
    };
    let plan = plan::<JungleCheckers>(&dir, &JUNGLE_CHECKERS_LEIDEN, &opts).expect("a plan");
    build::<JungleCheckers>(
        &dir,
        &JUNGLE_CHECKERS_LEIDEN,
        &opts,
        &plan,
        &|_| {},
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("the tables build");
    dir
}
