//! The checkers engine (literature C's Turska engine on the shared search):
//! every enhancement returns the plain negamax root value at a fixed depth,
//! and small endgames are won with the distance to mate that an independent
//! brute-force minimax finds.
//!
//! Repetition is off (`Repetition::None`) and table cutoffs use entries of
//! the same draft only (`strict_draft`): repetition draws and deeper entries
//! make values path- and history-dependent, different from negamax's.

use zoo_checkers::{ClassicalPos, EnglishPos};
use zoo_core::{Game, History, MoveList, Outcome, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits};

/// Every enhancement that keeps the search exact (all but late move
/// reductions): the rungs of the enhancement ladder and its variants, each
/// replacement scheme also with two-bound entries, and the full engine
/// without reductions, as literature C adds them.
fn configs(quiescence: bool, after_capture: bool) -> Vec<(String, Config)> {
    let exact = |c: Config| Config {
        quiescence,
        quiescence_after_capture: after_capture,
        strict_draft: true,
        // The small-table variants keep their 64 KiB (hash_mb 0).
        hash_mb: c.hash_mb.min(1),
        ..c
    };
    let mut v: Vec<(String, Config)> = Config::ladder()
        .into_iter()
        .chain(Config::ladder_variants())
        .map(|(name, c)| (name.to_string(), exact(c)))
        .collect();
    let two_bound: Vec<(String, Config)> = v
        .iter()
        .filter(|(_, c)| c.hash_mb == 0)
        .map(|(name, c)| {
            let c = Config {
                two_bound: true,
                ..c.clone()
            };
            (format!("{name} two-bound"), c)
        })
        .collect();
    v.extend(two_bound);
    v.push((
        "full-no-lmr".into(),
        exact(Config {
            lmr: false,
            ..Config::default()
        }),
    ));
    v
}

fn value<G: EngineGame>(pos: &G, cfg: &Config, eval: &str, depth: u32) -> i32 {
    let e: Engine<G, G::Eval, G::Tactics> = Engine::new(
        cfg.clone(),
        G::eval_by_name(eval).unwrap(),
        G::Tactics::default(),
    );
    let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    e.search(pos, &h, &Limits::depth(depth), &mut |_| {}).score
}

/// Positions reached by pseudo-random play from the start (fixed seed).
fn positions<G: Game>(count: usize, max_plies: u64, mut seed: u64) -> Vec<G> {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let start = G::start(&G::default_rules());
    let mut out = Vec::new();
    while out.len() < count {
        let mut p = start.clone();
        let plies = next() % max_plies;
        for _ in 0..plies {
            let mut l = MoveList::new();
            p.legal_moves(&mut l);
            if l.is_empty() {
                break;
            }
            let m = l[next() as usize % l.len()];
            let u = p.make(m);
            if p.outcome().is_some() {
                p.unmake(m, u);
                break;
            }
        }
        out.push(p);
    }
    out
}

/// `after_capture`: literature C's slower quiescence, which also searches
/// every move one ply after each capture.
fn all_equal_negamax<G: EngineGame>(
    count: usize,
    depth: u32,
    quiescence: bool,
    after_capture: bool,
) {
    let configs = configs(quiescence, after_capture);
    for (i, pos) in positions::<G>(count, 70, 0x2545_F491_4F6C_DD1D)
        .iter()
        .enumerate()
    {
        // Both evaluations: material-only has many equal scores (ties
        // stress the bounds), turska few.
        let eval = G::eval_names()[i % 2];
        let reference = value(
            pos,
            &Config {
                quiescence,
                quiescence_after_capture: after_capture,
                ..Config::negamax()
            },
            eval,
            depth,
        );
        for (name, cfg) in &configs {
            assert_eq!(
                value(pos, cfg, eval, depth),
                reference,
                "{name}, {eval}, depth {depth}, quiescence {quiescence} {after_capture}: {}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn classical_enhancements_equal_negamax() {
    all_equal_negamax::<ClassicalPos>(40, 5, false, false);
}

#[test]
fn classical_enhancements_equal_negamax_with_quiescence() {
    all_equal_negamax::<ClassicalPos>(20, 4, true, false);
}

#[test]
fn classical_enhancements_equal_negamax_with_quiescence_after_captures() {
    all_equal_negamax::<ClassicalPos>(12, 4, true, true);
    // The variant searches more: the switch is read.
    let nodes = |after_capture: bool| {
        let cfg = Config {
            quiescence_after_capture: after_capture,
            ..Config::negamax()
        };
        type G = ClassicalPos;
        let e: Engine<G, <G as EngineGame>::Eval, <G as EngineGame>::Tactics> = Engine::new(
            Config {
                quiescence: true,
                ..cfg
            },
            G::eval_by_name("turska").unwrap(),
            Default::default(),
        );
        let pos = positions::<ClassicalPos>(1, 70, 7).remove(0);
        let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
        e.search(&pos, &h, &Limits::depth(4), &mut |_| {})
            .stats
            .nodes
    };
    assert!(nodes(true) > nodes(false));
}

#[test]
fn english_enhancements_equal_negamax() {
    all_equal_negamax::<EnglishPos>(40, 5, false, false);
}

const WIN: i32 = 1000;

/// Exhaustive minimax without pruning, table or evaluation: `WIN - n` when
/// the side to move wins with the opponent out of moves or pieces on ply n,
/// `-(WIN - n)` when it loses so, `None` when undecided within `d` plies.
fn brute<G: Game>(p: &mut G, d: u32) -> Option<i32> {
    let lost = match p.terminal() {
        Some(Outcome::Loss) => true,
        Some(o) => panic!("checkers ends only in a loss for the side to move, got {o:?}"),
        None => {
            let mut l = MoveList::new();
            p.legal_moves(&mut l);
            if l.is_empty() {
                assert_eq!(p.no_moves_outcome(), Outcome::Loss);
                true
            } else if d == 0 {
                return None;
            } else {
                let mut best: Option<i32> = None;
                let mut unknown = false;
                for m in l {
                    let u = p.make(m);
                    let c = brute(p, d - 1);
                    p.unmake(m, u);
                    match c {
                        // One ply further from the end, seen from here.
                        Some(v) => {
                            let v = if v > 0 { -(v - 1) } else { -v - 1 };
                            best = Some(best.map_or(v, |b| b.max(v)));
                        }
                        None => unknown = true,
                    }
                }
                return match best {
                    Some(b) if b > 0 => Some(b),
                    // A loss counts only if every move is known to lose.
                    _ if unknown => None,
                    b => b,
                };
            }
        }
    };
    debug_assert!(lost);
    Some(-WIN)
}

/// The full engine's distance to mate at `depth`. Late move reductions can
/// hide a mate at the nominal depth (a reduced line is searched shallower),
/// so the comparisons at the brute force's depth switch them off; `lmr`
/// keeps them for searches deep enough to see through the reductions.
fn engine_mate<G: EngineGame>(p: &G, depth: u32, lmr: bool) -> Option<i32> {
    let cfg = Config {
        hash_mb: 4,
        lmr,
        ..Config::default()
    };
    let e: Engine<G, G::Eval, G::Tactics> =
        Engine::new(cfg, G::default_eval(), G::Tactics::default());
    let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
    e.search(p, &h, &Limits::depth(depth), &mut |_| {}).mate
}

/// Compares engine and brute force on every placement of the given pieces
/// (FEN piece lists without the squares, e.g. `("K", "")` = a White king
/// against nothing), with both sides to move; returns how many were decided.
fn compare<G: EngineGame>(white: &[&str], black: &[&str], depth: u32, stride: usize) -> usize {
    let rules = G::default_rules();
    let mut decided = 0;
    let mut index = 0usize;
    let n = white.len() + black.len();
    let mut squares = vec![1usize; n];
    loop {
        index += 1;
        let distinct = {
            let mut s = squares.clone();
            s.sort_unstable();
            s.windows(2).all(|w| w[0] != w[1])
        };
        if distinct && index.is_multiple_of(stride) {
            let list = |kinds: &[&str], sq: &[usize]| {
                kinds
                    .iter()
                    .zip(sq)
                    .map(|(k, s)| format!("{k}{s}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            for stm in ["W", "B"] {
                let fen = format!(
                    "{stm}:W{}:B{}",
                    list(white, &squares[..white.len()]),
                    list(black, &squares[white.len()..])
                );
                // Men on their own far row are not positions.
                let Ok(mut p) = G::from_fen(&fen, &rules) else {
                    continue;
                };
                if p.outcome().is_some() {
                    continue;
                }
                let b = brute(&mut p, depth);
                let m = engine_mate(&p, depth, false);
                match b {
                    Some(v) => {
                        decided += 1;
                        let plies = WIN - v.abs();
                        let want = if v > 0 { plies } else { -plies };
                        assert_eq!(m, Some(want), "{fen}: brute force {want}");
                    }
                    None => {
                        if let Some(x) = m {
                            assert!(
                                x.unsigned_abs() > depth,
                                "{fen}: engine claims mate {x}, brute force finds none within {depth}"
                            );
                        }
                    }
                }
            }
        }
        // Next placement (an odometer over the 32 squares).
        let mut i = 0;
        loop {
            if i == n {
                return decided;
            }
            squares[i] += 1;
            if squares[i] <= 32 {
                break;
            }
            squares[i] = 1;
            i += 1;
        }
    }
}

#[test]
fn classical_king_against_a_man_is_won_in_the_right_number_of_plies() {
    // A flying king catches a lone man: decided in a few plies from most
    // placements. Every placement, both sides to move.
    let decided = compare::<ClassicalPos>(&["K"], &[""], 7, 1);
    assert!(
        decided >= 500,
        "only {decided} decided placements: the test would prove little"
    );
}

#[test]
fn classical_small_endgames_match_brute_force() {
    let decided = compare::<ClassicalPos>(&["K", ""], &["K"], 5, 61);
    assert!(decided >= 100, "only {decided} decided placements");
}

#[test]
fn english_king_against_a_man_matches_brute_force() {
    let decided = compare::<EnglishPos>(&["K"], &[""], 9, 1);
    assert!(decided >= 100, "only {decided} decided placements");
}

#[test]
fn a_named_classical_endgame() {
    // White king in the corner on 1 (h1) against a Black man on 26 (f7), off
    // the king's only diagonal: the king needs several moves to catch it
    // before it crowns (the man on 28 would be taken at once).
    let rules = ClassicalPos::default_rules();
    let mut p = ClassicalPos::from_fen("W:WK1:B26", &rules).unwrap();
    let b = brute(&mut p, 8).expect("decided within 8 plies");
    assert!(b > 0, "White wins");
    let plies = WIN - b;
    assert!(plies > 3, "a real chase, not an immediate capture");
    assert_eq!(engine_mate(&p, 8, false), Some(plies));
    // The engine as it plays, reductions included, deeper.
    assert_eq!(engine_mate(&p, 14, true), Some(plies));
}

#[test]
fn futility_prunes_quiet_moves_and_keeps_the_chase() {
    type G = ClassicalPos;
    let search = |futility: i32, fen: &str, depth: u32| {
        let cfg = Config {
            hash_mb: 4,
            futility,
            ..Config::default()
        };
        let e: Engine<G, <G as EngineGame>::Eval, <G as EngineGame>::Tactics> =
            Engine::new(cfg, G::default_eval(), Default::default());
        let p = G::from_fen(fen, &G::default_rules()).unwrap();
        let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
        e.search(&p, &h, &Limits::depth(depth), &mut |_| {})
    };
    // From the start the switch is read: quiet moves are left out.
    let start = G::start(&G::default_rules()).to_fen();
    assert_eq!(search(0, &start, 10).stats.futility_prunes, 0);
    assert!(search(100, &start, 10).stats.futility_prunes > 0);
    // Never near mate scores: the king's chase keeps its length.
    let off = search(0, "W:WK1:B26", 14).mate;
    assert!(off.is_some());
    assert_eq!(search(100, "W:WK1:B26", 14).mate, off);
}

#[test]
fn selective_switches_cut_and_extend_and_keep_the_chase() {
    type G = ClassicalPos;
    let search = |cfg: Config, fen: &str, depth: u32| {
        let cfg = Config { hash_mb: 4, ..cfg };
        let e: Engine<G, <G as EngineGame>::Eval, <G as EngineGame>::Tactics> =
            Engine::new(cfg, G::default_eval(), Default::default());
        let p = G::from_fen(fen, &G::default_rules()).unwrap();
        let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
        e.search(&p, &h, &Limits::depth(depth), &mut |_| {})
    };
    let probcut = Config {
        probcut: 50,
        ..Config::default()
    };
    let multicut = Config {
        multicut: true,
        ..Config::default()
    };
    let single_reply = Config {
        single_reply: true,
        ..Config::default()
    };
    // Off by default; each switch is read where it acts.
    let start = G::start(&G::default_rules()).to_fen();
    let plain = search(Config::default(), &start, 10).stats;
    assert_eq!(
        (plain.probcut_cuts, plain.multicut_cuts, plain.extensions),
        (0, 0, 0)
    );
    assert!(search(probcut.clone(), &start, 10).stats.probcut_cuts > 0);
    assert!(search(multicut.clone(), &start, 10).stats.multicut_cuts > 0);
    // Exchanges force single replies (captures are compulsory).
    assert!(search(single_reply.clone(), &start, 10).stats.extensions > 0);
    // Multi-Cut at expected cut nodes only is another search than at every
    // null-window node (under MTD(f) the all nodes have one too).
    let everywhere = Config {
        multicut_all_nodes: true,
        ..multicut.clone()
    };
    let at_cut = search(multicut.clone(), &start, 12).stats.multicut_cuts;
    let at_all = search(everywhere.clone(), &start, 12).stats.multicut_cuts;
    assert!(
        at_cut > 0 && at_all > 0 && at_cut != at_all,
        "{at_cut} {at_all}"
    );
    // The fitted line 1·v + 0 is the margin alone; a steeper line moves
    // the cut bounds, and the cuts with them.
    let line = |slope: f64, offset: i32| Config {
        probcut_slope: slope,
        probcut_offset: offset,
        ..probcut.clone()
    };
    let by_margin = search(probcut.clone(), &start, 12).stats;
    assert_eq!(search(line(1.0, 0), &start, 12).stats, by_margin);
    let steep = line(1.3, 5);
    let steeper = search(steep.clone(), &start, 12).stats;
    assert_ne!(steeper.probcut_cuts, by_margin.probcut_cuts);
    // Never near mate scores: the king's chase keeps its length.
    let off = search(Config::default(), "W:WK1:B26", 14).mate;
    assert!(off.is_some());
    for cfg in [probcut, steep, multicut, everywhere, single_reply] {
        assert_eq!(search(cfg, "W:WK1:B26", 14).mate, off);
    }
}
