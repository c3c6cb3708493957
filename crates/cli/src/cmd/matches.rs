//! `zoo match`: engine against engine over a set of openings, colours
//! alternated, with W/D/L, score and an Elo difference with its 95% error bar.
//! Either side may be an external program speaking docs/protocol.md.

use super::engine::EngineOpts;
use crate::games::game_parser;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;
use std::time::Duration;
use zoo_app::{EndReason, GameKind, SearchLimits, Session, Status};
use zoo_core::{Outcome, Side};

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub rules: Option<String>,
    /// Engine A: options as for `zoo analyse` (e.g. "--eval simple --no-tt"),
    /// or `cmd:<program and arguments>` for an external engine.
    #[arg(long, allow_hyphen_values = true)]
    pub a: String,
    /// Engine B, as for --a.
    #[arg(long, allow_hyphen_values = true)]
    pub b: String,
    /// Number of games (pairs of games play each opening with colours swapped).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// A file of opening positions, one FEN a line (`#` starts a comment).
    /// Default: every position after one move from the start.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time per move for engines whose options give no limit.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// A game still running after this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Where the games are saved (JSON lines).
    #[arg(long, default_value = "match-games.jsonl")]
    pub out: std::path::PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Winner {
    A,
    B,
    Draw,
}

pub fn run(a: &MatchArgs) -> Result<()> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    match_games(a)
}

enum Spec {
    Internal(EngineOpts),
    External(String),
}

fn parse_spec(s: &str) -> Result<Spec> {
    match s.trim().strip_prefix("cmd:") {
        Some(cmd) if cmd.trim().is_empty() => bail!("`cmd:` needs a program"),
        Some(cmd) => Ok(Spec::External(cmd.trim().to_string())),
        None => Ok(Spec::Internal(EngineOpts::parse_str(s)?)),
    }
}

/// One engine during one game.
enum Player {
    Internal(Box<Session>, SearchLimits),
    External(External, SearchLimits),
}

impl Player {
    fn new(spec: &Spec, a: &MatchArgs) -> Result<Self> {
        let default = SearchLimits {
            movetime_ms: Some(a.movetime),
            ..SearchLimits::default()
        };
        Ok(match spec {
            Spec::Internal(o) => {
                // `--tb` in an engine's options: tables for this game, if any.
                let s = Session::new(a.game, a.rules.as_deref(), o.options())?;
                Player::Internal(Box::new(s), o.limits().or(default))
            }
            Spec::External(cmd) => {
                let rules = Session::new(a.game, a.rules.as_deref(), Default::default())?;
                Player::External(
                    External::start(cmd, a.game.name(), rules.rules_name())?,
                    default,
                )
            }
        })
    }

    /// The move to play after `moves` from the opening `fen`, coordinate form.
    fn choose(&mut self, fen: &str, moves: &[String]) -> Result<String> {
        match self {
            Player::Internal(s, l) => {
                s.set_position(Some(fen), moves)?;
                s.search(*l, &mut |_| {})?
                    .best
                    .map(|m| m.coord)
                    .ok_or_else(|| anyhow!("engine found no move"))
            }
            Player::External(x, l) => x.go(fen, moves, l),
        }
    }
}

/// An external engine process and a thread reading its output.
struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    fn start(cmd: &str, game: &str, rules: &str) -> Result<External> {
        let mut words = cmd.split_whitespace();
        let prog = words
            .next()
            .ok_or_else(|| anyhow!("empty external engine command"))?;
        let mut child = Command::new(prog)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start external engine {cmd:?}"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| anyhow!("no stdin of {cmd:?}"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| anyhow!("no stdout of {cmd:?}"))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut x = External {
            child,
            stdin,
            lines: rx,
        };
        x.send("uci")?;
        x.wait_for("uciok", Duration::from_secs(10))?;
        x.send(&format!("setoption name Game value {game}"))?;
        x.send(&format!("setoption name Rules value {rules}"))?;
        x.send("isready")?;
        x.wait_for("readyok", Duration::from_secs(10))?;
        Ok(x)
    }

    fn send(&mut self, s: &str) -> Result<()> {
        writeln!(self.stdin, "{s}")
            .and_then(|_| self.stdin.flush())
            .context("external engine closed its input")
    }

    /// Reads until a line starting with `word`; returns that line.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.split_whitespace().next() == Some(word) => return Ok(l),
                Ok(_) => {}
                Err(_) => bail!("external engine: no `{word}` within {timeout:?}"),
            }
        }
    }

    fn go(&mut self, fen: &str, moves: &[String], l: &SearchLimits) -> Result<String> {
        let pos = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&pos)?;
        let mut go = String::from("go");
        if let Some(d) = l.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = l.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(t) = l.movetime_ms {
            go += &format!(" movetime {t}");
        }
        self.send(&go)?;
        let wait = l
            .movetime_ms
            .map_or(Duration::from_secs(60), Duration::from_millis)
            + Duration::from_secs(10);
        let line = self.wait_for("bestmove", wait)?;
        line.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| anyhow!("empty bestmove"))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to exit by itself, then make sure it is gone.
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Played {
    index: usize,
    record: serde_json::Value,
    winner: Winner,
}

/// The opening positions as FENs: the file's, or every position one move
/// from the start.
fn openings(a: &MatchArgs) -> Result<Vec<String>> {
    let mut s = Session::new(a.game, a.rules.as_deref(), Default::default())?;
    let list = match &a.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut v = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let fen = line.split('#').next().unwrap_or("").trim();
                if fen.is_empty() {
                    continue;
                }
                s.set_position::<&str>(Some(fen), &[])
                    .with_context(|| format!("{}:{}: bad FEN", path.display(), i + 1))?;
                if s.status() != Status::Playing {
                    bail!(
                        "{}:{}: the game is already over there",
                        path.display(),
                        i + 1
                    );
                }
                v.push(s.fen());
            }
            v
        }
        None => {
            let mut v = Vec::new();
            for m in s.legal_moves() {
                s.set_position(None, &[&m.coord])?;
                if s.status() == Status::Playing {
                    v.push(s.fen());
                }
            }
            v
        }
    };
    if list.is_empty() {
        bail!("no opening positions");
    }
    Ok(list)
}

fn play_one(
    a: &MatchArgs,
    specs: &[Spec; 2],
    opening: &str,
    a_is_white: bool,
    index: usize,
) -> Result<Played> {
    let (wname, bname) = if a_is_white { ("A", "B") } else { ("B", "A") };
    let (wi, bi) = if a_is_white { (0, 1) } else { (1, 0) };
    let mut white = Player::new(&specs[wi], a)?;
    let mut black = Player::new(&specs[bi], a)?;
    // The referee: the game record and its status.
    let mut game = Session::new(a.game, a.rules.as_deref(), Default::default())?;
    game.set_position::<&str>(Some(opening), &[])?;
    let mut coords: Vec<String> = Vec::new();
    let (result, reason): (Option<Side>, String) = loop {
        let stm = game.side_to_move();
        match game.status() {
            Status::Playing => {}
            Status::Over {
                reason: EndReason::Repetition,
                ..
            } => break (None, "repetition".into()),
            over @ Status::Over { result, .. } => {
                let reason = if result == Outcome::Draw {
                    "game over (draw)"
                } else {
                    "game over"
                };
                break (over.winner(stm), reason.into());
            }
        }
        if coords.len() >= a.max_plies {
            break (None, format!("adjudicated after {} plies", a.max_plies));
        }
        let player = if stm == Side::White {
            &mut white
        } else {
            &mut black
        };
        let played = player
            .choose(opening, &coords)
            .and_then(|mv| game.play(&mv).map_err(|e| anyhow!("played {mv:?}: {e}")));
        match played {
            Ok(m) => coords.push(m.coord),
            Err(e) => {
                break (
                    Some(stm.flip()),
                    format!("forfeit by {}: {e:#}", stm.name()),
                )
            }
        }
    };
    let winner = match result {
        None => Winner::Draw,
        Some(Side::White) if a_is_white => Winner::A,
        Some(Side::Black) if !a_is_white => Winner::A,
        Some(_) => Winner::B,
    };
    let res = match result {
        None => "1/2-1/2",
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
    };
    let record = serde_json::json!({
        "index": index, "game": a.game, "rules": game.rules_name(), "opening": opening,
        "white": wname, "black": bname, "moves": coords, "result": res, "reason": reason,
        "final": game.fen(),
    });
    Ok(Played {
        index,
        record,
        winner,
    })
}

/// Elo difference of score `s` (0 < s < 1).
fn elo(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo of A and the half-width of its 95% interval from per-game scores.
pub fn elo_with_error(wins: usize, draws: usize, losses: usize) -> (f64, f64) {
    let n = (wins + draws + losses) as f64;
    let s = (wins as f64 + 0.5 * draws as f64) / n;
    let var = (wins as f64 + 0.25 * draws as f64) / n - s * s;
    let se = (var / n).sqrt();
    let clamp = |x: f64| x.clamp(0.5 / n, 1.0 - 0.5 / n);
    let e = elo(clamp(s));
    let (lo, hi) = (elo(clamp(s - 1.96 * se)), elo(clamp(s + 1.96 * se)));
    (e, (hi - lo) / 2.0)
}

fn match_games(a: &MatchArgs) -> Result<()> {
    let specs = [parse_spec(&a.a)?, parse_spec(&a.b)?];
    let openings = openings(a)?;
    let out = Mutex::new(
        std::fs::File::create(&a.out)
            .with_context(|| format!("cannot write {}", a.out.display()))?,
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let workers = a.concurrency.clamp(1, a.games);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.games || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    break;
                }
                let opening = &openings[(i / 2) % openings.len()];
                match play_one(a, &specs, opening, i.is_multiple_of(2), i) {
                    Ok(p) => {
                        if let Ok(mut f) = out.lock() {
                            let _ = writeln!(f, "{}", p.record);
                        }
                        if !a.json {
                            println!(
                                "game {:>3}: {} (white {}) {} [{}]",
                                i + 1,
                                p.record["result"].as_str().unwrap_or("?"),
                                p.record["white"].as_str().unwrap_or("?"),
                                p.record["reason"].as_str().unwrap_or(""),
                                p.record["moves"].as_array().map(|m| m.len()).unwrap_or(0)
                            );
                        }
                        if let Ok(mut r) = results.lock() {
                            r.push(p);
                        }
                    }
                    Err(e) => {
                        if let Ok(mut f) = failure.lock() {
                            *f = Some(e);
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure
        .into_inner()
        .map_err(|_| anyhow!("a match thread failed"))?
    {
        return Err(e.context("match stopped"));
    }
    let mut results = results
        .into_inner()
        .map_err(|_| anyhow!("a match thread failed"))?;
    results.sort_by_key(|p| p.index);
    let w = results.iter().filter(|p| p.winner == Winner::A).count();
    let d = results.iter().filter(|p| p.winner == Winner::Draw).count();
    let l = results.iter().filter(|p| p.winner == Winner::B).count();
    let n = results.len();
    let score = (w as f64 + 0.5 * d as f64) / n as f64;
    let (e, err) = elo_with_error(w, d, l);
    if a.json {
        println!(
            "{}",
            serde_json::json!({"a": a.a, "b": a.b, "games": n, "wins": w, "draws": d, "losses": l,
                "score": score, "elo": e, "elo_error_95": err, "out": a.out.display().to_string()})
        );
    } else {
        println!("A = {:?}\nB = {:?}", a.a, a.b);
        // A perfect score has no finite Elo: say so instead of a clamped figure.
        let elo_text = if w == n || l == n {
            format!(
                "Elo A−B not finite (all games {}; the score clamped to 1/(2n) from the edge gives {:+.0})",
                if w == n { "won" } else { "lost" },
                e
            )
        } else {
            format!("Elo A−B {e:+.0} ± {err:.0} (95%)")
        };
        println!(
            "{n} games: A wins {w}, draws {d}, losses {l}; score {:.1}/{n} ({:.1}%); {elo_text}",
            w as f64 + 0.5 * d as f64,
            100.0 * score,
        );
        println!("games saved to {}", a.out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let (e, err) = elo_with_error(10, 0, 10);
        assert!(e.abs() < 1e-9);
        assert!(err > 100.0 && err < 400.0, "{err}");
        let (e, _) = elo_with_error(3, 0, 1);
        // 75% is about +191 Elo.
        assert!((e - 190.8).abs() < 1.0, "{e}");
    }
}
