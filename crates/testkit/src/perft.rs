//! Move-path counts: `depth count` after the `|` of a case line.

use zoo_core::{perft, Game, History, Repetition};

/// perft(`depth`) should be `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect {
    /// Plies.
    pub depth: u32,
    /// The leaves that many plies deep.
    pub count: u64,
}

impl Expect {
    /// `depth count`, nothing more.
    pub fn parse(s: &str) -> Option<Expect> {
        let mut w = s.split_whitespace();
        let depth = w.next()?.parse().ok()?;
        let count = w.next()?.parse().ok()?;
        w.next().is_none().then_some(Expect { depth, count })
    }
}

/// Counts the leaves of `pos` (repetition policy `none`, as the published
/// figures count) and compares.
pub fn check<G: Game>(mut pos: G, e: &Expect) -> Result<(), String> {
    let mut h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    match perft(&mut pos, e.depth, &mut h) {
        n if n == e.count => Ok(()),
        n => Err(format!("perft({}) = {n}, expected {}", e.depth, e.count)),
    }
}

#[cfg(test)]
mod tests {
    use super::Expect;

    #[test]
    fn two_numbers_exactly() {
        assert_eq!(
            Expect::parse(" 3 12240 "),
            Some(Expect {
                depth: 3,
                count: 12240
            })
        );
        assert_eq!(Expect::parse("3"), None);
        assert_eq!(Expect::parse("3 4 5"), None);
        assert_eq!(Expect::parse("x 4"), None);
    }
}
