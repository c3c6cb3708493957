//! The positions checkers literature names, read from the tables: First
//! Position (two kings against a king and a man, English checkers) and
//! two kings against one, each with the winning line the tables give
//! (every move the fastest win or the longest defence). The values
//! themselves are hand-checked probes (tests/data/table-probes.txt, also
//! proved by the minimax search of `probes.rs`); here the lines.
//!
//! ```text
//! cargo test --release -p zoo-checkers --test it tables::positions -- --nocapture
//! ```
//!
//! prints each line (docs/checkers.md, "Endgame tables").

use super::build::{built, Built};
use super::probes::english_probes;
use std::time::Instant;
use zoo_checkers::tables::CheckersScheme;
use zoo_checkers::{English, Position, ENGLISH};
use zoo_core::{Game, Outcome, TableScheme};

/// The line the tables give from `fen`: every move the best by
/// `Tablebase::probe_moves` (the shortest win, else a draw, else the
/// longest loss), to the end of the game. Checks that each move keeps the
/// value (a win in `d` is followed by a loss in `d - 1`) and that the
/// game ends after exactly the distance the table gives.
fn line(b: &Built<English>, fen: &str) -> (Outcome, u16, Vec<String>) {
    let mut pos = Position::<English>::from_fen(fen, &&ENGLISH).expect("a FEN");
    let (outcome, distance) = b.tb.try_probe(&pos).expect("probed");
    let mut moves = Vec::new();
    let (mut o, mut d) = (outcome, distance);
    while pos.terminal().is_none() {
        let best = b.tb.probe_moves(&pos).expect("probed");
        let Some(&(m, child, cd)) = best.first() else {
            break;
        };
        assert_eq!((child, cd + 1), (o.flip(), d), "{fen}: after {moves:?}");
        moves.push(pos.move_text(m));
        pos.make(m);
        (o, d) = (child, cd);
    }
    assert_eq!(moves.len(), distance as usize, "{fen}: {moves:?}");
    assert_eq!(
        (o, d),
        (Outcome::Loss, 0),
        "{fen}: ends lost for the side to move"
    );
    (outcome, distance, moves)
}

/// Prints a line as numbered moves, Black's first when Black starts.
fn show(name: &str, fen: &str, (o, d, moves): &(Outcome, u16, Vec<String>)) {
    println!("{name}: {fen}: {o:?} in {d} plies");
    println!("  {}", moves.join(" "));
}

#[test]
fn first_position_is_won_with_the_move_and_its_line_ends_the_game() {
    // Lasker's diagram (two kings made): White's kings on 19 and 23 (f4,
    // e3), Black's king in its double corner on 28 (h2), its man on 12
    // (h6).
    let kings = line(english_probes(), "W:WK19,K23:B12,K28");
    assert_eq!(kings.0, Outcome::Win);
    show("First Position, kings made", "W:WK19,K23:B12,K28", &kings);
    // The ACF's setting: White's man on 20 still to crown.
    let man = line(english_probes(), "W:W20,K15:B12,K28");
    assert_eq!(man.0, Outcome::Win);
    show("First Position, man to crown", "W:W20,K15:B12,K28", &man);
}

#[test]
fn two_kings_against_one_longest_line() {
    let l = line(english_probes(), "W:WK3,K4:BK16");
    assert_eq!((l.0, l.1), (Outcome::Win, 33));
    show("Two kings against one", "W:WK3,K4:BK16", &l);
}

const LINES: &str = include_str!("../../data/table-lines.txt");

/// Every line of tests/data/table-lines.txt keeps the win all along.
#[test]
fn the_books_lines_keep_the_win() {
    let b = english_probes();
    let cases = zoo_testkit::cases::read(LINES, |s| Some(s.split_whitespace().collect::<Vec<_>>()))
        .expect("tests/data/table-lines.txt reads");
    assert_eq!(cases.len(), 2);
    for c in &cases {
        let mut pos = Position::<English>::from_fen(c.position, &&ENGLISH).expect("a FEN");
        assert_eq!(b.tb.try_probe(&pos).expect("probed").0, Outcome::Win);
        for (i, text) in c.expect.iter().enumerate() {
            let m = pos
                .parse_move_text(text)
                .unwrap_or_else(|e| panic!("line {}: move {}: {e}", c.line, i + 1));
            pos.make(m);
            let (o, _) = b.tb.try_probe(&pos).expect("probed");
            let want = if i % 2 == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            assert_eq!(o, want, "line {}: after {text} (ply {})", c.line, i + 1);
        }
        let (o, d) = b.tb.try_probe(&pos).expect("probed");
        println!(
            "line {}: after the book's {} plies, {}: {o:?} in {d} more",
            c.line,
            c.expect.len(),
            pos.to_fen()
        );
    }
}

/// Second Position (6 pieces): builds `KMMvKMM` and every table it leads
/// to (1,447,369,656 positions: all of them held in memory, about 1.5 GB,
/// and some 6 GB more while the largest is solved), then probes the
/// position as the Encyclopedia Americana sets it with each square of
/// White's king (the stored copy prints it as "&") and prints the line
/// from the one read as 8. Ignored: a measurement of half an hour or more.
///
/// ```text
/// cargo test --release -p zoo-checkers --test it -- --ignored --nocapture second_position
/// ```
#[test]
#[ignore = "builds 1.4 G positions of 6-piece tables: half an hour or more"]
fn second_position() {
    let scheme = CheckersScheme::<English>::new(&ENGLISH);
    let m = scheme.parse("KMMvKMM").expect("a material").material;
    let materials = CheckersScheme::<English>::needed(m);
    let start = Instant::now();
    let b = built::<English>(&ENGLISH, &materials, "second");
    println!(
        "{} tables built in {:.1} s",
        b.rows.len(),
        start.elapsed().as_secs_f64()
    );
    for pieces in 2..=6 {
        let s = b.size(pieces);
        println!(
            "{pieces} pieces: {} tables, {} positions, {:.1} s, longest win {}",
            s.tables,
            s.entries,
            s.time.as_secs_f64(),
            s.longest
                .map(|r| format!("{} {}", r.longest_win, r.name))
                .unwrap_or_default()
        );
    }
    for king in 1..=32u32 {
        if [3, 6, 1, 12, 13].contains(&king) {
            continue;
        }
        for side in ["B", "W"] {
            let fen = format!("{side}:W12,13,K{king}:B3,6,K1");
            let pos = Position::<English>::from_fen(&fen, &&ENGLISH).expect("a FEN");
            println!("{fen}: {:?}", b.tb.try_probe(&pos).expect("probed"));
        }
    }
    // As measured on 2026-11-26 (docs/checkers.md): won with the move,
    // drawn without it, as the books have it.
    let probe = |fen: &str| {
        let pos = Position::<English>::from_fen(fen, &&ENGLISH).expect("a FEN");
        b.tb.try_probe(&pos).expect("probed")
    };
    assert_eq!(probe("W:W12,13,K8:B3,6,K1"), (Outcome::Draw, 0));
    let fen = "B:W12,13,K8:B3,6,K1";
    assert_eq!(probe(fen), (Outcome::Win, 105));
    show("Second Position", fen, &line(&b, fen));
}
