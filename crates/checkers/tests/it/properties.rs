//! Invariants over positions reached by random play and over random
//! positions: make/unmake, incremental keys, FEN, move codes, notation,
//! PDN round trips, colour symmetry; and no panic on any input string.

use proptest::prelude::*;
use std::collections::HashSet;
use zoo_checkers::eval::{Material, Turska, TurskaC};
use zoo_checkers::pdn::{game_from_moves, parse_pdn, replay, write_pdn};
use zoo_checkers::{ClassicalPos, EnglishPos, Move, Position, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Evaluator, Game, MoveList, Side};

/// Every per-position invariant.
fn check_position<V: Variant>(p: &Position<V>) -> Result<(), TestCaseError> {
    prop_assert_eq!(p.key(), p.compute_key());
    let back = Position::<V>::from_fen(&p.to_fen(), p.rules())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, p);
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    prop_assert_eq!(p.count_moves(), l.len() as u64);
    let mut reference = MoveList::new();
    p.generate_by_search(&mut reference);
    let mut a = l.to_vec();
    let mut b = reference.to_vec();
    a.sort();
    b.sort();
    prop_assert_eq!(a, b, "bitboard shortcuts disagree with the full search");
    let captures = l.iter().filter(|m| m.captured != 0).count();
    prop_assert!(
        captures == 0 || captures == l.len(),
        "captures are mandatory"
    );
    prop_assert_eq!(captures > 0, p.has_capture());
    let mut codes = HashSet::new();
    let mut texts = HashSet::new();
    for &m in &l {
        prop_assert!(codes.insert(p.move_code(m)), "move code not unique");
        prop_assert_eq!(p.move_from_code(p.move_code(m)), Some(m));
        let t = p.move_to_string(m);
        prop_assert!(texts.insert(t.clone()), "notation {} not unique", t);
        prop_assert_eq!(
            p.parse_move(&t)
                .map_err(|e| TestCaseError::fail(e.to_string()))?,
            m
        );
        let mut q = *p;
        let u = q.make(m);
        prop_assert_eq!(q.key(), q.compute_key());
        prop_assert_eq!(q.piece_count() + m.captured.count_ones(), p.piece_count());
        q.unmake(m, u);
        prop_assert_eq!(&q, p);
    }
    // The same position seen from the other side: same moves, same values.
    let s = p.colour_swapped();
    prop_assert_eq!(s.count_moves(), l.len() as u64);
    prop_assert_eq!(
        Evaluator::evaluate(&Turska, &s),
        Evaluator::evaluate(&Turska, p)
    );
    prop_assert_eq!(
        Evaluator::evaluate(&Material, &s),
        Evaluator::evaluate(&Material, p)
    );
    prop_assert_eq!(
        Evaluator::evaluate(&TurskaC, &s),
        Evaluator::evaluate(&TurskaC, p)
    );
    prop_assert_eq!(s.colour_swapped(), *p);
    Ok(())
}

/// Plays `choices` from the start, checking every position, then checks
/// the PDN round trip of the game.
fn random_game<V: Variant>(choices: &[u16]) -> Result<(), TestCaseError> {
    let start = Position::<V>::start(&V::rule_sets()[0]);
    let mut p = start;
    let mut played: Vec<Move> = Vec::new();
    for &c in choices {
        check_position(&p)?;
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        if p.terminal().is_some() || l.is_empty() {
            break;
        }
        let m = l[c as usize % l.len()];
        p.make(m);
        played.push(m);
    }
    let game = game_from_moves(
        &start,
        &played,
        vec![("Event".into(), "proptest".into())],
        Some("*"),
    );
    let text = write_pdn(std::slice::from_ref(&game));
    let read = parse_pdn(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(read.len(), 1);
    let (end, moves) =
        replay::<V>(&read[0], V::rule_sets()[0]).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(moves, played);
    prop_assert_eq!(end, p);
    Ok(())
}

/// A random legal-looking position: pieces from two random masks, kings
/// from a third, men moved off their crowning rows by making them kings.
fn random_position<V: Variant>(
    a: u32,
    b: u32,
    k: u32,
    density: u32,
    black_to_move: bool,
) -> Position<V> {
    // At most 12 pieces a side: drop the highest squares beyond that.
    let keep12 = |mut m: u32| {
        while m.count_ones() > 12 {
            m &= !(1 << (31 - m.leading_zeros()));
        }
        m
    };
    let w = keep12(a & !b & density);
    let bl = keep12(b & !a & density);
    let mut kings = k & (w | bl);
    // Men on their crowning row become kings (they would have been crowned).
    let first_far = 0xF000_0000u32;
    let second_far = 0x0000_000Fu32;
    let (wf, bf) = if V::FIRST == Side::White {
        (first_far, second_far)
    } else {
        (second_far, first_far)
    };
    kings |= (w & wf) | (bl & bf);
    // An empty board is no position; a side without pieces must be the one
    // to move (it has lost): the other could not have moved last.
    let w = if w | bl == 0 { 1 << 12 } else { w };
    let stm = if bl == 0 || (black_to_move && w != 0) {
        Side::Black
    } else {
        Side::White
    };
    Position::<V>::from_bitboards(V::rule_sets()[0], w, bl, kings, stm).expect("constructed valid")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn classical_random_play(choices in proptest::collection::vec(any::<u16>(), 0..150)) {
        random_game::<zoo_checkers::Classical>(&choices)?;
    }

    #[test]
    fn english_random_play(choices in proptest::collection::vec(any::<u16>(), 0..150)) {
        random_game::<zoo_checkers::English>(&choices)?;
    }

    #[test]
    fn random_positions(a: u32, b: u32, k: u32, d1: u32, d2: u32, black: bool) {
        // Two density masks ANDed: about a quarter of the squares used.
        check_position(&random_position::<zoo_checkers::Classical>(a, b, k, d1 | d2, black))?;
        check_position(&random_position::<zoo_checkers::English>(a, b, k, d1 | d2, black))?;
        check_position(&random_position::<zoo_checkers::Classical>(a, b, k, d1 & d2, black))?;
    }

    #[test]
    fn pdn_reader_never_panics(s in "\\PC{0,200}") {
        let _ = parse_pdn(&s);
    }

    #[test]
    fn pdn_reader_never_panics_on_pdn_like_text(s in "[\\[\\]{}()\" 0-9x:;.$*/\\-\\n\\\\A-Za-z]{0,200}") {
        if let Ok(games) = parse_pdn(&s) {
            // Whatever was read writes out and reads back the same.
            let again = parse_pdn(&write_pdn(&games)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(again.len(), games.len());
            for g in &games {
                let _ = replay::<zoo_checkers::Classical>(g, &CLASSICAL);
                let _ = replay::<zoo_checkers::English>(g, &ENGLISH);
            }
        }
    }

    #[test]
    fn fen_and_move_parsers_never_panic(s in "[WBK:,0-9x\\- .]{0,40}") {
        let _ = ClassicalPos::from_fen(&s, &&CLASSICAL);
        let _ = EnglishPos::from_fen(&s, &&ENGLISH);
        let p = ClassicalPos::start(&&CLASSICAL);
        let _ = p.parse_move(&s);
        let e = EnglishPos::start(&&ENGLISH);
        let _ = e.parse_move(&s);
    }
}
