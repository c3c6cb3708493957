//! The perft cases of tests/data/perft.txt, shared by the tests that
//! check counts against them.
#![allow(dead_code)]

pub const PERFT: &str = include_str!("../data/perft.txt");

/// One line of `tests/data/perft.txt`.
pub struct Case<'a> {
    pub line: usize,
    pub game: &'a str,
    pub rules: &'a str,
    pub position: &'a str,
    pub depth: u32,
    pub count: u64,
}

/// The cases of a data file, or the lines that do not parse.
pub fn cases(text: &str) -> Result<Vec<Case<'_>>, Vec<String>> {
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

/// The expected count of one start-position case of the data file.
pub fn start_count(game: &str, depth: u32) -> u64 {
    cases(PERFT)
        .ok()
        .and_then(|cs| {
            cs.into_iter()
                .find(|c| c.game == game && c.position == "start" && c.depth == depth)
        })
        .map(|c| c.count)
        .unwrap_or_else(|| panic!("no {game} start perft({depth}) in tests/data/perft.txt"))
}
