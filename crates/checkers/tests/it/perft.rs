//! Move-path counts against the published figures. The cases are data, one
//! per line, in `tests/data/perft.txt` (its header gives the format); every
//! failing line is reported with its line number.

use zoo_checkers::{ClassicalPos, EnglishPos, CLASSICAL, ENGLISH};
use zoo_core::{perft_parallel, Game, History, Repetition};
use zoo_testkit::cases::position;
use zoo_testkit::{cases, perft};

use crate::common;
use common::{start_count, PERFT};

#[test]
fn perft_cases_from_data() {
    cases::check_all(
        "tests/data/perft.txt",
        PERFT,
        perft::Expect::parse,
        |c| match c.game {
            "classical" => position::<ClassicalPos, _>(c).and_then(|p| perft::check(p, &c.expect)),
            "english" => position::<EnglishPos, _>(c).and_then(|p| perft::check(p, &c.expect)),
            other => Err(format!("unknown game {other:?}")),
        },
    );
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
    assert_eq!(perft_parallel(&p, 7, &h, 2), start_count("classical", 7));
    assert_eq!(slow(&mut p, 7), start_count("classical", 7));
    let mut e = EnglishPos::start(&&ENGLISH);
    assert_eq!(slow(&mut e, 7), start_count("english", 7));
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
