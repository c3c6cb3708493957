//! Property tests over random legal positions of both animal games, reached
//! by random play from the start and by random placement.

use crate::common;

use common::{random_placement, random_play, same_placement};
use proptest::prelude::*;
use zoo_animal::board::Board;
use zoo_animal::{rules, Jungle, JungleCheckers, Position, RuleSet};
use zoo_core::{perft, Game, History, MoveList, Repetition, Retro};

fn positions<B: Board>(rules: &'static RuleSet, seed: u64, plies: u32) -> Vec<Position<B>> {
    vec![
        random_play::<B>(rules, seed, plies),
        random_placement::<B>(rules, seed),
    ]
}

fn check_make_unmake<B: Board>(p: &Position<B>) {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    assert_eq!(l.len() as u64, p.count_moves(), "count = generate: {p:?}");
    let mut q = p.clone();
    for &m in &l {
        let u = q.make(m);
        assert_eq!(
            q.key(),
            q.compute_key(),
            "incremental key after {m:?} from {p:?}"
        );
        q.unmake(m, u);
        assert_eq!(&q, p, "make/unmake {m:?}");
    }
}

/// Every legal move's result lists the position among its unmoves.
fn check_moves_have_unmoves<B: Board>(p: &Position<B>) {
    if p.terminal().is_some() {
        return;
    }
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    for &m in &l {
        let mut q = p.clone();
        q.make(m);
        let mut us = Vec::new();
        q.unmoves(&mut us);
        let found = us.iter().any(|&u| {
            let mut r = q.clone();
            r.apply_unmove(u);
            same_placement(&r, p) && q.unmove_forward(u) == m
        });
        assert!(
            found,
            "{p:?} --{m:?}--> {q:?}: no unmove leads back ({us:?})"
        );
    }
}

/// Every unmove's predecessor is unfinished and lists the position among its
/// legal moves' results; apply/revert round-trips.
fn check_unmoves_have_moves<B: Board>(q: &Position<B>) {
    let mut us = Vec::new();
    q.unmoves(&mut us);
    let mut seen = std::collections::HashSet::new();
    for &u in &us {
        assert!(seen.insert(u), "duplicate unmove {u:?} of {q:?}");
        let mut r = q.clone();
        r.apply_unmove(u);
        assert_eq!(r.key(), r.compute_key());
        assert!(
            r.terminal().is_none(),
            "predecessor {r:?} of {q:?} was already over"
        );
        let m = r.unmove_forward(u);
        assert!(
            r.is_legal(m),
            "{m:?} not legal in predecessor {r:?} of {q:?}"
        );
        let mut back = r.clone();
        back.make(m);
        assert!(
            same_placement(&back, q),
            "{r:?} --{m:?}--> {back:?}, expected {q:?}"
        );
        r.revert_unmove(u);
        assert!(same_placement(&r, q));
    }
}

fn perft_of<G: Game>(p: &G, d: u32) -> u64 {
    let mut h = History::starting_at(Repetition::None, p.key(), p.piece_count());
    perft(&mut p.clone(), d, &mut h)
}

fn check_symmetry<B: Board>(p: &Position<B>) {
    let n = perft_of(p, 3);
    assert_eq!(n, perft_of(&p.mirrored(), 3), "mirror of {p:?}");
    assert_eq!(n, perft_of(&p.colour_swapped(), 3), "colour swap of {p:?}");
    assert!(same_placement(&p.mirrored().mirrored(), p));
    // The mirror's key, computed without building it, is its key.
    assert_eq!(Game::mirror_key(p), Some(p.mirrored().key()), "{p:?}");
    assert_eq!(p.mirror_image().map(|m| m.key()), Some(p.mirrored().key()));
    assert!(same_placement(&p.colour_swapped().colour_swapped(), p));
}

fn check_fen<B: Board>(p: &Position<B>) {
    let f = p.to_fen();
    // A random placement may be one no game reaches (the side to move in
    // the opponent's den): its FEN must be refused, with that reason.
    if let Err(why) = p.check_reachable() {
        let e = Position::<B>::from_fen(&f, p.rules()).expect_err(&f);
        assert!(e.to_string().contains(&why), "{f}: {e}");
        return;
    }
    let q = Position::<B>::from_fen(&f, p.rules()).unwrap_or_else(|e| panic!("{f}: {e}"));
    assert_eq!(q.to_fen(), f);
    assert!(same_placement(&q, p));
}

fn all_checks<B: Board>(rules: &'static RuleSet, seed: u64, plies: u32) {
    for p in positions::<B>(rules, seed, plies) {
        check_make_unmake(&p);
        check_moves_have_unmoves(&p);
        check_unmoves_have_moves(&p);
        check_symmetry(&p);
        check_fen(&p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn jungle_leiden(seed in any::<u64>(), plies in 0u32..160) {
        all_checks::<Jungle>(&rules::JUNGLE_LEIDEN, seed, plies);
    }

    #[test]
    fn jungle_common(seed in any::<u64>(), plies in 0u32..160) {
        all_checks::<Jungle>(&rules::JUNGLE_COMMON, seed, plies);
    }

    #[test]
    fn jungle_checkers(seed in any::<u64>(), plies in 0u32..120) {
        all_checks::<JungleCheckers>(&rules::JUNGLE_CHECKERS_LEIDEN, seed, plies);
    }

    /// Garbage never panics the parsers.
    #[test]
    fn parsers_never_panic(s in "\\PC{0,80}", t in "[a-zA-Z0-9/ x]{0,70}") {
        let p = zoo_animal::JunglePos::start(&&rules::JUNGLE_LEIDEN);
        for text in [&s, &t] {
            let _ = zoo_animal::JunglePos::from_fen(text, &&rules::JUNGLE_LEIDEN);
            let _ = zoo_animal::JungleCheckersPos::from_fen(text, &&rules::JUNGLE_CHECKERS_LEIDEN);
            let _ = p.parse_move(text);
        }
    }
}
