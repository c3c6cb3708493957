//! Move-path counts against the published figures (docs/rules/jungle.md §8,
//! docs/rules/jungle-checkers.md §7). The cases are data, one
//! per line, in `tests/data/perft.txt` (its header gives the format); every
//! failing line is reported with its line number.

use zoo_animal::{rules, Board, Position};
use zoo_core::{perft, Game, History, Repetition};

const PERFT: &str = include_str!("data/perft.txt");

/// One line of `tests/data/perft.txt`.
struct Case<'a> {
    line: usize,
    game: &'a str,
    rules: &'a str,
    position: &'a str,
    depth: u32,
    count: u64,
}

/// The cases of a data file, or the lines that do not parse.
fn cases(text: &str) -> Result<Vec<Case<'_>>, Vec<String>> {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let parsed = (|| {
            let (left, right) = content.split_once('|')?;
            let mut l = left.split_whitespace();
            let (game, rules) = (l.next()?, l.next()?);
            let position = left.trim_start()[game.len()..]
                .trim_start()
                .get(rules.len()..)?
                .trim();
            let mut r = right.split_whitespace();
            let depth = r.next()?.parse().ok()?;
            let count = r.next()?.parse().ok()?;
            if position.is_empty() || r.next().is_some() {
                return None;
            }
            Some(Case {
                line,
                game,
                rules,
                position,
                depth,
                count,
            })
        })();
        match parsed {
            Some(c) => ok.push(c),
            None => bad.push(format!("line {line}: cannot read {raw:?}")),
        }
    }
    if bad.is_empty() {
        Ok(ok)
    } else {
        Err(bad)
    }
}

/// perft of one case, or why it could not be run.
fn run<V: Board>(c: &Case) -> Result<u64, String> {
    let rules = rules::by_name::<V>(c.rules).map_err(|e| e.to_string())?;
    let mut pos = if c.position == "start" {
        Position::<V>::start(&rules)
    } else {
        Position::<V>::from_fen(c.position, &rules).map_err(|e| e.to_string())?
    };
    let mut h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    Ok(perft(&mut pos, c.depth, &mut h))
}

#[test]
fn perft_cases_from_data() {
    let cases =
        cases(PERFT).unwrap_or_else(|bad| panic!("tests/data/perft.txt:\n{}", bad.join("\n")));
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for c in &cases {
        let got = match c.game {
            "jungle" => run::<zoo_animal::Jungle>(c),
            "jungle-checkers" => run::<zoo_animal::JungleCheckers>(c),
            other => Err(format!("unknown game {other:?}")),
        };
        match got {
            Ok(n) if n == c.count => {}
            Ok(n) => failures.push(format!(
                "line {}: {} {} {} perft({}) = {n}, expected {}",
                c.line, c.game, c.rules, c.position, c.depth, c.count
            )),
            Err(e) => failures.push(format!("line {}: {e}", c.line)),
        }
    }
    assert!(
        failures.is_empty(),
        "tests/data/perft.txt, {} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn a_malformed_line_is_reported() {
    let text = "# comment\njungle leiden start | 1 24\njungle leiden start | x 24\njungle | 1\n";
    let bad = cases(text).err().expect("two bad lines");
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(bad[0].starts_with("line 3:") && bad[1].starts_with("line 4:"));
}
