//! Engine against engine: games over a set of openings with colours
//! alternated, played to the end by a referee session, and the W/D/L with
//! an Elo difference and its 95% error bar. Either player may be an
//! external program speaking the engine protocol.

pub mod ballots;
pub mod external;
pub mod rules_check;

use crate::cbapi::host::CbEngine;
use crate::matches::external::{Dialect, External};
use crate::options::{EngineOptions, SearchLimits};
use crate::report::{EndReason, Status};
use crate::{AppError, GameKind, Session};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use zoo_core::{Outcome, Side};

/// Who plays: zoo's own engine or an external program.
#[derive(Debug, Clone)]
pub enum PlayerSpec {
    /// zoo's engine with these options, searching with these limits (none
    /// given: the match's time per move).
    Internal {
        /// The engine.
        options: EngineOptions,
        /// Its limits per move.
        limits: SearchLimits,
    },
    /// A program and its arguments, speaking docs/protocol.md or JCEI.
    External {
        /// The command line.
        command: String,
        /// Its protocol.
        dialect: Dialect,
        /// The limits sent with each `go` (none given: the match's time
        /// per move).
        limits: SearchLimits,
    },
    /// A CheckerBoard-API engine library (docs/cbapi.md).
    CheckerBoard(CbSpec),
}

/// A CheckerBoard-API engine (English checkers): a library and its time
/// per move (`None`: the match's).
#[derive(Debug, Clone)]
pub struct CbSpec {
    /// The library's path.
    pub path: std::path::PathBuf,
    /// Time per move in milliseconds.
    pub movetime_ms: Option<u64>,
}

/// A match to play.
#[derive(Debug, Clone)]
pub struct MatchPlan {
    /// The game.
    pub game: GameKind,
    /// The rule set's name (`None`: the default).
    pub rules: Option<String>,
    /// Players A and B.
    pub players: [PlayerSpec; 2],
    /// Number of games; pairs of games play each opening with colours swapped.
    pub games: usize,
    /// Opening positions (FEN), used in turn.
    pub openings: Vec<String>,
    /// Games played at once.
    pub concurrency: usize,
    /// Time per move for players whose limits give none.
    pub movetime_ms: u64,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: usize,
}

/// Which player won a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Winner {
    /// Player A.
    A,
    /// Player B.
    B,
    /// Neither.
    Draw,
}

/// One game as saved (a JSON line of the games file).
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameRecord {
    /// Its number in the match, from 0.
    pub index: usize,
    /// The game played.
    pub game: GameKind,
    /// The rule set's name.
    pub rules: &'static str,
    /// The opening position.
    pub opening: String,
    /// Who played White: `A` or `B`.
    pub white: &'static str,
    /// Who played Black.
    pub black: &'static str,
    /// The moves, coordinate form.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why it ended.
    pub reason: String,
    /// Milliseconds each move took its player, from the request to the
    /// answer (an external engine's process included), in move order.
    pub move_ms: Vec<u64>,
    /// The final position.
    #[serde(rename = "final")]
    pub final_fen: String,
    /// Which player won.
    #[serde(skip)]
    pub winner: Winner,
    /// Milliseconds used by A and by B, and their moves.
    #[serde(skip)]
    pub used: [(u64, usize); 2],
}

/// The match's result from A's side.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct MatchSummary {
    /// Games played.
    pub games: usize,
    /// A's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// A's losses.
    pub losses: usize,
    /// A's score as a fraction.
    pub score: f64,
    /// Elo of A over B (the score clamped to 1/(2n) from the edges).
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub elo_error_95: f64,
    /// Mean milliseconds a move of A and of B took.
    pub ms_per_move: [f64; 2],
    /// Games A and B lost by forfeit (no move, an illegal one, an engine
    /// gone or out of time): counted in `losses`/`wins`, and apart here,
    /// since they measure an engine's defects rather than its play.
    pub forfeits: [usize; 2],
}

impl MatchSummary {
    /// Every game won or every game lost: no finite Elo.
    pub fn is_perfect(&self) -> bool {
        self.wins == self.games || self.losses == self.games
    }
}

/// The default openings of a match: for English checkers the
/// federation's 3-move ballots that are played (156; [`ballots`]), for
/// the other games every position one move from the start under `rules`.
pub fn default_openings(game: GameKind, rules: Option<&str>) -> Result<Vec<String>, AppError> {
    if game == GameKind::EnglishCheckers {
        return ballots::ballot_openings(rules);
    }
    let mut s = Session::new(game, rules, EngineOptions::default())?;
    let mut v = Vec::new();
    for m in s.legal_moves() {
        s.set_position(None, &[&m.coord])?;
        if s.status() == Status::Playing {
            v.push(s.fen());
        }
    }
    Ok(v)
}

/// The openings of a text, one FEN a line (`#` starts a comment); each
/// must be a position where play goes on. `source` names the text in
/// errors (`openings.txt:3: …`).
pub fn openings_from_text(
    game: GameKind,
    rules: Option<&str>,
    text: &str,
    source: &str,
) -> Result<Vec<String>, AppError> {
    let mut s = Session::new(game, rules, EngineOptions::default())?;
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.split('#').next().unwrap_or("").trim();
        if fen.is_empty() {
            continue;
        }
        let at = |why: String| AppError::Input(format!("{source}:{}: {why}", i + 1));
        s.set_position::<&str>(Some(fen), &[])
            .map_err(|e| at(format!("bad FEN: {e}")))?;
        if s.status() != Status::Playing {
            return Err(at("the game is already over there".into()));
        }
        v.push(s.fen());
    }
    Ok(v)
}

/// One player during one game.
enum Player {
    Internal(Box<Session>, SearchLimits),
    External(External, SearchLimits),
    CheckerBoard(Box<CbEngine>, std::time::Duration),
}

impl Player {
    fn new(spec: &PlayerSpec, plan: &MatchPlan, rules: &str) -> Result<Self, AppError> {
        let default = SearchLimits {
            movetime_ms: Some(plan.movetime_ms),
            ..SearchLimits::default()
        };
        Ok(match spec {
            PlayerSpec::Internal { options, limits } => {
                let s = Session::new(plan.game, plan.rules.as_deref(), options.clone())?;
                Player::Internal(Box::new(s), limits.or(default))
            }
            PlayerSpec::External {
                command,
                dialect,
                limits,
            } => Player::External(
                External::start(command, plan.game.name(), rules, *dialect)?,
                limits.or(default),
            ),
            PlayerSpec::CheckerBoard(cb) => Player::CheckerBoard(
                Box::new(CbEngine::load(&cb.path)?),
                std::time::Duration::from_millis(cb.movetime_ms.unwrap_or(plan.movetime_ms)),
            ),
        })
    }

    /// The move to play after `moves` from the opening `fen`, coordinate form.
    fn choose(&mut self, fen: &str, moves: &[String]) -> Result<String, AppError> {
        match self {
            Player::Internal(s, l) => {
                s.set_position(Some(fen), moves)?;
                s.search(*l, &mut |_| {})?
                    .best
                    .map(|m| m.coord)
                    .ok_or_else(|| AppError::External("engine found no move".into()))
            }
            Player::External(x, l) => x.go(fen, moves, l),
            // Ten seconds after `playnow` as for a protocol engine.
            Player::CheckerBoard(e, t) => Ok(e
                .getmove(fen, moves, *t, std::time::Duration::from_secs(10))?
                .coord),
        }
    }
}

/// Plays game `index` of the plan from `opening`.
fn play_one(
    plan: &MatchPlan,
    opening: &str,
    a_is_white: bool,
    index: usize,
) -> Result<GameRecord, AppError> {
    let (wname, bname) = if a_is_white { ("A", "B") } else { ("B", "A") };
    let (wi, bi) = if a_is_white { (0, 1) } else { (1, 0) };
    // The referee: the game record and its status.
    let mut game = Session::new(plan.game, plan.rules.as_deref(), EngineOptions::default())?;
    game.set_position::<&str>(Some(opening), &[])?;
    let rules = game.rules_name();
    let mut white = Player::new(&plan.players[wi], plan, rules)?;
    let mut black = Player::new(&plan.players[bi], plan, rules)?;
    let mut moves: Vec<String> = Vec::new();
    let mut move_ms: Vec<u64> = Vec::new();
    // Time used by White and by Black.
    let mut used = [(0u64, 0usize); 2];
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
        if moves.len() >= plan.max_plies {
            break (None, format!("adjudicated after {} plies", plan.max_plies));
        }
        let player = if stm == Side::White {
            &mut white
        } else {
            &mut black
        };
        // A player that fails to move (an engine that exited, went mute or
        // answered nonsense) or plays an illegal move loses this game; the
        // match goes on with the next.
        let t0 = std::time::Instant::now();
        let chosen = player.choose(opening, &moves);
        let ms = t0.elapsed().as_millis() as u64;
        let u = &mut used[usize::from(stm == Side::Black)];
        *u = (u.0 + ms, u.1 + 1);
        let played = match chosen {
            Err(e) => Err(e.to_string()),
            Ok(mv) => game.play(&mv).map_err(|e| format!("illegal move: {e}")),
        };
        match played {
            Ok(m) => {
                moves.push(m.coord);
                move_ms.push(ms);
            }
            Err(why) => {
                let who = if stm == Side::White { wname } else { bname };
                // The position it failed in, for the engine's author.
                break (
                    Some(stm.flip()),
                    format!(
                        "forfeit by {} ({who}): {why}; position {}",
                        stm.name(),
                        game.fen()
                    ),
                );
            }
        }
    };
    let winner = match result {
        None => Winner::Draw,
        Some(Side::White) if a_is_white => Winner::A,
        Some(Side::Black) if !a_is_white => Winner::A,
        Some(_) => Winner::B,
    };
    Ok(GameRecord {
        index,
        game: plan.game,
        rules,
        opening: opening.to_string(),
        white: wname,
        black: bname,
        moves,
        result: match result {
            None => "1/2-1/2",
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
        },
        reason,
        move_ms,
        final_fen: game.fen(),
        winner,
        used: if a_is_white { used } else { [used[1], used[0]] },
    })
}

/// Plays the match; `on_game` sees each game as it ends (from the threads
/// that play them). Stops at the first game that cannot be played (a
/// player that cannot start).
pub fn run_match(
    plan: &MatchPlan,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<MatchSummary, AppError> {
    if plan.games == 0 {
        return Err(AppError::Option("a match needs at least 1 game".into()));
    }
    if plan.openings.is_empty() {
        return Err(AppError::Option("no opening positions".into()));
    }
    if !(1..=crate::options::MAX_THREADS).contains(&plan.concurrency) {
        return Err(AppError::Option(format!(
            "concurrency {} is not between 1 and {}",
            plan.concurrency,
            crate::options::MAX_THREADS
        )));
    }
    for spec in &plan.players {
        if matches!(spec, PlayerSpec::CheckerBoard(_)) && plan.game != GameKind::EnglishCheckers {
            return Err(AppError::Option(format!(
                "CheckerBoard-API engines are hosted for english-checkers only, not {}",
                plan.game.name()
            )));
        }
        // Such an engine keeps its state in globals: two games at once
        // would wait on each other's calls, on their own clocks.
        if matches!(spec, PlayerSpec::CheckerBoard(_)) && plan.concurrency > 1 {
            return Err(AppError::Option(
                "a CheckerBoard-API engine plays one game at a time (its state is global): \
                 give --concurrency 1"
                    .into(),
            ));
        }
        if let PlayerSpec::External {
            command,
            dialect: Dialect::Jcei,
            ..
        } = spec
        {
            rules_check::same_rules(plan, command)?;
        }
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<AppError>> = Mutex::new(None);
    let workers = plan.concurrency.clamp(1, plan.games);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= plan.games || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                    break;
                }
                let opening = &plan.openings[(i / 2) % plan.openings.len()];
                match play_one(plan, opening, i.is_multiple_of(2), i) {
                    Ok(g) => {
                        on_game(&g);
                        if let Ok(mut r) = results.lock() {
                            r.push(g);
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
    let poisoned = || AppError::External("a match thread failed".into());
    if let Some(e) = failure.into_inner().map_err(|_| poisoned())? {
        return Err(e);
    }
    let results = results.into_inner().map_err(|_| poisoned())?;
    let count = |w: Winner| results.iter().filter(|g| g.winner == w).count();
    let (wins, draws, losses) = (count(Winner::A), count(Winner::Draw), count(Winner::B));
    let games = results.len();
    let (elo, elo_error_95) = elo_with_error(wins, draws, losses);
    let mean = |i: usize| {
        let (ms, n) = results.iter().fold((0u64, 0usize), |(t, n), g| {
            (t + g.used[i].0, n + g.used[i].1)
        });
        ms as f64 / n.max(1) as f64
    };
    let forfeits_of = |loser: Winner| {
        results
            .iter()
            .filter(|g| g.winner == loser && g.reason.starts_with("forfeit"))
            .count()
    };
    Ok(MatchSummary {
        ms_per_move: [mean(0), mean(1)],
        forfeits: [forfeits_of(Winner::B), forfeits_of(Winner::A)],
        games,
        wins,
        draws,
        losses,
        score: (wins as f64 + 0.5 * draws as f64) / games as f64,
        elo,
        elo_error_95,
    })
}

/// Elo difference of score `s` (0 < s < 1).
fn elo(s: f64) -> f64 {
    // Written as a difference from 0: an even score gives log10(1) = 0,
    // and -400 × 0 would be -0, which prints as `-0`.
    0.0 - 400.0 * (1.0 / s - 1.0).log10()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let (e, err) = elo_with_error(10, 0, 10);
        assert_eq!(e.to_bits(), 0.0f64.to_bits(), "an even score is +0, not -0");
        assert!(err > 100.0 && err < 400.0, "{err}");
        let (e, _) = elo_with_error(3, 0, 1);
        // 75% is about +191 Elo.
        assert!((e - 190.8).abs() < 1.0, "{e}");
    }
}
