//! One question's answer as `zoo solve` reports it: the report's rows, and
//! what a checkpoint keeps of a question already answered.

use serde::Serialize;
use zoo_solve::limits::Derivation;
use zoo_solve::limits::Sample;

/// One question asked and its answer.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerReport {
    /// `win` or `not-lose`.
    pub goal: &'static str,
    /// `proven`, `disproven` or `unknown`.
    pub answer: &'static str,
    /// The root's proof number at the end (`null`: infinite).
    pub pn: Option<u32>,
    /// The root's disproof number at the end (`null`: infinite).
    pub dn: Option<u32>,
    /// Nodes (PNS: in the tree; df-pn: MID calls).
    pub nodes: u64,
    /// Nodes expanded.
    pub expansions: u64,
    /// Bytes of memory for the nodes or the table.
    pub bytes: u64,
    /// Seconds taken.
    pub seconds: f64,
    /// The proof file's text, when asked for and the answer is decided.
    #[serde(skip)]
    pub proof: Option<String>,
    /// df-pn: the remedies of the run that decided (`none`, `tca`, `wpn`,
    /// `tca,wpn`); `null` when none decided, and under PNS.
    pub remedies: Option<&'static str>,
    /// df-pn under the proof manager: the graph-history mode of the run
    /// that decided (`closure`, `path`, …); absent when none decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ghi: Option<&'static str>,
    /// Under the proof manager: `graph` when the root's reachable graph,
    /// valued backwards, decided (no df-pn run), `table` when its
    /// material's table built in memory did, `store` when the proof
    /// store held the answer (`--store`), else `dfpn`; absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
    /// df-pn under the proof manager: runs made (settings × rounds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u32>,
    /// Under the proof manager: the worker threads its searches were
    /// split among (`--workers`); absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    /// When the ply-bounded df-pn decided (a win found within a bound):
    /// that bound, in plies; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply_bound: Option<u16>,
    /// df-pn asked for a proof of a decided answer: what deriving it cost
    /// (not in `nodes`), or why it stopped.
    #[serde(skip)]
    pub derivation: Option<Derivation>,
    /// The root's proof and disproof numbers about once a second of the
    /// run (`zoo solve --plot`); not in the JSON, which stays one line of
    /// results.
    #[serde(skip)]
    pub samples: Vec<Sample>,
}

impl AnswerReport {
    /// An answer read from the proof store, not searched: no nodes, no
    /// time, `method` `store`.
    pub fn from_store(goal: zoo_solve::Goal, answer: zoo_solve::Answer) -> AnswerReport {
        let proven = answer == zoo_solve::Answer::Proven;
        AnswerReport {
            goal: goal.name(),
            answer: answer.name(),
            // Proven: pn 0 and dn infinite; disproven the other way.
            pn: proven.then_some(0),
            dn: (!proven).then_some(0),
            nodes: 0,
            expansions: 0,
            bytes: 0,
            seconds: 0.0,
            proof: None,
            remedies: None,
            ghi: None,
            method: Some("store"),
            runs: None,
            workers: None,
            ply_bound: None,
            derivation: None,
            samples: Vec::new(),
        }
    }
}
