//! Exact distances to mate on small endgames, checked against an independent
//! brute-force minimax (no pruning, no table, no evaluation).

use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::{Game, History, MoveList, Outcome, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits};

const WIN: i32 = 1000;

/// The value within `d` plies: `WIN - n` when the side to move wins with its
/// final move on ply n, `-(WIN - n)` when it loses on ply n, 0 for a
/// stalemate reached, `None` when not decided within `d` plies.
fn brute<G: Game>(p: &mut G, d: u32) -> Option<i32> {
    match p.terminal() {
        Some(Outcome::Win) => return Some(WIN),
        Some(Outcome::Loss) => return Some(-WIN),
        Some(Outcome::Draw) => return Some(0),
        None => {}
    }
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    if l.is_empty() {
        return Some(match p.no_moves_outcome() {
            Outcome::Win => WIN,
            Outcome::Loss => -WIN,
            Outcome::Draw => 0,
        });
    }
    if d == 0 {
        return None;
    }
    let mut best: Option<i32> = None;
    let mut unknown = false;
    for m in l {
        let u = p.make(m);
        let c = brute(p, d - 1);
        p.unmake(m, u);
        match c {
            None => unknown = true,
            Some(v) => {
                let v = if -v > 0 {
                    -v - 1
                } else if -v < 0 {
                    -v + 1
                } else {
                    0
                };
                best = Some(best.map_or(v, |b: i32| b.max(v)));
            }
        }
    }
    match best {
        Some(b) if b > 0 => Some(b),
        _ if unknown => None,
        b => b,
    }
}

fn engine_mate<G: EngineGame>(p: &G, depth: u32) -> Option<i32> {
    let cfg = Config {
        hash_mb: 4,
        ..Config::default()
    };
    let e: Engine<G, G::Eval, G::Tactics> =
        Engine::new(cfg, G::default_eval(), G::Tactics::default());
    let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
    e.search(p, &h, &Limits::depth(depth), &mut |_| {}).mate
}

/// A FEN with the given (letter, square) placements, or None if illegal.
fn fen_of<G: Game>(ranks: usize, pieces: &[(char, usize)], black: bool) -> Option<G> {
    let mut grid = vec!['.'; ranks * 7];
    for &(c, s) in pieces {
        if grid[s] != '.' {
            return None;
        }
        grid[s] = c;
    }
    let mut rows = Vec::new();
    for r in (0..ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..7 {
            let c = grid[r * 7 + f];
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let fen = format!("{} {}", rows.join("/"), if black { "b" } else { "w" });
    let p = G::from_fen(&fen, &G::default_rules()).ok()?;
    p.outcome().is_none().then_some(p)
}

/// Compares engine and brute force on pseudo-random placements.
fn compare<G: EngineGame>(ranks: usize, letters: &[&str], depth: u32, count: usize) -> usize {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut tested, mut decided) = (0, 0);
    while tested < count {
        let set = letters[next() as usize % letters.len()];
        let pieces: Vec<(char, usize)> = set
            .chars()
            .map(|c| (c, next() as usize % (ranks * 7)))
            .collect();
        let Some(mut p) = fen_of::<G>(ranks, &pieces, next() % 2 == 1) else {
            continue;
        };
        tested += 1;
        let b = brute(&mut p, depth);
        let m = engine_mate(&p, depth);
        match b {
            Some(v) if v != 0 => {
                decided += 1;
                let n = WIN - v.abs();
                let want = if v > 0 { n } else { -n };
                assert_eq!(m, Some(want), "{} brute force {want}", p.to_fen());
            }
            _ => {
                if let Some(x) = m {
                    assert!(
                        x.unsigned_abs() > depth,
                        "{}: engine claims mate {x}, brute force finds none within {depth}",
                        p.to_fen()
                    );
                }
            }
        }
    }
    decided
}

#[test]
fn lone_tigers_in_jungle() {
    let rules = JunglePos::default_rules();
    // White's tiger two steps from Black's den, Black's three from White's.
    let p = JunglePos::from_fen("7/7/3T3/7/7/7/7/7/t6 w", &rules).unwrap();
    assert_eq!(engine_mate(&p, 9), Some(3));
    // Black to move there: Black is one step slower and cannot stop the tiger.
    let p = JunglePos::from_fen("7/7/3T3/7/7/7/7/7/t6 b", &rules).unwrap();
    assert_eq!(engine_mate(&p, 9), Some(-4));
    // Immediate den entry.
    let p = JunglePos::from_fen("7/3T3/7/7/7/7/7/7/t6 w", &rules).unwrap();
    assert_eq!(engine_mate(&p, 3), Some(1));
}

#[test]
fn jungle_two_and_three_pieces_match_brute_force() {
    let decided =
        compare::<JunglePos>(9, &["Tt", "Ll", "Er", "Re", "Pc", "Lr", "Tw", "Ltr"], 7, 60);
    assert!(
        decided >= 10,
        "only {decided} decided positions: the test would prove little"
    );
}

#[test]
fn jungle_checkers_small_endgames_match_brute_force() {
    let decided = compare::<JungleCheckersPos>(7, &["Tt", "Ee", "Er", "Rd", "Tdr", "ERt"], 7, 60);
    assert!(
        decided >= 10,
        "only {decided} decided positions: the test would prove little"
    );
}
