//! Move strings on a few positions of each game: never a panic; a move
//! that parses is legal and its coordinate form parses to the same move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_core::{Game, MoveList};

fn check<G: Game>(fens: &[&str], s: &str) {
    let rules = G::default_rules();
    for fen in fens {
        let p = if fen.is_empty() { G::start(&rules) } else { G::from_fen(fen, &rules).expect("a test position") };
        if let Ok(m) = p.parse_move(s) {
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            assert!(legal.contains(&m), "{s:?} parsed to an illegal move");
            assert!(p.parse_move(&p.move_to_coord(m)).ok() == Some(m), "{s:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        check::<zoo_animal::JunglePos>(&["", "7/7/7/7/L6/7/7/7/7 w"], s);
        check::<zoo_animal::JungleCheckersPos>(&["", "7/7/d6/7/5T1/1D5/7 w"], s);
        check::<zoo_checkers::ClassicalPos>(&[""], s);
        check::<zoo_checkers::EnglishPos>(&[""], s);
    }
});
