//! `zoo match`: engine against engine (the application layer's match
//! runner); this command parses the players and prints the results.

use super::engine::EngineSpec;
use crate::games::game_parser;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::sync::Mutex;
use zoo_app::matches::external::Dialect;
use zoo_app::matches::{
    default_openings, openings_from_text, run_match, CbSpec, GameRecord, MatchPlan, PlayerSpec,
};
use zoo_app::GameKind;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game played.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Engine A: options as for `zoo analyse` (e.g. "--eval simple --no-tt"),
    /// or `cmd:<program and arguments>` for an external engine speaking
    /// zoo's protocol, or `jcei:<program and arguments>` for a JCEI engine
    /// (Jungle; its rules checked by perft first), limits before it (e.g.
    /// "--depth 4 cmd:zoo uci", "jcei:./jungle"), or `cb:<library>` for a
    /// CheckerBoard-API engine (English checkers; e.g. "cb:./cake.so").
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
    /// Where the games are saved (JSON lines). An existing file is kept
    /// unless --append or --force says what to do with it.
    #[arg(long, default_value = "match-games.jsonl")]
    pub out: std::path::PathBuf,
    /// Add the games to the --out file if it exists.
    #[arg(long, conflicts_with = "force")]
    pub append: bool,
    /// Overwrite the --out file if it exists.
    #[arg(long)]
    pub force: bool,
    /// One JSON line per game (type `game`), then the result (docs/json.md).
    #[arg(long)]
    pub json: bool,
}

/// `println!` for a match, which runs with SIGPIPE ignored (main.rs):
/// when standard output is closed (piped into `head`), end quietly with
/// the status a shell gives a process ended by SIGPIPE, as the other
/// commands end, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).and_then(|_| out.flush()).is_err() {
            std::process::exit(128 + 13);
        }
    }};
}

/// `x` rounded to a whole number with its sign: `+12`, `-7`, and `+0` for
/// anything that rounds to zero (`{:+.0}` writes -0.3 as `-0`).
fn signed_whole(x: f64) -> String {
    // Adding +0 turns the -0 of rounding into +0.
    format!("{:+.0}", x.round() + 0.0)
}

/// `--a`/`--b`: engine options, or `[limits] cmd:<program>` (zoo's
/// protocol) or `[limits] jcei:<program>` (JCEI).
fn player(s: &str) -> Result<PlayerSpec> {
    if let Some((before, path)) = s.split_once("cb:") {
        let path = path.trim();
        if path.is_empty() {
            bail!("`cb:` needs the path of an engine library");
        }
        // The API passes a time and nothing else.
        let spec = EngineSpec::parse_str(before)?;
        let l = spec.limits.limits();
        if spec.opts.options() != EngineSpec::parse_str("")?.opts.options()
            || l.depth.is_some()
            || l.nodes.is_some()
        {
            bail!("before `cb:` only --movetime is allowed (the CheckerBoard API passes a time): {before:?}");
        }
        return Ok(PlayerSpec::CheckerBoard(CbSpec {
            path: path.into(),
            movetime_ms: l.movetime_ms,
        }));
    }
    let external = [Dialect::Zoo, Dialect::Jcei].into_iter().find_map(|d| {
        s.split_once(d.prefix())
            .map(|(before, cmd)| (d, before, cmd))
    });
    match external {
        Some((d, _, cmd)) if cmd.trim().is_empty() => bail!("`{}` needs a program", d.prefix()),
        Some((dialect, before, cmd)) => {
            // Only limits can go to another program: its engine options
            // are its own.
            let spec = EngineSpec::parse_str(before)?;
            if spec.opts.options() != EngineSpec::parse_str("")?.opts.options() {
                bail!(
                    "before `{}` only limits (--depth, --nodes, --movetime) are allowed: {before:?}",
                    dialect.prefix()
                );
            }
            Ok(PlayerSpec::External {
                command: cmd.trim().to_string(),
                dialect,
                limits: spec.limits.limits(),
            })
        }
        None => {
            let spec = EngineSpec::parse_str(s)?;
            Ok(PlayerSpec::Internal {
                options: spec.opts.options(),
                limits: spec.limits.limits(),
            })
        }
    }
}

/// The games file, opened as --append and --force say: the games of an
/// earlier match are not lost to a second run that did not name a file.
fn games_file(a: &MatchArgs) -> Result<std::fs::File> {
    let mut open = std::fs::OpenOptions::new();
    if a.append {
        open.append(true).create(true);
    } else if a.force {
        open.write(true).create(true).truncate(true);
    } else {
        // Created only if absent, in one step: no other run can slip in
        // between a check and the creation.
        open.write(true).create_new(true);
    }
    match open.open(&a.out) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "the games file {} exists: name another with --out, or give --append to add \
             to it or --force to overwrite it",
            a.out.display()
        ),
        r => r.with_context(|| format!("cannot write {}", a.out.display())),
    }
}

pub fn run(a: &MatchArgs) -> Result<()> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let rules_name = a.rules.name();
    let rules = rules_name.as_deref();
    let openings = match &a.openings {
        Some(path) => {
            let text = zoo_app::files::read_text(path, zoo_app::files::TEXT_LIMIT, "openings")?;
            openings_from_text(a.game, rules, &text, &path.display().to_string())?
        }
        None => default_openings(a.game, rules)?,
    };
    let plan = MatchPlan {
        game: a.game,
        rules: a.rules.name(),
        players: [player(&a.a)?, player(&a.b)?],
        games: a.games,
        openings,
        concurrency: a.concurrency,
        movetime_ms: a.movetime,
        max_plies: a.max_plies,
    };
    // Not a device or FIFO, and in a directory that exists.
    zoo_app::files::check_writable(&a.out)?;
    let out = Mutex::new(games_file(a)?);
    // The first error writing a game: the match goes on (its games are
    // printed too), and the run ends with the error.
    let write_error: Mutex<Option<String>> = Mutex::new(None);
    let on_game = |g: &GameRecord| {
        if let Ok(mut f) = out.lock() {
            if let Err(e) = writeln!(f, "{}", serde_json::to_string(g).unwrap_or_default())
                .and_then(|_| f.flush())
            {
                if let Ok(mut w) = write_error.lock() {
                    w.get_or_insert_with(|| format!("cannot write {}: {e}", a.out.display()));
                }
            }
        }
        if a.json {
            let _ = super::json::line("game", g);
        } else {
            say!(
                "game {:>3}: {} (white {}) {} [{}]",
                g.index + 1,
                g.result,
                g.white,
                g.reason,
                g.moves.len()
            );
        }
    };
    let m = run_match(&plan, &on_game).context("match stopped")?;
    if a.json {
        super::json::result(&serde_json::json!({"a": a.a, "b": a.b, "games": m.games,
            "wins": m.wins, "draws": m.draws, "losses": m.losses, "score": m.score,
            "elo": m.elo,
            // Every game won or lost: `elo` is not an estimate but the
            // figure of the score clamped to 1/(2n) from the edge.
            "elo_clamped": m.is_perfect(),
            "elo_error_95": m.elo_error_95,
            "ms_per_move": {"a": m.ms_per_move[0], "b": m.ms_per_move[1]},
            "forfeits": {"a": m.forfeits[0], "b": m.forfeits[1]},
            "out": a.out.display().to_string()}))?;
    } else {
        say!("A = {:?}\nB = {:?}", a.a, a.b);
        // A perfect score has no finite Elo: say so instead of a clamped figure.
        let elo_text = if m.is_perfect() {
            format!(
                "Elo A−B not finite (all games {}; the score clamped to 1/(2n) from the edge gives {})",
                if m.wins == m.games { "won" } else { "lost" },
                signed_whole(m.elo)
            )
        } else {
            format!(
                "Elo A−B {} ± {:.0} (95%)",
                signed_whole(m.elo),
                m.elo_error_95
            )
        };
        say!(
            "{} games: A wins {}, draws {}, losses {}; score {:.1}/{} ({:.1}%); {elo_text}",
            m.games,
            m.wins,
            m.draws,
            m.losses,
            m.wins as f64 + 0.5 * m.draws as f64,
            m.games,
            100.0 * m.score,
        );
        if m.forfeits != [0, 0] {
            let (fa, fb) = (m.forfeits[0], m.forfeits[1]);
            let (w, l) = (m.wins - fb, m.losses - fa);
            let n = w + m.draws + l;
            let without = if n == 0 {
                "no game left".to_string()
            } else if w == n || l == n {
                format!("A wins {w}, draws {}, losses {l} of {n}", m.draws)
            } else {
                let (e, err) = zoo_app::matches::elo_with_error(w, m.draws, l);
                format!(
                    "A wins {w}, draws {}, losses {l} of {n}; Elo A−B {} ± {err:.0}",
                    m.draws,
                    signed_whole(e)
                )
            };
            say!("forfeits: A lost {fa}, B lost {fb}; without them: {without}");
        }
        let per = |ms: f64| match a.movetime {
            0 => format!("{ms:.0} ms"),
            t => format!("{ms:.0} ms ({:.2} of --movetime)", ms / t as f64),
        };
        say!(
            "time per move: A {}, B {}",
            per(m.ms_per_move[0]),
            per(m.ms_per_move[1])
        );
        say!("games saved to {}", a.out.display());
    }
    if let Some(e) = write_error.into_inner().ok().flatten() {
        anyhow::bail!(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::signed_whole;

    #[test]
    fn whole_numbers_with_a_sign_and_no_minus_zero() {
        for (x, text) in [
            (-0.0, "+0"),
            (-0.3, "+0"),
            (0.4, "+0"),
            (-0.6, "-1"),
            (190.8, "+191"),
        ] {
            assert_eq!(signed_whole(x), text, "{x}");
        }
    }
}
