//! Reading a proof file's text: the header and the node lines.

use crate::{err, CheckError};
use zoo_core::Outcome;

/// The header of a proof file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The game's name (`jungle-checkers` …).
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// The root position.
    pub fen: String,
    /// `win` or `not-lose`, for the root's side to move.
    pub goal: Goal,
    /// Whether the tree shows the goal holds (`proven`) or fails.
    pub proven: bool,
    /// The number of node lines that follow.
    pub nodes: usize,
}

/// The question of a proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// The side to move at the root wins.
    Win,
    /// It wins or draws.
    NotLose,
}

/// How a line ends, as the file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    Inner,
    Terminal(Outcome),
    NoMoves(Outcome),
    Repetition,
    Table(Outcome),
    /// Play goes on as at this node, of the same position.
    Same(usize),
}

/// One node line.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub line: usize,
    pub parent: Option<usize>,
    pub mv: Option<String>,
    pub end: End,
}

const HEADER_KEYS: [&str; 6] = ["game", "rules", "fen", "goal", "answer", "nodes"];

/// The header of `text`, checked line by line.
pub fn header(text: &str) -> Result<Header, CheckError> {
    let mut lines = text.lines();
    match lines.next() {
        Some("zoo-proof 1") => {}
        Some(l) => {
            return err(
                1,
                format!("not a zoo proof file (first line {l:?}, expected \"zoo-proof 1\")"),
            )
        }
        None => return err(0, "empty file"),
    }
    let mut values = Vec::new();
    for (i, key) in HEADER_KEYS.iter().enumerate() {
        let line = i + 2;
        let Some(l) = lines.next() else {
            return err(line, format!("the file ends where `{key}` is expected"));
        };
        match l.split_once(' ') {
            Some((k, v)) if k == *key && !v.trim().is_empty() => values.push(v.trim().to_string()),
            _ => return err(line, format!("expected `{key} …`, found {l:?}")),
        }
    }
    let goal = match values[3].as_str() {
        "win" => Goal::Win,
        "not-lose" => Goal::NotLose,
        g => return err(5, format!("unknown goal {g:?} (win or not-lose)")),
    };
    let proven = match values[4].as_str() {
        "proven" => true,
        "disproven" => false,
        a => {
            return err(
                6,
                format!("answer {a:?}: a proof file is proven or disproven"),
            )
        }
    };
    let nodes = values[5]
        .parse()
        .or_else(|_| err(7, format!("not a number of nodes: {:?}", values[5])))?;
    Ok(Header {
        game: values[0].clone(),
        rules: values[1].clone(),
        fen: values[2].clone(),
        goal,
        proven,
        nodes,
    })
}

fn outcome(line: usize, s: Option<&str>) -> Result<Outcome, CheckError> {
    match s {
        Some("win") => Ok(Outcome::Win),
        Some("draw") => Ok(Outcome::Draw),
        Some("loss") => Ok(Outcome::Loss),
        other => err(line, format!("expected win, draw or loss, found {other:?}")),
    }
}

/// The node lines after the header (`count` of them), checked for form:
/// ids in order, parents earlier.
pub(crate) fn nodes(text: &str, count: usize) -> Result<Vec<Node>, CheckError> {
    let first = 1 + HEADER_KEYS.len() + 1;
    let mut out: Vec<Node> = Vec::with_capacity(count.min(1 << 20));
    let mut lines = text.lines().skip(first - 1);
    for id in 0..count {
        let line = first + id;
        let Some(l) = lines.next() else {
            return err(
                line,
                format!("the file ends after {id} of {count} nodes (truncated?)"),
            );
        };
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() < 4 {
            return err(line, format!("expected `id parent move end`, found {l:?}"));
        }
        if w[0] != id.to_string() {
            return err(line, format!("node {} where node {id} is expected", w[0]));
        }
        let parent = match (id, w[1]) {
            (0, "-") => None,
            (0, p) => return err(line, format!("the root has parent {p}")),
            (_, p) => match p.parse::<usize>() {
                Ok(p) if p < id => Some(p),
                _ => return err(line, format!("parent {p:?} is not an earlier node")),
            },
        };
        let mv = match (id, w[2]) {
            (0, "-") => None,
            (0, m) => return err(line, format!("the root has a move {m}")),
            (_, m) => Some(m.to_string()),
        };
        let end = match (w[3], w.len()) {
            ("-", 4) => End::Inner,
            ("terminal", 5) => End::Terminal(outcome(line, w.get(4).copied())?),
            ("no-moves", 5) => End::NoMoves(outcome(line, w.get(4).copied())?),
            ("repetition", 4) => End::Repetition,
            ("table", 5) => End::Table(outcome(line, w.get(4).copied())?),
            ("same", 5) => match w[4].parse::<usize>() {
                Ok(j) if j < count && j != id => End::Same(j),
                _ => return err(line, format!("same {:?}: not another node's id", w[4])),
            },
            _ => return err(line, format!("unknown end {:?}", w[3..].join(" "))),
        };
        if let Some(p) = parent {
            if out[p].end != End::Inner {
                return err(line, format!("its parent {p} is a leaf"));
            }
        }
        out.push(Node {
            line,
            parent,
            mv,
            end,
        });
    }
    for n in &out {
        if let End::Same(j) = n.end {
            if out[j].end != End::Inner {
                return err(
                    n.line,
                    format!("same {j}: node {j} is a leaf, not a position play goes on from"),
                );
            }
        }
    }
    if let Some(l) = lines.find(|l| !l.trim().is_empty()) {
        return err(
            first + count,
            format!("more lines than the {count} nodes announced: {l:?}"),
        );
    }
    Ok(out)
}
