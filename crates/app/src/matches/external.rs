//! A client of the engine protocol (docs/protocol.md): an external program
//! that `zoo match` plays against, started, asked for moves and shut down.

use crate::options::SearchLimits;
use crate::AppError;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// An external engine process and a thread reading its output.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    /// Starts `cmd` and sets it up for `game` under `rules`.
    pub fn start(cmd: &str, game: &str, rules: &str) -> Result<External, AppError> {
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
        };
        x.send("uci")?;
        x.wait_for("uciok", Duration::from_secs(10))?;
        x.send(&format!("setoption name Game value {game}"))?;
        x.send(&format!("setoption name Rules value {rules}"))?;
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

    /// Reads until a line starting with `word`; returns that line.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, AppError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if l.split_whitespace().next() == Some(word) => return Ok(l),
                Ok(_) => {}
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

    /// The engine's move after `moves` from `fen` under limits `l`.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        l: &SearchLimits,
    ) -> Result<String, AppError> {
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
        match line.split_whitespace().nth(1) {
            None | Some("(none)") => Err(AppError::External(
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
