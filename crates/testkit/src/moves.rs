//! Legal-move lists: what follows the `|` of a case line in the move
//! files, one of
//!
//! ```text
//! = m1 m2 ...   exactly these moves (none listed: no legal move)
//! +m -m ...     each +m legal, each -m not
//! count N       N legal moves
//! ```
//!
//! with moves in the game's coordinate form.

use std::collections::BTreeSet;
use zoo_core::{Game, MoveList};

/// What a case expects of the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect<'a> {
    /// Exactly these moves.
    Exactly(Vec<&'a str>),
    /// `(true, m)`: `m` is legal; `(false, m)`: it is not.
    Each(Vec<(bool, &'a str)>),
    /// This many moves.
    Count(u64),
}

impl<'a> Expect<'a> {
    /// One of the three forms above.
    pub fn parse(s: &'a str) -> Option<Expect<'a>> {
        let words: Vec<&str> = s.split_whitespace().collect();
        Some(match words.split_first()? {
            (&"=", rest) => Expect::Exactly(rest.to_vec()),
            (&"count", [n]) => Expect::Count(n.parse().ok()?),
            _ => Expect::Each(
                words
                    .iter()
                    .map(|w| match w.split_at(1) {
                        ("+", m) if !m.is_empty() => Some((true, m)),
                        ("-", m) if !m.is_empty() => Some((false, m)),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
        })
    }
}

/// Compares the legal moves of `pos` (and [`Game::count_moves`]) with
/// what is expected; the error says what differs.
pub fn check<G: Game>(pos: &G, expect: &Expect) -> Result<(), String> {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let names: Vec<String> = l.iter().map(|&m| pos.move_to_coord(m)).collect();
    let set: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    if set.len() != names.len() {
        return Err(format!("duplicate moves in {names:?}"));
    }
    let counted = pos.count_moves();
    match expect {
        Expect::Exactly(want) => {
            let want: BTreeSet<&str> = want.iter().copied().collect();
            if set != want {
                let missing: Vec<_> = want.difference(&set).collect();
                let extra: Vec<_> = set.difference(&want).collect();
                return Err(format!("missing {missing:?}, not expected {extra:?}"));
            }
            if counted != names.len() as u64 {
                return Err(format!(
                    "count_moves {counted} but {} moves listed",
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
            if names.len() as u64 != *n || counted != *n {
                return Err(format!(
                    "{} moves listed, count_moves {counted}, expected {n}",
                    names.len()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Expect;

    #[test]
    fn the_three_forms() {
        assert_eq!(
            Expect::parse("= a1a2 b1"),
            Some(Expect::Exactly(vec!["a1a2", "b1"]))
        );
        assert_eq!(Expect::parse("="), Some(Expect::Exactly(vec![])));
        assert_eq!(Expect::parse("count 7"), Some(Expect::Count(7)));
        assert_eq!(
            Expect::parse("+a1a2 -b1b2"),
            Some(Expect::Each(vec![(true, "a1a2"), (false, "b1b2")]))
        );
        for bad in ["", "count x", "count 1 2", "a1a2", "+", "+a1 b2"] {
            assert_eq!(Expect::parse(bad), None, "{bad:?}");
        }
    }
}
