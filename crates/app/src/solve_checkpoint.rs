//! The checkpoint of a long run (`zoo solve --checkpoint FILE`): a JSON
//! header line naming the question — game, rule set, position, algorithm,
//! mode — with the answers already found, then the state of the question
//! being asked: df-pn's transposition table's used entries (24 bytes
//! each, with the MID calls spent in the header), or PNS's or PN²'s tree
//! ([`zoo_solve::tree_file`], which carries its own hash). Written now and
//! then and when a limit or Ctrl-C stops the run, always under a
//! temporary name first, so a kill leaves the last whole checkpoint.

use crate::solve::AnswerReport;
use crate::AppError;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use zoo_solve::dfpn::TableView;
use zoo_solve::tree_file::TreeView;
use zoo_solve::{Answer, Goal};

/// The format's name (from when df-pn alone had checkpoints: those files
/// still load, as df-pn's).
const FORMAT: &str = "zoo-dfpn-checkpoint";
const VERSION: u32 = 1;

/// What a checkpoint belongs to: a run resumes only the same question.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Question {
    /// The game's name.
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// The root position after the moves.
    pub fen: String,
    /// df-pn's graph-history mode.
    pub ghi: String,
    /// Whether the tables were the oracle.
    pub tables: bool,
    /// The algorithm and what changes its tree: `dfpn`, `pns`, or `pn2`
    /// with its fraction and whether it keeps proofs (checkpoints written
    /// before PNS had them are df-pn's).
    #[serde(default = "dfpn")]
    pub algo: String,
}

fn dfpn() -> String {
    "dfpn".into()
}

/// An answer already found, as the header keeps it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Done {
    goal: String,
    answer: String,
    pn: Option<u32>,
    dn: Option<u32>,
    nodes: u64,
    seconds: f64,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    format: String,
    version: u32,
    question: Question,
    /// Answers found, in the order asked.
    done: Vec<Done>,
    /// The goal whose table follows (`null`: none).
    goal: Option<String>,
    /// MID calls of that goal so far.
    calls: u64,
    /// Table entries that follow.
    entries: u64,
    /// PNS or PN²: nodes of the tree that follows instead of a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tree: Option<u64>,
}

/// The state of the question being asked, in a checkpoint read back.
pub struct Saved {
    /// The goal asked.
    pub goal: Goal,
    /// df-pn: MID calls so far.
    pub calls: u64,
    /// df-pn: the table entries that follow; PNS and PN²: the tree's
    /// nodes.
    pub entries: u64,
    /// Whether a tree follows (PNS, PN²) rather than a table (df-pn).
    pub tree: bool,
    /// At the first byte after the header.
    pub reader: BufReader<File>,
}

/// What a checkpoint keeps of the question being asked.
pub enum Body<'a, 'b> {
    /// Nothing: every question asked has its answer.
    None,
    /// df-pn's table.
    Table(Goal, &'a TableView<'b>),
    /// PNS's or PN²'s tree.
    Tree(Goal, &'a TreeView<'b>),
}

/// A checkpoint read back: the answers found, and the table of the goal
/// being asked, to load.
pub struct Loaded {
    /// Answers already found.
    pub done: Vec<(Goal, AnswerReport)>,
    /// The question being asked and a reader at its table or tree.
    pub table: Option<Saved>,
}

fn goal_named(name: &str) -> Option<Goal> {
    [Goal::Win, Goal::NotLose]
        .into_iter()
        .find(|g| g.name() == name)
}

fn answer_named(name: &str) -> Option<Answer> {
    [Answer::Proven, Answer::Disproven, Answer::Unknown]
        .into_iter()
        .find(|a| a.name() == name)
}

/// Reads `path` if it exists (`None` when it does not), refusing a
/// checkpoint of another question.
pub fn load(path: &Path, q: &Question) -> Result<Option<Loaded>, AppError> {
    let name = path.display();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(AppError::Path(format!(
                "cannot read checkpoint {name}: {e}"
            )))
        }
    };
    let mut r = BufReader::new(file);
    let mut line = String::new();
    // A header is a few hundred bytes: a longer first line is no checkpoint.
    (&mut r)
        .take(1 << 16)
        .read_line(&mut line)
        .map_err(|e| AppError::Path(format!("cannot read checkpoint {name}: {e}")))?;
    let bad = |why: String| AppError::Input(format!("{name} is not a solve checkpoint: {why}"));
    let h: Header = serde_json::from_str(line.trim_end()).map_err(|e| bad(e.to_string()))?;
    if h.format != FORMAT || h.version != VERSION {
        return Err(bad(format!("format {} version {}", h.format, h.version)));
    }
    if &h.question != q {
        return Err(AppError::Input(format!(
            "{name} is the checkpoint of another question ({} {} `{}`, algo {}, ghi {}, tables {}); this one is {} {} `{}`, algo {}, ghi {}, tables {}",
            h.question.game, h.question.rules, h.question.fen, h.question.algo, h.question.ghi, h.question.tables,
            q.game, q.rules, q.fen, q.algo, q.ghi, q.tables
        )));
    }
    let mut done = Vec::new();
    for d in &h.done {
        let (Some(goal), Some(answer)) = (goal_named(&d.goal), answer_named(&d.answer)) else {
            return Err(bad(format!("an answer `{}` to `{}`", d.answer, d.goal)));
        };
        done.push((
            goal,
            AnswerReport {
                goal: goal.name(),
                answer: answer.name(),
                pn: d.pn,
                dn: d.dn,
                nodes: d.nodes,
                expansions: d.nodes,
                bytes: 0,
                seconds: d.seconds,
                proof: None,
                // The run that found it kept no curve.
                samples: Vec::new(),
            },
        ));
    }
    let table = match &h.goal {
        Some(g) => {
            let goal = goal_named(g).ok_or_else(|| bad(format!("goal `{g}`")))?;
            if h.tree.is_none() {
                // The entries must all be there: a short file is refused
                // here, not found short in the middle of loading. (A tree
                // is checked by its own hash as it is read.)
                let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                let want =
                    line.len() as u64 + h.entries * zoo_solve::dfpn::SAVED_ENTRY_BYTES as u64;
                if len != want {
                    return Err(bad(format!("{len} bytes where the header says {want}")));
                }
            }
            Some(Saved {
                goal,
                calls: h.calls,
                entries: h.tree.unwrap_or(h.entries),
                tree: h.tree.is_some(),
                reader: r,
            })
        }
        None => None,
    };
    Ok(Some(Loaded { done, table }))
}

/// Writes a checkpoint: the question, the answers found, and the table or
/// tree of the goal being asked, if any.
pub fn save(
    path: &Path,
    q: &Question,
    done: &[AnswerReport],
    body: Body<'_, '_>,
) -> std::io::Result<()> {
    let (goal, calls, entries, tree) = match &body {
        Body::None => (None, 0, 0, None),
        Body::Table(g, v) => (Some(*g), v.calls, v.len(), None),
        Body::Tree(g, v) => (Some(*g), 0, 0, Some(v.nodes)),
    };
    let header = Header {
        format: FORMAT.into(),
        version: VERSION,
        question: q.clone(),
        // Only decided answers: an unknown one is asked again on resuming.
        done: done
            .iter()
            .filter(|a| a.answer != Answer::Unknown.name())
            .map(|a| Done {
                goal: a.goal.into(),
                answer: a.answer.into(),
                pn: a.pn,
                dn: a.dn,
                nodes: a.nodes,
                seconds: a.seconds,
            })
            .collect(),
        goal: goal.map(|g| g.name().to_string()),
        calls,
        entries,
        tree,
    };
    let tmp: PathBuf = {
        let mut t = path.as_os_str().to_owned();
        t.push(".tmp");
        t.into()
    };
    let mut w = BufWriter::new(File::create(&tmp)?);
    writeln!(
        w,
        "{}",
        serde_json::to_string(&header).map_err(std::io::Error::other)?
    )?;
    match body {
        Body::None => {}
        Body::Table(_, view) => view.write_to(&mut w)?,
        Body::Tree(_, view) => view.write_to(&mut w)?,
    }
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path)
}
