//! What bounds a run and what a run reports, shared by the algorithms.

use crate::proof::Proof;
use crate::value::{Answer, Goal};
use std::time::Duration;

/// Proof and disproof numbers: `INF` means proven impossible (a disproven
/// node has proof number `INF`). Sums stop one below, so that a large
/// finite sum is never read as a solved node.
pub const INF: u32 = u32::MAX;

/// Adds proof numbers: `INF` absorbs, finite sums saturate at `INF - 1`.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

/// Bounds on a run; the first one reached stops it with [`Answer::Unknown`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// Nodes: PNS, those held in the tree; df-pn, MID calls.
    pub nodes: Option<u64>,
    /// Memory in MB (PNS: the tree; df-pn: the transposition table); the
    /// run never grows past it.
    pub memory_mb: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
}

impl Limits {
    /// At most `n` nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// The number of nodes of `bytes_per_node` bytes the limits allow.
    pub fn node_budget(&self, bytes_per_node: usize) -> u64 {
        let by_memory = self
            .memory_mb
            .map_or(u64::MAX, |mb| (mb << 20) / bytes_per_node.max(1) as u64);
        self.nodes.unwrap_or(u64::MAX).min(by_memory)
    }
}

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report<M> {
    /// The question asked.
    pub goal: Goal,
    /// Proven, disproven, or unknown when a limit stopped the run.
    pub answer: Answer,
    /// The root's proof number at the end (0: proven).
    pub pn: u32,
    /// The root's disproof number at the end (0: disproven).
    pub dn: u32,
    /// Nodes created (PNS: the tree's size).
    pub nodes: u64,
    /// Nodes expanded (their moves generated and children evaluated).
    pub expansions: u64,
    /// Bytes allocated for the nodes (PNS: the tree's capacity; df-pn:
    /// the table), never above [`Limits::memory_mb`].
    pub bytes: u64,
    /// Seconds of wall-clock time.
    pub seconds: f64,
    /// The proof or disproof when the answer is one.
    pub proof: Option<Proof<M>>,
}
