//! Limits by nodes, time and the stop flag; statistics add up.

use std::time::{Duration, Instant};
use zoo_animal::JunglePos;
use zoo_core::{Game, History, MoveList};
use zoo_search::{Config, Engine, EngineGame, Limits};

fn engine(
    threads: usize,
) -> Engine<JunglePos, <JunglePos as EngineGame>::Eval, <JunglePos as EngineGame>::Tactics> {
    let cfg = Config {
        hash_mb: 8,
        threads,
        ..Config::default()
    };
    Engine::new(cfg, JunglePos::default_eval(), Default::default())
}

fn start() -> (JunglePos, History) {
    let p = JunglePos::start(&JunglePos::default_rules());
    let h = History::starting_at(p.default_repetition(), p.key(), p.piece_count());
    (p, h)
}

fn legal(p: &JunglePos, m: Option<zoo_animal::Move>) -> bool {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    m.is_some_and(|m| l.contains(&m))
}

#[test]
fn node_limit_stops_the_search() {
    let (p, h) = start();
    let r = engine(1).search(
        &p,
        &h,
        &Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(legal(&p, r.best));
    // Checked every 1024 nodes, and the first iteration always finishes.
    assert!(r.stats.nodes < 20_000 + 5_000, "{}", r.stats.nodes);
    assert!(r.depth >= 1);
}

#[test]
fn time_limit_stops_the_search_with_two_threads() {
    let (p, h) = start();
    let t = Instant::now();
    let r = engine(2).search(
        &p,
        &h,
        &Limits {
            movetime: Some(Duration::from_millis(150)),
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert!(legal(&p, r.best));
    // Generous: the machine may be busy; the point is that it stops at all.
    assert!(t.elapsed() < Duration::from_secs(20));
}

#[test]
fn stop_flag_ends_an_unlimited_search() {
    let (p, h) = start();
    let e = engine(1);
    let stop = e.stop_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let r = e.search(&p, &h, &Limits::default(), &mut |_| {});
    t.join().unwrap();
    assert!(legal(&p, r.best));
    assert!(r.depth < zoo_search::MAX_DEPTH);
}

#[test]
fn iterations_report_growing_depths_and_consistent_stats() {
    let (p, h) = start();
    let mut depths = Vec::new();
    let r = engine(1).search(&p, &h, &Limits::depth(6), &mut |it| depths.push(it.depth));
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
    let s = r.stats;
    assert!(s.leaves <= s.nodes && s.qnodes <= s.nodes);
    assert!(s.tt_hits <= s.tt_probes && s.tt_cutoffs <= s.tt_hits);
    assert_eq!(r.pv.first().copied(), r.best);
    // The PV is a legal line.
    let mut q = p.clone();
    for &m in &r.pv {
        assert!(legal(&q, Some(m)));
        q.make(m);
    }
}

#[test]
fn game_over_root_has_no_move() {
    let rules = JunglePos::default_rules();
    // White already stands in Black's den.
    let p = JunglePos::from_fen("3L3/7/7/7/7/7/7/7/t6 b", &rules).unwrap();
    let h = History::starting_at(p.default_repetition(), p.key(), p.piece_count());
    let r = engine(1).search(&p, &h, &Limits::depth(3), &mut |_| {});
    assert_eq!(r.best, None);
    assert_eq!(r.mate, Some(0));
}
