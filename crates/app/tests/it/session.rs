//! The Session facade: the registry agrees with the games, searches run one
//! after another at full strength, and bad input is refused without
//! changing the session.

use std::sync::mpsc;
use zoo_app::{
    AppError, AppGame, EndReason, EngineOptions, GameKind, GameVisitor, SearchLimits, Session,
    Status,
};
use zoo_core::Outcome;

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..SearchLimits::default()
    }
}

#[test]
fn registry_names_are_the_games_names() {
    struct Name;
    impl GameVisitor for Name {
        type Output = (GameKind, &'static str);
        fn visit<G: AppGame>(self) -> Self::Output {
            (
                G::KIND,
                zoo_core::Game::game_name(&G::start(&G::default_rules())),
            )
        }
    }
    for g in GameKind::ALL {
        let (kind, name) = g.visit(Name);
        assert_eq!(kind, g);
        assert_eq!(g.name(), name);
        assert_eq!(name.parse::<GameKind>().unwrap(), g);
    }
    assert!(matches!(
        "chess".parse::<GameKind>(),
        Err(AppError::UnknownGame(_))
    ));
}

/// A stop that arrives when no search runs must not weaken the next one
/// (the protocol sends `stop` and `position` between searches).
#[test]
fn searches_after_a_stop_reach_their_depth() {
    let mut s = Session::new(GameKind::Jungle, None, EngineOptions::default()).unwrap();
    for round in 0..3 {
        let (tx, rx) = mpsc::channel();
        s.go(depth(7), |_| {}, move |r| tx.send(r.depth).unwrap())
            .unwrap();
        s.wait();
        assert_eq!(rx.recv().unwrap(), 7, "round {round}");
        s.stop();
        s.set_position(None, &["a3a4"]).unwrap();
        s.stop();
        let r = s.search(depth(7), &mut |_| {}).unwrap();
        assert_eq!(r.depth, 7, "round {round}");
        assert!(
            r.stats.nodes > 1000,
            "round {round}: {} nodes",
            r.stats.nodes
        );
    }
}

#[test]
fn stop_ends_a_running_search_with_a_move() {
    let mut s = Session::new(GameKind::Jungle, None, EngineOptions::default()).unwrap();
    let (tx, rx) = mpsc::channel();
    s.go(
        SearchLimits::default(),
        |_| {},
        move |r| tx.send(r).unwrap(),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(s.is_searching());
    s.stop();
    let r = rx.recv().unwrap();
    assert!(r.best.is_some());
    assert!(!s.is_searching());
}

#[test]
fn moves_after_the_end_are_refused() {
    let mut s = Session::new(GameKind::Jungle, None, EngineOptions::default()).unwrap();
    let fen = "7/7/3T3/7/7/7/7/7/t6 b";
    let moves = ["a1b1", "d7d8", "b1c1", "d8d9"];
    s.set_position(Some(fen), &moves).unwrap();
    assert_eq!(
        s.status(),
        Status::Over {
            result: Outcome::Loss,
            reason: EndReason::Rules
        }
    );
    assert!(s.legal_moves().is_empty());
    let before = s.fen();
    assert!(matches!(s.play("c1d1"), Err(AppError::GameOver { .. })));
    let mut more = moves.to_vec();
    more.push("c1d1");
    assert!(matches!(
        s.set_position(Some(fen), &more),
        Err(AppError::GameOver { .. })
    ));
    assert_eq!(
        s.fen(),
        before,
        "a refused position leaves the session as it was"
    );
}

#[test]
fn illegal_moves_are_refused_and_undo_walks_back() {
    let mut s = Session::new(GameKind::JungleCheckers, None, EngineOptions::default()).unwrap();
    let start = s.fen();
    assert!(matches!(s.play("a1a9"), Err(AppError::Move { .. })));
    assert_eq!(s.fen(), start);
    let m = s.play("c2c3").unwrap();
    assert_eq!(m.coord, "c2c3");
    let after = s.fen();
    s.play("c6c5").unwrap();
    assert_eq!(s.moves().len(), 2);
    assert_eq!(s.undo().unwrap().coord, "c6c5");
    assert_eq!(s.fen(), after);
    assert_eq!(s.undo().unwrap().coord, "c2c3");
    assert_eq!(s.fen(), start);
    assert!(s.undo().is_none());
}

#[test]
fn bad_options_are_refused() {
    let huge = EngineOptions {
        hash_mb: usize::MAX >> 20,
        ..EngineOptions::default()
    };
    assert!(matches!(
        Session::new(GameKind::Jungle, None, huge),
        Err(AppError::Option(_))
    ));
    let no_threads = EngineOptions {
        threads: 0,
        ..EngineOptions::default()
    };
    assert!(Session::new(GameKind::Jungle, None, no_threads).is_err());
    let bad_eval = EngineOptions {
        eval: Some("bogus".into()),
        ..EngineOptions::default()
    };
    let mut s = Session::new(GameKind::ClassicalCheckers, None, EngineOptions::default()).unwrap();
    assert!(s.set_options(bad_eval).is_err());
    assert!(Session::new(GameKind::Jungle, Some("bogus"), EngineOptions::default()).is_err());
    assert!(s.search(depth(0), &mut |_| {}).is_err());
    assert_eq!(s.search(depth(3), &mut |_| {}).unwrap().depth, 3);
}

/// Dropping a session whose search is slow to notice the stop (here its
/// first iteration's callback takes two seconds) returns at once: a drop
/// on an async server's worker must not wait for a search (issue 33). The
/// search still ends and reports.
#[test]
fn dropping_a_session_signals_its_search_without_waiting() {
    let mut s = Session::new(GameKind::Jungle, None, EngineOptions::default()).unwrap();
    let (tx, rx) = mpsc::channel();
    s.go(
        SearchLimits::default(),
        |_| std::thread::sleep(std::time::Duration::from_secs(2)),
        move |r| tx.send(r).unwrap(),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let t = std::time::Instant::now();
    drop(s);
    assert!(
        t.elapsed() < std::time::Duration::from_millis(500),
        "drop waited {:?}",
        t.elapsed()
    );
    let r = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert!(r.best.is_some());
}
