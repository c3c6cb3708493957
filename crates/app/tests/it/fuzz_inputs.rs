//! A short property-based fuzz of the text entry points, run with the
//! tests (the long coverage-guided runs are in `fuzz/`, docs/fuzzing.md):
//! random text and random changes to valid text never panic, and what
//! parses round-trips.

use proptest::prelude::*;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_app::{EngineOptions, GameKind, SavedGame};
use zoo_checkers::pdn::{parse_pdn, replay};
use zoo_checkers::{Classical, ClassicalPos, EnglishPos, CLASSICAL};
use zoo_core::{Game, MoveList};

/// Valid inputs of every entry point, to mutate.
const SEEDS: &[&str] = &[
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
    "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w 3",
    "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
    "B:WK5,6:BK29",
    "[Event \"x\"]\n1. 12-16 21-17 2. 16-20 *\n",
    "{\"game\":\"jungle\",\"rules\":\"leiden\",\"opening\":\"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w\",\"moves\":[\"a3a4\"]}",
    "zoo-proof 1\ngame jungle-checkers\nrules leiden\nfen 7/3R3/7/7/7/7/e6 w\ngoal win\nanswer proven\nnodes 2\n0 - - -\n1 0 d6d7 terminal loss\n",
];

/// A seed with a few characters replaced, removed or inserted.
fn mutated() -> impl Strategy<Value = String> {
    (
        0..SEEDS.len(),
        prop::collection::vec((any::<usize>(), any::<char>(), 0..3u8), 1..6),
    )
        .prop_map(|(i, edits)| {
            let mut c: Vec<char> = SEEDS[i].chars().collect();
            for (at, ch, kind) in edits {
                let at = at % (c.len() + 1);
                match kind {
                    0 if at < c.len() => c[at] = ch,
                    1 if at < c.len() => {
                        c.remove(at);
                    }
                    _ => c.insert(at, ch),
                }
            }
            c.into_iter().collect()
        })
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), mutated()]
}

fn fen_round_trip<G: Game>(s: &str) {
    for name in G::rule_names() {
        let rules = G::rules_by_name(name).unwrap();
        if let Ok(p) = G::from_fen(s, &rules) {
            let again = G::from_fen(&p.to_fen(), &rules).expect("its own FEN parses");
            assert_eq!(again.to_fen(), p.to_fen());
        }
    }
}

fn moves_legal<G: Game>(s: &str) {
    let p = G::start(&G::default_rules());
    if let Ok(m) = p.parse_move(s) {
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        assert!(legal.contains(&m));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn fens_parse_or_refuse_and_round_trip(s in any_text()) {
        fen_round_trip::<JunglePos>(&s);
        fen_round_trip::<JungleCheckersPos>(&s);
        fen_round_trip::<ClassicalPos>(&s);
        fen_round_trip::<EnglishPos>(&s);
    }

    #[test]
    fn moves_parse_to_legal_moves_or_refuse(s in any_text()) {
        moves_legal::<JunglePos>(&s);
        moves_legal::<ClassicalPos>(&s);
        moves_legal::<EnglishPos>(&s);
    }

    #[test]
    fn pdn_saved_games_and_proofs_never_panic(s in any_text()) {
        if let Ok(games) = parse_pdn(&s) {
            for g in games.iter().take(2) {
                let _ = replay::<Classical>(g, &CLASSICAL);
            }
        }
        for game in [GameKind::Jungle, GameKind::ClassicalCheckers] {
            if let Ok(g) = SavedGame::parse(game, &s) {
                let _ = g.session(EngineOptions::default());
            }
        }
        let _ = zoo_proofcheck::check::<JungleCheckersPos>(&s, &&JUNGLE_CHECKERS_LEIDEN, None);
    }
}
