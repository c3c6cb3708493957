//! FEN of every game: never a panic; a FEN that parses prints a FEN that
//! parses back to the same position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_core::Game;

fn round_trip<G: Game + PartialEq + std::fmt::Debug>(s: &str) {
    for name in G::rule_names() {
        let rules = G::rules_by_name(name).expect("a listed rule set");
        if let Ok(p) = G::from_fen(s, &rules) {
            let again = G::from_fen(&p.to_fen(), &rules).expect("its own FEN parses");
            assert_eq!(again.to_fen(), p.to_fen(), "{s:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        round_trip::<zoo_animal::JunglePos>(s);
        round_trip::<zoo_animal::JungleCheckersPos>(s);
        round_trip::<zoo_checkers::ClassicalPos>(s);
        round_trip::<zoo_checkers::EnglishPos>(s);
    }
});
