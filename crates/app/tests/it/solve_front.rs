//! A front of positions below a root (`zoo solve --front`): its positions
//! lie where it says (every move of a side that does not prove, the
//! engine's move of the one that does, none a finished game), and solved
//! as a batch into a store they decide the root with the answers a search
//! without them finds, in a fraction of its calls.

use crate::solve_store::{calls, children, request};
use std::collections::BTreeSet;
use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
use zoo_app::solve::batch::{solve_batch, BatchEnd, Output};
use zoo_app::solve::front::{front, FrontReport, FrontRequest, Prover};
use zoo_app::solve::{solve, SolveReport};
use zoo_app::GameKind;
use zoo_core::Game;

/// A Jungle Checkers loss for Black that takes df-pn thousands of calls
/// (as in solve_store.rs).
const FEN: &str = "7/3e3/7/7/7/3R3/2D4 b";

fn front_of(prover: Prover, plies: u32) -> FrontReport {
    front(&FrontRequest {
        game: GameKind::JungleCheckers,
        rules: None,
        fen: Some(FEN.into()),
        tables: None,
        plies,
        depth: 6,
        prover,
    })
    .unwrap()
}

fn finished(fen: &str) -> bool {
    JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN)
        .unwrap()
        .terminal()
        .is_some()
}

#[test]
fn a_front_lies_where_it_says() {
    // Neither side proving, one ply: every child the game goes on in.
    let all = front_of(Prover::Neither, 1);
    let expected: BTreeSet<String> = children(FEN).into_iter().filter(|c| !finished(c)).collect();
    let got: BTreeSet<String> = all.positions.iter().map(|p| p.fen.clone()).collect();
    assert_eq!(got, expected);
    assert_eq!(all.prover, "neither");
    // The engine's guess: Black, to move, is lost, so White proves.
    // Black's every move, then White's one: at most one position per
    // child, each two plies down with Black to move, the best for White
    // first.
    let guess = front_of(Prover::Guess, 2);
    assert_eq!(guess.prover, "opponent");
    assert!(guess.root_score < 0);
    assert!(!guess.positions.is_empty());
    assert!(guess.positions.len() <= expected.len());
    let grandchildren: BTreeSet<String> = children(FEN).iter().flat_map(|c| children(c)).collect();
    for p in &guess.positions {
        assert_eq!(p.plies, 2);
        assert!(grandchildren.contains(&p.fen), "{} is no grandchild", p.fen);
        assert!(p.fen.contains(" b"), "{}", p.fen);
    }
    assert!(guess.positions.windows(2).all(|w| w[0].score >= w[1].score));
    // The batch file reads back as the front.
    let batch = zoo_app::solve::batch::positions_of(&guess.to_batch());
    let fens: Vec<&str> = guess.positions.iter().map(|p| p.fen.as_str()).collect();
    assert_eq!(batch, fens);
    // Out of range: refused.
    assert!(front(&FrontRequest {
        plies: 0,
        ..FrontRequest {
            game: GameKind::JungleCheckers,
            rules: None,
            fen: Some(FEN.into()),
            tables: None,
            plies: 1,
            depth: 6,
            prover: Prover::Guess,
        }
    })
    .is_err());
}

#[test]
fn a_front_solved_into_a_store_decides_the_root_as_a_search_does() {
    let d = std::env::temp_dir().join(format!("zoo-front-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let store = d.join("front.store");
    let fresh = solve(&request(FEN, None)).unwrap();
    let f = front_of(Prover::Neither, 1);
    let fens: Vec<String> = f.positions.iter().map(|p| p.fen.clone()).collect();
    let mut shown = Vec::new();
    let show = |r: &SolveReport| format!("{} {:?}", r.fen, r.value);
    let mut emit = |s: &str| shown.push(s.to_string());
    let mut out = Output {
        show: &show,
        emit: &mut emit,
        stop: &|| false,
    };
    let ended = solve_batch(&request(FEN, Some(&store)), &fens, &mut out).unwrap();
    assert_eq!(ended, BatchEnd::Done);
    assert_eq!(shown.len(), fens.len());
    let with = solve(&request(FEN, Some(&store))).unwrap();
    assert_eq!(with.value, fresh.value);
    assert!(
        calls(&with) * 50 < calls(&fresh),
        "{} calls with the front stored, {} without",
        calls(&with),
        calls(&fresh)
    );
    let _ = std::fs::remove_dir_all(&d);
}
