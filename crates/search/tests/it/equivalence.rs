//! Every combination of enhancements returns the plain negamax root value at
//! a fixed depth. Repetition is off (`Repetition::None`): repetition draws
//! depend on the path and would make table entries path-dependent. Table
//! cutoffs use entries of exactly the same draft (`strict_draft`), since a
//! deeper entry gives a better-informed value, different from negamax's.

use proptest::prelude::*;
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::{Game, History, MoveList, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits, Replacement};

/// The enhancement ladder and its variants (the configurations of the
/// published experiment), then variants that only this test needs: narrow
/// aspiration windows and shallow ETC re-search and cut more often at the
/// small depths searched here.
fn configs(quiescence: bool) -> Vec<(&'static str, Config)> {
    // Exact table cutoffs (see the module docs); a smaller table than the
    // experiment's, since each of thousands of searches clears its own.
    let adapt = |cfg: Config| Config {
        quiescence,
        strict_draft: true,
        hash_mb: cfg.hash_mb.min(4),
        ..cfg
    };
    let mut v: Vec<(&'static str, Config)> = Config::ladder()
        .into_iter()
        .chain(Config::ladder_variants())
        .map(|(name, cfg)| (name, adapt(cfg)))
        .collect();
    let top = v[Config::ladder().len() - 1].1.clone();
    let base = v[0].1.clone();
    v.extend([
        (
            "aspiration 5",
            Config {
                aspiration: 5,
                ..top.clone()
            },
        ),
        (
            "ETC from draft 2",
            Config {
                etc_min_depth: 2,
                ..top.clone()
            },
        ),
        (
            "mtdf+two-bound",
            Config {
                mtdf: true,
                two_bound: true,
                ..top.clone()
            },
        ),
        (
            "pvs-no-tt",
            Config {
                tt: false,
                pvs: true,
                iterative: true,
                ..base
            },
        ),
        (
            "threads-2",
            Config {
                threads: 2,
                ..top.clone()
            },
        ),
    ]);
    for r in Replacement::ALL {
        v.push((
            r.name(),
            Config {
                replacement: r,
                two_bound: r == Replacement::Hits,
                pv_flag: matches!(r, Replacement::Always | Replacement::Big1),
                ..top.clone()
            },
        ));
    }
    v
}

/// The position `picks` lead to from `start` (each an index into the legal
/// moves), stopping before a move that ends the game: also multipv.rs's.
pub(crate) fn walk<G: Game>(start: &G, picks: &[usize]) -> G {
    let mut p = start.clone();
    for &i in picks {
        if p.terminal().is_some() {
            break;
        }
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        if l.is_empty() {
            break;
        }
        let m = l[i % l.len()];
        let u = p.make(m);
        // Keep positions where the game goes on.
        if p.outcome().is_some() {
            p.unmake(m, u);
            break;
        }
    }
    p
}

fn value<G: EngineGame>(pos: &G, cfg: &Config, eval: G::Eval, depth: u32) -> i32 {
    let e: Engine<G, G::Eval, G::Tactics> = Engine::new(cfg.clone(), eval, G::Tactics::default());
    let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    e.search(pos, &h, &Limits::depth(depth), &mut |_| {}).score
}

fn check<G: EngineGame>(pos: &G, depth: u32, quiescence: bool, eval: &str) {
    let eval = G::eval_by_name(eval).unwrap();
    // The slower quiescence searches for another value: its own negamax.
    let reference = |after_capture: bool| {
        value(
            pos,
            &Config {
                quiescence,
                quiescence_after_capture: after_capture,
                ..Config::negamax()
            },
            eval.clone(),
            depth,
        )
    };
    let references = [reference(false), reference(true)];
    for (name, cfg) in configs(quiescence) {
        let v = value(pos, &cfg, eval.clone(), depth);
        let reference = references[cfg.quiescence_after_capture as usize];
        assert_eq!(
            v,
            reference,
            "{name} at depth {depth} (quiescence {quiescence}) on {}",
            pos.to_fen()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn jungle_checkers_all_enhancements_equal_negamax(picks in prop::collection::vec(0usize..64, 0..40), depth in 1u32..=4, q in any::<bool>()) {
        let start = JungleCheckersPos::start(&JungleCheckersPos::default_rules());
        let pos = walk(&start, &picks);
        check(&pos, depth, q, if depth % 2 == 0 { "development" } else { "strong" });
    }

    #[test]
    fn jungle_all_enhancements_equal_negamax(picks in prop::collection::vec(0usize..64, 0..60), depth in 1u32..=3, q in any::<bool>()) {
        let start = JunglePos::start(&JunglePos::default_rules());
        let pos = walk(&start, &picks);
        // The learned evaluation too: its accumulators, cached per thread,
        // follow the search's make and unmake.
        let eval = ["simple", "strong", "nnue"][picks.len() % 3];
        check(&pos, depth, q, eval);
    }
}

#[test]
fn endgame_positions_equal_negamax_deeper() {
    // Few pieces: deep enough for mates and many transpositions.
    let rules = JunglePos::default_rules();
    for fen in [
        "7/7/7/3t3/7/7/3T3/7/7 w",
        "2l4/7/7/7/7/7/7/R6/4T2 b",
        "7/7/7/7/1r5/7/7/3E3/7 w",
    ] {
        let p = JunglePos::from_fen(fen, &rules).unwrap();
        check(&p, 6, false, "strong");
    }
    let jc = JungleCheckersPos::default_rules();
    for fen in ["7/7/2e4/7/4R2/7/7 w", "2t4/7/7/7/7/2D4/5E1 b"] {
        let p = JungleCheckersPos::from_fen(fen, &jc).unwrap();
        check(&p, 7, false, "development");
    }
}
