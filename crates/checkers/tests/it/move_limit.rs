//! The federations' move limit (docs/rules/checkers.md §4.3, `+draw=N`):
//! N moves of each side in a row without a capture or a man's move end
//! the game in a draw; a capture or a man's move starts the count again;
//! taking moves back restores it; without the option there is no limit.

use zoo_checkers::{ClassicalPos, EnglishPos};
use zoo_core::{Game, MoveList, Outcome};

fn first_move<G: Game>(p: &G, want: impl Fn(&G, G::Move) -> bool) -> G::Move {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    *l.iter()
        .find(|&&m| want(p, m))
        .expect("a move of the kind wanted")
}

#[test]
fn kings_only_play_is_drawn_after_the_limit() {
    let rules = EnglishPos::rules_by_name("english+draw=2").unwrap();
    assert_eq!(rules.name, "english+draw=2");
    let mut p = EnglishPos::from_fen("W:WK1,K2:BK30", &rules).unwrap();
    let mut undo = Vec::new();
    for ply in 1..=4 {
        assert_eq!(p.terminal(), None, "ply {ply}");
        let m = first_move(&p, |p, m| !p.is_capture(m));
        undo.push((m, p.make(m)));
        assert_eq!(p.quiet(), ply);
    }
    // Two moves each: drawn.
    assert_eq!(p.terminal(), Some(Outcome::Draw));
    // Taken back, the count and the game go back too.
    let (m, u) = undo.pop().unwrap();
    p.unmake(m, u);
    assert_eq!((p.quiet(), p.terminal()), (3, None));
    // Under the plain rules the same play goes on.
    let mut q = EnglishPos::from_fen("W:WK1,K2:BK30", &EnglishPos::default_rules()).unwrap();
    for ply in 1..=8 {
        let m = first_move(&q, |p, m| !p.is_capture(m));
        q.make(m);
        assert_eq!((q.quiet(), q.terminal()), (ply, None));
    }
}

#[test]
fn a_man_move_or_a_capture_starts_the_count_again() {
    let rules = ClassicalPos::rules_by_name("classical+draw=3").unwrap();
    // White: a king on 1 and a man on 9; Black: a king on 30.
    let mut p = ClassicalPos::from_fen("W:WK1,9:BK30", &rules).unwrap();
    let king_move = |p: &ClassicalPos, m| !p.is_capture(m) && p.move_to_string(m).starts_with("1-");
    let m = first_move(&p, king_move);
    p.make(m);
    let m = first_move(&p, |p, m| !p.is_capture(m));
    p.make(m);
    assert_eq!(p.quiet(), 2);
    // White's man moves: the count starts again.
    let m = first_move(&p, |p, m| p.move_to_string(m).starts_with("9-"));
    p.make(m);
    assert_eq!(p.quiet(), 0);
}

#[test]
fn the_option_parses_and_refuses_bad_values() {
    assert_eq!(
        EnglishPos::rules_by_name("english+draw=40")
            .unwrap()
            .draw_moves,
        Some(40)
    );
    assert_eq!(
        EnglishPos::rules_by_name("english+draw=none").unwrap().name,
        "english"
    );
    let both = ClassicalPos::rules_by_name("classical+draw=20+repetition=first").unwrap();
    assert_eq!(both.name, "classical+repetition=first+draw=20");
    for bad in [
        "english+draw=0",
        "english+draw=x",
        "english+draw=1001",
        "english+drawn=4",
    ] {
        let e = EnglishPos::rules_by_name(bad).unwrap_err().to_string();
        assert!(e.contains("draw"), "{bad}: {e}");
    }
}
