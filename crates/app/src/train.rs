//! `zoo train`: the learned evaluation of a game (the animal games and
//! checkers), made from self-play. Games are played from a few random plies by the engine at a
//! fixed depth with a hand-written evaluation (`--play-eval` for another); every position whose
//! best move is quiet and whose score is not a mate is kept with that
//! score and the game's result; a net ([`zoo_core::nnue`]) is then trained
//! on `λ·σ(score/k) + (1−λ)·result`, with `k` fitted to the results
//! (Texel's way), and written quantised. The same seed gives the same
//! positions and the same net.
//!
//! With tables (`--tb DIR`), a position they hold is trained on its
//! exact value instead (1 won, ½ drawn, 0 lost for the side to move).
//!
//! The positions can be saved (`FEN | score | result | game` lines) and
//! trained on again without playing (`--data`).

use crate::{AppError, AppGame, GameKind};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use zoo_core::nnue::NetInputs;
use zoo_core::rng::SplitMix64;
use zoo_core::{files, EngineGame, Game, History, MoveList, Outcome, Side, EVAL_LIMIT};
use zoo_learn::nnue::{fit_k, Epoch, Sample, TrainOptions};
use zoo_search::{Config, Engine, Limits};

/// What to train.
#[derive(Debug, Clone)]
pub struct TrainRequest {
    /// The game.
    pub game: GameKind,
    /// Its rule set for self-play (`None`: the default).
    pub rules: Option<String>,
    /// Self-play games to play (ignored with `data`).
    pub games: usize,
    /// Depth of the engine's search at each move of self-play.
    pub depth: u32,
    /// The evaluation self-play searches with (`None`: the game's first
    /// hand-written one, so that a net's recipe does not change when the
    /// default evaluation does).
    pub play_eval: Option<String>,
    /// Positions files to train on instead of playing.
    pub data: Vec<PathBuf>,
    /// Where to save the positions played.
    pub save_data: Option<PathBuf>,
    /// Weight of the search's score in the target; the rest is the result.
    pub lambda: f32,
    /// The net's shape and schedule; `inputs` is set from the game.
    pub options: TrainOptions,
    /// Tables whose exact values replace the target where a position is
    /// in them (`None`: no tables).
    pub tb: Option<PathBuf>,
    /// The net file to write.
    pub out: PathBuf,
}

/// One kept position of self-play.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The position.
    pub fen: String,
    /// The search's score for the side to move.
    pub score: i32,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The game it comes from (games `g % 20 == 19` validate).
    pub game: usize,
}

/// What a training run did.
#[derive(Debug, Clone)]
pub struct TrainReport {
    /// Games played (0 when trained from files).
    pub games: usize,
    /// Positions trained on and held out.
    pub positions: (usize, usize),
    /// The fitted `k` of `σ(score/k)`.
    pub k: f32,
    /// Positions whose target is the tables' exact value.
    pub exact: usize,
    /// Each epoch's losses.
    pub epochs: Vec<Epoch>,
    /// Seconds of self-play and of training.
    pub seconds: (f64, f64),
    /// Bytes of the net written.
    pub bytes: u64,
    /// Mean |integer − float| evaluation on the held-out positions
    /// (evaluation units; NaN without any).
    pub quantisation_error: f64,
}

/// What a run reports while it works.
#[derive(Debug, Clone, Copy)]
pub enum TrainEvent {
    /// Games finished of those asked.
    Played(usize, usize),
    /// An epoch ended.
    Epoch(Epoch),
}

/// The first line of a positions file names its game and rules, so that
/// `--data` under other rules (the wolf and the dog change ranks) is
/// refused rather than trained on silently.
const DATA_TAG: &str = "# zoo train positions of ";
const DATA_COLUMNS: &str =
    "# FEN | search score (side to move) | result (side to move: 1 win, 0.5 draw, 0 loss) | game\n";
/// Plies after which a self-play game is scored a draw.
const MAX_PLIES: usize = 400;

/// Plays, trains and writes the net of `req`.
pub fn train(
    req: &TrainRequest,
    on: &(dyn Fn(TrainEvent) + Sync),
) -> Result<TrainReport, AppError> {
    match req.game {
        GameKind::Jungle => train_on::<zoo_animal::JunglePos>(req, on),
        GameKind::JungleCheckers => train_on::<zoo_animal::JungleCheckersPos>(req, on),
        GameKind::EnglishCheckers => train_on::<zoo_checkers::EnglishPos>(req, on),
        GameKind::ClassicalCheckers => train_on::<zoo_checkers::ClassicalPos>(req, on),
    }
}

fn train_on<G: AppGame + NetInputs>(
    req: &TrainRequest,
    on: &(dyn Fn(TrainEvent) + Sync),
) -> Result<TrainReport, AppError> {
    let o = &req.options;
    let bad = |what: &str| Err(AppError::Option(what.to_string()));
    if o.hidden == 0 || o.hidden > zoo_core::nnue::MAX_HIDDEN {
        return bad(&format!(
            "--hidden must be 1 to {}",
            zoo_core::nnue::MAX_HIDDEN
        ));
    }
    if !(0.0..=1.0).contains(&req.lambda) {
        return bad("--lambda must be within 0 and 1");
    }
    if o.batch == 0 || o.epochs == 0 {
        return bad("--batch and --epochs must be at least 1");
    }
    if !(o.lr > 0.0 && o.lr < 1.0) {
        return bad("--lr must be above 0 and below 1");
    }
    if req.data.is_empty() && (req.games == 0 || req.depth == 0) {
        return bad("--games and --depth must be at least 1");
    }
    // Everything that can be refused is refused before hours of self-play.
    files::check_writable(&req.out)?;
    if let Some(path) = &req.save_data {
        files::check_writable(path)?;
    }
    let mut paths: Vec<&std::path::Path> = vec![&req.out];
    paths.extend(req.save_data.as_deref());
    paths.extend(req.data.iter().map(PathBuf::as_path));
    files::check_distinct(&paths)?;
    let rules = crate::games::rules_of::<G>(req.rules.as_deref())?;
    let oracle = match &req.tb {
        Some(dir) => Some(
            G::open_tables(dir, &rules)?
                .ok_or_else(|| {
                    AppError::Input(format!("no {} tables in {}", req.game, dir.display()))
                })?
                .oracle,
        ),
        None => None,
    };
    let eval = match req.play_eval.as_deref() {
        Some(name) => G::eval_by_name(name).map_err(AppError::Option)?,
        None => G::hand_written_eval(),
    };
    let rules_name = G::start(&rules).rules_name();
    let tag = format!("{DATA_TAG}{} ({rules_name} rules)", req.game);
    let started = Instant::now();
    let (records, games) = if req.data.is_empty() {
        let r = self_play::<G>(&rules, eval, req.games, req.depth, req.options.seed, on)?;
        if let Some(path) = &req.save_data {
            files::save(path, |w| {
                writeln!(w, "{tag}")?;
                w.write_all(DATA_COLUMNS.as_bytes())?;
                for r in &r {
                    writeln!(w, "{} | {} | {} | {}", r.fen, r.score, r.result, r.game)?;
                }
                Ok(())
            })?;
        }
        (
            r.into_iter()
                .map(|r| (r, rules.clone()))
                .collect::<Vec<_>>(),
            req.games,
        )
    } else {
        let mut all = Vec::new();
        for path in &req.data {
            let text = files::read_text(path, 4 << 30, "positions file")?;
            let named = |e: String| AppError::Input(format!("{}: {e}", path.display()));
            // A file's own tag decides its rules (one run may train on
            // both rule sets' games); an untagged file is read under --rules.
            let file_rules = match text
                .lines()
                .next()
                .and_then(|l| l.trim().strip_prefix(DATA_TAG))
            {
                Some(of) => {
                    let (game, rest) = of.split_once(" (").unwrap_or((of, ""));
                    if game != req.game.name() {
                        return Err(named(format!(
                            "its positions are of {of}, not of {}",
                            req.game
                        )));
                    }
                    let name = rest.strip_suffix(" rules)").unwrap_or(rest);
                    crate::games::rules_of::<G>(Some(name)).map_err(|e| named(e.to_string()))?
                }
                None => rules.clone(),
            };
            let records = parse_records(&text).map_err(named)?;
            for (i, r) in records.iter().enumerate() {
                G::from_fen(&r.fen, &file_rules)
                    .map_err(|e| named(format!("position {}: {e}", i + 1)))?;
            }
            all.extend(records.into_iter().map(|r| (r, file_rules.clone())));
        }
        (all, 0)
    };
    let played = started.elapsed().as_secs_f64();
    if records.is_empty() {
        return Err(AppError::Input("no positions to train on".into()));
    }
    let scores: Vec<f32> = records.iter().map(|r| r.0.score as f32).collect();
    let results: Vec<f32> = records.iter().map(|r| r.0.result).collect();
    let k = fit_k(&scores, &results).expect("positions exist");
    let (mut fit, mut held, mut exact) = (Vec::new(), Vec::new(), 0);
    for (r, file_rules) in &records {
        let pos = G::from_fen(&r.fen, file_rules)?;
        // The tables are of --rules: positions of other rules are not looked up.
        let oracle = oracle.as_ref().filter(|_| pos.rules_name() == rules_name);
        let known = oracle
            .filter(|o| pos.piece_count() <= o.max_pieces())
            .and_then(|o| o.probe(&pos));
        let target = match known.map(|v| v.outcome) {
            Some(o) => {
                exact += 1;
                match o {
                    Outcome::Win => 1.0,
                    Outcome::Draw => 0.5,
                    Outcome::Loss => 0.0,
                }
            }
            None => req.lambda * sigmoid(r.score as f32 / k) + (1.0 - req.lambda) * r.result,
        };
        let s = sample_of(&pos, target);
        if r.game % 20 == 19 {
            held.push(s);
        } else {
            fit.push(s);
        }
    }
    if fit.is_empty() {
        return Err(AppError::Input(format!(
            "all {} positions are held out (games numbered 19 mod 20): none to train on",
            held.len()
        )));
    }
    let opts = TrainOptions {
        inputs: G::net_inputs(),
        k,
        ..req.options.clone()
    };
    let trained_at = Instant::now();
    let mut epochs = Vec::new();
    let net = zoo_learn::nnue::train(&fit, &held, &opts, &mut |e| {
        epochs.push(e);
        on(TrainEvent::Epoch(e));
    });
    let quantised = net.quantise();
    let quantisation_error = net.quantisation_error(&quantised, &held);
    let bytes = files::save_bytes(&req.out, &quantised.to_bytes())?;
    Ok(TrainReport {
        games,
        positions: (fit.len(), held.len()),
        k,
        exact,
        epochs,
        seconds: (played, trained_at.elapsed().as_secs_f64()),
        bytes,
        quantisation_error,
    })
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training sample of `pos` with target `target`.
pub fn sample_of<G: NetInputs + Game>(pos: &G, target: f32) -> Sample {
    let stm = pos.side_to_move();
    let (mut us, mut them) = (Vec::with_capacity(24), Vec::with_capacity(24));
    pos.for_each_net_feature(stm, &mut |f| us.push(f as u16));
    pos.for_each_net_feature(stm.flip(), &mut |f| them.push(f as u16));
    Sample::new(us, them, target)
}

/// Reads `FEN | score | result | game` lines (`#` comments and blank
/// lines skipped).
pub fn parse_records(text: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: {line:?}", i + 1);
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f.len() != 4 {
            return Err(bad("expected `FEN | score | result | game`"));
        }
        let score: i32 = f[1].parse().map_err(|_| bad("bad score"))?;
        let result: f32 = f[2].parse().map_err(|_| bad("bad result"))?;
        if ![0.0, 0.5, 1.0].contains(&result) {
            return Err(bad("a result is 0, 0.5 or 1"));
        }
        let game: usize = f[3].parse().map_err(|_| bad("bad game number"))?;
        out.push(Record {
            fen: f[0].to_string(),
            score,
            result,
            game,
        });
    }
    Ok(out)
}

/// Plays `games` games in parallel (each its own engine, its table cleared,
/// so that the positions do not depend on the threads' schedule).
pub fn self_play<G: EngineGame>(
    rules: &G::Rules,
    eval: G::Eval,
    games: usize,
    depth: u32,
    seed: u64,
    on: &(dyn Fn(TrainEvent) + Sync),
) -> Result<Vec<Record>, AppError> {
    let done = AtomicUsize::new(0);
    let per_game: Result<Vec<Vec<Record>>, zoo_core::OutOfMemory> = (0..games)
        .into_par_iter()
        .map_init(
            || {
                let cfg = Config {
                    hash_mb: 16,
                    ..Config::default()
                };
                Engine::try_new(cfg, eval.clone(), G::Tactics::default())
            },
            |engine, g| {
                let engine = engine.as_mut().map_err(|e| e.clone())?;
                engine.clear();
                let r = play_one::<G>(engine, rules, depth, seed, g);
                on(TrainEvent::Played(
                    done.fetch_add(1, Ordering::Relaxed) + 1,
                    games,
                ));
                Ok(r)
            },
        )
        .collect();
    Ok(per_game?.into_iter().flatten().collect())
}

fn play_one<G: EngineGame>(
    engine: &mut Engine<G, G::Eval, G::Tactics>,
    rules: &G::Rules,
    depth: u32,
    seed: u64,
    game: usize,
) -> Vec<Record> {
    // A sequence of (seed, game): the same game for the same seed anywhere.
    let mut rng = SplitMix64(seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut next = move || rng.next_u64();
    let mut pos = G::start(rules);
    let mut hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
    let random_plies = 2 + (next() % 7) as usize;
    let mut kept: Vec<(String, i32, Side)> = Vec::new();
    let mut winner: Option<Side> = None;
    for ply in 0..MAX_PLIES {
        if let Some(o) = pos.outcome() {
            winner = match o {
                Outcome::Win => Some(pos.side_to_move()),
                Outcome::Loss => Some(pos.side_to_move().flip()),
                Outcome::Draw => None,
            };
            break;
        }
        if hist.is_draw() {
            break;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = if ply < random_plies {
            moves[(next() % moves.len() as u64) as usize]
        } else {
            let r = engine.search(&pos, &hist, &Limits::depth(depth), &mut |_| {});
            let Some(best) = r.best else { break };
            if r.mate.is_none()
                && r.table.is_none()
                && r.score.abs() < EVAL_LIMIT
                && !pos.is_capture(best)
            {
                kept.push((pos.to_fen(), r.score, pos.side_to_move()));
            }
            best
        };
        pos.make(mv);
        hist.push(pos.key(), pos.piece_count());
    }
    kept.into_iter()
        .map(|(fen, score, stm)| Record {
            fen,
            score,
            result: match winner {
                None => 0.5,
                Some(w) if w == stm => 1.0,
                Some(_) => 0.0,
            },
            game,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_parse_and_refuse() {
        let r = parse_records("# c\n7/7/7/7/7/7/7 w | 12 | 0.5 | 3\n\n").unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].score, r[0].result, r[0].game), (12, 0.5, 3));
        for bad in [
            "a | b",
            "x | 1 | 0.7 | 1",
            "x | y | 1 | 1",
            "x | 1 | 1 | -1",
        ] {
            assert!(parse_records(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn self_play_is_the_seeds() {
        let rules = zoo_animal::JungleCheckersPos::default_rules();
        let quiet = |_| {};
        let eval = zoo_animal::JungleCheckersPos::hand_written_eval();
        let a = self_play::<zoo_animal::JungleCheckersPos>(&rules, eval, 3, 2, 5, &quiet).unwrap();
        let b = self_play::<zoo_animal::JungleCheckersPos>(&rules, eval, 3, 2, 5, &quiet).unwrap();
        assert!(!a.is_empty());
        assert_eq!(a, b);
    }
}
