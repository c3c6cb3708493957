//! A client of the engine protocols: an external program that `zoo match`
//! plays against, started, asked for moves and shut down. It speaks zoo's
//! own protocol (docs/protocol.md) or JCEI, the UCI-like protocol of the
//! Jungle engines (jungine): `jcei`/`jceiok`, positions as `<board> w|b`
//! and `perft n` (docs/protocol.md, "JCEI").

use crate::options::SearchLimits;
use crate::AppError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The protocol an external engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// docs/protocol.md: `uci`/`uciok`, the game and rules set by
    /// `setoption`, zoo's position strings.
    Zoo,
    /// JCEI: `jcei`/`jceiok`, one game (Jungle) with the engine's own
    /// rules (checked by perft before a match), positions as the board
    /// and `w` or `b` only.
    Jcei,
}

impl Dialect {
    /// Its prefix in `zoo match --a/--b`: `cmd:` or `jcei:`.
    pub fn prefix(self) -> &'static str {
        match self {
            Dialect::Zoo => "cmd:",
            Dialect::Jcei => "jcei:",
        }
    }
}

/// An external engine process and a thread reading its output.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    dialect: Dialect,
}

/// A position string as a JCEI engine reads it: the board and `w` or `b`.
/// zoo's `common` family writes `r` (red) for White and two counters
/// after it (docs/rules/jungle.md §10.8); JCEI has neither.
pub fn jcei_fen(fen: &str) -> String {
    let mut f = fen.split_whitespace();
    let board = f.next().unwrap_or("");
    let side = match f.next() {
        Some("b") => "b",
        _ => "w",
    };
    format!("{board} {side}")
}

/// One `info` line of an external engine's search, as UCI, JCEI and zoo's
/// protocol write them: `info depth 9 seldepth 14 score cp 38 nodes 1587160
/// nps 6151782 time 258 pv g3f3 c7d7 …`. A JCEI engine counts `mate` in
/// moves, zoo's protocol in plies; it is kept as the engine wrote it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    /// The iteration's depth.
    pub depth: Option<u32>,
    /// `score cp`: the evaluation for the side to move.
    pub score: Option<i32>,
    /// `score mate`: as the engine counts it.
    pub mate: Option<i32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Milliseconds since the search began.
    pub ms: Option<u64>,
    /// The principal variation, the engine's move strings.
    pub pv: Vec<String>,
}

impl Info {
    /// The line read, or `None` when it is no `info` line with a depth or
    /// a score (`info string …` and the like).
    pub fn parse(line: &str) -> Option<Info> {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.first() != Some(&"info") {
            return None;
        }
        let mut i = Info {
            depth: None,
            score: None,
            mate: None,
            nodes: None,
            ms: None,
            pv: Vec::new(),
        };
        let mut k = 1;
        while k < w.len() {
            let next = w.get(k + 1).copied().unwrap_or("");
            match w[k] {
                "depth" => i.depth = next.parse().ok(),
                "nodes" => i.nodes = next.parse().ok(),
                "time" => i.ms = next.parse().ok(),
                "score" => {
                    let value = w.get(k + 2).and_then(|v| v.parse().ok());
                    match next {
                        "cp" => i.score = value,
                        "mate" => i.mate = value,
                        _ => {}
                    }
                    k += 1;
                }
                "pv" => {
                    i.pv = w[k + 1..].iter().map(|m| m.to_string()).collect();
                    break;
                }
                "string" => return None,
                // Words without a value, and `wdl W D L`'s three.
                "lowerbound" | "upperbound" => {
                    k += 1;
                    continue;
                }
                "wdl" => {
                    k += 4;
                    continue;
                }
                _ => {}
            }
            k += 2;
        }
        (i.depth.is_some() || i.score.is_some() || i.mate.is_some()).then_some(i)
    }
}

/// The count of a `perft` answer line: `perft(3) = 4469  (1 ms)`, or
/// `perft 3 4469`-like lines with the count as the first number after `=`.
fn perft_count(line: &str) -> Option<u64> {
    let after = line.split_once('=')?.1;
    after.split_whitespace().next()?.parse().ok()
}

impl External {
    /// Starts `cmd` and sets it up for `game` under `rules`, speaking `dialect`.
    pub fn start(
        cmd: &str,
        game: &str,
        rules: &str,
        dialect: Dialect,
    ) -> Result<External, AppError> {
        let mut words = cmd.split_whitespace();
        let prog = words
            .next()
            .ok_or_else(|| AppError::External("empty external engine command".into()))?;
        let mut child = Command::new(prog)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                AppError::External(format!("cannot start external engine {cmd:?}: {e}"))
            })?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| AppError::External(format!("no stdin of {cmd:?}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| AppError::External(format!("no stdout of {cmd:?}")))?;
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
            dialect,
        };
        match dialect {
            Dialect::Zoo => {
                x.send("uci")?;
                x.wait_for("uciok", Duration::from_secs(10))?;
                x.send(&format!("setoption name Game value {game}"))?;
                x.send(&format!("setoption name Rules value {rules}"))?;
            }
            Dialect::Jcei => {
                x.send("jcei")?;
                x.wait_for("jceiok", Duration::from_secs(10))?;
            }
        }
        x.send("isready")?;
        x.wait_for("readyok", Duration::from_secs(10))?;
        Ok(x)
    }

    /// Writes a line to the engine. An engine that has exited gives an
    /// error here (the `zoo` binary ignores SIGPIPE while it runs a match,
    /// so the write fails instead of ending zoo).
    fn send(&mut self, s: &str) -> Result<(), AppError> {
        if writeln!(self.stdin, "{s}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.gone());
        }
        Ok(())
    }

    /// The error for an engine that closed its input or output: it exited
    /// (with its status when it is known by now) or closed them.
    fn gone(&mut self) -> AppError {
        // The pipe closes as the process ends; its status follows soon.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return AppError::External(format!("external engine exited ({status})"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        AppError::External("external engine closed its input or output".into())
    }

    /// Reads until a line starting with `word` (as a word, or followed by
    /// `(` as in `perft(3) = …`); returns that line.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, AppError> {
        self.wait_for_reading(word, timeout, &mut |_| {})
    }

    /// As [`External::wait_for`], with every line before it given to
    /// `other`.
    fn wait_for_reading(
        &mut self,
        word: &str,
        timeout: Duration,
        other: &mut dyn FnMut(&str),
    ) -> Result<String, AppError> {
        let deadline = std::time::Instant::now() + timeout;
        let starts = |l: &str| {
            let first = l.split_whitespace().next().unwrap_or("");
            first == word || first.split('(').next() == Some(word) && first.contains('(')
        };
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if starts(&l) => return Ok(l),
                Ok(l) => other(&l),
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(AppError::External(format!(
                        "external engine sent no `{word}` within {} ms",
                        timeout.as_millis()
                    )))
                }
            }
        }
    }

    /// Sends the position `fen` then `moves`, in the engine's dialect.
    fn position(&mut self, fen: &str, moves: &[String]) -> Result<(), AppError> {
        let fen = match self.dialect {
            Dialect::Zoo => fen.to_string(),
            Dialect::Jcei => jcei_fen(fen),
        };
        if moves.is_empty() {
            self.send(&format!("position fen {fen}"))
        } else {
            self.send(&format!("position fen {fen} moves {}", moves.join(" ")))
        }
    }

    /// The engine's own perft count (JCEI's `perft n`, paths of the full
    /// length) of `fen` to `depth` plies.
    pub fn perft(&mut self, fen: &str, depth: u32) -> Result<u64, AppError> {
        self.position(fen, &[])?;
        self.send(&format!("perft {depth}"))?;
        let line = self.wait_for("perft", Duration::from_secs(30))?;
        perft_count(&line).ok_or_else(|| {
            AppError::External(format!("cannot read a count in the engine's {line:?}"))
        })
    }

    /// The engine's move after `moves` from `fen` under limits `l`.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        l: &SearchLimits,
    ) -> Result<String, AppError> {
        self.analyse(fen, moves, l, &mut |_| {})
    }

    /// As [`External::go`], with each `info` line of the engine's search
    /// read ([`Info`]) and given to `on_info` as it comes.
    pub fn analyse(
        &mut self,
        fen: &str,
        moves: &[String],
        l: &SearchLimits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<String, AppError> {
        self.position(fen, moves)?;
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
        let line = self.wait_for_reading("bestmove", wait, &mut |l| {
            if let Some(i) = Info::parse(l) {
                on_info(&i);
            }
        })?;
        // JCEI engines write `0000` for no move, zoo's protocol `(none)`.
        match line.split_whitespace().nth(1) {
            None | Some("(none)") | Some("0000") => Err(AppError::External(
                "external engine answered `bestmove` without a move".into(),
            )),
            Some(m) => Ok(m.to_string()),
        }
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

#[cfg(test)]
mod tests {
    use super::{jcei_fen, perft_count, Info};

    #[test]
    fn info_lines_of_jcei_and_zoo_are_read() {
        let j = Info::parse(
            "info depth 7 seldepth 12 score cp -35 nodes 91234 nps 800000 time 114 pv g3f3 c7d7",
        )
        .unwrap();
        assert_eq!(
            (j.depth, j.score, j.mate, j.nodes, j.ms),
            (Some(7), Some(-35), None, Some(91234), Some(114))
        );
        assert_eq!(j.pv, ["g3f3", "c7d7"]);
        let m =
            Info::parse("info depth 5 seldepth 5 score mate -3 nodes 10 nps 10 time 0 pv").unwrap();
        assert_eq!((m.score, m.mate), (None, Some(-3)));
        let z = Info::parse(
            "info depth 4 multipv 2 score cp 12 nodes 943 time 0 nps 943000 pv f1e1 b7b6",
        )
        .unwrap();
        assert_eq!((z.depth, z.score, z.pv.len()), (Some(4), Some(12), 2));
        assert_eq!(Info::parse("info string tablebase: none"), None);
        assert_eq!(Info::parse("bestmove a1a2"), None);
        assert_eq!(Info::parse("info"), None);
        assert_eq!(Info::parse("info depth"), None);
        let b = Info::parse(
            "info depth 9 score cp 20 lowerbound wdl 500 400 100 nodes 77 time 5 pv a1a2",
        )
        .unwrap();
        assert_eq!(
            (b.score, b.nodes, b.ms, b.pv.len()),
            (Some(20), Some(77), Some(5), 1)
        );
    }

    #[test]
    fn positions_and_counts_in_jcei_form() {
        // zoo's `common` family: `r` for White and two counters.
        let common = "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T r 0 1";
        assert_eq!(
            jcei_fen(common),
            "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w"
        );
        assert_eq!(
            jcei_fen("7/7/1e5/7/l2L1rt/7/5T1/7/7 b 3"),
            "7/7/1e5/7/l2L1rt/7/5T1/7/7 b"
        );
        assert_eq!(perft_count("perft(5) = 31291  (1 ms)"), Some(31291));
        assert_eq!(perft_count("perft(5) = many"), None);
        assert_eq!(perft_count("perft 5"), None);
    }
}
