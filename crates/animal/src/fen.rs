//! FEN-like position strings: `<ranks top to bottom> <w|b> [ply]`, and the
//! `common` family's `<board> <w|b|r> <plies-without-capture> <move-number>`.

use crate::board::{bit, sq, Board, FILES, RAT};
use crate::notation::{kind_of_letter, piece_letter, square_name};
use crate::position::Position;
use crate::rules::RuleSet;
use zoo_core::{ParseError, Side};

impl<B: Board> Position<B> {
    /// Reads a position string (docs/rules/jungle.md §7.1) under `rules`;
    /// refuses impossible positions such as a piece in its own den.
    pub fn from_fen_str(input: &str, rules: &'static RuleSet) -> Result<Self, ParseError> {
        let mut pos = Position::<B>::empty(rules);
        let text = input.trim_start();
        let lead = input.len() - text.len();
        let fields: Vec<(usize, &str)> = text
            .split_whitespace()
            .map(|f| (lead + (f.as_ptr() as usize - text.as_ptr() as usize), f))
            .collect();
        let Some(&(col0, board)) = fields.first() else {
            return Err(ParseError::new(input, 0, "empty position string"));
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != B::RANKS as usize {
            return Err(ParseError::new(
                input,
                col0 + 1,
                format!(
                    "{} has {} ranks, the string gives {}",
                    B::GAME,
                    B::RANKS,
                    ranks.len()
                ),
            ));
        }
        let mut col = col0;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = B::RANKS - 1 - i as u8;
            let mut file = 0u8;
            for ch in rank_text.chars() {
                col += 1;
                // A letter outside ASCII is named as itself, not by its
                // first byte; it is the first such character of the string,
                // so the columns before it count characters.
                if !ch.is_ascii() {
                    return Err(ParseError::new(
                        input,
                        col,
                        format!("{ch:?} is not a piece of {}", B::GAME),
                    ));
                }
                let c = ch as u8;
                if c.is_ascii_digit() {
                    let n = c - b'0';
                    if n == 0 {
                        return Err(ParseError::new(
                            input,
                            col,
                            "0 is not a count of empty squares",
                        ));
                    }
                    file += n;
                } else {
                    let (side, kind) = kind_of_letter::<B>(c).ok_or_else(|| {
                        ParseError::new(
                            input,
                            col,
                            format!("{:?} is not a piece of {}", c as char, B::GAME),
                        )
                    })?;
                    if file >= FILES {
                        return Err(ParseError::new(
                            input,
                            col,
                            format!("rank {} has more than {} squares", rank + 1, FILES),
                        ));
                    }
                    let s = sq(file, rank);
                    if pos.square_of(side, kind).is_some() {
                        return Err(ParseError::new(
                            input,
                            col,
                            format!(
                                "{} has two pieces {}",
                                side.name(),
                                piece_letter::<B>(side, kind)
                            ),
                        ));
                    }
                    if s == B::DEN[side.index()] {
                        return Err(ParseError::new(
                            input,
                            col,
                            format!("{} stands in its own den {}", c as char, square_name(s)),
                        ));
                    }
                    if kind != RAT && B::WATER & bit(s) != 0 {
                        return Err(ParseError::new(
                            input,
                            col,
                            format!("only the rat may be in the water ({})", square_name(s)),
                        ));
                    }
                    pos.put(side, kind, s);
                    file += 1;
                }
                if file > FILES {
                    return Err(ParseError::new(
                        input,
                        col,
                        format!("rank {} has more than {} squares", rank + 1, FILES),
                    ));
                }
            }
            if file != FILES {
                return Err(ParseError::new(
                    input,
                    col,
                    format!("rank {} has {} squares, not {}", rank + 1, file, FILES),
                ));
            }
            col += 1; // the '/'
        }
        let side = match fields.get(1) {
            Some(&(_, "w" | "r" | "W" | "R")) => Side::White,
            Some(&(_, "b" | "B")) => Side::Black,
            Some(&(c, _)) => {
                return Err(ParseError::new(
                    input,
                    c + 1,
                    "side to move must be w, r or b",
                ))
            }
            None => {
                return Err(ParseError::new(
                    input,
                    input.len(),
                    "missing side to move (w or b)",
                ))
            }
        };
        pos.set_side_to_move(side);
        let number = |i: usize| -> Result<Option<u16>, ParseError> {
            match fields.get(i) {
                None => Ok(None),
                Some(&(c, f)) => f
                    .parse::<u16>()
                    .map(Some)
                    .map_err(|_| ParseError::new(input, c + 1, format!("{f:?} is not a count"))),
            }
        };
        match fields.len() {
            2 => {}
            3 => {
                let n = number(2)?.unwrap_or(0);
                pos.set_counters(0, n);
            }
            4 => {
                let clock = number(2)?.unwrap_or(0);
                let mv = number(3)?.unwrap_or(1).max(1);
                // The ply count is kept in 16 bits: a move number past it
                // is refused, not wrapped.
                let ply = (mv - 1)
                    .checked_mul(2)
                    .and_then(|p| p.checked_add((side == Side::Black) as u16))
                    .ok_or_else(|| {
                        ParseError::new(
                            input,
                            fields[3].0 + 1,
                            format!("move number {mv} is past the last one zoo counts (32768)"),
                        )
                    })?;
                pos.set_counters(clock, ply);
            }
            _ => {
                return Err(ParseError::new(
                    input,
                    fields[4].0 + 1,
                    "unexpected text after the position",
                ))
            }
        }
        pos.check_reachable()
            .map_err(|why| ParseError::new(input, 0, why))?;
        Ok(pos)
    }

    /// Refuses what no game can reach (docs/rules/jungle.md §7.4): the
    /// game ends when a den is entered, on the move that does it, so the
    /// side to move cannot stand in the opponent's den, and both dens
    /// entered is two ends at once. A side alone on the board is kept:
    /// studies of how pieces move set up such boards.
    pub fn check_reachable(&self) -> Result<(), String> {
        let us = self.stm;
        let them = us.flip();
        let in_den = |side: Side| self.occ[side.index()] & bit(B::DEN[side.flip().index()]) != 0u64;
        if in_den(us) && in_den(them) {
            return Err("both dens are entered: the game ended at the first".into());
        }
        if in_den(us) {
            return Err(format!(
                "{} stands in the opponent's den with {} to move: the game ended when it entered",
                us.name(),
                us.name()
            ));
        }
        Ok(())
    }

    /// The position string of docs/rules/jungle.md §7.1, with both counters.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for r in (0..B::RANKS).rev() {
            let mut empty = 0;
            for f in 0..FILES {
                match self.piece_at(sq(f, r)) {
                    None => empty += 1,
                    Some((side, kind)) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(piece_letter::<B>(side, kind));
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.stm == Side::White { " w" } else { " b" });
        if self.rules.no_capture_limit.is_some() {
            s.push_str(&format!(" {} {}", self.clock, self.ply / 2 + 1));
        } else if self.ply != 0 {
            s.push_str(&format!(" {}", self.ply));
        }
        s
    }
}
