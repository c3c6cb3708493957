//! The example moves a newcomer meets first are legal: those of the
//! README's positions and the one `zoo play` suggests.

use assert_cmd::Command;
use zoo_app::{EngineOptions, GameKind, Session};

/// The README's paragraph on positions: each position (a code span with
/// `/` or `:`) with the code spans after it up to the next `;` or `)` of
/// the prose, which are its example moves.
fn readme_examples() -> Vec<(String, Vec<String>)> {
    let readme = include_str!("../../../../README.md");
    let start = readme
        .find("\nPositions:")
        .expect("the README has a paragraph on positions");
    let para = readme[start + 1..].split("\n\n").next().unwrap();
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    let mut open = false;
    for (i, piece) in para.split('`').enumerate() {
        if i % 2 == 0 {
            // Prose: a `;` or `)` ends a position's moves.
            open &= !piece.contains([';', ')']);
        } else if piece.contains(['/', ':']) {
            examples.push((piece.to_string(), Vec::new()));
            open = true;
        } else if open {
            examples.last_mut().unwrap().1.push(piece.to_string());
        }
    }
    examples
}

#[test]
fn the_readme_example_moves_are_legal() {
    let examples = readme_examples();
    assert!(examples.len() >= 2, "{examples:?}");
    for (fen, moves) in &examples {
        assert!(!moves.is_empty(), "no example move for {fen}");
        // The position belongs to some game, where each move is legal.
        let legal_in = |g: &GameKind| {
            let mut s = Session::new(*g, None, EngineOptions::default()).unwrap();
            moves
                .iter()
                .all(|m| s.set_position(Some(fen), &[m.as_str()]).is_ok())
        };
        assert!(
            GameKind::ALL.iter().any(legal_in),
            "the README's moves {moves:?} are not all legal in {fen}"
        );
    }
}

fn play(game: &str, side: &str, input: &str) -> String {
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .args(["play", "--game", game, "--as", side, "--depth", "1"])
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn the_move_play_suggests_is_legal() {
    for game in GameKind::ALL.map(GameKind::name) {
        for side in ["white", "black"] {
            let text = play(game, side, "");
            let line = text
                .lines()
                .find(|l| l.starts_with("Type a move as "))
                .unwrap_or_else(|| panic!("{game} as {side}: no example move\n{text}"));
            let moves: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
            assert!(!moves.is_empty(), "{line}");
            for m in moves {
                let text = play(game, side, &format!("{m}\n"));
                assert!(
                    !text.contains("Not a legal move") && text.contains("engine plays"),
                    "{game} as {side}: the suggested {m} was refused\n{text}"
                );
            }
        }
    }
}
