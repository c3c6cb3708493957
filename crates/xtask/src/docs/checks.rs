//! docs/checks.toml: the documented figures, each with its page, its
//! command and where in the output its value is.
//!
//! ```toml
//! [[check]]
//! page = "README.md"
//! command = "zoo perft --game jungle --depth 7 --threads 2 --json"
//! format = "commas"                # default for the figures below
//! figures = [
//!   { figure = "1,908,483,421", pointer = "/nodes" },
//! ]
//! ```
//!
//! Per figure: `figure`, the value as the page writes it; `text`, the
//! page's words around it when the figure alone is ambiguous (it must
//! contain the figure); `pointer`, a JSON pointer into the last line of the
//! output, or `line`, the output line whose first word is this (the whole
//! line, trailing spaces dropped; with `word = N` its N-th word), or
//! `count`, the number of output lines that contain this text, or neither (the whole output, trimmed);
//! `format` (see format.rs). Per entry: `setup`, commands to run first
//! (each once per check run); `{tmp}` in a command is a scratch directory;
//! `slow = true` for commands that take over a minute: their figures are
//! only looked for on the page.

use super::format::Format;
use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use toml_edit::{DocumentMut, Item, Table, Value};

#[derive(Debug, Clone)]
pub struct Check {
    pub page: String,
    pub figure: String,
    pub text: String,
    pub command: String,
    pub setup: Vec<String>,
    pub slow: bool,
    pub place: Place,
    pub format: Format,
}

#[derive(Debug, Clone)]
pub enum Place {
    Pointer(String),
    /// The output line whose first word is this; with a word number
    /// (from 1), only that word.
    Line(String, Option<usize>),
    /// How many output lines contain this text (e.g. the tables a build
    /// solved: its JSON lines with `"copied_from":null`).
    Count(String),
    Whole,
}

pub const FILE: &str = "docs/checks.toml";

pub fn load(root: &Path) -> Result<Vec<Check>> {
    let path = root.join(FILE);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text).with_context(|| format!("in {}", path.display()))
}

fn string(t: &dyn TableLike, key: &str) -> Result<Option<String>> {
    match t.value(key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_owned()))
            .ok_or_else(|| anyhow!("`{key}` must be a string")),
    }
}

/// The two kinds of table the file uses: `[[check]]` and the inline
/// `{ figure = … }` ones.
trait TableLike {
    fn value(&self, key: &str) -> Option<&Value>;
}

impl TableLike for Table {
    fn value(&self, key: &str) -> Option<&Value> {
        self.get(key).and_then(Item::as_value)
    }
}

impl TableLike for toml_edit::InlineTable {
    fn value(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

fn figure(entry: &Table, f: &dyn TableLike, out: &mut Vec<Check>) -> Result<()> {
    let page = string(entry, "page")?.ok_or_else(|| anyhow!("no `page`"))?;
    let command = string(entry, "command")?.ok_or_else(|| anyhow!("no `command`"))?;
    let figure = string(f, "figure")?.ok_or_else(|| anyhow!("no `figure`"))?;
    let text = string(f, "text")?.unwrap_or_else(|| figure.clone());
    if !text.contains(&figure) {
        bail!("`text` {text:?} does not contain its figure {figure:?}");
    }
    let place = match (
        string(f, "pointer")?,
        string(f, "line")?,
        string(f, "count")?,
    ) {
        (Some(p), None, None) => Place::Pointer(p),
        (None, Some(l), None) => Place::Line(l, word(f)?),
        (None, None, Some(c)) => Place::Count(c),
        (None, None, None) => Place::Whole,
        _ => bail!("figure {figure:?}: one of `pointer`, `line` and `count`"),
    };
    let format = match string(f, "format")?.or(string(entry, "format")?) {
        Some(name) => name.parse()?,
        None => Format::Raw,
    };
    let setup = match entry.value("setup") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .ok_or_else(|| anyhow!("`setup` must be a list of commands"))?
            .iter()
            .map(|s| {
                s.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| anyhow!("`setup`: strings only"))
            })
            .collect::<Result<_>>()?,
    };
    let slow = match entry.value("slow") {
        None => false,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| anyhow!("`slow` must be true or false"))?,
    };
    out.push(Check {
        page,
        figure,
        text,
        command,
        setup,
        slow,
        place,
        format,
    });
    Ok(())
}

fn word(f: &dyn TableLike) -> Result<Option<usize>> {
    match f.value("word") {
        None => Ok(None),
        Some(v) => match v.as_integer() {
            Some(n) if n >= 1 => Ok(Some(n as usize)),
            _ => bail!("`word` must be a word number from 1"),
        },
    }
}

pub fn parse(text: &str) -> Result<Vec<Check>> {
    let doc: DocumentMut = text.parse()?;
    let entries = doc
        .get("check")
        .and_then(Item::as_array_of_tables)
        .ok_or_else(|| anyhow!("no [[check]] entries"))?;
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = || {
            format!(
                "[[check]] number {} ({})",
                i + 1,
                string(entry, "command").ok().flatten().unwrap_or_default()
            )
        };
        match entry.value("figures") {
            Some(list) => {
                let list = list
                    .as_array()
                    .ok_or_else(|| anyhow!("`figures` must be a list"))
                    .with_context(at)?;
                for f in list {
                    let f = f
                        .as_inline_table()
                        .ok_or_else(|| anyhow!("`figures`: {{ figure = … }} tables only"))
                        .with_context(at)?;
                    figure(entry, f, &mut out).with_context(at)?;
                }
            }
            None => figure(entry, entry, &mut out).with_context(at)?,
        }
    }
    Ok(out)
}

impl Check {
    /// The value in the command's output, formatted as the page writes it.
    pub fn value(&self, output: &str) -> Result<String> {
        match &self.place {
            Place::Pointer(p) => {
                let last = output
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                let json: serde_json::Value = serde_json::from_str(last)
                    .with_context(|| format!("the last line of `{}` is not JSON", self.command))?;
                let v = json
                    .pointer(p)
                    .ok_or_else(|| anyhow!("`{}` has no {p} in its last line", self.command))?;
                self.format.json(v)
            }
            Place::Line(first, word) => {
                let line = output
                    .lines()
                    .find(|l| l.split_whitespace().next() == Some(first))
                    .ok_or_else(|| {
                        anyhow!("`{}` prints no line starting with `{first}`", self.command)
                    })?;
                match word {
                    None => self.format.text(line.trim_end()),
                    Some(n) => {
                        let word = line.split_whitespace().nth(n - 1).ok_or_else(|| {
                            anyhow!("`{}`: its line `{first}` has no word {n}", self.command)
                        })?;
                        // A word ends before the comma of a sentence ("21.17,").
                        self.format.text(word.trim_end_matches([',', ';']))
                    }
                }
            }
            Place::Count(text) => self.format.text(
                &output
                    .lines()
                    .filter(|l| l.contains(text.as_str()))
                    .count()
                    .to_string(),
            ),
            Place::Whole => self.format.text(output.trim()),
        }
    }
}
