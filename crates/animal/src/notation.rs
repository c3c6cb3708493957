//! Move notation: the short form (`Txe5`) and the coordinate form (`e2e3`).

use crate::board::{sq, Board, FILES};
use crate::position::{Move, Position};
use zoo_core::{MoveList, ParseError, Side};

pub use crate::board::square_name;

/// Parses a square like `e5` of board `B`, starting at byte `at` of `input`.
pub fn parse_square<B: Board>(input: &str, at: usize) -> Result<u8, ParseError> {
    let b = input.as_bytes();
    let (f, r) = (b.get(at).copied(), b.get(at + 1).copied());
    match (f, r) {
        (Some(f @ b'a'..=b'z'), Some(r @ b'1'..=b'9')) => {
            let (f, r) = (f - b'a', r - b'1');
            if f >= FILES || r >= B::RANKS {
                return Err(ParseError::new(
                    input,
                    at + 1,
                    format!("square off the {}×{} board", FILES, B::RANKS),
                ));
            }
            Ok(sq(f, r))
        }
        _ => Err(ParseError::new(
            input,
            at + 1,
            "expected a square such as e5",
        )),
    }
}

/// The letter of a piece: White's upper case, Black's lower case (docs/rules/jungle.md §2.1).
pub fn piece_letter<B: Board>(side: Side, kind: usize) -> char {
    let c = B::LETTERS[kind] as char;
    if side == Side::White {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// The side and kind of a piece letter of board `B`, if it is one.
pub fn kind_of_letter<B: Board>(c: u8) -> Option<(Side, usize)> {
    let side = if c.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    B::LETTERS
        .iter()
        .position(|&l| l == c.to_ascii_uppercase())
        .map(|k| (side, k))
}

impl<B: Board> Position<B> {
    /// `Txe5`: letter of the mover, `x` when capturing, destination.
    pub fn short_move(&self, mv: Move) -> String {
        let (side, kind) = self.piece_at(mv.from()).unwrap_or((self.stm, 0));
        let x = if self.piece_at(mv.to()).is_some() {
            "x"
        } else {
            ""
        };
        format!(
            "{}{}{}",
            piece_letter::<B>(side, kind),
            x,
            square_name(mv.to())
        )
    }

    /// `e2e3`: origin and destination (docs/rules/jungle.md §7.3).
    pub fn coord_move(&self, mv: Move) -> String {
        format!("{}{}", square_name(mv.from()), square_name(mv.to()))
    }

    /// Parses a move in short or coordinate form and checks it is legal.
    pub fn parse_move_str(&self, input: &str) -> Result<Move, ParseError> {
        let s = input.trim();
        let b = s.as_bytes();
        let mv = if b.len() == 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit() {
            Move::new(parse_square::<B>(s, 0)?, parse_square::<B>(s, 2)?)
        } else if (b.len() == 3 || b.len() == 4) && b[0].is_ascii_alphabetic() {
            let (_, kind) = kind_of_letter::<B>(b[0]).ok_or_else(|| {
                ParseError::new(
                    s,
                    1,
                    format!(
                        "unknown piece letter {:?}; {} uses {}",
                        b[0] as char,
                        B::GAME,
                        std::str::from_utf8(B::LETTERS).unwrap_or("")
                    ),
                )
            })?;
            let capture = b.len() == 4;
            if capture && b[1] != b'x' {
                return Err(ParseError::new(
                    s,
                    2,
                    "expected 'x' (capture) or a square after the piece letter",
                ));
            }
            let to = parse_square::<B>(s, if capture { 2 } else { 1 })?;
            let from = self.square_of(self.stm, kind).ok_or_else(|| {
                ParseError::new(
                    s,
                    1,
                    format!("{} has no {} on the board", self.stm.name(), B::NAMES[kind]),
                )
            })?;
            if capture && self.piece_at(to).is_none() {
                return Err(ParseError::new(
                    s,
                    2,
                    "marked as a capture, but the square is empty",
                ));
            }
            Move::new(from, to)
        } else {
            return Err(ParseError::new(s, 0, "expected a move like Txe5 or e2e3"));
        };
        let mut list = MoveList::new();
        self.generate(&mut list);
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new(
                s,
                0,
                format!(
                    "{} is not a legal move for {} here",
                    self.coord_move(mv),
                    self.stm.name()
                ),
            ))
        }
    }
}
