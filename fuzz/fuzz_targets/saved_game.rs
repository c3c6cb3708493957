//! Saved games (`zoo play`'s load): never a panic, in reading the text
//! or in replaying its moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_app::{EngineOptions, GameKind, SavedGame};

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        for game in [GameKind::Jungle, GameKind::ClassicalCheckers] {
            if let Ok(g) = SavedGame::parse(game, s) {
                let _ = g.session(EngineOptions::default());
            }
        }
    }
});
