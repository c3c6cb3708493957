//! Mutual zugzwangs of the tables: placements where the side to move
//! loses whichever side it is, both sides able to move. There a side
//! allowed to pass would win, so null-move pruning, which takes passing
//! as a bound below the best move, would cut the search wrongly
//! (docs/checkers.md, "Null move"). A measurement, ignored in CI; run it with
//!
//! ```text
//! ZOO_CHECKERS_TB_PIECES=4 cargo test --release -p zoo-checkers --test it -- --ignored --nocapture mutual_zugzwangs
//! ```

use super::build::{built, decode, pieces_or, up_to};
use zoo_checkers::tables::CheckersScheme;
use zoo_checkers::{Classical, English, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Game, Outcome, Side, TableIndex, TableScheme};

fn report<V: Variant>(rules: &'static RuleSet, max: u32) {
    let b = built::<V>(rules, &up_to::<V>(max), "zugzwang");
    let scheme = CheckersScheme::<V>::new(rules);
    println!("{} (rules {}):", V::GAME, rules.name);
    println!("pieces  placements  mutual-zugzwangs  longest (plies: white to move, black to move)");
    for pieces in 2..=max {
        let (mut placements, mut count) = (0u64, 0u64);
        // The placement whose shorter loss is the longest.
        let mut longest: Option<(u16, u16, String)> = None;
        for r in b.rows.iter().filter(|r| r.material.pieces() == pieces) {
            let table = b.tb.table(r.material).expect("table opens");
            let index = scheme.part_index(r.material);
            let n = index.size();
            placements += n;
            let mut codes = [vec![0u8; n as usize], vec![0u8; n as usize]];
            for (side, buf) in codes.iter_mut().enumerate() {
                table.read_codes(side, 0, buf).expect("codes read");
            }
            for (i, (&white, &black)) in codes[0].iter().zip(&codes[1]).enumerate() {
                let (w, dw) = decode(white);
                let (b, db) = decode(black);
                // A loss in 0 is a side without a move: not a zugzwang.
                if w == Outcome::Loss && b == Outcome::Loss && dw > 0 && db > 0 {
                    count += 1;
                    if longest.as_ref().is_none_or(|l| dw.min(db) > l.0.min(l.1)) {
                        let fen = index.position(i as u64, Side::White).to_fen();
                        longest = Some((dw, db, fen));
                    }
                }
            }
        }
        let shown = longest
            .map(|(dw, db, fen)| format!("{fen} ({dw}, {db})"))
            .unwrap_or_default();
        println!("{pieces:>6} {placements:>11} {count:>17}  {shown}");
    }
}

#[test]
#[ignore = "a measurement: docs/checkers.md, \"Null move\""]
fn mutual_zugzwangs() {
    report::<English>(&ENGLISH, pieces_or(4));
    report::<Classical>(&CLASSICAL, pieces_or(4));
}
