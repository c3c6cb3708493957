//! Perft through the app layer: progress per root move, and the counts
//! the same with or without threads.

use std::sync::Mutex;
use zoo_app::perft::{perft, perft_with_progress, PerftRequest};
use zoo_app::GameKind;
use zoo_core::{Counting, Repetition};

fn request(game: GameKind, depth: u32, threads: usize) -> PerftRequest {
    PerftRequest {
        game,
        rules: None,
        fen: None,
        depth,
        repetition: Repetition::None,
        counting: Counting::FinishedAsLeaves,
        divide: false,
        threads,
        no_cap: false,
    }
}

#[test]
fn progress_counts_every_root_move_once() {
    for threads in [1, 2] {
        let seen = Mutex::new(Vec::new());
        let r = perft_with_progress(&request(GameKind::JungleCheckers, 4, threads), &|d, t| {
            seen.lock().unwrap().push((d, t))
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        // 14 root moves from the start (perft 1 of the start position).
        let want: Vec<(usize, usize)> = (1..=14).map(|d| (d, 14)).collect();
        assert_eq!(seen, want, "{threads} threads");
        assert_eq!(
            r.nodes,
            perft(&request(GameKind::JungleCheckers, 4, 1))
                .unwrap()
                .nodes
        );
    }
}

#[test]
fn threads_out_of_range_are_refused() {
    for threads in [0, 100_000] {
        let e = perft(&request(GameKind::Jungle, 2, threads)).unwrap_err();
        assert!(e.to_string().contains("not between 1 and 256"), "{e}");
    }
}
