//! Move-path counts from the start position against the published figures
//! in /work/shared/reference/checkers.md.

use zoo_checkers::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
use zoo_core::{perft, perft_parallel, Game, History, Repetition};

const CLASSICAL_PERFT: [u64; 8] = [7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783];
const ENGLISH_PERFT: [u64; 8] = [7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931];

fn check<G: Game>(mut pos: G, expected: &[u64]) {
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        let mut h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
        assert_eq!(
            perft(&mut pos, depth, &mut h),
            want,
            "{} perft({depth})",
            pos.game_name()
        );
    }
}

#[test]
fn classical_start_position() {
    check(ClassicalPos::start(&&CLASSICAL), &CLASSICAL_PERFT);
}

#[test]
fn english_start_position() {
    check(EnglishPos::start(&&ENGLISH), &ENGLISH_PERFT);
}

/// The parallel split and the full move lists (no bulk counting) agree
/// with the bulk-counting perft.
#[test]
fn parallel_and_unbulked_agree() {
    fn slow<G: Game>(p: &mut G, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        let mut l = zoo_core::MoveList::new();
        p.legal_moves(&mut l);
        let mut n = 0;
        for &m in &l {
            let u = p.make(m);
            n += slow(p, d - 1);
            p.unmake(m, u);
        }
        n
    }
    let mut p = ClassicalPos::start(&&CLASSICAL);
    let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
    assert_eq!(perft_parallel(&p, 7, &h, 2), CLASSICAL_PERFT[6]);
    assert_eq!(slow(&mut p, 7), CLASSICAL_PERFT[6]);
    let mut e = EnglishPos::start(&&ENGLISH);
    assert_eq!(slow(&mut e, 7), ENGLISH_PERFT[6]);
}

/// Aart Bik's English perft (2009) keeps capture sequences that differ only
/// in the order pieces are taken; the first such positions appear at 12
/// plies. Counting paths instead of moves reproduces his figure, and the
/// deduplicated count is smaller by exactly those duplicates. Slow
/// (a minute): `cargo test --release -p zoo-checkers -- --ignored`.
#[test]
#[ignore]
fn english_paths_match_published_perft_12() {
    fn paths(p: &mut EnglishPos, d: u32) -> u64 {
        let mut l = zoo_core::MoveList::new();
        p.legal_moves(&mut l);
        if d == 1 {
            return if p.has_capture() {
                p.count_capture_paths()
            } else {
                l.len() as u64
            };
        }
        let mut n = 0;
        for &m in &l {
            let u = p.make(m);
            n += paths(p, d - 1);
            p.unmake(m, u);
        }
        n
    }
    let mut p = EnglishPos::start(&&ENGLISH);
    assert_eq!(paths(&mut p, 11), 85_242_128);
    assert_eq!(paths(&mut p, 12), 388_623_673);
    let h = History::starting_at(Repetition::None, p.key(), p.piece_count());
    assert_eq!(perft_parallel(&p, 12, &h, 2), 388_617_999);
}
