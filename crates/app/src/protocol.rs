//! The engine protocol of `zoo uci` (docs/protocol.md), line by line: a
//! [`Protocol`] takes one command line and writes its answer lines to an
//! output it was given. The front end only reads lines and prints what
//! comes out, so the protocol runs without a process (its tests and its
//! fuzz target drive it directly). The game, the engine and the search
//! thread are a [`Session`]'s, so `stop`, `isready` and `quit` are answered
//! while it thinks; a running search writes its `info` and `bestmove`
//! lines to the same output from its own thread.
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use zoo_app::protocol::{Flow, Protocol};
//! use zoo_app::{EngineOptions, GameKind};
//! let said = Arc::new(Mutex::new(Vec::new()));
//! let out = said.clone();
//! let mut p = Protocol::new(
//!     GameKind::Jungle,
//!     None,
//!     EngineOptions::default(),
//!     |s: &str| Err(format!("no engine options here: {s:?}")),
//!     move |line: &str| out.lock().unwrap().push(line.to_string()),
//! )?;
//! assert_eq!(p.line("isready"), Flow::Continue);
//! assert_eq!(p.line("quit"), Flow::Quit);
//! p.finish(true);
//! assert_eq!(*said.lock().unwrap(), ["readyok"]);
//! # Ok::<(), zoo_app::AppError>(())
//! ```

use crate::options::{max_hash_mb, MAX_THREADS};
use crate::{AppError, EngineOptions, GameKind, SearchLimits, Session};
use std::sync::Arc;
use zoo_core::Side;

/// Where the answer lines go (without line ends). Shared with the search
/// thread, which writes its `info` and `bestmove` lines there.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Reads the string of `setoption name EngineOptions` (the options of
/// `zoo analyse`, e.g. `--no-tt --eval simple`) into options, or says why
/// not. The front end owns the option syntax, so it passes its parser.
pub type EngineOptionsParser = Box<dyn Fn(&str) -> Result<EngineOptions, String>>;

/// Whether the client asked to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop reading and call [`Protocol::finish`] with `quit`.
    Quit,
}

/// A command line the protocol refused; answered with `info string error:
/// …` and otherwise ignored.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// The first word is no command.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// `setoption` without `name`.
    #[error("expected `setoption name <id> value <x>`")]
    SetOptionSyntax,
    /// An option name the engine does not have.
    #[error("unknown option {0:?}")]
    UnknownOption(String),
    /// `setoption name Hash` with a value that is not a number.
    #[error("Hash must be a number of MiB")]
    Hash,
    /// `setoption name Threads` with a value that is not a number.
    #[error("Threads must be a number")]
    Threads,
    /// `setoption name MultiPV` with a value out of its range.
    #[error("MultiPV must be a number from 1 to {}", crate::MAX_MULTIPV)]
    MultiPv,
    /// `setoption name EngineOptions` with options that do not parse.
    #[error("{0}")]
    EngineOptions(String),
    /// `position` followed by neither `startpos` nor `fen`.
    #[error("expected `position startpos|fen <fen> [moves ...]`")]
    PositionSyntax,
    /// A `go` parameter without its number.
    #[error("`go {0}` needs a number")]
    GoNumber(String),
    /// A `go` parameter the protocol does not have.
    #[error("unknown go parameter {0:?}")]
    GoParameter(String),
    /// `perft` without a number of plies.
    #[error("expected `perft <plies>`")]
    PerftSyntax,
    /// `go` after a refused `position`: searching the position before
    /// would answer a question not asked.
    #[error("no position to search: the last `position` was refused ({0})")]
    NoPosition(String),
    /// What the session refused: a game, rule set, position, move or
    /// option value.
    #[error(transparent)]
    App(#[from] AppError),
}

/// One protocol conversation: the session and what the client set.
pub struct Protocol {
    session: Session,
    /// The options of the command line and of `setoption name Hash`,
    /// `Threads`, `Eval` and `TB`.
    base: EngineOptions,
    /// Extra engine options given by `setoption name EngineOptions`.
    extra: String,
    parse_options: EngineOptionsParser,
    out: Output,
    /// Whether the tables in use were reported since the engine changed.
    told_tables: bool,
    /// Why the last `position` was refused: `go` has no position to search.
    refused: Option<String>,
    /// The last `go` had a limit of its own (depth, nodes, time): it ends
    /// by itself, so end of input may wait for its `bestmove`.
    finite: bool,
    /// `setoption name MultiPV`: lines each `info` reports (1: one).
    multipv: u32,
}

impl Protocol {
    /// A conversation about `game` under the rule set `rules` (`None`: the
    /// default) with engine `options`; `parse_options` reads `setoption
    /// name EngineOptions`, `out` receives every answer line.
    pub fn new(
        game: GameKind,
        rules: Option<&str>,
        options: EngineOptions,
        parse_options: impl Fn(&str) -> Result<EngineOptions, String> + 'static,
        out: impl Fn(&str) + Send + Sync + 'static,
    ) -> Result<Protocol, AppError> {
        Ok(Protocol {
            session: Session::new(game, rules, options.clone())?,
            base: options,
            extra: String::new(),
            parse_options: Box::new(parse_options),
            out: Arc::new(out),
            told_tables: false,
            refused: None,
            finite: false,
            multipv: 1,
        })
    }

    /// Answers one command line (without its line end). Bad input is
    /// answered with `info string error: …`, never an end.
    pub fn line(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Flow::Continue;
        };
        let result = match cmd {
            // JCEI's handshake (the Jungle engines' protocol) is UCI's
            // with its own last word.
            "uci" | "jcei" => {
                self.identify(if cmd == "jcei" { "jceiok" } else { "uciok" });
                Ok(())
            }
            "perft" => {
                self.interrupt(cmd);
                self.perft(&words[1..])
            }
            "isready" => {
                self.say("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.interrupt(cmd);
                self.session.new_game();
                Ok(())
            }
            "setoption" => {
                self.interrupt(cmd);
                self.setoption(&words[1..])
            }
            "position" => {
                self.interrupt(cmd);
                self.position(&words[1..])
            }
            "go" => {
                self.interrupt(cmd);
                if let Err(e) = self.go(&words[1..]) {
                    // A client waits for `bestmove` after every `go`.
                    self.error(&e);
                    self.say("bestmove (none)");
                }
                Ok(())
            }
            "stop" => {
                self.session.stop();
                Ok(())
            }
            "quit" => return Flow::Quit,
            _ => Err(ProtocolError::UnknownCommand(cmd.to_string())),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        Flow::Continue
    }

    /// Answers a line that could not be read as a command (not text) with
    /// `info string error: <why>`.
    pub fn error(&self, why: &dyn std::error::Error) {
        let mut text = why.to_string();
        // The causes too, as `anyhow`'s `{:#}` wrote them before.
        let mut source = why.source();
        while let Some(s) = source {
            text.push_str(&format!(": {s}"));
            source = s.source();
        }
        self.say(&format!("info string error: {text}"));
    }

    /// Ends the conversation. `quit` stops a search at once, as in UCI.
    /// End of input (`quit` false) lets a search with a limit finish and
    /// write its `bestmove`: `printf '…go depth 8\n' | zoo uci` then
    /// answers what it was asked; a search without a limit would never
    /// end, so it is stopped.
    pub fn finish(mut self, quit: bool) {
        if !quit && self.finite {
            self.session.wait();
        }
        self.session.stop();
    }

    /// What a command that changes the game or the engine does to a
    /// running search (docs/protocol.md, "What stops a search"): UCI asks
    /// the client to send `stop` first; a client that does not gets the
    /// search stopped, its `bestmove` (for the position it searched) and,
    /// before it, an `info string` naming the command, so that a search
    /// cut short is never silent.
    fn interrupt(&mut self, cmd: &str) {
        if self.session.is_searching() {
            self.say(&format!(
                "info string search stopped by `{cmd}` (send `stop` first)"
            ));
            self.session.stop();
        }
    }

    fn say(&self, line: &str) {
        (self.out)(line)
    }

    /// The engine options in force: the extra options, with the table
    /// size, threads, tables and evaluation of the named options.
    fn options(&self) -> Result<EngineOptions, ProtocolError> {
        let mut o = if self.extra.trim().is_empty() {
            self.base.clone()
        } else {
            (self.parse_options)(&self.extra).map_err(ProtocolError::EngineOptions)?
        };
        o.hash_mb = self.base.hash_mb;
        o.threads = self.base.threads;
        if o.tb.is_none() {
            o.tb = self.base.tb.clone();
        }
        if o.eval.is_none() {
            o.eval = self.base.eval.clone();
        }
        Ok(o)
    }

    /// A new session of `game` under `rules`, keeping the engine options.
    fn new_session(&mut self, game: GameKind, rules: Option<&str>) -> Result<(), ProtocolError> {
        self.session = Session::new(game, rules, self.options()?)?;
        self.told_tables = false;
        self.refused = None;
        Ok(())
    }

    fn identify(&self, ok: &str) {
        self.say(&format!("id name zoo {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the zoo developers");
        let games: Vec<String> = GameKind::ALL
            .iter()
            .map(|g| format!("var {}", g.name()))
            .collect();
        self.say(&format!(
            "option name Game type combo default {} {}",
            self.session.game(),
            games.join(" ")
        ));
        self.say("option name Rules type string default <default>");
        self.say(&format!(
            "option name Hash type spin default {} min 1 max {}",
            self.base.hash_mb,
            max_hash_mb()
        ));
        self.say(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            self.base.threads,
        ));
        self.say("option name Eval type string default <default>");
        self.say("option name EngineOptions type string default <empty>");
        self.say("option name TB type string default <empty>");
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {}",
            crate::MAX_MULTIPV
        ));
        self.say(ok);
    }

    fn setoption(&mut self, w: &[&str]) -> Result<(), ProtocolError> {
        // setoption name <id...> [value <x...>]
        let vpos = w.iter().position(|&x| x == "value");
        if w.first() != Some(&"name") {
            return Err(ProtocolError::SetOptionSyntax);
        }
        let name = w[1..vpos.unwrap_or(w.len())].join(" ").to_ascii_lowercase();
        let value = vpos.map(|p| w[p + 1..].join(" ")).unwrap_or_default();
        let given = |v: &str, empty: &str| (!v.is_empty() && v != empty).then(|| v.to_string());
        // Each change is checked before it is kept: a refused value leaves
        // the session as it was.
        let before = (self.base.clone(), self.extra.clone());
        match name.as_str() {
            "game" => {
                let game: GameKind = value.parse()?;
                return self.new_session(game, None);
            }
            "rules" => {
                let game = self.session.game();
                return self.new_session(game, given(&value, "<default>").as_deref());
            }
            "hash" => self.base.hash_mb = value.parse().map_err(|_| ProtocolError::Hash)?,
            "threads" => self.base.threads = value.parse().map_err(|_| ProtocolError::Threads)?,
            "eval" => self.base.eval = given(&value, "<default>"),
            "tb" => self.base.tb = given(&value, "<empty>").map(Into::into),
            "engineoptions" => self.extra = given(&value, "<empty>").unwrap_or_default(),
            "multipv" => {
                // A search limit, not an engine option: the session stays.
                self.multipv = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=crate::MAX_MULTIPV).contains(n))
                    .ok_or(ProtocolError::MultiPv)?;
                return Ok(());
            }
            _ => return Err(ProtocolError::UnknownOption(name)),
        }
        let applied = self
            .options()
            .and_then(|o| self.session.set_options(o).map_err(Into::into));
        if applied.is_err() {
            (self.base, self.extra) = before;
        } else {
            self.told_tables = false;
        }
        applied
    }

    fn position(&mut self, w: &[&str]) -> Result<(), ProtocolError> {
        let mpos = w.iter().position(|&x| x == "moves").unwrap_or(w.len());
        let moves = w.get(mpos + 1..).unwrap_or(&[]);
        let fen = match w.first() {
            Some(&"startpos") => None,
            Some(&"fen") => Some(w[1..mpos].join(" ")),
            _ => return Err(ProtocolError::PositionSyntax),
        };
        let set = self.session.set_position(fen.as_deref(), moves);
        self.refused = set.as_ref().err().map(|e| e.to_string());
        Ok(set?)
    }

    /// `perft n`: the paths of exactly `n` plies from the position, as
    /// JCEI engines count them, answered `perft(n) = <count>`.
    fn perft(&mut self, w: &[&str]) -> Result<(), ProtocolError> {
        if let Some(why) = &self.refused {
            return Err(ProtocolError::NoPosition(why.clone()));
        }
        let depth = match w {
            [d] => d.parse().map_err(|_| ProtocolError::PerftSyntax)?,
            _ => return Err(ProtocolError::PerftSyntax),
        };
        let r = crate::perft::perft(&crate::perft::PerftRequest {
            game: self.session.game(),
            rules: Some(self.session.rules_name().to_string()),
            fen: Some(self.session.fen()),
            depth,
            repetition: zoo_core::Repetition::None,
            counting: zoo_core::Counting::FullLength,
            divide: false,
            threads: 1,
            no_cap: false,
        })?;
        self.say(&format!("perft({depth}) = {}", r.nodes));
        Ok(())
    }

    fn go(&mut self, w: &[&str]) -> Result<(), ProtocolError> {
        if let Some(why) = &self.refused {
            return Err(ProtocolError::NoPosition(why.clone()));
        }
        let mut limits = SearchLimits {
            multipv: self.multipv,
            ..SearchLimits::default()
        };
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
        let mut infinite = false;
        let mut i = 0;
        let num = |i: usize| -> Result<u64, ProtocolError> {
            w.get(i + 1)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| ProtocolError::GoNumber(w[i].to_string()))
        };
        while i < w.len() {
            match w[i] {
                "depth" => {
                    limits.depth = Some((num(i)?.min(zoo_search::MAX_DEPTH as u64) as u32).max(1))
                }
                "nodes" => limits.nodes = Some(num(i)?),
                "movetime" => limits.movetime_ms = Some(num(i)?),
                "wtime" => wtime = Some(num(i)?),
                "btime" => btime = Some(num(i)?),
                "winc" => winc = num(i)?,
                "binc" => binc = num(i)?,
                "infinite" => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                other => return Err(ProtocolError::GoParameter(other.to_string())),
            }
            i += 2;
        }
        if limits.movetime_ms.is_none() {
            let (mine, inc) = match self.session.side_to_move() {
                Side::White => (wtime, winc),
                Side::Black => (btime, binc),
            };
            if let Some(t) = mine {
                limits.movetime_ms = Some(crate::movetime_by_clock(t, inc));
            }
        }
        self.finite = !infinite
            && (limits.depth.is_some() || limits.nodes.is_some() || limits.movetime_ms.is_some());
        if !self.told_tables {
            if let Some(t) = self.session.engine_info()?.tables {
                self.say(&format!("info string tablebase: {}", t.description));
            }
            self.told_tables = true;
        }
        let (info, done) = (self.out.clone(), self.out.clone());
        self.session.go(
            limits,
            move |it| {
                let score = |mate: Option<i32>, cp: i32| match mate {
                    Some(m) => format!("mate {m}"),
                    None => format!("cp {cp}"),
                };
                let nps = it.nodes.saturating_mul(1000) / it.ms.max(1);
                if it.lines.is_empty() {
                    info(&format!(
                        "info depth {} score {} nodes {} time {} nps {nps} pv {}",
                        it.depth,
                        score(it.mate, it.score),
                        it.nodes,
                        it.ms,
                        it.pv.join(" ")
                    ));
                }
                // Multi-PV: one line each, numbered as UCI does.
                for (k, l) in it.lines.iter().enumerate() {
                    info(&format!(
                        "info depth {} multipv {} score {} nodes {} time {} nps {nps} pv {}",
                        it.depth,
                        k + 1,
                        score(l.mate, l.score),
                        it.nodes,
                        it.ms,
                        l.pv.join(" ")
                    ));
                }
                // A table win is no mate (its distance is unknown): a
                // large `cp` score, said in words on a line of its own,
                // as the tablebase line before it.
                if let Some(o) = it.table {
                    info(&format!("info string table {}", o.name()));
                }
            },
            move |r| match r.best {
                Some(m) => done(&format!("bestmove {}", m.coord)),
                None => done("bestmove (none)"),
            },
        )?;
        Ok(())
    }
}
