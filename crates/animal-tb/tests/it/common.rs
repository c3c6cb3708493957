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

/// The shared tables of this build (leiden at the size they hold), if
/// any: [`jungle3`] or [`jc4`].
pub fn shared<B: Board>(rules: &RuleSet, pieces: u32) -> Option<&'static PathBuf> {
    match (B::GAME, rules.name, pieces) {
        ("jungle-checkers", "leiden", 4) => Some(jc4()),
        ("jungle", "leiden", 3) => Some(jungle3()),
        _ => None,
    }
}

/// The tables up to `pieces` in a directory of the caller's own, which
/// it may write into: a copy of the [`shared`] build where there is one
/// (a copy takes a fraction of a second, a build up to half a minute),
/// else built there.
pub fn own_copy<B: Board>(name: &str, rules: &'static RuleSet, pieces: u32) -> PathBuf {
    let Some(from) = shared::<B>(rules, pieces) else {
        return build_into::<B>(name, rules, pieces);
    };
    let to = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-tb-{name}"));
    let _ = std::fs::remove_dir_all(&to);
    copy_tree(from, &to);
    to
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for e in std::fs::read_dir(from).expect("the shared tables") {
        let e = e.expect("an entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("a type").is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copied");
        }
    }
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
