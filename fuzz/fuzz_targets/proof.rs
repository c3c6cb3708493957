//! Proof files: the checker never panics on any text, and accepts no
//! proof of a position that is not what it claims (checked by the rules
//! as it replays).
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckersPos;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = zoo_proofcheck::header(s);
        let _ = zoo_proofcheck::check::<JungleCheckersPos>(s, &&JUNGLE_CHECKERS_LEIDEN, None);
    }
});
