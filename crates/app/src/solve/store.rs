//! The store of proven positions (`zoo solve --store FILE`): every answer
//! a run decides, kept on disk so that the next run, on the same position
//! or a neighbouring one, starts from what is known.
//!
//! A JSON header line (format, version, game, rule set, repetition
//! policy), then one JSON line per answer — the position's FEN, the goal,
//! `proven` or `disproven`, the proof's size when one was written, the
//! work it took, the method and the oracle's pieces — then the CRC-32
//! trailer of [`super::checkpoint`]. The whole file is written again to a
//! temporary file and renamed ([`crate::files::save`]), so a kill leaves
//! the last whole store; a file whose checksum, header or answers do not
//! hold together is refused with its name, never used.
//!
//! **What a stored answer depends on**: the game and its rule set (the
//! header; another game's or rule set's store is refused), the solver's
//! question — the value of the position as a root, a cycle being a draw
//! (the repetition policy `first`) — and the correctness of the run that
//! found it, including the tables it used as its oracle (their values are
//! exact, so the answer does not depend on which tables were used, only
//! on their being right). It does not depend on the path: the search uses
//! a stored answer as a leaf anywhere (`zoo_solve::leaf`'s `by_bounds`
//! says why that is sound). A run asked for a proof does not read the
//! store (a proof through a stored leaf could not be re-checked); it
//! only adds to it.

use super::checkpoint::{check_sum, Summed, TRAILER, TRAILER_TAG};
use crate::AppError;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use zoo_core::{Game, Oracle, OracleValue, Outcome};
use zoo_solve::{Answer, Goal};

const FORMAT: &str = "zoo-proof-store";
const VERSION: u32 = 1;

#[derive(serde::Serialize, serde::Deserialize, PartialEq, Eq, Debug)]
struct Header {
    format: String,
    version: u32,
    game: String,
    rules: String,
    /// Always `first`: a position repeated on the path is a draw.
    repetition: String,
}

/// What a solve does with the answers it adds to the store
/// ([`super::SolveRequest::store_writes`]).
#[derive(Clone, Debug, Default)]
pub enum Writes {
    /// Saves the file after each answer: the process is the store's one
    /// writer.
    #[default]
    Save,
    /// Leaves the file alone (a worker of a batch over MPI, whose rank 0
    /// writes it): each answer is returned in the report
    /// ([`super::SolveReport::stored`]) and, with a channel, also sent
    /// down it as soon as it is found.
    Return(Option<std::sync::mpsc::Sender<Added>>),
}

/// An answer added to a store, named with the store's game and rule set:
/// what a process that does not write the store sends its writer.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Added {
    /// The game's name ([`ProofStore::open`]'s `game`).
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// The answer.
    pub record: Record,
}

/// One answer kept.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Record {
    /// The position.
    pub fen: String,
    /// `win` or `not-lose`.
    pub goal: String,
    /// `proven` or `disproven`.
    pub answer: String,
    /// Nodes of the proof written with it, if one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_nodes: Option<u64>,
    /// The run's nodes (df-pn: MID calls).
    pub nodes: u64,
    /// The run's seconds.
    pub seconds: f64,
    /// How it was decided (`dfpn`, `graph`, `table`, `pns`, `pn2`).
    pub method: String,
    /// The pieces of the tables used as the oracle (0: none).
    pub oracle_pieces: u32,
}

/// The store read into memory.
pub struct ProofStore {
    path: PathBuf,
    header: Header,
    records: Vec<Record>,
    /// (FEN, goal) → index in `records`.
    index: HashMap<(String, Goal), usize>,
    changed: bool,
}

fn goal_named(name: &str) -> Option<Goal> {
    [Goal::Win, Goal::NotLose]
        .into_iter()
        .find(|g| g.name() == name)
}

/// The bounds `(lowest, highest)` on the value for the side to move that
/// one answer gives.
fn bounds_of(goal: Goal, answer: Answer) -> (Outcome, Outcome) {
    match (goal, answer) {
        (Goal::Win, Answer::Proven) => (Outcome::Win, Outcome::Win),
        (Goal::Win, _) => (Outcome::Loss, Outcome::Draw),
        (Goal::NotLose, Answer::Proven) => (Outcome::Draw, Outcome::Win),
        (Goal::NotLose, _) => (Outcome::Loss, Outcome::Loss),
    }
}

fn rank(o: Outcome) -> u8 {
    match o {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
    }
}

/// Both bounds together; `None` when they contradict each other.
fn meet(a: (Outcome, Outcome), b: (Outcome, Outcome)) -> Option<(Outcome, Outcome)> {
    let lo = if rank(a.0) >= rank(b.0) { a.0 } else { b.0 };
    let hi = if rank(a.1) <= rank(b.1) { a.1 } else { b.1 };
    (rank(lo) <= rank(hi)).then_some((lo, hi))
}

impl ProofStore {
    /// Reads the store at `path` for this game and rule set, or an empty
    /// one when there is no file yet.
    pub fn open(path: &Path, game: &str, rules: &str) -> Result<ProofStore, AppError> {
        let name = path.display();
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
            game: game.into(),
            rules: rules.into(),
            repetition: "first".into(),
        };
        let mut store = ProofStore {
            path: path.to_path_buf(),
            header,
            records: Vec::new(),
            index: HashMap::new(),
            changed: false,
        };
        let mut file = match crate::files::open_regular(path) {
            Ok(f) => f,
            Err(e) if e.is_not_found() => return Ok(store),
            Err(e) => return Err(e.into()),
        };
        let bad = |why: String| {
            AppError::Input(format!(
                "{name} is not a usable proof store: {why}; give another --store or remove it"
            ))
        };
        let io = |e: std::io::Error| AppError::Path(format!("cannot read proof store {name}: {e}"));
        let len = file.metadata().map_err(io)?.len();
        check_sum(&mut file, len).map_err(bad)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut lines = BufReader::new(file.take(len - TRAILER as u64)).lines();
        let first = lines
            .next()
            .ok_or_else(|| bad("empty".into()))?
            .map_err(io)?;
        let h: Header = serde_json::from_str(&first).map_err(|e| bad(e.to_string()))?;
        if h.format != FORMAT || h.version != VERSION {
            return Err(bad(format!(
                "format {} version {} (this zoo writes {FORMAT} version {VERSION})",
                h.format, h.version
            )));
        }
        if h != store.header {
            return Err(AppError::Input(format!(
                "{name} stores answers of {} under {} rules (repetition {}), not of {game} under {rules}",
                h.game, h.rules, h.repetition
            )));
        }
        for (i, line) in lines.enumerate() {
            let line = line.map_err(io)?;
            let rec: Record =
                serde_json::from_str(&line).map_err(|e| bad(format!("answer {}: {e}", i + 1)))?;
            store
                .insert(rec)
                .map_err(|why| bad(format!("answer {}: {why}", i + 1)))?;
        }
        store.changed = false;
        Ok(store)
    }

    /// Adds an answer (a repeat of one held is ignored); refuses one that
    /// contradicts what the store holds for the position.
    fn insert(&mut self, rec: Record) -> Result<(), String> {
        let goal = goal_named(&rec.goal).ok_or_else(|| format!("no goal {:?}", rec.goal))?;
        let answer = match rec.answer.as_str() {
            "proven" => Answer::Proven,
            "disproven" => Answer::Disproven,
            other => return Err(format!("no decided answer {other:?}")),
        };
        let mine = bounds_of(goal, answer);
        if let Some(held) = self.bounds_of_fen(&rec.fen) {
            if meet(held, mine).is_none() {
                return Err(format!(
                    "{} {} at {} contradicts the answers held for it",
                    rec.goal, rec.answer, rec.fen
                ));
            }
        }
        let key = (rec.fen.clone(), goal);
        if self.index.contains_key(&key) {
            return Ok(());
        }
        self.index.insert(key, self.records.len());
        self.records.push(rec);
        self.changed = true;
        Ok(())
    }

    /// Answers held.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The bounds every answer held for `fen` gives together.
    fn bounds_of_fen(&self, fen: &str) -> Option<(Outcome, Outcome)> {
        let mut b: Option<(Outcome, Outcome)> = None;
        for goal in [Goal::Win, Goal::NotLose] {
            if let Some(&i) = self.index.get(&(fen.to_string(), goal)) {
                let a = if self.records[i].answer == "proven" {
                    Answer::Proven
                } else {
                    Answer::Disproven
                };
                let mine = bounds_of(goal, a);
                b = Some(match b {
                    None => mine,
                    Some(held) => meet(held, mine).unwrap_or(held),
                });
            }
        }
        b
    }

    /// The answer to `goal` at `fen` that the store holds or implies (a
    /// win proven proves not losing; a loss proven disproves the win).
    pub fn answer(&self, fen: &str, goal: Goal) -> Option<Answer> {
        let (lo, hi) = self.bounds_of_fen(fen)?;
        goal.decided_by(lo, hi)
    }

    /// Keeps a decided answer (an unknown one is not kept).
    pub fn add(&mut self, rec: Record) -> Result<(), AppError> {
        if rec.answer == Answer::Unknown.name() {
            return Ok(());
        }
        let name = self.path.display().to_string();
        self.insert(rec).map_err(|why| {
            AppError::Input(format!(
                "proof store {name}: {why} (a wrong answer or a damaged table somewhere)"
            ))
        })
    }

    /// Writes the store back if it changed.
    pub fn save(&mut self) -> Result<(), AppError> {
        if !self.changed {
            return Ok(());
        }
        let header = serde_json::to_string(&self.header).map_err(std::io::Error::other);
        let lines: Result<Vec<String>, _> =
            self.records.iter().map(serde_json::to_string).collect();
        let (header, lines) = match (header, lines) {
            (Ok(h), Ok(l)) => (h, l),
            _ => return Err(AppError::Input("cannot encode the proof store".into())),
        };
        crate::files::save(&self.path, |w| {
            let mut w = Summed {
                inner: w,
                crc: crc32fast::Hasher::new(),
            };
            writeln!(w, "{header}")?;
            for l in &lines {
                writeln!(w, "{l}")?;
            }
            let sum = w.crc.finalize();
            w.inner.write_all(TRAILER_TAG)?;
            w.inner.write_all(&sum.to_le_bytes())
        })
        .map_err(|e| {
            AppError::Path(format!(
                "cannot write proof store {}: {e}",
                self.path.display()
            ))
        })?;
        self.changed = false;
        Ok(())
    }
}

/// Bounds on a position's value: (lowest, highest) for the side to move.
type Bounds = (Outcome, Outcome);

/// The tables (if any) with the store's answers as bounds: the oracle the
/// proof search is given when a store is read.
pub struct WithStore<'a, G> {
    tables: Option<&'a dyn Oracle<G>>,
    /// By the position's key: its FEN (to tell keys that collide apart)
    /// and the bounds of its answers.
    bounds: HashMap<u64, Vec<(String, Bounds)>>,
}

impl<'a, G: Game> WithStore<'a, G> {
    /// The oracle for positions of `rules`; answers whose FEN does not
    /// parse under them are refused.
    pub fn new(
        tables: Option<&'a dyn Oracle<G>>,
        store: &ProofStore,
        rules: &G::Rules,
    ) -> Result<Self, AppError> {
        let mut bounds: HashMap<u64, Vec<(String, Bounds)>> = HashMap::new();
        let mut seen = std::collections::HashSet::new();
        for rec in &store.records {
            if !seen.insert(rec.fen.as_str()) {
                continue;
            }
            let pos = G::from_fen(&rec.fen, rules).map_err(|e| {
                AppError::Input(format!(
                    "proof store {}: position {:?}: {e}",
                    store.path.display(),
                    rec.fen
                ))
            })?;
            if let Some(b) = store.bounds_of_fen(&rec.fen) {
                // Answers kept under FENs with different ply counts are
                // one position's (`Game::position_fen`): their bounds meet.
                let fen = pos.position_fen();
                let held = bounds.entry(pos.key()).or_default();
                match held.iter_mut().find(|(f, _)| *f == fen) {
                    Some((_, h)) => *h = meet(*h, b).unwrap_or(*h),
                    None => held.push((fen, b)),
                }
            }
        }
        Ok(WithStore { tables, bounds })
    }
}

impl<G: Game> Oracle<G> for WithStore<'_, G> {
    fn max_pieces(&self) -> u32 {
        self.tables.map_or(0, |t| t.max_pieces())
    }
    fn complete_pieces(&self) -> u32 {
        self.tables.map_or(0, |t| t.complete_pieces())
    }
    fn probe(&self, pos: &G) -> Option<OracleValue> {
        self.tables?.probe(pos)
    }
    fn why_unknown(&self, pos: &G) -> Option<String> {
        self.tables?.why_unknown(pos)
    }
    fn refused(&self) -> Option<(u64, String)> {
        self.tables?.refused()
    }
    fn bounds(&self, pos: &G) -> Option<(Outcome, Outcome)> {
        let held = self.bounds.get(&pos.key())?;
        // A FEN is made only where the key matches: rare in a search.
        let fen = pos.position_fen();
        held.iter().find(|(f, _)| *f == fen).map(|&(_, b)| b)
    }
}
