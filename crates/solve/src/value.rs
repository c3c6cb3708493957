//! Binary goals and the three-valued result they recover together.
//!
//! A proof search answers a yes/no question. Literature B gives one side
//! the "advantage" (draws count as its wins) so that every value fits one
//! bit; two questions then recover win, draw or loss. Here the side with
//! the question is always the side to move at the root (the *attacker*).

use std::fmt;
use std::str::FromStr;
use zoo_core::{Outcome, ParseError};

/// The question asked about the root, for its side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Can the side to move force a win? Draws count for the opponent.
    Win,
    /// Can the side to move avoid losing? Draws count for the side to move.
    NotLose,
}

impl Goal {
    /// Both goals, in the order [`value_of`] takes their answers.
    pub const ALL: [Goal; 2] = [Goal::Win, Goal::NotLose];

    /// The stable name (`win`, `not-lose`) used on command lines and in logs.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::NotLose => "not-lose",
        }
    }

    /// The other question.
    pub fn other(self) -> Goal {
        match self {
            Goal::Win => Goal::NotLose,
            Goal::NotLose => Goal::Win,
        }
    }

    /// The answer bounds `(lowest, highest)` on the attacker's result give
    /// the goal, where they decide it.
    pub fn decided_by(self, lo: Outcome, hi: Outcome) -> Option<Answer> {
        if self.achieved_by(lo) {
            Some(Answer::Proven)
        } else if !self.achieved_by(hi) {
            Some(Answer::Disproven)
        } else {
            None
        }
    }

    /// Whether a finished game with this result for the attacker proves
    /// the goal.
    #[inline]
    pub fn achieved_by(self, for_attacker: Outcome) -> bool {
        match for_attacker {
            Outcome::Win => true,
            Outcome::Draw => self == Goal::NotLose,
            Outcome::Loss => false,
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Goal {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "win" => Ok(Goal::Win),
            "not-lose" => Ok(Goal::NotLose),
            _ => Err(ParseError::new(
                s,
                0,
                "unknown goal; expected win or not-lose",
            )),
        }
    }
}

/// What a search says about its goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// The goal holds: the attacker can force it.
    Proven,
    /// The goal fails: the opponent can prevent it.
    Disproven,
    /// A limit stopped the search first.
    Unknown,
}

impl Answer {
    /// `proven`, `disproven` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Answer::Proven => "proven",
            Answer::Disproven => "disproven",
            Answer::Unknown => "unknown",
        }
    }
}

/// The value for the side to move from the answers to the two goals
/// (`--goal value`), or `None` when they do not decide it.
///
/// A proven win decides alone (then not-lose holds too), as does a
/// disproven not-lose (a loss); a draw needs both: not-lose proven and win
/// disproven. Answers that contradict each other (win proven, not-lose
/// disproven) give `None` too: a caller that gets them has a bug to report,
/// not a value.
pub fn value_of(win: Answer, not_lose: Answer) -> Option<Outcome> {
    use Answer::*;
    match (win, not_lose) {
        (Proven, Disproven) => None,
        (Proven, _) => Some(Outcome::Win),
        (_, Disproven) => Some(Outcome::Loss),
        (Disproven, Proven) => Some(Outcome::Draw),
        _ => None,
    }
}

/// `--goal value`: asks `solve` about [`Goal::Win`] and, unless that
/// decides (a proven win), about [`Goal::NotLose`]; returns the value for
/// the side to move (`None` when a limit left it open) and the answers
/// asked, in order. `solve` is any of the crate's algorithms with its
/// position and limits bound.
pub fn solve_value(solve: impl FnMut(Goal) -> Answer) -> (Option<Outcome>, Vec<(Goal, Answer)>) {
    solve_value_from(Goal::Win, solve)
}

/// [`solve_value`], asking `first` first: the question expected to decide
/// the value alone (`win` where the side to move seems to win, `not-lose`
/// where it seems to lose; literature B's proof manager, as Chinook's,
/// asks the question its evaluation suggests). The other is asked only
/// when the first did not decide; a draw needs both.
pub fn solve_value_from(
    first: Goal,
    solve: impl FnMut(Goal) -> Answer,
) -> (Option<Outcome>, Vec<(Goal, Answer)>) {
    solve_value_sharing(first, solve, || false)
}

/// [`solve_value_from`], where an answer may settle both questions: when
/// the first stayed open and `both()` says the second's answer settles
/// the first too (the proof manager's ply-bounded search found a win,
/// which answers both questions, and a question asked again returns it
/// at once), the first is asked again.
pub fn solve_value_sharing(
    first: Goal,
    mut solve: impl FnMut(Goal) -> Answer,
    both: impl Fn() -> bool,
) -> (Option<Outcome>, Vec<(Goal, Answer)>) {
    let a = solve(first);
    let alone = match first {
        Goal::Win => (a == Answer::Proven).then_some(Outcome::Win),
        Goal::NotLose => (a == Answer::Disproven).then_some(Outcome::Loss),
    };
    if alone.is_some() {
        return (alone, vec![(first, a)]);
    }
    let second = first.other();
    let b = solve(second);
    let mut asked = vec![(first, a), (second, b)];
    let a = if a == Answer::Unknown && b != Answer::Unknown && both() {
        let again = solve(first);
        asked.push((first, again));
        again
    } else {
        a
    };
    let (win, not_lose) = match first {
        Goal::Win => (a, b),
        Goal::NotLose => (b, a),
    };
    (value_of(win, not_lose), asked)
}

/// The answers a search must give under each goal when the side to move's
/// value is `value`: `(win, not_lose)`.
pub fn answers_for(value: Outcome) -> (Answer, Answer) {
    match value {
        Outcome::Win => (Answer::Proven, Answer::Proven),
        Outcome::Draw => (Answer::Disproven, Answer::Proven),
        Outcome::Loss => (Answer::Disproven, Answer::Disproven),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_round_trip() {
        for v in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
            let (w, n) = answers_for(v);
            assert_eq!(value_of(w, n), Some(v));
        }
        assert_eq!(
            value_of(Answer::Proven, Answer::Unknown),
            Some(Outcome::Win)
        );
        assert_eq!(
            value_of(Answer::Unknown, Answer::Disproven),
            Some(Outcome::Loss)
        );
        assert_eq!(value_of(Answer::Disproven, Answer::Unknown), None);
        assert_eq!(value_of(Answer::Unknown, Answer::Proven), None);
        assert_eq!(value_of(Answer::Proven, Answer::Disproven), None);
    }

    #[test]
    fn solve_value_asks_what_it_needs() {
        let (v, asked) = solve_value(|_| Answer::Proven);
        assert_eq!((v, asked.len()), (Some(Outcome::Win), 1));
        let (v, asked) = solve_value(|g| match g {
            Goal::Win => Answer::Disproven,
            Goal::NotLose => Answer::Proven,
        });
        assert_eq!((v, asked.len()), (Some(Outcome::Draw), 2));
        let (v, _) = solve_value(|g| match g {
            Goal::Win => Answer::Unknown,
            Goal::NotLose => Answer::Disproven,
        });
        assert_eq!(v, Some(Outcome::Loss));
        let (v, _) = solve_value(|_| Answer::Unknown);
        assert_eq!(v, None);
        // Not-lose first: a loss is decided by it alone, a win needs both.
        let (v, asked) = solve_value_from(Goal::NotLose, |_| Answer::Disproven);
        assert_eq!((v, asked.len()), (Some(Outcome::Loss), 1));
        let (v, asked) = solve_value_from(Goal::NotLose, |_| Answer::Proven);
        assert_eq!(
            (v, asked),
            (
                Some(Outcome::Win),
                vec![(Goal::NotLose, Answer::Proven), (Goal::Win, Answer::Proven)]
            )
        );
    }

    #[test]
    fn an_answer_that_settles_both_questions_is_asked_for_again() {
        // The first question open, the second's answer settling both: the
        // first is asked again and the value decided.
        let mut calls = 0;
        let (v, asked) = solve_value_sharing(
            Goal::Win,
            |g| {
                calls += 1;
                match (g, calls) {
                    (Goal::Win, 1) => Answer::Unknown,
                    _ => Answer::Proven,
                }
            },
            || true,
        );
        assert_eq!(v, Some(Outcome::Win));
        assert_eq!(
            asked,
            vec![
                (Goal::Win, Answer::Unknown),
                (Goal::NotLose, Answer::Proven),
                (Goal::Win, Answer::Proven)
            ]
        );
        // Without it, the first is not asked again.
        let (v, asked) = solve_value_from(Goal::Win, |g| match g {
            Goal::Win => Answer::Unknown,
            Goal::NotLose => Answer::Proven,
        });
        assert_eq!((v, asked.len()), (None, 2));
    }

    #[test]
    fn goals_parse_and_count_draws() {
        for g in Goal::ALL {
            assert_eq!(g.name().parse::<Goal>().unwrap(), g);
        }
        assert!("value".parse::<Goal>().is_err());
        assert!(Goal::NotLose.achieved_by(Outcome::Draw));
        assert!(!Goal::Win.achieved_by(Outcome::Draw));
        assert!(Goal::Win.achieved_by(Outcome::Win));
        assert!(!Goal::NotLose.achieved_by(Outcome::Loss));
    }
}
