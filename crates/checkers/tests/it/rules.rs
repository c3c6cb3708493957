//! The capture rules of docs/rules/checkers.md, each in a position built for
//! it, and the numbering checks of its §1.5. Each test names the sections it
//! checks. Cases that are plain data (a position and its legal moves) are
//! lines of tests/data/moves.txt, checked by tests/moves.rs.

use std::collections::BTreeSet;
use zoo_checkers::geometry::{bit, square_at};
use zoo_checkers::{ClassicalPos, EnglishPos, Move, Position, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Game, MoveList};

fn moves<V: Variant>(p: &Position<V>) -> BTreeSet<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let set: BTreeSet<String> = l.iter().map(|&m| p.move_to_string(m)).collect();
    assert_eq!(set.len(), l.len(), "duplicate moves in {p:?}");
    set
}

fn classical(fen: &str) -> ClassicalPos {
    ClassicalPos::from_fen(fen, &&CLASSICAL).unwrap()
}

fn english(fen: &str) -> EnglishPos {
    EnglishPos::from_fen(fen, &&ENGLISH).unwrap()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// docs/rules/checkers.md §1.4, §1.5.
#[test]
fn rules_file_numbering() {
    // The move sets of §1.5's examples: tests/data/moves.txt.
    // Squares in algebraic form: 1 = h1, 4 = b1, 32 = a8.
    assert_eq!(ClassicalPos::square_name(0), "h1");
    assert_eq!(ClassicalPos::square_name(3), "b1");
    assert_eq!(ClassicalPos::square_name(31), "a8");
}

/// docs/rules/checkers.md §7.1, §7.2.
#[test]
fn english_numbering() {
    let start = EnglishPos::start(&&ENGLISH);
    assert_eq!(
        start.to_fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    // 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
    let name = |n: u32| EnglishPos::square_name(zoo_checkers::English::square(n).unwrap());
    assert_eq!(
        [name(1), name(4), name(5), name(29), name(32)],
        ["b8", "h8", "a7", "a1", "g1"]
    );
}

/// docs/rules/checkers.md §3.1, §5.2.
#[test]
fn short_form_and_ambiguity() {
    let p = classical("B:W21,10:BK30");
    let a = p.parse_move("30x17x3").unwrap();
    assert_eq!(p.parse_move("30x3").unwrap(), a);
    assert_eq!(
        p.parse_move("30x17x6").unwrap(),
        p.parse_move("30x6").unwrap()
    );
    assert!(p.parse_move("30x17").is_err());
    assert!(p.parse_move("30-26").is_err(), "capture is mandatory");
    // Two ways from 11 to 27 that take different pieces (14, 22 or 15,
    // 23): two moves; the short form is ambiguous, the full forms are not.
    let q = classical("W:W11:B14,15,22,23");
    let all = moves(&q);
    assert_eq!(all, set(&["11x18x27", "11x20x27"]));
    let err = q.parse_move("11x27").unwrap_err();
    assert!(err.message.contains("ambiguous"), "{err}");
    for m in &all {
        assert_eq!(q.move_to_string(q.parse_move(m).unwrap()), *m);
    }
    for bad in ["", "x", "0-1", "33-1", "4-", "4--7", "4x7-8", "abc", "4-7-"] {
        assert!(p.parse_move(bad).is_err(), "{bad:?} accepted");
    }
}

/// docs/rules/checkers.md §3.8, §7.4.
#[test]
fn quality_among_equal_counts() {
    // The Classical cases (quality rule, single jumps): tests/data/moves.txt.
    // Without the rules (English), every sequence is offered: the three
    // two-piece captures and the one-piece 7x16.
    let mirrored =
        |n: u32| zoo_checkers::English::number(zoo_checkers::Classical::square(n).unwrap());
    let fen = format!(
        "W:W{},{}:B{},{},{},K{}",
        mirrored(7),
        mirrored(8),
        mirrored(11),
        mirrored(18),
        mirrored(19),
        mirrored(12)
    );
    // In English the first mover is Black: swap the colours.
    let e = english(
        &fen.replace("W:W", "X")
            .replace(":B", ":W")
            .replace("X", "B:B"),
    );
    assert_eq!(moves(&e).len(), 4);
}

/// docs/rules/checkers.md §3.3, §3.4, §3.7.
#[test]
fn flying_king_landings_and_continuation() {
    // Landings with and without continuation: tests/data/moves.txt.
    // The king must be offered landings that allow continuation: here the
    // landing on 21 is the only one that does (from 21 it takes 18).
    let p = classical("B:W26,18:BK30");
    let m = moves(&p);
    assert!(m.iter().all(|s| s.starts_with("30x21x")), "{m:?}");
    assert!(!m.is_empty());
}

/// docs/rules/checkers.md §3.2, §7.
#[test]
fn men_do_not_capture_backwards() {
    // Classical men and kings: tests/data/moves.txt. English men neither.
    let e = english("B:W9:B14");
    assert!(moves(&e).iter().all(|m| m.contains('-')));
}

/// docs/rules/checkers.md §3.10, §7.5.
#[test]
fn man_crowned_by_a_capture_stops() {
    // 23x30 crowns; a king on 30 could go on over 26, a man may not.
    let mut p = classical("W:W23:B26,27");
    assert_eq!(moves(&p), set(&["23x30"]));
    let m = p.parse_move("23x30").unwrap();
    p.make(m);
    assert_eq!(p.to_fen(), "B:WK30:B26");
    // English: the crowned man ends its move too (10x3, not 10x3x12).
    let mut e = english("W:W10:B7,8");
    assert_eq!(moves(&e), set(&["10x3"]));
    let m = e.parse_move("10x3").unwrap();
    e.make(m);
    assert_eq!(e.to_fen(), "B:WK3:B8");
}

/// A king that jumps round a square of four pieces comes back to where it
/// started; it may not take the first piece again, and the two ways round
/// are one move.
fn ring<V: Variant>() -> Position<V> {
    let sq = |r: i32, c: i32| square_at(r, c);
    let king = bit(sq(2, 3));
    let ring = bit(sq(3, 4)) | bit(sq(5, 4)) | bit(sq(5, 2)) | bit(sq(3, 2));
    let (w, b) = if V::FIRST == zoo_core::Side::White {
        (king, ring)
    } else {
        (ring, king)
    };
    Position::<V>::from_bitboards(V::rule_sets()[0], w, b, king, V::FIRST).unwrap()
}

/// docs/rules/checkers.md §3.5, §6.1.
#[test]
fn pieces_are_not_jumped_twice() {
    let e: EnglishPos = ring();
    let mut l = MoveList::new();
    e.legal_moves(&mut l);
    assert_eq!(l.len(), 1, "{:?}", moves(&e));
    let m: Move = l[0];
    assert_eq!(
        (m.from, m.to, m.captured.count_ones()),
        (square_at(2, 3), square_at(2, 3), 4)
    );
    let c: ClassicalPos = ring();
    let mut l = MoveList::new();
    c.legal_moves(&mut l);
    assert!(!l.is_empty());
    assert!(l
        .iter()
        .all(|m| m.captured.count_ones() == 4 && m.captured == c.pieces(c.side().flip())));
    // One piece alone: taken once, never again on the way back.
    for m in moves(&classical("W:WK1:B14")) {
        assert_eq!(m.matches('x').count(), 1, "{m}");
    }
}

/// docs/rules/checkers.md §4.1.
#[test]
fn game_status() {
    let p = classical("W:W4:B32");
    assert_eq!(p.terminal(), None);
    let dead = classical("B:W4:B");
    assert_eq!(dead.terminal(), Some(zoo_core::Outcome::Loss));
    // Blocked: White's man on 4 faces its own men and cannot move.
    let stuck = classical("W:W4,7,8:B11,12");
    assert_eq!(stuck.count_moves(), moves(&stuck).len() as u64);
    let blocked = classical("W:W8:B12,15");
    assert_eq!(blocked.outcome(), Some(zoo_core::Outcome::Loss));
    assert_eq!(blocked.no_moves_outcome(), zoo_core::Outcome::Loss);
}

/// docs/rules/checkers.md §4.2.
#[test]
fn threefold_repetition_through_history() {
    use zoo_core::{History, Repetition};
    let mut p = classical("W:WK4:BK29");
    let mut h = History::starting_at(p.default_repetition(), p.key(), p.piece_count());
    assert_eq!(h.policy(), Repetition::Threefold);
    let cycle = ["4-8", "29-25", "8-4", "25-29"];
    for round in 0..2 {
        for (i, s) in cycle.iter().enumerate() {
            let m = p.parse_move(s).unwrap();
            p.make(m);
            h.push(p.key(), p.piece_count());
            let last = round == 1 && i == 3;
            assert_eq!(h.is_draw(), last, "round {round} move {s}");
        }
    }
}

/// docs/rules/checkers.md §5.3.
#[test]
fn bad_fens_are_errors() {
    for bad in [
        "",
        "X:W1:B2",
        "W:W1,1:B2",
        "W:W33:B2",
        "W:W1",
        "W:W1:W2",
        "W:W29:B2",
        "B:W1:B1",
        "W:Wx:B2",
        "W:W5-1:B9",
        "W:W1-13:B32",
    ] {
        assert!(
            ClassicalPos::from_fen(bad, &&CLASSICAL).is_err(),
            "{bad:?} accepted"
        );
    }
    let p = classical("W:W1-3,K14:B21-22.");
    assert_eq!(p.to_fen(), "W:W1,2,3,K14:B21,22");
}

/// A king may land twice on one square. Here 29x22x31 takes two pieces,
/// and 29x22x15x6x13x22x31 (or round the other way) takes six, passing 22
/// twice: the exact path names the short move, though its squares also
/// appear in order inside the long one. docs/rules/checkers.md §5.2.
#[test]
fn exact_path_beats_subsequence() {
    let p = english("W:W21,24,28,K29:B9,10,17,18,23,25,26,K30");
    let short = p.parse_move("29x22x31").unwrap();
    assert_eq!(short.captured.count_ones(), 2);
    let long = p.parse_move("29x22x15x6x13x22x31").unwrap();
    assert_eq!(long.captured.count_ones(), 6);
    assert_eq!(p.parse_move("29x22x13x6x15x22x31").unwrap(), long);
    assert_eq!(p.parse_move("29x15x31").unwrap(), long);
    assert!(p.parse_move("29x31").is_err(), "two moves fit 29x31");
    assert_eq!(p.move_to_string(short), "29x22x31");
}
