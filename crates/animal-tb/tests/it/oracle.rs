//! The search with the endgame tables as its oracle: on random 3-piece
//! Jungle Checkers positions a depth 1–2 search reports exactly the table's
//! value and distance, and its move keeps that value.

use std::sync::Arc;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::index::{Layout, Material};
use zoo_animal_tb::Tablebase;
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, History, Outcome, Side};
use zoo_search::{Config, Engine, EngineGame, Limits, Oracle, MATE};

/// splitmix64: a fixed, reproducible sequence of positions.
fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn score_of(o: Outcome, d: u16) -> i32 {
    match o {
        Outcome::Win => MATE - d as i32,
        Outcome::Loss => -(MATE - d as i32),
        Outcome::Draw => 0,
    }
}

type E = Engine<
    JungleCheckersPos,
    <JungleCheckersPos as EngineGame>::Eval,
    <JungleCheckersPos as EngineGame>::Tactics,
>;

fn engine(oracle: Option<Arc<dyn Oracle<JungleCheckersPos>>>) -> E {
    let cfg = Config {
        hash_mb: 4,
        ..Config::default()
    };
    let mut e = Engine::new(cfg, JungleCheckersPos::default_eval(), Default::default());
    e.set_oracle(oracle);
    e
}

#[test]
fn search_with_tables_is_exact_on_three_pieces() {
    let dir = crate::common::jc3();
    let oracle = TbOracle::<JungleCheckers>::open(dir, &JUNGLE_CHECKERS_LEIDEN)
        .expect("the tables just built are found");
    assert_eq!(oracle.max_pieces(), 3);
    let tb = Tablebase::<JungleCheckers>::open(dir, &JUNGLE_CHECKERS_LEIDEN);
    let with = engine(Some(Arc::new(oracle)));
    let without = engine(None);

    let mats = Material::all::<JungleCheckers>(3);
    let mut seed = 7u64;
    let (mut checked, mut wins, mut losses, mut draws, mut unseen) = (0, 0, 0, 0, 0);
    let mut tb_hits = 0;
    while checked < 300 {
        let m = mats[next(&mut seed) as usize % mats.len()];
        let l = Layout::new::<JungleCheckers>(m);
        let mut sqs = [0u8; 16];
        l.unrank(next(&mut seed) % l.size, &mut sqs);
        let side = if next(&mut seed) & 1 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let pos: JungleCheckersPos = l.position(&sqs[..l.n], side, &JUNGLE_CHECKERS_LEIDEN);
        if pos.outcome().is_some() {
            continue;
        }
        let (o, d) = tb
            .try_probe(&pos)
            .expect("a 3-piece position is in the tables");
        checked += 1;
        let depth = 1 + (checked % 2) as u32;
        // The rule set's own repetition policy: table values ignore it.
        let hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
        with.clear();
        let r = with.search(&pos, &hist, &Limits::depth(depth), &mut |_| {});
        let fen = pos.to_fen();
        assert_eq!(r.score, score_of(o, d), "{fen}: table {o:?} in {d}");
        match o {
            Outcome::Win => {
                wins += 1;
                assert_eq!(r.mate, Some(d as i32), "{fen}");
            }
            Outcome::Loss => {
                losses += 1;
                assert_eq!(r.mate, Some(-(d as i32)), "{fen}");
            }
            Outcome::Draw => {
                draws += 1;
                assert_eq!(r.mate, None, "{fen}");
            }
        }
        tb_hits += r.stats.tb_hits;
        // The chosen move keeps the value: the child is the opposite result
        // one ply shorter (a draw stays a draw).
        let best = r.best.expect("a move is chosen");
        let mut child = pos.clone();
        child.make(best);
        let (co, cd) = tb.try_probe(&child).expect("the child is in the tables");
        match o {
            Outcome::Draw => assert_eq!(co, Outcome::Draw, "{fen}"),
            _ => assert_eq!((co, cd), (o.flip(), d - 1), "{fen}"),
        }
        // The principal variation follows the tables to the end of the game.
        if o != Outcome::Draw {
            assert_eq!(r.pv.len(), d as usize, "{fen}: pv {:?}", r.pv);
        }
        if o == Outcome::Win && d as u32 > depth {
            let plain = without.search(&pos, &hist, &Limits::depth(depth), &mut |_| {});
            if plain.mate != Some(d as i32) {
                unseen += 1;
            }
        }
    }
    // The sample has wins and losses (3-piece Jungle Checkers has few or no
    // draws), and wins too long for the plain search at the same depth:
    // otherwise the test would prove nothing.
    assert!(wins > 20 && losses > 20, "{wins} {losses} {draws}");
    assert!(
        unseen > 10,
        "only {unseen} wins were out of the plain search's sight"
    );
    assert!(tb_hits > 0);
}
