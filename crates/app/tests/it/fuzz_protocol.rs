//! A short property-based fuzz of the engine protocol (`zoo uci`'s lines
//! through `zoo_app::protocol`), run with the tests; the long
//! coverage-guided run is the `protocol` target in `fuzz/`
//! (docs/fuzzing.md). Whatever the lines: no panic, every answer a line
//! of the protocol, every `go` answered by exactly one `bestmove`.

use proptest::prelude::*;
use std::sync::{Arc, Mutex};
use zoo_app::protocol::{Flow, Protocol};
use zoo_app::{EngineOptions, GameKind};

/// Words of the protocol and a few values, to build lines that get past
/// the first word; random text besides.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "Game",
    "Rules",
    "Eval",
    "Threads",
    "Hash",
    "TB",
    "EngineOptions",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "infinite",
    "stop",
    "jungle",
    "jungle-checkers",
    "classical-checkers",
    "english-checkers",
    "leiden",
    "common",
    "simple",
    "strong",
    "<default>",
    "<empty>",
    "a3a4",
    "Ea4",
    "c2c3",
    "11-15",
    "zz",
    "0",
    "1",
    "2",
    "18446744073709551615",
    "-1",
    "7/7/3T3/7/7/7/7/7/t6",
    "w",
    "b",
    "--no-tt",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(WORDS), 0..7).prop_map(|w| w.join(" ")),
        1 => any::<String>().prop_map(|s| s.replace(['\n', '\r'], " ")),
    ]
}

/// Values that would make one case take seconds: a deep search or a big
/// table is legal, but not what this test is for.
fn cheap(line: &str) -> String {
    line.split(' ')
        .map(|w| match w.parse::<u64>() {
            Ok(n) if n > 2 => "2",
            _ => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_line_is_answered_and_every_go_gets_one_bestmove(
        lines in prop::collection::vec(line(), 1..12)
    ) {
        let said = Arc::new(Mutex::new(Vec::<String>::new()));
        let out = said.clone();
        let options = EngineOptions { hash_mb: 0, ..EngineOptions::default() };
        let mut p = Protocol::new(
            GameKind::Jungle,
            None,
            options,
            |s: &str| if s == "--no-tt" {
                Ok(EngineOptions { tt: Some(false), ..EngineOptions::default() })
            } else {
                Err(format!("bad engine options {s:?}"))
            },
            move |l: &str| out.lock().unwrap().push(l.to_string()),
        )
        .unwrap();
        let mut gos = 0;
        for l in &lines {
            let l = cheap(l);
            if l.split_whitespace().next() == Some("go") {
                gos += 1;
            }
            if p.line(&l) == Flow::Quit {
                break;
            }
        }
        p.finish(true);
        let said = said.lock().unwrap();
        let first = ["id", "option", "uciok", "readyok", "info", "bestmove"];
        for l in said.iter() {
            prop_assert!(
                first.contains(&l.split(' ').next().unwrap_or("")),
                "not a protocol line: {l:?}"
            );
        }
        let bestmoves = said.iter().filter(|l| l.starts_with("bestmove ")).count();
        prop_assert_eq!(bestmoves, gos, "{:?}", said);
    }
}
