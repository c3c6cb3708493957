//! The engine protocol of `zoo uci`, line by line through
//! `zoo_app::protocol::Protocol` as the command drives it: never a panic,
//! and every `go` answered by exactly one `bestmove` (a client waits for
//! it), whatever the lines before it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, Mutex};
use zoo_app::protocol::{Flow, Protocol};
use zoo_app::{EngineOptions, GameKind};

/// `setoption name EngineOptions` reads `zoo analyse`'s flags with the
/// command line's parser, which lives in the binary; a few flags stand
/// for it here, so that accepted and refused strings both occur.
fn engine_options(s: &str) -> Result<EngineOptions, String> {
    let mut o = EngineOptions::default();
    let mut words = s.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "--negamax" => o.negamax = true,
            "--plain" => o.plain = true,
            "--no-tt" => o.tt = Some(false),
            "--eval" => o.eval = words.next().map(str::to_string),
            _ => return Err(format!("bad engine options {s:?}")),
        }
    }
    Ok(o)
}

/// Lines that would make a search take much memory or many threads: they
/// are legal and the engine honours them, but a fuzzer's memory limit
/// would call that a crash.
fn too_big(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    (l.contains("hash") || l.contains("threads"))
        && l.split_whitespace()
            .any(|w| w.parse::<u64>().is_ok_and(|n| n > 4))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let out = said.clone();
    let options = EngineOptions {
        hash_mb: 0,
        ..EngineOptions::default()
    };
    let mut p = Protocol::new(
        GameKind::Jungle,
        None,
        options,
        engine_options,
        move |l: &str| out.lock().unwrap().push(l.to_string()),
    )
    .expect("the default session");
    let mut gos = 0;
    for line in text.lines().take(64) {
        if too_big(line) {
            continue;
        }
        let mut line = line.to_string();
        if line.split_whitespace().next() == Some("go") {
            gos += 1;
            // Searches are most of the time of a run and not what is
            // fuzzed here: one ply at most (the last `depth` given wins;
            // a malformed line stays malformed before it).
            line.push_str(" depth 1");
        }
        if p.line(&line) == Flow::Quit {
            break;
        }
    }
    p.finish(true);
    let said = said.lock().unwrap();
    let bestmoves = said.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bestmoves, gos, "every go is answered once: {said:?}");
});
