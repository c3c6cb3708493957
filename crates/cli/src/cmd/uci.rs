//! `zoo uci`: a text protocol on stdin/stdout modelled on UCI
//! (docs/protocol.md). This file is the protocol only: the game, the
//! engine and the search thread are a [`Session`]'s, so `stop`, `isready`
//! and `quit` are answered while it thinks.

use super::engine::{EngineOpts, EngineSpec};
use super::input::text_lines;
use crate::games::game_parser;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use zoo_app::{EngineOptions, GameKind, SearchLimits, Session};

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The game until `setoption name Game` changes it.
    #[arg(long, value_parser = game_parser(), default_value = "jungle")]
    pub game: GameKind,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Initial engine options (as for `zoo analyse`).
    #[command(flatten)]
    pub engine: EngineOpts,
}

struct State {
    session: Session,
    /// The options of the command line and of `setoption name Hash`,
    /// `Threads`, `Eval` and `TB`.
    base: EngineOpts,
    /// Extra engine options given by `setoption name EngineOptions`.
    extra: String,
    /// Whether the tables in use were reported since the engine changed.
    told_tables: bool,
    /// The last `position` was refused: `go` has no position to search
    /// (searching the one before would answer a question not asked).
    refused: Option<String>,
    /// The last `go` had a limit of its own (depth, nodes, time): it ends
    /// by itself, so end of input may wait for its `bestmove`.
    finite: bool,
}

impl State {
    /// The engine options in force: the extra options, with the table
    /// size, threads, tables and evaluation of the named options.
    fn options(&self) -> Result<EngineOptions> {
        let mut o = if self.extra.trim().is_empty() {
            self.base.clone()
        } else {
            EngineSpec::parse_str(&self.extra)?.opts
        };
        o.hash = self.base.hash;
        o.threads = self.base.threads;
        if o.tb.is_none() {
            o.tb = self.base.tb.clone();
        }
        if o.eval.is_none() {
            o.eval = self.base.eval.clone();
        }
        Ok(o.options())
    }

    /// A new session of `game` under `rules`, keeping the engine options.
    fn new_session(&mut self, game: GameKind, rules: Option<&str>) -> Result<()> {
        self.session = Session::new(game, rules, self.options()?)?;
        self.told_tables = false;
        self.refused = None;
        Ok(())
    }
}

pub fn run(a: &UciArgs) -> Result<()> {
    let mut st = State {
        session: Session::new(a.game, a.rules.name().as_deref(), a.engine.options())?,
        base: a.engine.clone(),
        extra: String::new(),
        told_tables: false,
        refused: None,
        finite: false,
    };
    let mut quit = false;
    for line in text_lines(std::io::stdin().lock()) {
        let line = match line? {
            Ok(line) => line,
            Err(not_text) => {
                println!("info string error: {not_text}");
                continue;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let result = match cmd {
            "uci" => {
                identify(&st);
                Ok(())
            }
            "isready" => {
                println!("readyok");
                Ok(())
            }
            "ucinewgame" => {
                st.session.new_game();
                Ok(())
            }
            "setoption" => setoption(&mut st, &words[1..]),
            "position" => position(&mut st, &words[1..]),
            "go" => {
                let r = go(&mut st, &words[1..]);
                if let Err(e) = &r {
                    // A client waits for `bestmove` after every `go`.
                    println!("info string error: {e:#}");
                    println!("bestmove (none)");
                }
                Ok(())
            }
            "stop" => {
                st.session.stop();
                Ok(())
            }
            "quit" => {
                quit = true;
                break;
            }
            _ => Err(anyhow!("unknown command {cmd:?}")),
        };
        if let Err(e) = result {
            println!("info string error: {e:#}");
        }
    }
    // `quit` stops a search at once, as in UCI. End of input lets a search
    // with a limit finish and print its `bestmove`: `printf '…go depth
    // 8\n' | zoo uci` then answers what it was asked; a search without a
    // limit would never end, so it is stopped.
    if !quit && st.finite {
        st.session.wait();
    }
    st.session.stop();
    Ok(())
}

fn identify(st: &State) {
    println!("id name zoo {}", env!("CARGO_PKG_VERSION"));
    println!("id author the zoo developers");
    let games: Vec<String> = GameKind::ALL
        .iter()
        .map(|g| format!("var {}", g.name()))
        .collect();
    println!(
        "option name Game type combo default {} {}",
        st.session.game(),
        games.join(" ")
    );
    println!("option name Rules type string default <default>");
    println!(
        "option name Hash type spin default {} min 1 max {}",
        st.base.hash,
        zoo_app::options::max_hash_mb()
    );
    println!(
        "option name Threads type spin default {} min 1 max {}",
        st.base.threads,
        zoo_app::options::MAX_THREADS
    );
    println!("option name Eval type string default <default>");
    println!("option name EngineOptions type string default <empty>");
    println!("option name TB type string default <empty>");
    println!("uciok");
}

fn setoption(st: &mut State, w: &[&str]) -> Result<()> {
    // setoption name <id...> [value <x...>]
    let vpos = w.iter().position(|&x| x == "value");
    if w.first() != Some(&"name") {
        bail!("expected `setoption name <id> value <x>`");
    }
    let name = w[1..vpos.unwrap_or(w.len())].join(" ").to_ascii_lowercase();
    let value = vpos.map(|p| w[p + 1..].join(" ")).unwrap_or_default();
    let given = |v: &str, empty: &str| (!v.is_empty() && v != empty).then(|| v.to_string());
    // Each change is checked before it is kept: a refused value leaves
    // the session as it was.
    let before = (st.base.clone(), st.extra.clone());
    match name.as_str() {
        "game" => {
            let game: GameKind = value.parse()?;
            return st.new_session(game, None);
        }
        "rules" => {
            let game = st.session.game();
            return st.new_session(game, given(&value, "<default>").as_deref());
        }
        "hash" => {
            st.base.hash = value
                .parse()
                .map_err(|_| anyhow!("Hash must be a number of MiB"))?
        }
        "threads" => {
            st.base.threads = value
                .parse()
                .map_err(|_| anyhow!("Threads must be a number"))?
        }
        "eval" => st.base.eval = given(&value, "<default>"),
        "tb" => st.base.tb = given(&value, "<empty>").map(Into::into),
        "engineoptions" => st.extra = given(&value, "<empty>").unwrap_or_default(),
        _ => bail!("unknown option {name:?}"),
    }
    let applied = st
        .options()
        .and_then(|o| st.session.set_options(o).map_err(Into::into));
    if applied.is_err() {
        (st.base, st.extra) = before;
    } else {
        st.told_tables = false;
    }
    applied
}

fn position(st: &mut State, w: &[&str]) -> Result<()> {
    let mpos = w.iter().position(|&x| x == "moves").unwrap_or(w.len());
    let moves = w.get(mpos + 1..).unwrap_or(&[]);
    let fen = match w.first() {
        Some(&"startpos") => None,
        Some(&"fen") => Some(w[1..mpos].join(" ")),
        _ => bail!("expected `position startpos|fen <fen> [moves ...]`"),
    };
    let set = st.session.set_position(fen.as_deref(), moves);
    st.refused = set.as_ref().err().map(|e| e.to_string());
    Ok(set?)
}

fn go(st: &mut State, w: &[&str]) -> Result<()> {
    if let Some(why) = &st.refused {
        bail!("no position to search: the last `position` was refused ({why})");
    }
    let mut limits = SearchLimits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
    let mut infinite = false;
    let mut i = 0;
    let num = |i: usize| -> Result<u64> {
        w.get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("`go {}` needs a number", w[i]))
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
            other => bail!("unknown go parameter {other:?}"),
        }
        i += 2;
    }
    if limits.movetime_ms.is_none() {
        let (mine, inc) = match st.session.side_to_move() {
            zoo_core::Side::White => (wtime, winc),
            zoo_core::Side::Black => (btime, binc),
        };
        if let Some(t) = mine {
            // A thirtieth of the time left plus the increment, a common rule of thumb.
            limits.movetime_ms = Some((t / 30 + inc).max(10));
        }
    }
    st.finite = !infinite
        && (limits.depth.is_some() || limits.nodes.is_some() || limits.movetime_ms.is_some());
    if !st.told_tables {
        if let Some(t) = st.session.engine_info()?.tables {
            println!("info string tablebase: {}", t.description);
        }
        st.told_tables = true;
    }
    st.session.go(
        limits,
        |it| {
            let score = match it.mate {
                Some(m) => format!("mate {m}"),
                None => format!("cp {}", it.score),
            };
            println!(
                "info depth {} score {score} nodes {} time {} nps {} pv {}",
                it.depth,
                it.nodes,
                it.ms,
                it.nodes * 1000 / it.ms.max(1),
                it.pv.join(" ")
            );
        },
        |r| match r.best {
            Some(m) => println!("bestmove {}", m.coord),
            None => println!("bestmove (none)"),
        },
    )?;
    Ok(())
}
