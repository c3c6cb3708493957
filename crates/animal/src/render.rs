//! A terminal drawing of a position: coordinates, water `~`, traps `#`,
//! dens `@`, empty land `.`; White's pieces upper case.

use crate::board::{bit, sq, Board, FILES};
use crate::notation::piece_letter;
use crate::position::Position;
use zoo_core::Side;

impl<B: Board> Position<B> {
    /// A drawing of the board for a terminal (see the module docs for the
    /// symbols), `view`'s side at the bottom.
    pub fn draw(&self, view: Side) -> String {
        let mut out = String::new();
        // From Black's side the board is turned: ranks upwards, files from
        // the right.
        let (ranks, files): (Vec<u8>, Vec<u8>) = match view {
            Side::White => ((0..B::RANKS).rev().collect(), (0..FILES).collect()),
            Side::Black => ((0..B::RANKS).collect(), (0..FILES).rev().collect()),
        };
        for &r in &ranks {
            out.push_str(&format!("{} ", r + 1));
            for &f in &files {
                let s = sq(f, r);
                let c = match self.piece_at(s) {
                    Some((side, kind)) => piece_letter::<B>(side, kind),
                    None if B::DEN.contains(&s) => '@',
                    None if (B::TRAPS[0] | B::TRAPS[1]) & bit(s) != 0 => '#',
                    None if B::WATER & bit(s) != 0 => '~',
                    None => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for &f in &files {
            out.push(' ');
            out.push((b'a' + f) as char);
        }
        out.push('\n');
        let names: Vec<String> = (0..B::KINDS)
            .map(|k| format!("{}={}", piece_letter::<B>(Side::White, k), B::NAMES[k]))
            .collect();
        out.push_str(&format!(
            "{} to move · {} · rules {} · {} (weakest first; Black lower case)\n",
            self.stm.name(),
            B::GAME,
            self.rules.name,
            names.join(" ")
        ));
        out
    }
}
