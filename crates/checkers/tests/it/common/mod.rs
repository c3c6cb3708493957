//! The perft cases of tests/data/perft.txt, shared by the tests that
//! check counts against them.
#![allow(dead_code)]

use zoo_testkit::{cases, perft};

pub const PERFT: &str = include_str!("../../data/perft.txt");

/// The expected count of one start-position case of the data file.
pub fn start_count(game: &str, depth: u32) -> u64 {
    cases::read(PERFT, perft::Expect::parse)
        .ok()
        .and_then(|cs| {
            cs.into_iter()
                .find(|c| c.game == game && c.position == "start" && c.expect.depth == depth)
        })
        .map(|c| c.expect.count)
        .unwrap_or_else(|| panic!("no {game} start perft({depth}) in tests/data/perft.txt"))
}
