//! `zoo match`: engine against engine over a set of openings, colours
//! alternated, with W/D/L, score and an Elo difference with its 95% error bar.
//! Either side may be an external program speaking docs/protocol.md.

use super::engine::EngineOpts;
use crate::engine_dispatch;
use crate::games::{history_at, load_position, GameKind};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;
use std::time::Duration;
use zoo_core::{Game, MoveList, Outcome, Side};
use zoo_search::{Engine, Limits};

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[arg(long, value_enum)]
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
    engine_dispatch!(a.game, match_game(a))
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
enum Player<G: zoo_app::AppGame> {
    Internal(Box<Engine<G, G::Eval, G::Tactics>>, Limits),
    External(External, Limits),
}

impl<G: zoo_app::AppGame> Player<G> {
    fn new(spec: &Spec, a: &MatchArgs, opening: &G) -> Result<Self> {
        let (game_name, rules) = (opening.game_name(), opening.rules_name());
        let default = Limits {
            movetime: Some(Duration::from_millis(a.movetime)),
            ..Limits::default()
        };
        Ok(match spec {
            Spec::Internal(o) => {
                let mut l = o.limits(None)?;
                if l == Limits::default() {
                    l = default;
                }
                // `--tb` in an engine's options: tables for this game, if any.
                Player::Internal(Box::new(o.build_for::<G>(opening)?.0), l)
            }
            Spec::External(cmd) => {
                Player::External(External::start(cmd, game_name, rules)?, default)
            }
        })
    }

    fn choose(
        &mut self,
        start: &G,
        moves: &[G::Move],
        pos: &G,
        hist: &zoo_core::History,
    ) -> Result<G::Move> {
        match self {
            Player::Internal(e, l) => e
                .search(pos, hist, l, &mut |_| {})
                .best
                .ok_or_else(|| anyhow!("engine found no move")),
            Player::External(x, l) => {
                let mut p = start.clone();
                let mut line = Vec::new();
                for &m in moves {
                    line.push(p.move_to_coord(m));
                    p.make(m);
                }
                let reply = x.go(&start.to_fen(), &line, l)?;
                pos.parse_move(&reply)
                    .map_err(|e| anyhow!("external engine played {reply:?}: {e}"))
            }
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

    fn go(&mut self, fen: &str, moves: &[String], l: &Limits) -> Result<String> {
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
        if let Some(t) = l.movetime {
            go += &format!(" movetime {}", t.as_millis());
        }
        self.send(&go)?;
        let wait = l.movetime.unwrap_or(Duration::from_secs(60)) + Duration::from_secs(10);
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

fn openings<G: Game>(a: &MatchArgs) -> Result<Vec<G>> {
    let start: G = load_position(a.rules.as_deref(), None)?;
    let rules = start.rules().clone();
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
                let p = G::from_fen(fen, &rules)
                    .with_context(|| format!("{}:{}: bad FEN", path.display(), i + 1))?;
                if p.outcome().is_some() {
                    bail!(
                        "{}:{}: the game is already over there",
                        path.display(),
                        i + 1
                    );
                }
                v.push(p);
            }
            v
        }
        None => {
            let mut l = MoveList::new();
            start.legal_moves(&mut l);
            l.iter()
                .map(|&m| {
                    let mut p = start.clone();
                    p.make(m);
                    p
                })
                .filter(|p| p.outcome().is_none())
                .collect()
        }
    };
    if list.is_empty() {
        bail!("no opening positions");
    }
    Ok(list)
}

fn play_one<G: zoo_app::AppGame>(
    a: &MatchArgs,
    specs: &[Spec; 2],
    opening: &G,
    a_is_white: bool,
    index: usize,
) -> Result<Played> {
    let (wname, bname) = if a_is_white { ("A", "B") } else { ("B", "A") };
    let game_name = opening.game_name();
    let rules = opening.rules_name();
    let (wi, bi) = if a_is_white { (0, 1) } else { (1, 0) };
    let mut white = Player::<G>::new(&specs[wi], a, opening)?;
    let mut black = Player::<G>::new(&specs[bi], a, opening)?;
    let mut pos = opening.clone();
    let mut hist = history_at(&pos, pos.default_repetition());
    let mut moves: Vec<G::Move> = Vec::new();
    let mut coords: Vec<String> = Vec::new();
    let (result, reason): (Option<Side>, String) = loop {
        if hist.is_draw() {
            break (None, "repetition".into());
        }
        if let Some(o) = pos.outcome() {
            let stm = pos.side_to_move();
            break match o {
                Outcome::Win => (Some(stm), "game over".into()),
                Outcome::Loss => (Some(stm.flip()), "game over".into()),
                Outcome::Draw => (None, "game over (draw)".into()),
            };
        }
        if moves.len() >= a.max_plies {
            break (None, format!("adjudicated after {} plies", a.max_plies));
        }
        let stm = pos.side_to_move();
        let player = if stm == Side::White {
            &mut white
        } else {
            &mut black
        };
        let mv = match player.choose(opening, &moves, &pos, &hist) {
            Ok(m) => m,
            Err(e) => {
                break (
                    Some(stm.flip()),
                    format!("forfeit by {}: {e:#}", stm.name()),
                )
            }
        };
        coords.push(pos.move_to_coord(mv));
        moves.push(mv);
        pos.make(mv);
        hist.push(pos.key(), pos.piece_count());
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
        "index": index, "game": game_name, "rules": rules, "opening": opening.to_fen(),
        "white": wname, "black": bname, "moves": coords, "result": res, "reason": reason,
        "final": pos.to_fen(),
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

fn match_game<G: zoo_app::AppGame>(a: &MatchArgs) -> Result<()> {
    let specs = [parse_spec(&a.a)?, parse_spec(&a.b)?];
    let openings = openings::<G>(a)?;
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
                match play_one::<G>(a, &specs, opening, i.is_multiple_of(2), i) {
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
