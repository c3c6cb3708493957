//! The legal moves of positions built for one rule each, against
//! docs/rules/checkers.md. The cases are data, one per line, in
//! `tests/data/moves.txt` (its header gives the format); every failing line
//! is reported with its line number.

use std::collections::BTreeSet;
use zoo_checkers::{variant, Position, Variant};
use zoo_core::{Game, MoveList};

const MOVES: &str = include_str!("data/moves.txt");

/// What a line of `tests/data/moves.txt` expects of the legal moves.
#[derive(Debug)]
enum Expect<'a> {
    /// Exactly these moves.
    Exactly(Vec<&'a str>),
    /// `+m` legal, `-m` not legal.
    Each(Vec<(bool, &'a str)>),
    /// This many moves.
    Count(u64),
}

/// One line of `tests/data/moves.txt`.
#[derive(Debug)]
struct Case<'a> {
    line: usize,
    game: &'a str,
    rules: &'a str,
    position: &'a str,
    expect: Expect<'a>,
}

fn parse_line(line: usize, content: &str) -> Option<Case<'_>> {
    let (left, right) = content.split_once('|')?;
    let mut l = left.split_whitespace();
    let (game, rules) = (l.next()?, l.next()?);
    let position = left.trim_start()[game.len()..]
        .trim_start()
        .get(rules.len()..)?
        .trim();
    if position.is_empty() {
        return None;
    }
    let words: Vec<&str> = right.split_whitespace().collect();
    let expect = match words.split_first() {
        Some((&"=", rest)) => Expect::Exactly(rest.to_vec()),
        Some((&"count", [n])) => Expect::Count(n.parse().ok()?),
        Some(_) => Expect::Each(
            words
                .iter()
                .map(|w| match w.split_at(1) {
                    ("+", m) if !m.is_empty() => Some((true, m)),
                    ("-", m) if !m.is_empty() => Some((false, m)),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        ),
        None => return None,
    };
    Some(Case {
        line,
        game,
        rules,
        position,
        expect,
    })
}

/// The cases of a data file, or the lines that do not parse.
fn cases(text: &str) -> Result<Vec<Case<'_>>, Vec<String>> {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        match parse_line(i + 1, content) {
            Some(c) => ok.push(c),
            None => bad.push(format!("line {}: cannot read {raw:?}", i + 1)),
        }
    }
    if bad.is_empty() {
        Ok(ok)
    } else {
        Err(bad)
    }
}

/// Checks one case on a position; the error says what differs.
fn check<G: Game>(pos: &G, expect: &Expect) -> Result<(), String> {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let names: Vec<String> = l.iter().map(|&m| pos.move_to_coord(m)).collect();
    let set: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    if set.len() != names.len() {
        return Err(format!("duplicate moves in {names:?}"));
    }
    match expect {
        Expect::Exactly(want) => {
            let want: BTreeSet<&str> = want.iter().copied().collect();
            if set != want {
                let missing: Vec<_> = want.difference(&set).collect();
                let extra: Vec<_> = set.difference(&want).collect();
                return Err(format!("missing {missing:?}, not expected {extra:?}"));
            }
            if pos.count_moves() != names.len() as u64 {
                return Err(format!(
                    "count_moves {} but {} moves listed",
                    pos.count_moves(),
                    names.len()
                ));
            }
        }
        Expect::Each(each) => {
            let wrong: Vec<String> = each
                .iter()
                .filter(|&&(legal, m)| set.contains(m) != legal)
                .map(|&(legal, m)| format!("{}{m}", if legal { "+" } else { "-" }))
                .collect();
            if !wrong.is_empty() {
                return Err(format!("{wrong:?} do not hold; moves {set:?}"));
            }
        }
        Expect::Count(n) => {
            if names.len() as u64 != *n || pos.count_moves() != *n {
                return Err(format!(
                    "{} moves listed, count_moves {}, expected {n}",
                    names.len(),
                    pos.count_moves()
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn a_malformed_line_is_reported() {
    let text = "# c\na b start | count 3\na b start | count x\na b | = x\na b start | x\n";
    let bad = cases(text).expect_err("three bad lines");
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].starts_with("line 3:") && bad[2].starts_with("line 5:"));
}

/// The position of a case, or why it could not be built.
fn position<V: Variant>(c: &Case) -> Result<Position<V>, String> {
    let rules = variant::by_name::<V>(c.rules).map_err(|e| e.to_string())?;
    if c.position == "start" {
        Ok(Position::<V>::start(&rules))
    } else {
        Position::<V>::from_fen(c.position, &rules).map_err(|e| e.to_string())
    }
}

#[test]
fn move_cases_from_data() {
    let cases =
        cases(MOVES).unwrap_or_else(|bad| panic!("tests/data/moves.txt:\n{}", bad.join("\n")));
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for c in &cases {
        let result = match c.game {
            "classical" => {
                position::<zoo_checkers::Classical>(c).and_then(|p| check(&p, &c.expect))
            }
            "english" => position::<zoo_checkers::English>(c).and_then(|p| check(&p, &c.expect)),
            other => Err(format!("unknown game {other:?}")),
        };
        if let Err(e) = result {
            failures.push(format!("line {}: {} {}: {e}", c.line, c.game, c.position));
        }
    }
    assert!(
        failures.is_empty(),
        "tests/data/moves.txt, {} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
