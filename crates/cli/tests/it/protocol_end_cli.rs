//! How `zoo uci` ends (docs/protocol.md): end of input lets a search with a
//! limit finish and print its `bestmove`; `quit` stops it at once.

use assert_cmd::Command;
use std::time::{Duration, Instant};

fn uci(input: &str) -> String {
    let out = Command::cargo_bin("zoo")
        .unwrap()
        .arg("uci")
        .write_stdin(input)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    text
}

/// The depth of the last `info depth` line.
fn last_depth(text: &str) -> u32 {
    text.lines()
        .rev()
        .filter_map(|l| l.strip_prefix("info depth "))
        .find_map(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The piped protocol example of docs/checkers.md, as the shell's
/// `printf` would write it.
fn documented_example() -> String {
    let doc = include_str!("../../../../docs/checkers.md");
    let line = doc
        .lines()
        .find(|l| l.starts_with("printf '") && l.contains("| zoo uci"))
        .expect("docs/checkers.md pipes an example into zoo uci");
    let quoted = line
        .strip_prefix("printf '")
        .and_then(|r| r.split('\'').next())
        .unwrap();
    quoted.replace("\\n", "\n")
}

#[test]
fn the_documented_piped_example_searches_to_its_depth() {
    let input = documented_example();
    let asked: u32 = input
        .split("go depth ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .expect("the example asks for a depth");
    let text = uci(&input);
    assert_eq!(last_depth(&text), asked, "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{text}"
    );
}

#[test]
fn end_of_input_waits_for_a_search_with_a_limit() {
    let text = uci("position startpos\ngo depth 9\n");
    assert_eq!(last_depth(&text), 9, "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );
}

#[test]
fn quit_and_end_of_input_stop_a_search_without_a_limit() {
    for input in [
        "position startpos\ngo depth 60\nquit\n",
        "position startpos\ngo infinite\n",
        "position startpos\ngo\n",
    ] {
        let start = Instant::now();
        let text = uci(input);
        assert!(start.elapsed() < Duration::from_secs(30), "{input:?}");
        assert!(last_depth(&text) < 30, "{input:?}: {text}");
        assert!(text.contains("bestmove "), "{input:?}: {text}");
    }
}
