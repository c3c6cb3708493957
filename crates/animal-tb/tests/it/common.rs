//! Shared by the integration tests: tables built once per test binary into
//! a temporary directory.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;
use zoo_animal::{Board, Jungle, JungleCheckers, RuleSet};
use zoo_animal_tb::build::{build, BuildOptions, BuildReport};

/// Builds fresh tables (an earlier run's are removed first) under the
/// target directory's scratch space.
pub fn build_into<B: Board>(name: &str, rules: &'static RuleSet, pieces: u32) -> PathBuf {
    build_with::<B>(name, rules, &options(pieces)).0
}

/// Up to `pieces` pieces with two threads, copying renamed configurations,
/// in the default encoding, with no bound on memory.
pub fn options(pieces: u32) -> BuildOptions {
    BuildOptions {
        pieces,
        threads: 2,
        memory_bytes: None,
        encoding: None,
        copies: true,
        checkpoint_from: None,
    }
}

/// [`build_into`] with other options; with what the build did.
pub fn build_with<B: Board>(
    name: &str,
    rules: &'static RuleSet,
    opts: &BuildOptions,
) -> (PathBuf, BuildReport) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let stop = AtomicBool::new(false);
    let plan = zoo_animal_tb::plan::plan::<B>(&dir, rules, opts).expect("a plan");
    let report = build::<B>(&dir, rules, opts, &plan, &|_| {}, &|_| {}, &stop).expect("build");
    (dir, report)
}

pub fn jungle3() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| build_into::<Jungle>("jungle", &zoo_animal::rules::JUNGLE_LEIDEN, 3))
}

/// Jungle Checkers to 4 pieces, built once per run of the binary for the
/// tests that only read it.
pub fn jc4() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        build_into::<JungleCheckers>("jc4-shared", &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 4)
    })
}

pub fn jc3() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        build_into::<JungleCheckers>("jc", &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 3)
    })
}

/// A stop flag raised once `at` steps of progress have been reported.
pub struct StopAt {
    at: u64,
    done: AtomicU64,
    pub stop: AtomicBool,
}

impl StopAt {
    pub fn new(at: u64) -> StopAt {
        StopAt {
            at,
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        }
    }
    pub fn progress(&self, k: u64) {
        if self.done.fetch_add(k, Relaxed) + k >= self.at {
            self.stop.store(true, Relaxed);
        }
    }
}
