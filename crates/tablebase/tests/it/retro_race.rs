//! The generator of any game with unmoves on a game that is not an animal
//! game (`Race`, in `race.rs`): its tables must equal the independent
//! forward solver's values.

use crate::race::*;
use std::collections::HashMap;
use zoo_core::{Outcome, Side, TableIndex};
use zoo_tb::retro;

#[test]
fn a_game_that_is_not_an_animal_game_gets_the_forward_solvers_tables() {
    let materials = materials();
    let truth = forward(&materials);
    let mut solved: HashMap<Material, (RaceIndex, retro::Solved)> = HashMap::new();
    let (mut draws, mut longest, mut positions) = (0, 0, 0);
    for m in &materials {
        let index = RaceIndex::new(m);
        let outside = |c: &Race| {
            let (index, s) = &solved[&material_of(&c.stones)];
            let e = index.rank(c).expect("a placement of its material") as usize;
            let code = s.values[side_index(c.stm)][e] as u16;
            Ok(match code {
                0 => (Outcome::Draw, 0),
                c if c % 2 == 0 => (Outcome::Win, c - 1),
                c => (Outcome::Loss, c - 1),
            })
        };
        let s = retro::solve(&index, &format!("{m:?}"), &outside).expect("solved");
        for side in 0..2 {
            for (x, &code) in s.values[side].iter().enumerate() {
                let p = index.position(x as u64, [Side::White, Side::Black][side]);
                let want = truth.get(&p).copied();
                let got = match code as u16 {
                    0 => None,
                    c if c % 2 == 0 => Some((Outcome::Win, c - 1)),
                    c => Some((Outcome::Loss, c - 1)),
                };
                assert_eq!(got, want, "{p:?}");
                draws += got.is_none() as u32;
                longest = longest.max(code);
                positions += 1;
            }
        }
        solved.insert(*m, (index, s));
    }
    // The comparison means something: draws, long wins, every material.
    assert!(
        draws > 0 && longest > 10,
        "{draws} draws, longest code {longest}"
    );
    eprintln!(
        "race: {positions} positions, {draws} draws, longest {} plies",
        longest - 1
    );
}
