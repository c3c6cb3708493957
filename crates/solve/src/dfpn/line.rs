//! The line a stopped run was searching, so that the next round of the
//! run ([`super::Run::go`]) goes back down it.
//!
//! Why: a run stopped by its call limit unwinds to the root, and a new
//! round starts there with thresholds computed afresh. Each child was
//! called with the thresholds its parent gave it then (with the 1 + ε
//! trick, up to δ₂(1 + ε), so a child stays searched while its δ is a
//! little above a sibling's); a fresh start picks the child of least δ
//! instead, and leaves a subtree that was close to its answer. On a
//! Jungle Checkers 6-piece win plain df-pn needs 241,378 calls unbroken
//! and 439,000–788,000 when stopped once to four times (docs/log/solve.md).
//! Going back down the recorded line with the recorded thresholds makes a
//! round continue where the last one stopped.

/// A recorded line: for each level from the root down, the move called
/// and the thresholds it was called with.
pub(super) struct Line<M> {
    /// Root first while being replayed; deepest first while recorded.
    steps: Vec<(M, u32, u32)>,
    /// The next level to replay (the path's length minus one there).
    next: usize,
    replaying: bool,
}

impl<M: Copy + PartialEq> Line<M> {
    pub fn new() -> Self {
        Line {
            steps: Vec::new(),
            next: 0,
            replaying: false,
        }
    }

    /// Called as a stopped call returns to its parent: the parent called
    /// `mv` with these thresholds (levels come deepest first).
    pub fn record(&mut self, mv: M, th_phi: u32, th_delta: u32) {
        if self.replaying {
            // Stopped while replaying: what is left of the old line is
            // below the new one and is not needed.
            self.forget();
        }
        self.steps.push((mv, th_phi, th_delta));
    }

    /// Turns what was recorded into the line the next round replays.
    pub fn start_replay(&mut self) {
        if !self.replaying {
            self.steps.reverse();
            self.next = 0;
            self.replaying = !self.steps.is_empty();
        }
    }

    /// At level `depth`, before a child is chosen: the child `find` gives
    /// for the recorded move (its index, if it may still be searched) and
    /// the recorded thresholds, if this is the next level of the line;
    /// otherwise the line is given up.
    pub fn step(
        &mut self,
        depth: usize,
        find: impl Fn(M) -> Option<usize>,
    ) -> Option<(usize, u32, u32)> {
        if !self.replaying {
            return None;
        }
        let found = match self.steps.get(self.next) {
            Some(&(mv, phi, delta)) if self.next == depth => find(mv).map(|i| (i, phi, delta)),
            _ => None,
        };
        match found {
            Some(_) => {
                self.next += 1;
                if self.next == self.steps.len() {
                    self.forget();
                }
            }
            None => self.forget(),
        }
        found
    }

    /// Drops the line.
    pub fn forget(&mut self) {
        self.steps.clear();
        self.next = 0;
        self.replaying = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_recorded_deepest_first_is_replayed_from_the_root() {
        let mut l = Line::new();
        // A stop two levels below the root: the deeper call returns first.
        l.record('b', 5, 6);
        l.record('a', 7, 8);
        l.start_replay();
        assert_eq!(l.step(0, |m| Some(m as usize)), Some(('a' as usize, 7, 8)));
        assert_eq!(l.step(1, |m| Some(m as usize)), Some(('b' as usize, 5, 6)));
        // Replayed whole: nothing more.
        assert_eq!(l.step(2, |m| Some(m as usize)), None);
        assert!(l.steps.is_empty());
    }

    #[test]
    fn a_line_that_no_longer_fits_is_given_up() {
        let mut l = Line::new();
        l.record('b', 5, 6);
        l.record('a', 7, 8);
        l.start_replay();
        // The move is no longer one to search: forgotten.
        assert_eq!(l.step(0, |m| (m != 'a').then_some(0)), None);
        assert_eq!(l.step(0, |m| Some(m as usize)), None);
        // Back at the root after the first level, the line is over.
        let mut l = Line::new();
        l.record('b', 5, 6);
        l.record('a', 7, 8);
        l.start_replay();
        assert!(l.step(0, |m| Some(m as usize)).is_some());
        assert_eq!(l.step(0, |m| Some(m as usize)), None);
        assert_eq!(l.step(1, |m| Some(m as usize)), None);
    }

    #[test]
    fn a_stop_during_a_replay_records_the_new_line_alone() {
        let mut l = Line::new();
        l.record('b', 5, 6);
        l.record('a', 7, 8);
        l.start_replay();
        assert!(l.step(0, |m| Some(m as usize)).is_some());
        // Stopped below 'a' before 'b' was replayed.
        l.record('c', 1, 2);
        l.record('a', 7, 8);
        l.start_replay();
        assert_eq!(l.step(0, |m| Some(m as usize)), Some(('a' as usize, 7, 8)));
        assert_eq!(l.step(1, |m| Some(m as usize)), Some(('c' as usize, 1, 2)));
    }
}
