//! The line format of the test-case data files:
//!
//! ```text
//! game  rules  position  |  expectation    # comment
//! ```
//!
//! `position` is `start` or a FEN, which may hold spaces: everything
//! between the rule set and `|`. Blank lines and everything after `#` are
//! ignored. What an expectation looks like is up to the file (see
//! [`crate::perft`], [`crate::moves`]).

/// One case of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case<'a, E> {
    /// Its line number (from 1), for reports.
    pub line: usize,
    /// The game's name.
    pub game: &'a str,
    /// The rule set's name.
    pub rules: &'a str,
    /// `start` or a FEN.
    pub position: &'a str,
    /// What is expected of the position.
    pub expect: E,
}

impl<E> Case<'_, E> {
    /// `game rules position`, to name the case in a report.
    pub fn label(&self) -> String {
        format!("{} {} {}", self.game, self.rules, self.position)
    }
}

/// The cases of `text`, each expectation read by `expect` from what
/// follows `|`; or every line that does not read, as `line N: cannot read
/// "..."`.
pub fn read<'a, E>(
    text: &'a str,
    expect: impl Fn(&'a str) -> Option<E>,
) -> Result<Vec<Case<'a, E>>, Vec<String>> {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        match line(i + 1, content, &expect) {
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

fn line<'a, E>(
    line: usize,
    content: &'a str,
    expect: &impl Fn(&'a str) -> Option<E>,
) -> Option<Case<'a, E>> {
    let (left, right) = content.split_once('|')?;
    let mut words = left.split_whitespace();
    let (game, rules) = (words.next()?, words.next()?);
    let position = left.trim_start()[game.len()..]
        .trim_start()
        .get(rules.len()..)?
        .trim();
    if position.is_empty() {
        return None;
    }
    Some(Case {
        line,
        game,
        rules,
        position,
        expect: expect(right)?,
    })
}

/// The position of a case in game `G`: its rule set by name, `start` or
/// a FEN; or why it cannot be built.
pub fn position<G: zoo_core::Game, E>(c: &Case<'_, E>) -> Result<G, String> {
    let rules = G::rules_by_name(c.rules).map_err(|e| e.to_string())?;
    if c.position == "start" {
        Ok(G::start(&rules))
    } else {
        G::from_fen(c.position, &rules).map_err(|e| e.to_string())
    }
}

/// Checks every case with `check` (which builds the position of the case's
/// game and compares; its error says what differs) and panics with one
/// line per failing case, naming `file` and the line, when any fails. A
/// file that does not read, or holds no case, fails too.
pub fn check_all<'a, E>(
    file: &str,
    text: &'a str,
    expect: impl Fn(&'a str) -> Option<E>,
    mut check: impl FnMut(&Case<'a, E>) -> Result<(), String>,
) {
    let cases = read(text, expect).unwrap_or_else(|bad| panic!("{file}:\n{}", bad.join("\n")));
    assert!(!cases.is_empty(), "{file} holds no case");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c)
                .err()
                .map(|e| format!("line {}: {}: {e}", c.line, c.label()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{file}, {} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(s: &str) -> Option<u32> {
        s.trim().parse().ok()
    }

    #[test]
    fn a_fen_keeps_its_spaces_and_comments_go() {
        let cs = read("g r 7/7 w 0 1 | 3  # note\n\n# only a comment\n", number).unwrap();
        assert_eq!(cs.len(), 1);
        assert_eq!(
            (cs[0].line, cs[0].position, cs[0].expect),
            (1, "7/7 w 0 1", 3)
        );
    }

    #[test]
    fn every_malformed_line_is_reported_with_its_number() {
        let text = "g r start | 1\ng r start | x\ng r | 1\ng r start 1\n";
        let bad = read(text, number).unwrap_err();
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert!(bad[0].starts_with("line 2:") && bad[2].starts_with("line 4:"));
    }

    #[test]
    #[should_panic(expected = "f.txt, 1 of 2 cases fail:\nline 2: g r start: two")]
    fn a_failing_case_is_named_by_file_and_line() {
        check_all("f.txt", "g r start | 1\ng r start | 2\n", number, |c| {
            if c.expect == 2 {
                Err("two".into())
            } else {
                Ok(())
            }
        });
    }
}
