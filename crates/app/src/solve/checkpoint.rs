//! The checkpoint of a long run (`zoo solve --checkpoint FILE`): a JSON
//! header line naming the question — game, rule set, position, algorithm,
//! mode — with the answers already found, then the state of the question
//! being asked: df-pn's transposition table's used entries (24 bytes
//! each, with the MID calls spent in the header), or PNS's or PN²'s tree
//! ([`zoo_solve::tree_file`], which carries its own hash). Written now and
//! then and when a limit or Ctrl-C stops the run, by the one save of
//! every command ([`crate::files::save`]), so a kill leaves the last whole
//! checkpoint.
//!
//! The file ends with [`TRAILER`] bytes: `CRC:` and the CRC-32 of every
//! byte before them. A file whose checksum, length or fields do not hold
//! together is refused with its name, never resumed: resuming must not
//! change an answer. (A checksum recomputed by hand after an edit is not
//! caught by the checksum; the fields' consistency is still checked.)

use crate::solve::answer::AnswerReport;
use crate::AppError;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;
use zoo_solve::dfpn::TableView;
use zoo_solve::tree_file::TreeView;
use zoo_solve::{Answer, Goal};

/// The format's name (from when df-pn alone had checkpoints: those files
/// still load, as df-pn's).
const FORMAT: &str = "zoo-dfpn-checkpoint";
/// 2: with the checksum trailer. Version 1 files (no checksum) are refused.
const VERSION: u32 = 2;

/// `CRC:` and the CRC-32 (little-endian) of the bytes before it.
pub const TRAILER: usize = 8;
pub(super) const TRAILER_TAG: &[u8; 4] = b"CRC:";

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
    /// At the first byte after the header, ending before the trailer.
    pub reader: BufReader<std::io::Take<File>>,
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

/// Checks the trailer of the open file `f` of `len` bytes: the CRC-32 of
/// all bytes before it.
pub(super) fn check_sum(f: &mut File, len: u64) -> Result<(), String> {
    if len < TRAILER as u64 {
        return Err(format!("{len} bytes, too short to hold its checksum"));
    }
    let body = len - TRAILER as u64;
    let mut crc = crc32fast::Hasher::new();
    let mut r = BufReader::with_capacity(1 << 20, (&mut *f).take(body));
    loop {
        let buf = r.fill_buf().map_err(|e| e.to_string())?;
        if buf.is_empty() {
            break;
        }
        crc.update(buf);
        let n = buf.len();
        r.consume(n);
    }
    let mut tail = [0u8; TRAILER];
    f.read_exact(&mut tail).map_err(|e| e.to_string())?;
    let want = u32::from_le_bytes(tail[4..].try_into().expect("4 bytes"));
    if &tail[..4] != TRAILER_TAG || crc.finalize() != want {
        return Err(
            "its checksum does not match its contents (damaged, cut short or edited)".into(),
        );
    }
    Ok(())
}

/// Reads `path` if it exists (`None` when it does not), refusing a
/// damaged checkpoint or one of another question.
pub fn load(path: &Path, q: &Question) -> Result<Option<Loaded>, AppError> {
    let name = path.display();
    let mut file = match crate::files::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let bad = |why: String| {
        AppError::Input(format!(
            "{name} is not a usable solve checkpoint: {why}; remove it to start the question again"
        ))
    };
    let len = file
        .metadata()
        .map_err(|e| AppError::Path(format!("cannot read checkpoint {name}: {e}")))?
        .len();
    check_sum(&mut file, len).map_err(bad)?;
    file.seek(SeekFrom::Start(0))
        .map_err(|e| AppError::Path(format!("cannot read checkpoint {name}: {e}")))?;
    let mut r = BufReader::new(file.take(len - TRAILER as u64));
    let mut line = String::new();
    // A header is a few hundred bytes: a longer first line is no checkpoint.
    (&mut r)
        .take(1 << 16)
        .read_line(&mut line)
        .map_err(|e| AppError::Path(format!("cannot read checkpoint {name}: {e}")))?;
    let h: Header = serde_json::from_str(line.trim_end()).map_err(|e| bad(e.to_string()))?;
    if h.format != FORMAT || h.version != VERSION {
        return Err(bad(format!(
            "format {} version {} (this zoo writes version {VERSION})",
            h.format, h.version
        )));
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
        // A decided answer has the numbers that decide it, and each goal
        // is answered once.
        let consistent = match answer {
            Answer::Proven => d.pn == Some(0) && d.dn.is_none(),
            Answer::Disproven => d.pn.is_none() && d.dn == Some(0),
            Answer::Unknown => false,
        };
        if !consistent || done.iter().any(|(g, _)| *g == goal) {
            return Err(bad(format!(
                "an answer `{}` to `{}` with pn {:?} dn {:?}",
                d.answer, d.goal, d.pn, d.dn
            )));
        }
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
                remedies: None,
                ghi: None,
                method: None,
                runs: None,
                workers: None,
                ply_bound: None,
                proof: None,
                derivation: None,
                // The run that found it kept no curve.
                samples: Vec::new(),
            },
        ));
    }
    let table = match &h.goal {
        Some(g) => {
            let goal = goal_named(g).ok_or_else(|| bad(format!("goal `{g}`")))?;
            if done.iter().any(|(d, _)| *d == goal) {
                return Err(bad(format!("goal `{g}` both answered and being asked")));
            }
            if h.tree.is_some() == (h.question.algo == "dfpn") {
                return Err(bad(format!(
                    "a {} for algo {}",
                    if h.tree.is_some() { "tree" } else { "table" },
                    h.question.algo
                )));
            }
            if h.tree.is_none() {
                // The entries must all be there: a short file is refused
                // here, not found short in the middle of loading. (A tree
                // is checked by its own hash as it is read.)
                let want = (h.entries)
                    .checked_mul(zoo_solve::dfpn::SAVED_ENTRY_BYTES as u64)
                    .and_then(|n| n.checked_add((line.len() + TRAILER) as u64))
                    .unwrap_or(u64::MAX);
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
    let text = serde_json::to_string(&header).map_err(std::io::Error::other)?;
    crate::files::save(path, |w| {
        let mut w = Summed {
            inner: w,
            crc: crc32fast::Hasher::new(),
        };
        writeln!(w, "{text}")?;
        match body {
            Body::None => {}
            Body::Table(_, view) => view.write_to(&mut w)?,
            Body::Tree(_, view) => view.write_to(&mut w)?,
        }
        let sum = w.crc.finalize();
        w.inner.write_all(TRAILER_TAG)?;
        w.inner.write_all(&sum.to_le_bytes())
    })
    .map(|_| ())
    .map_err(std::io::Error::other)
}

/// Sums what passes through for the trailer.
pub(super) struct Summed<'a> {
    pub(super) inner: &'a mut dyn Write,
    pub(super) crc: crc32fast::Hasher,
}

impl Write for Summed<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(b)?;
        self.crc.update(&b[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
