//! `zoo uci`: a text protocol on stdin/stdout modelled on UCI
//! (docs/protocol.md). The search runs on its own thread so that `stop`,
//! `isready` and `quit` are answered while it thinks.

use super::engine::{line_coord, EngineOpts};
use crate::engine_dispatch;
use crate::games::{history_at, load_position, GameKind};
use anyhow::{anyhow, bail, Result};
use clap::{Args, ValueEnum};
use std::any::Any;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use zoo_core::Game;
use zoo_search::{Engine, Limits};

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The game until `setoption name Game` changes it.
    #[arg(long, value_enum, default_value = "jungle")]
    pub game: GameKind,
    #[arg(long)]
    pub rules: Option<String>,
    /// Initial engine options (as for `zoo analyse`).
    #[command(flatten)]
    pub engine: EngineOpts,
}

struct State {
    game: GameKind,
    rules: Option<String>,
    opts: EngineOpts,
    /// Extra engine options given by `setoption name EngineOptions`.
    extra: String,
    fen: Option<String>,
    moves: Vec<String>,
    search: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
    /// The engine of the last `go` (its table survives between moves).
    cache: Option<(String, Arc<dyn Any + Send + Sync>)>,
}

impl State {
    fn wait(&mut self) {
        if let Some((h, _)) = self.search.take() {
            let _ = h.join();
        }
    }
    fn stop(&mut self) {
        if let Some((_, stop)) = &self.search {
            stop.store(true, Ordering::Relaxed);
        }
        self.wait();
    }
    fn options(&self) -> Result<EngineOpts> {
        let mut o = if self.extra.trim().is_empty() {
            self.opts.clone()
        } else {
            EngineOpts::parse_str(&self.extra)?
        };
        o.hash = self.opts.hash;
        o.threads = self.opts.threads;
        if o.tb.is_none() {
            o.tb = self.opts.tb.clone();
        }
        if o.eval.is_none() {
            o.eval = self.opts.eval.clone();
        }
        o.depth = None;
        o.nodes = None;
        o.movetime = None;
        Ok(o)
    }
}

pub fn run(a: &UciArgs) -> Result<()> {
    let mut st = State {
        game: a.game,
        rules: a.rules.clone(),
        opts: a.engine.clone(),
        extra: String::new(),
        fen: None,
        moves: Vec::new(),
        search: None,
        cache: None,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
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
                st.stop();
                st.cache = None;
                Ok(())
            }
            "setoption" => {
                st.stop();
                setoption(&mut st, &words[1..])
            }
            "position" => {
                st.stop();
                position(&mut st, &words[1..])
            }
            "go" => {
                st.stop();
                let r = go(&mut st, &words[1..]);
                if let Err(e) = &r {
                    // A client waits for `bestmove` after every `go`.
                    println!("info string error: {e:#}");
                    println!("bestmove (none)");
                }
                Ok(())
            }
            "stop" => {
                st.stop();
                Ok(())
            }
            "quit" => break,
            _ => Err(anyhow!("unknown command {cmd:?}")),
        };
        if let Err(e) = result {
            println!("info string error: {e:#}");
        }
    }
    // End of input or `quit`: finish cleanly.
    st.stop();
    Ok(())
}

fn identify(st: &State) {
    println!("id name zoo {}", env!("CARGO_PKG_VERSION"));
    println!("id author the zoo developers");
    let games: Vec<String> = GameKind::value_variants()
        .iter()
        .filter_map(|g| {
            g.to_possible_value()
                .map(|v| format!("var {}", v.get_name()))
        })
        .collect();
    let current = st
        .game
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    println!(
        "option name Game type combo default {current} {}",
        games.join(" ")
    );
    println!("option name Rules type string default <default>");
    println!(
        "option name Hash type spin default {} min 1 max 65536",
        st.opts.hash
    );
    println!(
        "option name Threads type spin default {} min 1 max 256",
        st.opts.threads
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
    match name.as_str() {
        "game" => {
            st.game =
                GameKind::from_str(&value, true).map_err(|_| anyhow!("unknown game {value:?}"))?;
            st.rules = None;
            st.fen = None;
            st.moves.clear();
        }
        "rules" => st.rules = (!value.is_empty() && value != "<default>").then_some(value),
        "hash" => {
            st.opts.hash = value
                .parse()
                .map_err(|_| anyhow!("Hash must be a number of MiB"))?
        }
        "threads" => {
            let t: usize = value
                .parse()
                .map_err(|_| anyhow!("Threads must be a number"))?;
            if !(1..=256).contains(&t) {
                bail!("Threads must be between 1 and 256");
            }
            st.opts.threads = t;
        }
        "eval" => st.opts.eval = (!value.is_empty() && value != "<default>").then_some(value),
        "tb" => {
            st.opts.tb = (!value.is_empty() && value != "<empty>").then(|| value.into());
        }
        "engineoptions" => {
            EngineOpts::parse_str(&value)?;
            st.extra = if value == "<empty>" {
                String::new()
            } else {
                value
            };
        }
        _ => bail!("unknown option {name:?}"),
    }
    Ok(())
}

fn position(st: &mut State, w: &[&str]) -> Result<()> {
    let mpos = w.iter().position(|&x| x == "moves").unwrap_or(w.len());
    let (fen, moves) = match w.first() {
        Some(&"startpos") => (None, &w[mpos.min(w.len())..]),
        Some(&"fen") => (Some(w[1..mpos].join(" ")), &w[mpos.min(w.len())..]),
        _ => bail!("expected `position startpos|fen <fen> [moves ...]`"),
    };
    st.fen = fen;
    st.moves = moves.iter().skip(1).map(|s| s.to_string()).collect();
    // Check it now so that errors are reported here, not at `go`.
    engine_dispatch!(st.game, check_position(st))
}

fn check_position<G: Game>(st: &State) -> Result<()> {
    build_position::<G>(st).map(|_| ())
}

/// Parses the position: start (or FEN), then the moves; returns it with its history.
fn build_position<G: Game>(st: &State) -> Result<(G, zoo_core::History)> {
    let mut pos: G = load_position(st.rules.as_deref(), st.fen.as_deref())?;
    let mut hist = history_at(&pos, pos.default_repetition());
    for m in &st.moves {
        let mv = pos.parse_move(m).map_err(|e| anyhow!("move {m:?}: {e}"))?;
        pos.make(mv);
        hist.push(pos.key(), pos.piece_count());
    }
    Ok((pos, hist))
}

fn go(st: &mut State, w: &[&str]) -> Result<()> {
    let mut limits = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
    let mut i = 0;
    let num = |i: usize| -> Result<u64> {
        w.get(i + 1)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| anyhow!("`go {}` needs a number", w[i]))
    };
    while i < w.len() {
        match w[i] {
            "depth" => limits.depth = Some((num(i)? as u32).clamp(1, zoo_search::MAX_DEPTH)),
            "nodes" => limits.nodes = Some(num(i)?),
            "movetime" => limits.movetime = Some(Duration::from_millis(num(i)?)),
            "wtime" => wtime = Some(num(i)?),
            "btime" => btime = Some(num(i)?),
            "winc" => winc = num(i)?,
            "binc" => binc = num(i)?,
            "infinite" => {
                i += 1;
                continue;
            }
            other => bail!("unknown go parameter {other:?}"),
        }
        i += 2;
    }
    engine_dispatch!(st.game, go_game(st, limits, (wtime, btime, winc, binc)))
}

type Clock = (Option<u64>, Option<u64>, u64, u64);

fn go_game<G: zoo_app::AppGame>(st: &mut State, mut limits: Limits, clock: Clock) -> Result<()> {
    let (pos, hist) = build_position::<G>(st)?;
    if limits.movetime.is_none() {
        let (mine, inc) = match pos.side_to_move() {
            zoo_core::Side::White => (clock.0, clock.2),
            zoo_core::Side::Black => (clock.1, clock.3),
        };
        if let Some(t) = mine {
            // A thirtieth of the time left plus the increment, a common rule of thumb.
            limits.movetime = Some(Duration::from_millis((t / 30 + inc).max(10)));
        }
    }
    let opts = st.options()?;
    let key = format!("{:?} {:?} {:?}", st.game, st.rules, opts);
    let engine: Arc<Engine<G, G::Eval, G::Tactics>> = match st.cache.take() {
        Some((k, e)) if k == key => e
            .downcast()
            .map_err(|_| anyhow!("engine cache of another game"))?,
        _ => {
            let (e, tb) = opts.build_for::<G>(&pos)?;
            if let Some(t) = tb {
                println!("info string tablebase: {}", t.description);
            }
            Arc::new(e)
        }
    };
    st.cache = Some((key, engine.clone()));
    let stop = engine.stop_handle();
    let handle = std::thread::spawn(move || {
        let r = engine.search(&pos, &hist, &limits, &mut |it| {
            let score = match it.mate {
                Some(m) => format!("mate {m}"),
                None => format!("cp {}", it.score),
            };
            let ms = it.elapsed.as_millis() as u64;
            println!(
                "info depth {} score {score} nodes {} time {ms} nps {} pv {}",
                it.depth,
                it.total_nodes,
                it.total_nodes * 1000 / ms.max(1),
                line_coord(&pos, &it.pv).join(" ")
            );
        });
        match r.best {
            Some(m) => println!("bestmove {}", pos.move_to_coord(m)),
            None => println!("bestmove (none)"),
        }
    });
    st.search = Some((handle, stop));
    Ok(())
}
