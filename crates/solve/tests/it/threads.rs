//! Parallel df-pn keeps to the run's call limit: the helpers count their
//! calls against it themselves, so a starved own thread (many threads on
//! few cores) does not let them run on (before, 16 threads given 1,000
//! calls made about 12,000).

use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
use zoo_core::Game;
use zoo_solve::dfpn::{self, Options};
use zoo_solve::{Answer, Goal, Limits};

/// The Jungle Checkers start: no thread decides it within these limits.
fn start() -> JungleCheckersPos {
    JungleCheckersPos::start(&&JUNGLE_CHECKERS_LEIDEN)
}

fn on(threads: usize) -> Options {
    Options {
        threads,
        ..Options::default()
    }
}

#[test]
fn many_threads_stop_near_the_call_limit() {
    for (threads, limit) in [(2, 1_000), (16, 1_000), (64, 5_000), (16, 200_000)] {
        let limits = Limits {
            memory_mb: Some(32),
            ..Limits::nodes(limit)
        };
        let r = dfpn::solve(&start(), Goal::Win, None, &limits, &on(threads));
        assert_eq!(r.answer, Answer::Unknown);
        // Each thread adds its calls every budget / (8 × threads) calls:
        // the threads together overshoot by an eighth at most, and the
        // own thread by one flush.
        assert!(
            r.nodes >= limit && r.nodes <= limit + limit / 4,
            "{threads} threads, limit {limit}: {} calls",
            r.nodes
        );
    }
}
