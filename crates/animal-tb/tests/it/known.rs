//! The known values of tests/data/known.txt against the tables built by
//! the tests (every table of up to 3 pieces of both games).

use std::path::Path;
use zoo_animal::{Board, Jungle, JungleCheckers, Position};
use zoo_animal_tb::build::stats;
use zoo_animal_tb::Tablebase;
use zoo_core::Outcome;

const CASES: &str = include_str!("../data/known.txt");

/// Checks one case of game `B` in the tables under `dir`; `Err` says what
/// differs.
fn check<B: Board>(
    dir: &Path,
    rules: &str,
    kind: &str,
    what: &str,
    want: &str,
) -> Result<(), String> {
    let rules = zoo_animal::board::by_name::<B>(rules).map_err(|e| e.to_string())?;
    let tb = Tablebase::<B>::open(dir, rules);
    let got = match kind {
        "stats" => {
            let pieces: u32 = what.parse().map_err(|_| format!("pieces {what:?}"))?;
            let s = stats(&tb, pieces).map_err(|e| e.to_string())?;
            format!(
                "{} {} {} {} {}",
                s.positions, s.wins, s.losses, s.draws, s.longest
            )
        }
        "value" => {
            let pos = Position::<B>::from_fen_str(what, rules).map_err(|e| e.to_string())?;
            match tb.try_probe(&pos).map_err(|e| e.to_string())? {
                (Outcome::Draw, _) => "draw".to_string(),
                (Outcome::Win, d) => format!("win {d}"),
                (Outcome::Loss, d) => format!("loss {d}"),
            }
        }
        other => return Err(format!("unknown case kind {other:?}")),
    };
    if got.split_whitespace().eq(want.split_whitespace()) {
        Ok(())
    } else {
        Err(format!("got {got}, expected {}", want.trim()))
    }
}

#[test]
fn known_values() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for (i, line) in CASES.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        cases += 1;
        let r = (|| {
            let (case, want) = line.split_once('|').ok_or("no `|`")?;
            let mut w = case.split_whitespace();
            let (Some(kind), Some(game), Some(rules)) = (w.next(), w.next(), w.next()) else {
                return Err("not `KIND GAME RULES …`".to_string());
            };
            let what = w.collect::<Vec<_>>().join(" ");
            match game {
                "jungle" => check::<Jungle>(crate::common::jungle3(), rules, kind, &what, want),
                "jungle-checkers" => {
                    check::<JungleCheckers>(crate::common::jc3(), rules, kind, &what, want)
                }
                other => Err(format!("no tables of game {other:?}")),
            }
        })();
        if let Err(e) = r {
            failures.push(format!("known.txt:{}: {line}\n    {e}", i + 1));
        }
    }
    assert!(cases >= 10, "only {cases} cases read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
