//! The engine protocol's answers, line by line without a process, case
//! by case from tests/data/protocol.txt.

use std::sync::{Arc, Mutex};
use zoo_app::protocol::{Flow, Protocol};
use zoo_app::{EngineOptions, GameKind};

/// The answer lines to `input`, the search's `info depth` lines left out.
fn talk(input: &[&str]) -> Vec<String> {
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let out = said.clone();
    let options = EngineOptions {
        hash_mb: 1,
        ..EngineOptions::default()
    };
    let mut p = Protocol::new(
        GameKind::Jungle,
        None,
        options,
        |s: &str| Err(format!("bad engine options {s:?}")),
        move |l: &str| out.lock().unwrap().push(l.to_string()),
    )
    .unwrap();
    for l in input {
        if p.line(l) == Flow::Quit {
            break;
        }
    }
    // As at the end of input: a search with a limit finishes.
    p.finish(false);
    let said = said.lock().unwrap();
    said.iter()
        .filter(|l| !l.starts_with("info depth"))
        .cloned()
        .collect()
}

#[test]
fn conversations_answer_as_written() {
    let data = include_str!("../data/protocol.txt");
    let mut cases = 0;
    for block in data.split("\n\n") {
        let (mut input, mut expected) = (Vec::new(), Vec::new());
        for l in block.lines() {
            if let Some(x) = l.strip_prefix("> ") {
                input.push(x);
            } else if let Some(x) = l.strip_prefix("< ") {
                expected.push(x);
            }
        }
        if input.is_empty() {
            continue;
        }
        cases += 1;
        let got = talk(&input);
        assert_eq!(got.len(), expected.len(), "{input:?}: {got:?}");
        for (g, e) in got.iter().zip(&expected) {
            assert!(g.starts_with(e), "{input:?}: {g:?} is not {e:?}…");
        }
    }
    assert!(cases >= 5, "only {cases} cases read");
}

/// A `position` while `go` runs stops the search and says so before its
/// `bestmove` (docs/protocol.md, "What stops a search"): never silent.
/// A conversation about `game` whose every answer line is kept.
fn recording(game: GameKind) -> (Protocol, Arc<Mutex<Vec<String>>>) {
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let out = said.clone();
    let p = Protocol::new(
        game,
        None,
        EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        },
        |s: &str| Err(format!("bad engine options {s:?}")),
        move |l: &str| out.lock().unwrap().push(l.to_string()),
    )
    .unwrap();
    (p, said)
}

#[test]
fn a_position_during_a_search_stops_it_and_says_so() {
    let (mut p, said) = recording(GameKind::Jungle);
    // A search that would not end by itself for a long time.
    p.line("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(200));
    p.line("position startpos moves a3a4");
    p.line("isready");
    let lines: Vec<String> = said
        .lock()
        .unwrap()
        .iter()
        .filter(|l| !l.starts_with("info depth"))
        .cloned()
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[0],
        "info string search stopped by `position` (send `stop` first)"
    );
    assert!(
        lines[1].starts_with("bestmove ") && lines[1] != "bestmove (none)",
        "{lines:?}"
    );
    assert_eq!(lines[2], "readyok");
    // A `stop` first: no such line.
    p.line("go infinite");
    p.line("stop");
    p.line("position startpos");
    p.finish(true);
    let n = said
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with("info string search stopped"))
        .count();
    assert_eq!(n, 1);
}

/// `setoption name MultiPV value 3`: each iteration prints three numbered
/// lines with different first moves, and `bestmove` is line 1's.
#[test]
fn multipv_prints_numbered_lines_best_first() {
    let (mut p, said) = recording(GameKind::JungleCheckers);
    for l in [
        "setoption name MultiPV value 3",
        "position startpos",
        "go depth 4",
    ] {
        p.line(l);
    }
    p.finish(false);
    let said = said.lock().unwrap();
    let at_4: Vec<&String> = said
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(at_4.len(), 3, "{said:?}");
    let mut firsts = Vec::new();
    for (k, l) in at_4.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} score ", k + 1)), "{l}");
        firsts.push(
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string(),
        );
    }
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{at_4:?}");
    let best = said.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    assert_eq!(best, &format!("bestmove {}", firsts[0]));
}
