//! What a match against a JCEI engine relies on: zoo's count of the paths
//! of the full length is jungine's (tests/data/jungine-perft.txt), and the
//! probe positions of the rules check tell the rule sets apart.

use zoo_app::matches::rules_check::{probes, zoo_count};
use zoo_app::perft::{perft, PerftRequest};
use zoo_app::GameKind;
use zoo_core::{Counting, Repetition};

fn count(fen: &str, depth: u32, counting: Counting) -> u64 {
    perft(&PerftRequest {
        game: GameKind::Jungle,
        rules: Some("common".into()),
        fen: Some(fen.into()),
        depth,
        repetition: Repetition::None,
        counting,
        divide: false,
        threads: 1,
        no_cap: false,
    })
    .unwrap()
    .nodes
}

#[test]
fn full_length_counts_are_jungines() {
    let mut lines = 0;
    for line in include_str!("../data/jungine-perft.txt").lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let (fen, depth) = (f[0], f[1].parse().unwrap());
        let (jungine, leaves): (u64, u64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        assert_eq!(count(fen, depth, Counting::FullLength), jungine, "{line}");
        assert_eq!(
            count(fen, depth, Counting::FinishedAsLeaves),
            leaves,
            "{line}"
        );
        lines += 1;
    }
    assert!(lines >= 20, "{lines}");
}

#[test]
fn a_finished_game_is_no_path_of_the_full_length() {
    // White has no piece left: the game is over.
    let over = "7/7/1e5/7/3l1r1/6t/7/7/7 w";
    assert_eq!(count(over, 0, Counting::FullLength), 1);
    assert_eq!(count(over, 1, Counting::FullLength), 0);
    assert_eq!(count(over, 1, Counting::FinishedAsLeaves), 1);
}

#[test]
fn probes_tell_the_rule_sets_apart() {
    let probes = probes().unwrap();
    assert!(probes.len() >= 6);
    for (fen, depth) in probes {
        let leiden = zoo_count(GameKind::Jungle, Some("leiden"), &fen, depth).unwrap();
        let common = zoo_count(GameKind::Jungle, Some("common"), &fen, depth).unwrap();
        assert_ne!(leiden, common, "{fen} at {depth}");
    }
}
