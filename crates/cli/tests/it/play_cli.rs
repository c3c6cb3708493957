//! `zoo play` end to end: undo and redo, hint, flip, resign, new game,
//! save and load (with `--load`), and two people on one board.

use assert_cmd::Command;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

/// `zoo play` with `args`, `input` typed; its output.
fn play(args: &[&str], input: &str) -> String {
    let out = zoo()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The FENs printed, in order.
fn fens(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("FEN: "))
        .collect()
}

const JC_START: &str = "1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w";

#[test]
fn undo_takes_back_a_turn_and_redo_plays_it_again() {
    let out = play(
        &["--game", "jungle-checkers", "--depth", "2"],
        "c2c3\nundo\nredo\nundo\nundo\nquit\n",
    );
    let f = fens(&out);
    // start, after c2c3, after the reply, undone, redone, undone.
    assert_eq!(f.len(), 6, "{out}");
    assert_eq!((f[0], f[3], f[5]), (JC_START, JC_START, JC_START), "{out}");
    assert_eq!(f[2], f[4], "{out}");
    assert!(out.contains("Nothing to undo."), "{out}");
}

#[test]
fn hint_flip_and_resign() {
    let out = play(
        &["--game", "jungle-checkers", "--depth", "2"],
        "hint\nflip\nresign\nc2c3\nquit\n",
    );
    assert!(out.contains("hint: "), "{out}");
    // Flipped: files from the right, rank 1 on top.
    assert!(out.contains("   g f e d c b a"), "{out}");
    assert!(out.contains("white resigns, black wins"), "{out}");
    assert!(out.contains("The game is over."), "{out}");
    assert!(!out.contains("engine plays"), "{out}");
}

#[test]
fn two_people_play_both_sides() {
    let out = play(
        &["--game", "jungle-checkers", "--as", "both", "--depth", "2"],
        "c2c3\nb7b6\nquit\n",
    );
    assert!(!out.contains("engine plays"), "{out}");
    assert_eq!(fens(&out).last(), Some(&"5e1/1rt1d2/7/7/2D4/4T2/1E3R1 w 2"));
}

#[test]
fn a_saved_game_loads_where_it_stood() {
    let dir = std::env::temp_dir().join(format!("zoo-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (game, moves, file) in [
        ("jungle-checkers", "c2c3\n", "g.json"),
        ("classical-checkers", "12-16\n", "g.pdn"),
    ] {
        let path = dir.join(file);
        let p = path.to_str().unwrap();
        let out = play(
            &["--game", game, "--depth", "2"],
            &format!("{moves}save {p}\nquit\n"),
        );
        let saved_at = *fens(&out).last().unwrap();
        assert!(out.contains(&format!("Saved to {p}.")), "{out}");
        // Loaded at start-up and by the command: the same position.
        let loaded = play(&["--game", game, "--depth", "2", "--load", p], "quit\n");
        assert_eq!(fens(&loaded)[0], saved_at, "{loaded}");
        let out = play(
            &["--game", game, "--depth", "2"],
            &format!("load {p}\nquit\n"),
        );
        assert_eq!(*fens(&out).last().unwrap(), saved_at, "{out}");
        // Not a saved game: refused, the game goes on.
        let out = play(
            &["--game", game, "--depth", "2"],
            "load /nonexistent/x\nquit\n",
        );
        assert!(
            out.contains("Not loaded: cannot read /nonexistent/x"),
            "{out}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scripted_game_in_json() {
    let out = play(
        &["--game", "jungle-checkers", "--depth", "2", "--json"],
        "c2c3\nzz\n\nundo\nc2c3\nquit\n",
    );
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let of =
        |t: &str| -> Vec<&serde_json::Value> { lines.iter().filter(|v| v["type"] == t).collect() };
    // The start, after each move of both (two turns), after the undo.
    assert_eq!(of("position").len(), 6, "{out}");
    assert_eq!(lines[0]["fen"], JC_START, "{out}");
    let engine: Vec<_> = of("move")
        .into_iter()
        .filter(|m| m["by"] == "engine")
        .collect();
    assert_eq!(engine.len(), 2, "{out}");
    assert!(
        engine
            .iter()
            .all(|m| m["depth"] == 2 && m["nodes"].as_u64() > Some(0) && m["score"].is_i64()),
        "{out}"
    );
    let errors = of("error");
    assert_eq!(errors.len(), 1, "{out}");
    assert!(
        errors[0]["error"].as_str().unwrap().contains("\"zz\""),
        "{out}"
    );
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result", "{out}");
    assert_eq!(result["end"], "quit", "{out}");
    assert_eq!(result["start_fen"], JC_START, "{out}");
    assert_eq!(result["moves"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(result["moves"][0]["coord"], "c2c3", "{out}");
    assert_eq!(result["winner"], serde_json::Value::Null, "{out}");
}
