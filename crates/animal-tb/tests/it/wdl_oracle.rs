//! The tables' oracle over WDL-only files: a set of WDL files alone (or
//! mixed with full tables) opens, probes every position's value with no
//! distance where only the WDL file is there, and the search plays from it:
//! a won or lost position reports a table win or a mate of the right sign
//! (never a mate the tables would deny), and its move keeps the value.

use std::sync::Arc;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos, Position};
use zoo_animal_tb::index::{Layout, Material};
use zoo_animal_tb::Tablebase;
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, History, Oracle, OracleValue, Outcome, Side};
use zoo_search::{table_result, Config, Engine, EngineGame, Limits, MATE_BOUND};

/// Every `step`-th entry of every 3-piece material, both sides to move.
fn positions(step: usize) -> Vec<Position<JungleCheckers>> {
    let mut out = Vec::new();
    for m in Material::all::<JungleCheckers>(3) {
        let l = Layout::new::<JungleCheckers>(m);
        let mut sqs = [0u8; 16];
        for idx in (0..l.size).step_by(step) {
            l.unrank(idx, &mut sqs);
            for stm in [Side::White, Side::Black] {
                out.push(l.position(&sqs[..l.n], stm, &JUNGLE_CHECKERS_LEIDEN));
            }
        }
    }
    out
}

#[test]
fn a_wdl_only_set_opens_and_probes_the_tables_values() {
    let full = TbOracle::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN)
        .expect("the full tables");
    let root = crate::wdl::set("oracle", false);
    let wdl =
        TbOracle::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN).expect("the WDL files");
    assert_eq!(wdl.max_pieces(), 3);
    assert_eq!((full.wdl_only(), wdl.wdl_only()), (0, 34));
    assert!(wdl
        .describe(&root)
        .ends_with("(WDL-only files: values, no distances)"));
    let mut probed = 0;
    for p in positions(41) {
        let f = full.probe(&p).expect("in the full tables");
        let w = wdl.probe(&p).expect("in the WDL files");
        assert_eq!(w.outcome, f.outcome, "{}", p.fen());
        // A finished game is its result at 0 either way; otherwise the
        // WDL files know no distance.
        if p.terminal_outcome().is_some() {
            assert_eq!(w, OracleValue::exact(f.outcome, 0));
        } else {
            assert_eq!(w.distance, None, "{}", p.fen());
            assert!(f.distance.is_some());
        }
        probed += 1;
    }
    assert!(probed > 50_000, "{probed}");
}

/// A set whose 2-piece tables are full and 3-piece ones WDL-only: each
/// position has its distance exactly where its own table has distances
/// (a capture or a finished game), the value everywhere.
#[test]
fn a_mixed_set_gives_distances_where_it_has_them() {
    let full = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let root = crate::wdl::set("mixed", true);
    let tb = Tablebase::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN);
    for m in Material::canonical::<JungleCheckers>(3) {
        std::fs::remove_file(tb.path_of(m)).unwrap();
    }
    let mixed = TbOracle::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN).unwrap();
    assert_eq!(mixed.max_pieces(), 3);
    assert!(mixed.wdl_only() > 0 && mixed.wdl_only() < 34);
    let (mut exact, mut wdl) = (0, 0);
    for p in positions(97) {
        let (o, d) = full.try_probe(&p).unwrap();
        let v = mixed.probe(&p).unwrap();
        assert_eq!(v.outcome, o);
        match v.distance {
            Some(x) => {
                assert_eq!(x, d);
                exact += 1;
            }
            None => wdl += 1,
        }
        // One ply down: captures land in the full 2-piece tables.
        let mut list = zoo_core::MoveList::new();
        p.generate(&mut list);
        for mv in list {
            let mut c = p.clone();
            c.make_move(mv);
            let v = mixed.probe(&c).unwrap();
            let (co, cd) = full.try_probe(&c).unwrap();
            assert_eq!(v.outcome, co);
            if c.piece_count() == 2 || c.terminal_outcome().is_some() {
                assert_eq!(v.distance, Some(cd));
                exact += 1;
            } else {
                assert_eq!(v.distance, None);
            }
        }
    }
    assert!(exact > 0 && wdl > 0, "{exact} {wdl}");
}

/// splitmix64: a fixed, reproducible sequence of positions.
fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn the_search_plays_from_wdl_files() {
    let tb = Tablebase::<JungleCheckers>::open(crate::common::jc3(), &JUNGLE_CHECKERS_LEIDEN);
    let root = crate::wdl::set("search", false);
    let oracle = TbOracle::<JungleCheckers>::open(&root, &JUNGLE_CHECKERS_LEIDEN).unwrap();
    let cfg = Config {
        hash_mb: 4,
        ..Config::default()
    };
    let mut engine: Engine<
        JungleCheckersPos,
        <JungleCheckersPos as EngineGame>::Eval,
        <JungleCheckersPos as EngineGame>::Tactics,
    > = Engine::new(cfg, JungleCheckersPos::default_eval(), Default::default());
    engine.set_oracle(Some(Arc::new(oracle) as Arc<dyn Oracle<JungleCheckersPos>>));
    let mats = Material::all::<JungleCheckers>(3);
    let mut seed = 11u64;
    let (mut checked, mut table_wins, mut mates) = (0, 0, 0);
    while checked < 150 {
        let m = mats[next(&mut seed) as usize % mats.len()];
        let l = Layout::new::<JungleCheckers>(m);
        let mut sqs = [0u8; 16];
        l.unrank(next(&mut seed) % l.size, &mut sqs);
        let stm = if next(&mut seed) & 1 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let pos: JungleCheckersPos = l.position(&sqs[..l.n], stm, &JUNGLE_CHECKERS_LEIDEN);
        if pos.outcome().is_some() {
            continue;
        }
        checked += 1;
        let (o, d) = tb.try_probe(&pos).unwrap();
        let hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
        engine.clear();
        let depth = 1 + (checked % 4) as u32;
        let r = engine.search(&pos, &hist, &Limits::depth(depth), &mut |_| {});
        let fen = pos.to_fen();
        match o {
            Outcome::Draw => assert_eq!(r.score, 0, "{fen}"),
            _ => {
                let sign = if o == Outcome::Win { 1 } else { -1 };
                match r.mate {
                    // A mate the search found is the tables' distance or
                    // longer for the loser, never shorter than the truth
                    // for the winner.
                    Some(m) => {
                        assert_eq!(m.signum(), sign, "{fen}: {o:?} in {d}, mate {m}");
                        assert!(m.unsigned_abs() >= d as u32, "{fen}: {d} {m}");
                        mates += 1;
                    }
                    None => {
                        assert_eq!(r.table, Some(o), "{fen}: score {}", r.score);
                        assert_eq!(table_result(r.score), Some(o));
                        assert!(r.score.abs() < MATE_BOUND);
                        table_wins += 1;
                    }
                }
            }
        }
        // The move keeps the value.
        let mut child = pos.clone();
        child.make(r.best.expect("a move"));
        let (co, _) = tb.try_probe(&child).unwrap();
        assert_eq!(co, o.flip(), "{fen}: {:?}", r.pv);
    }
    assert!(table_wins > 20 && mates > 5, "{table_wins} {mates}");
}
