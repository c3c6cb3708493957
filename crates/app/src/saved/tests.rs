//! The tree of a saved game: written and read back with its variations
//! and comments (PDN and the JSON line), and the refusals of
//! `bad_games.txt`, each an error that says where and what.

use super::*;

fn tree_of(game: GameKind, text: &str) -> SavedGame {
    SavedGame::parse(game, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// English checkers: a main line of four moves, a comment before the
/// game and on a move, a variation (with its own comment and a variation
/// in it) replacing the second move, and another replacing the third.
const ENGLISH: &str = "{From the start} 1. 9-14 22-18 {the usual reply} (1... 23-19 {a side line} 2. 11-15 (2. 5-9 24-20) 19-16) 2. 11-15 (2. 5-9 {keeps 9} 24-20) 18x9 1/2-1/2";

#[test]
fn pdn_variations_and_comments_round_trip() {
    let g = tree_of(GameKind::EnglishCheckers, ENGLISH);
    assert_eq!(g.moves, ["9-14", "22-18", "11-15", "18x9"]);
    assert_eq!(g.comment.as_deref(), Some("From the start"));
    assert_eq!(g.tree[1].comment.as_deref(), Some("the usual reply"));
    let side = &g.tree[1].variations[0];
    let line: Vec<&str> = side.iter().map(|p| p.mv.as_str()).collect();
    assert_eq!(line, ["23-19", "11-15", "19-16"]);
    assert_eq!(side[0].comment.as_deref(), Some("a side line"));
    assert_eq!(side[1].variations[0][1].mv, "24-20");
    assert_eq!(
        g.tree[2].variations[0][0].comment.as_deref(),
        Some("keeps 9")
    );
    assert_eq!(g.tree[1].at, Some((1, 26)));
    // Every move is legal, the variations' too; the tree checked.
    let checked = g.checked_tree().unwrap();
    assert_eq!(checked[1].variations[0][2].short, "19-16");
    g.session(EngineOptions::default()).unwrap();
    // Written and read again: the same tree, the same text.
    let text = g.to_text();
    assert!(
        text.replace('\n', " ")
            .contains("(1... 23-19 {a side line} 2. 11-15 (2. 5-9 24-20) 2... 19-16)"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let back = tree_of(GameKind::EnglishCheckers, &text);
    assert_eq!(back, g, "{text}");
    assert_eq!(back.to_text(), text);
    // The PDN reader of zoo_checkers reads it too (variations skipped).
    let plain = parse_pdn(&text).unwrap();
    assert_eq!(plain[0].moves.len(), 4);
}

#[test]
fn a_tree_is_kept_in_coordinates_and_written_where_it_has_notes() {
    let start = "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w";
    let plain = SavedGame {
        game: GameKind::JungleCheckers,
        rules: "leiden".into(),
        start: start.into(),
        moves: vec!["c2c3".into(), "b7b6".into()],
        result: "*".into(),
        comment: None,
        tree: Vec::new(),
    };
    // Without notes the line is as `zoo match` writes it.
    assert!(!plain.to_text().contains("tree"), "{}", plain.to_text());
    let mut first = Ply::plain("c2c3");
    first.comment = Some("  the dog forward ".into());
    first.variations = vec![vec![Ply::plain("e2e3"), Ply::plain("c6c5")]];
    let g = plain
        .with_tree(Some("a test".into()), vec![first, Ply::plain("b7b6")])
        .unwrap();
    assert_eq!(g.tree[0].comment.as_deref(), Some("the dog forward"));
    let text = g.to_text();
    assert!(text.contains(r#""tree":[{"mv":"c2c3","comment":"the dog forward","variations":[[{"mv":"e2e3"},{"mv":"c6c5"}]]},{"mv":"b7b6"}]"#), "{text}");
    let back = tree_of(GameKind::Jungle, &text);
    assert_eq!(back, g);
    assert_eq!(
        back.checked_tree().unwrap()[0].variations[0][0].short,
        "Te3"
    );
    // Moves in another notation are kept as coordinates.
    let english = SavedGame::parse(GameKind::EnglishCheckers, "1. 9-14 *").unwrap();
    let g = english
        .clone()
        .with_tree(None, vec![Ply::plain("9-14"), Ply::plain("22-18")])
        .unwrap();
    assert_eq!(g.moves, ["9-14", "22-18"]);
}

#[test]
fn bad_games_are_refused_with_where_and_what() {
    let mut cases = 0;
    for (n, line) in include_str!("bad_games.txt").lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(3, " | ").collect();
        let [game, text, want] = parts[..] else {
            panic!("bad_games.txt line {}: not GAME | TEXT | ERROR", n + 1)
        };
        let game: GameKind = game.parse().unwrap();
        let text = text.replace("\\n", "\n");
        let got = SavedGame::parse(game, &text).and_then(|g| g.session(EngineOptions::default()));
        match got {
            Err(e @ AppError::Input(_)) => assert!(
                e.to_string().contains(want),
                "bad_games.txt line {}: {text:?}\n  said: {e}\n  want: {want}",
                n + 1
            ),
            Err(e) => panic!("bad_games.txt line {}: not an input error: {e:?}", n + 1),
            Ok(_) => panic!("bad_games.txt line {}: {text:?} accepted", n + 1),
        }
        cases += 1;
    }
    assert!(cases >= 20, "{cases} cases");
}

#[test]
fn no_text_makes_the_readers_panic() {
    // Every cut of a text with a tree, and brackets and braces at random.
    let text = tree_of(GameKind::EnglishCheckers, ENGLISH).to_text();
    for (i, _) in text.char_indices() {
        let _ = SavedGame::parse(GameKind::EnglishCheckers, &text[..i]).map(|g| g.checked_tree());
    }
    let mut x: u32 = 12345;
    for _ in 0..2000 {
        let mut t = String::new();
        for _ in 0..(x % 40) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            t.push_str(
                [
                    "(",
                    ")",
                    "{",
                    "}",
                    " 9-14",
                    " 22-18",
                    " 1.",
                    "*",
                    " ",
                    "$1",
                    "[E \"(\"]",
                ][(x % 11) as usize],
            );
        }
        let _ = SavedGame::parse(GameKind::EnglishCheckers, &t).map(|g| g.checked_tree());
    }
}
