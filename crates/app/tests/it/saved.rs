//! Saved games: written and read back, for each game, in the format its
//! players use (PDN for checkers, `zoo match`'s JSON line for the animal
//! games); what is not a game is refused with a message.

use zoo_app::{AppError, EngineOptions, GameKind, SavedGame, Session};

/// A session of `game` after `moves` from the start.
fn played(game: GameKind, moves: &[&str]) -> Session {
    let mut s = Session::new(game, None, EngineOptions::default()).unwrap();
    s.set_position::<&str>(None, moves).unwrap();
    s
}

#[test]
fn every_game_round_trips_through_its_text() {
    for (game, moves) in [
        (GameKind::Jungle, &["a3a4", "g7g6", "a4a5"][..]),
        (GameKind::JungleCheckers, &["c2c3", "b7b6"][..]),
        (
            GameKind::ClassicalCheckers,
            &["12-16", "21-17", "16-20"][..],
        ),
        (GameKind::EnglishCheckers, &["9-13", "22-18"][..]),
    ] {
        let s = played(game, moves);
        let saved = SavedGame::of(&s);
        let text = saved.to_text();
        let back = SavedGame::parse(game, &text).unwrap_or_else(|e| panic!("{game}: {e}\n{text}"));
        let again = back.session(EngineOptions::default()).unwrap();
        assert_eq!(again.fen(), s.fen(), "{game}:\n{text}");
        assert_eq!(again.start_fen(), s.start_fen(), "{game}");
        assert_eq!(again.moves().len(), moves.len(), "{game}");
        assert_eq!(back.result, "*");
    }
}

#[test]
fn checkers_games_are_pdn_and_animal_games_match_records() {
    let pdn = SavedGame::of(&played(GameKind::EnglishCheckers, &["9-13", "22-18"])).to_text();
    assert!(pdn.contains("[Rules \"english\"]"), "{pdn}");
    assert!(pdn.contains("1. 9-13 22-18"), "{pdn}");
    // A line as `zoo match` writes it, with keys a game does not need.
    let line = r#"{"index":3,"game":"jungle","rules":"leiden","opening":"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w","white":"A","black":"B","moves":["a3a4","g7g6"],"result":"1/2-1/2","reason":"adjudicated","final":"x"}"#;
    let g = SavedGame::parse(GameKind::Jungle, line).unwrap();
    assert_eq!((g.moves.len(), g.result.as_str()), (2, "1/2-1/2"));
    g.session(EngineOptions::default()).unwrap();
    // PDN may open with a comment, which is in braces like JSON.
    let commented = "{A comment before the game}\n1. 11-15 23-19 *\n";
    let g = SavedGame::parse(GameKind::EnglishCheckers, commented).unwrap();
    assert_eq!(g.moves, ["11-15", "23-19"]);
}

#[test]
fn a_json_line_names_its_own_game() {
    let text = SavedGame::of(&played(GameKind::JungleCheckers, &["c2c3"])).to_text();
    let g = SavedGame::parse(GameKind::Jungle, &text).unwrap();
    assert_eq!(g.game, GameKind::JungleCheckers);
}

#[test]
fn a_finished_game_keeps_its_result() {
    // White's tiger takes Black's last piece.
    let mut s = Session::new(GameKind::Jungle, None, EngineOptions::default()).unwrap();
    s.set_position::<&str>(Some("7/7/7/7/7/7/7/1t5/1T5 w"), &["b1b2"])
        .unwrap();
    assert_eq!(SavedGame::of(&s).result, "1-0");
}

#[test]
fn what_is_not_a_game_is_refused() {
    let bad = |game, text: &str| match SavedGame::parse(game, text)
        .and_then(|g| g.session(EngineOptions::default()))
    {
        Err(e @ (AppError::Input(_) | AppError::Move { .. } | AppError::Parse(_))) => e.to_string(),
        Err(e) => panic!("{text:?}: {e:?}"),
        Ok(_) => panic!("{text:?} accepted"),
    };
    assert!(bad(GameKind::Jungle, "").contains("no game"));
    assert!(bad(GameKind::Jungle, "{\"game\":\"jungle\"}").contains("not a game record"));
    let illegal = r#"{"game":"jungle","rules":"leiden","opening":"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w","moves":["a3a5"]}"#;
    assert!(bad(GameKind::Jungle, illegal).contains("a3a5"));
    assert!(bad(GameKind::ClassicalCheckers, "1. 12-16 12-16 *").contains("12-16"));
}
