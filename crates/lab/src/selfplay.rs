//! Assembling a test set by engine play from the start: a few random plies,
//! then a depth-4 engine with 10% random moves, so that the games differ;
//! positions are taken by phase, judged by material.

use crate::testset::PHASES;
use anyhow::{bail, Result};
use zoo_core::{History, MoveList};
use zoo_search::{Config, Engine, EngineGame, Limits};

/// A test set made by [`make_testset`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeTestset {
    /// The file's text: a header saying how it was made, then
    /// `phase | FEN | source` lines.
    pub text: String,
    /// Positions found per phase (in the order of [`PHASES`]); fewer than
    /// asked when 2000 games did not reach enough of a phase.
    pub found: [usize; 3],
}

/// Plays games of `G` from the start until `per_phase` (at least 1)
/// positions of each phase are found. The same `seed` gives the same set.
pub fn make_testset<G: EngineGame>(per_phase: usize, seed: u64) -> Result<MadeTestset> {
    if per_phase == 0 {
        bail!("per_phase must be at least 1");
    }
    let start = G::start(&G::default_rules());
    let total = start.piece_count();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let phase_of = |p: &G, ply: usize| -> Option<usize> {
        let n = p.piece_count();
        if n >= total * 7 / 8 && (6..=14).contains(&ply) {
            Some(0)
        } else if n < total * 7 / 8 && n >= total / 2 {
            Some(1)
        } else if n < total / 2 && n >= 2 {
            Some(2)
        } else {
            None
        }
    };
    let engine = Engine::new(
        Config {
            hash_mb: 8,
            ..Config::default()
        },
        G::hand_written_eval(),
        G::Tactics::default(),
    );
    let mut found: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut game = 0;
    while found.iter().any(|f| f.len() < per_phase) && game < 2000 {
        game += 1;
        let mut pos = start.clone();
        let mut hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
        let random_plies = 2 + (next() % 4) as usize;
        let mut taken = [false; 3];
        for ply in 0..300 {
            if pos.outcome().is_some() || hist.is_draw() {
                break;
            }
            if let Some(ph) = phase_of(&pos, ply) {
                // One position per phase and game, not always the first one seen.
                if !taken[ph] && found[ph].len() < per_phase && next() % 3 == 0 {
                    taken[ph] = true;
                    found[ph].push(format!(
                        "{} | {} | self-play seed {seed} game {game} ply {ply} ({} random plies, then zoo depth 4 with 10% random moves)",
                        PHASES[ph],
                        pos.to_fen(),
                        random_plies
                    ));
                }
            }
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let mv = if ply < random_plies || next() % 10 == 0 {
                l[(next() % l.len() as u64) as usize]
            } else {
                engine
                    .search(&pos, &hist, &Limits::depth(4), &mut |_| {})
                    .best
                    .unwrap_or(l[0])
            };
            pos.make(mv);
            hist.push(pos.key(), pos.piece_count());
        }
    }
    let mut text = format!(
        "# {} test set: `phase | FEN | source`. Positions reached by play from the start\n\
         # (`zoo experiment testset --game {} --per-phase {per_phase} --seed {seed}`).\n\
         # Phases by material: opening = at least 7/8 of the pieces (plies 6–14), middle = at least half, endgame = fewer.\n",
        start.game_name(),
        start.game_name()
    );
    for f in &found {
        for l in f {
            text.push_str(l);
            text.push('\n');
        }
    }
    Ok(MadeTestset {
        text,
        found: [found[0].len(), found[1].len(), found[2].len()],
    })
}
