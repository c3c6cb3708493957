//! Impossible positions are refused with a message by the one check every
//! front end goes through (the position readers of the rules crates, via
//! `Session::set_position`); reachable ends are accepted. Cases from
//! tests/data/positions.txt.

use zoo_app::{EngineOptions, GameKind, Session};

#[test]
fn impossible_positions_are_refused_and_reachable_ends_accepted() {
    let data = include_str!("../data/positions.txt");
    let mut cases = 0;
    for line in data.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let [game, fen, expected] = f[..] else {
            panic!("not `game | fen | expected`: {line}");
        };
        let game: GameKind = game.parse().unwrap();
        let mut s = Session::new(game, None, EngineOptions::default()).unwrap();
        let got = s.set_position::<&str>(Some(fen), &[]);
        match (expected, got) {
            ("ok", Ok(())) => {}
            ("ok", Err(e)) => panic!("{game} {fen:?} refused: {e}"),
            (_, Ok(())) => panic!("{game} {fen:?} accepted; expected {expected:?}"),
            (_, Err(e)) => assert!(
                e.to_string().contains(expected),
                "{game} {fen:?}: {e} does not say {expected:?}"
            ),
        }
        cases += 1;
    }
    assert!(cases >= 20, "{cases} cases");
}
