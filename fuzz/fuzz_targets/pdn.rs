//! PDN files: never a panic, in parsing or in replaying each game.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_checkers::pdn::{parse_pdn, replay};
use zoo_checkers::{Classical, English, CLASSICAL, ENGLISH};

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok(games) = parse_pdn(s) {
            for g in games.iter().take(4) {
                let _ = replay::<Classical>(g, &CLASSICAL);
                let _ = replay::<English>(g, &ENGLISH);
            }
        }
    }
});
