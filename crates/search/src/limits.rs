//! When a search stops: depth, node and time limits.

use std::time::Duration;

/// When to stop searching; the first limit reached ends the search, and no
/// limit at all means depth [`crate::MAX_DEPTH`]. The first iteration always
/// finishes, so that there is a move to play.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration (plies).
    pub depth: Option<u32>,
    /// Nodes of all threads together.
    pub nodes: Option<u64>,
    /// Wall-clock time; every iteration is started while time is left, and
    /// one it stops gives the root move it proved better, if any.
    pub movetime: Option<Duration>,
    /// Lines to report (multi-PV): after each iteration's best line, the
    /// best line of the moves left once the earlier lines' first moves
    /// are left out, at the same depth ([`crate::Iteration::lines`]).
    /// 0 and 1: one line. The move played is the first line's.
    pub multipv: u32,
}

impl Limits {
    /// A fixed-depth search (no node or time limit).
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
}
