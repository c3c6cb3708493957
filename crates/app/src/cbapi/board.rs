//! The CheckerBoard API's board: `int board[8][8]` indexed `[x][y]`
//! (x the column, y the row from Black's side), pieces as bit sets of
//! `WHITE` 1, `BLACK` 2, `MAN` 4 and `KING` 8, empty squares 0 (or
//! `FREE` 16 on some hosts). Black's men start on squares 1–12 and Black
//! moves first, as in zoo's English checkers; square `n` of the standard
//! numbering lies at row `(n − 1) / 4` and, counting from square 1's
//! column 6, two columns further left for each square along the row
//! (one column to the right on odd rows).
//!
//! ```
//! use zoo_app::cbapi::board::{from_fen, square_xy, to_fen, BLACK, MAN};
//! let (board, color) = from_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")?;
//! assert_eq!(color, BLACK);
//! let (x, y) = square_xy(1);
//! assert_eq!(board[x][y], BLACK | MAN);
//! assert_eq!(to_fen(&board, color)?, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
//! # Ok::<(), zoo_app::AppError>(())
//! ```

use crate::AppError;

/// White's pieces.
pub const WHITE: i32 = 1;
/// Black's pieces (Black moves first).
pub const BLACK: i32 = 2;
/// A man.
pub const MAN: i32 = 4;
/// A king.
pub const KING: i32 = 8;
/// An empty square as some hosts mark it (others write 0).
pub const FREE: i32 = 16;

/// The board as the API passes it.
pub type CbBoard = [[i32; 8]; 8];

/// Where square `n` (1–32) lies: `(x, y)`.
pub fn square_xy(n: usize) -> (usize, usize) {
    let y = (n - 1) / 4;
    let k = (n - 1) % 4;
    let x = if y.is_multiple_of(2) {
        6 - 2 * k
    } else {
        7 - 2 * k
    };
    (x, y)
}

/// The square at `(x, y)`, if it is one of the 32.
pub fn xy_square(x: i32, y: i32) -> Option<usize> {
    (1..=32).find(|&n| square_xy(n) == (x as usize, y as usize))
}

/// The squares of a move in zoo's coordinates (`11-15`, `15x22x31`), in
/// order, and the squares it captures on (an English capture jumps the
/// square between two landings).
pub fn move_squares(coord: &str) -> (Vec<usize>, Vec<usize>) {
    let squares: Vec<usize> = coord
        .split(['-', 'x'])
        .filter_map(|s| s.parse().ok())
        .filter(|n| (1..=32).contains(n))
        .collect();
    let taken = if coord.contains('x') {
        squares
            .windows(2)
            .filter_map(|w| {
                let ((ax, ay), (bx, by)) = (square_xy(w[0]), square_xy(w[1]));
                xy_square(((ax + bx) / 2) as i32, ((ay + by) / 2) as i32)
            })
            .collect()
    } else {
        Vec::new()
    };
    (squares, taken)
}

/// The board and the colour to move of an English checkers position
/// string (`B:W21,K22:B1,2`).
pub fn from_fen(fen: &str) -> Result<(CbBoard, i32), AppError> {
    let bad = |why: &str| AppError::Input(format!("position {fen:?}: {why}"));
    let mut fields = fen.trim().split(':');
    let color = match fields.next() {
        Some("B") => BLACK,
        Some("W") => WHITE,
        _ => return Err(bad("expected `B:` or `W:` first")),
    };
    let mut board = [[0; 8]; 8];
    for field in fields {
        let (side, list) = match field.split_at_checked(1) {
            Some(("W", rest)) => (WHITE, rest),
            Some(("B", rest)) => (BLACK, rest),
            _ => return Err(bad("expected a `W` or `B` list")),
        };
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (kind, number) = match item.strip_prefix(['K', 'k']) {
                Some(n) => (KING, n),
                None => (MAN, item),
            };
            let n: usize = number
                .parse()
                .ok()
                .filter(|n| (1..=32).contains(n))
                .ok_or_else(|| bad(&format!("{item:?} is no square")))?;
            let (x, y) = square_xy(n);
            board[x][y] = side | kind;
        }
    }
    Ok((board, color))
}

/// The position string of `board` with `color` to move; a square holding
/// anything but nothing, a man or a king of one side is refused.
pub fn to_fen(board: &CbBoard, color: i32) -> Result<String, AppError> {
    let side = match color {
        BLACK => "B",
        WHITE => "W",
        c => {
            return Err(AppError::Input(format!(
                "colour {c} is neither WHITE (1) nor BLACK (2)"
            )))
        }
    };
    let mut lists = [Vec::new(), Vec::new()];
    for n in 1..=32 {
        let (x, y) = square_xy(n);
        let v = board[x][y];
        let (who, king) = match v {
            0 | FREE => continue,
            v if v == WHITE | MAN => (0, false),
            v if v == WHITE | KING => (0, true),
            v if v == BLACK | MAN => (1, false),
            v if v == BLACK | KING => (1, true),
            v => {
                return Err(AppError::Input(format!(
                    "square {n} holds {v}, no piece of the CheckerBoard API"
                )))
            }
        };
        lists[who].push(if king { format!("K{n}") } else { n.to_string() });
    }
    Ok(format!(
        "{side}:W{}:B{}",
        lists[0].join(","),
        lists[1].join(",")
    ))
}

/// Whether two boards hold the same pieces on the 32 playing squares (0
/// and `FREE` both empty; what an engine writes on the light squares is
/// no piece).
pub fn same_pieces(a: &CbBoard, b: &CbBoard) -> bool {
    let norm = |v: i32| if v == FREE { 0 } else { v };
    (1..=32).all(|n| {
        let (x, y) = square_xy(n);
        norm(a[x][y]) == norm(b[x][y])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_lie_where_the_api_puts_them() {
        // cliche's diagram of the English board (cliche.c, "checker board setup").
        assert_eq!(square_xy(1), (6, 0));
        assert_eq!(square_xy(4), (0, 0));
        assert_eq!(square_xy(5), (7, 1));
        assert_eq!(square_xy(29), (7, 7));
        assert_eq!(square_xy(32), (1, 7));
        let mut seen = std::collections::HashSet::new();
        for n in 1..=32 {
            let (x, y) = square_xy(n);
            // Dark squares only: x + y even.
            assert_eq!((x + y) % 2, 0, "{n}");
            assert!(seen.insert((x, y)));
        }
    }

    #[test]
    fn moves_name_their_squares_and_captures() {
        assert_eq!(move_squares("11-15"), (vec![11, 15], vec![]));
        // 15x22 jumps 18; 22x31 jumps 26 (cliche's diagram).
        assert_eq!(move_squares("15x22x31"), (vec![15, 22, 31], vec![18, 26]));
        assert_eq!(xy_square(6, 0), Some(1));
        assert_eq!(xy_square(1, 0), None);
    }

    #[test]
    fn positions_round_trip_and_bad_boards_are_refused() {
        for fen in ["W:WK3,18,32:B1,12,K29", "B:W:B5", "W:W7:B"] {
            let (b, c) = from_fen(fen).unwrap();
            assert_eq!(to_fen(&b, c).unwrap(), fen);
        }
        let (mut b, _) = from_fen("B:W21:B1").unwrap();
        b[6][0] = WHITE | BLACK | MAN;
        assert!(to_fen(&b, BLACK)
            .unwrap_err()
            .to_string()
            .contains("square 1 holds 7"));
        assert!(to_fen(&b, 3).is_err());
        assert!(from_fen("B:W33:B1").is_err());
        assert!(from_fen("X:W3").is_err());
    }
}
