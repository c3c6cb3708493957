//! Square numbers, move notation (`11-14`, `30x17x3`, short `30x3`),
//! PDN-style FEN (`W:W1,2,K14:B21,22`) and a drawing for terminals.

use crate::geometry::{bit, col, row, square_at, squares, NONE};
use crate::position::{Move, Position};
use crate::variant::{RuleSet, Variant};
use zoo_core::{MoveList, ParseError, Side};

impl<V: Variant> Position<V> {
    /// `11-14` for a quiet move, every landing square for a capture
    /// (`30x17x3`), in the variant's numbering.
    pub fn move_text(&self, m: Move) -> String {
        if m.captured == 0 {
            return format!("{}-{}", V::number(m.from), V::number(m.to));
        }
        let path = self.capture_path(m);
        path.iter()
            .map(|&s| V::number(s).to_string())
            .collect::<Vec<_>>()
            .join("x")
    }

    /// Parses `a-b`, `axb` or `axcx…xb` and returns the legal move it names.
    /// A capture written with fewer squares than it visits is accepted when
    /// only one legal move fits the squares given.
    pub fn parse_move_text(&self, s: &str) -> Result<Move, ParseError> {
        let t = s.trim();
        if t.is_empty() {
            return Err(ParseError::new(s, 0, "empty move"));
        }
        let capture = t.contains(['x', 'X', ':']);
        let mut nums = Vec::new();
        let mut col = 1;
        for part in t.split(['-', 'x', 'X', ':']) {
            let sq = part
                .parse::<u32>()
                .ok()
                .and_then(V::square)
                .ok_or_else(|| {
                    ParseError::new(
                        s,
                        col,
                        format!("expected a square number 1-32, found {part:?}"),
                    )
                })?;
            nums.push(sq);
            col += part.len() + 1;
        }
        if nums.len() < 2 {
            return Err(ParseError::new(s, 0, "a move names at least two squares"));
        }
        if t.contains('-') && capture {
            return Err(ParseError::new(s, 0, "mixes '-' and 'x'"));
        }
        let mut legal = MoveList::new();
        self.generate(&mut legal);
        let from = nums[0];
        let to = *nums.last().expect("two squares");
        if !capture && nums.len() == 2 {
            if let Some(&m) = legal
                .iter()
                .find(|m| m.captured == 0 && m.from == from && m.to == to)
            {
                return Ok(m);
            }
        }
        // Captures. A complete path names one move (between two landings
        // the board decides which piece is jumped), so an exact match wins
        // even when the same squares also appear, in order, inside a longer
        // path of another move (a king may land twice on one square).
        let sequences = self.capture_sequences();
        if let Some((m, _)) = sequences.iter().find(|(_, path)| *path == nums) {
            return Ok(*m);
        }
        // Otherwise the squares given must appear along the path in order.
        let mut fits: Vec<Move> = Vec::new();
        for (m, path) in sequences {
            if m.from == from && m.to == to && is_subsequence(&nums, &path) && !fits.contains(&m) {
                fits.push(m);
            }
        }
        match fits.len() {
            1 => Ok(fits[0]),
            0 => {
                let all: Vec<String> = legal.iter().map(|&m| self.move_text(m)).collect();
                Err(ParseError::new(
                    s,
                    0,
                    format!("not a legal move here; legal: {}", all.join(" ")),
                ))
            }
            _ => {
                let alts: Vec<String> = fits.iter().map(|&m| self.move_text(m)).collect();
                Err(ParseError::new(
                    s,
                    0,
                    format!(
                        "ambiguous capture; write every landing square: {}",
                        alts.join(" or ")
                    ),
                ))
            }
        }
    }

    /// PDN FEN: `W:W1,2,K14:B21,22` (side to move, then each side's squares,
    /// `K` before a king).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        out.push(if self.stm == Side::White { 'W' } else { 'B' });
        for side in [Side::White, Side::Black] {
            out.push(':');
            out.push(if side == Side::White { 'W' } else { 'B' });
            let mut list: Vec<(u8, bool)> = squares(self.pieces(side))
                .map(|s| (V::number(s), self.kings & bit(s) != 0))
                .collect();
            list.sort_unstable();
            let items: Vec<String> = list
                .iter()
                .map(|&(n, k)| if k { format!("K{n}") } else { n.to_string() })
                .collect();
            out.push_str(&items.join(","));
        }
        out
    }

    /// Reads PDN FEN. Accepts either order of the two piece lists, ranges
    /// (`1-12`, `K1-3`), spaces, lower case and a trailing `.`.
    pub fn from_fen_str(s: &str, rules: &'static RuleSet) -> Result<Self, ParseError> {
        let t = s.trim().trim_end_matches('.');
        let bad = |col: usize, msg: &str| ParseError::new(s, col, msg.to_string());
        let mut fields = t.split(':');
        let stm = match fields.next().map(|f| f.trim().to_ascii_uppercase()) {
            Some(f) if f == "W" => Side::White,
            Some(f) if f == "B" => Side::Black,
            _ => return Err(bad(1, "expected W or B (side to move) first")),
        };
        let mut sets = [0u32; 2];
        let mut kings = 0u32;
        let mut seen = [false; 2];
        let mut offset = t.find(':').map_or(t.len(), |i| i + 1);
        for field in fields {
            let col = offset + 1;
            offset += field.len() + 1;
            let f = field.trim();
            let side = match f.chars().next().map(|c| c.to_ascii_uppercase()) {
                Some('W') => Side::White,
                Some('B') => Side::Black,
                _ => return Err(bad(col, "expected a piece list starting with W or B")),
            };
            if seen[side.index()] {
                return Err(bad(col, "the same side's pieces are listed twice"));
            }
            seen[side.index()] = true;
            let list = &f[1..];
            if list.trim().is_empty() {
                continue;
            }
            for item in list.split(',') {
                let item = item.trim();
                let (king, body) = match item.strip_prefix(['K', 'k']) {
                    Some(b) => (true, b),
                    None => (false, item),
                };
                let (a, b) = match body.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (body, body),
                };
                let num = |x: &str| {
                    x.trim()
                        .parse::<u32>()
                        .ok()
                        .and_then(V::square)
                        .map(|q| V::number(q) as u32)
                };
                let (Some(lo), Some(hi)) = (num(a), num(b)) else {
                    return Err(bad(col, &format!("bad square {item:?} (squares are 1-32)")));
                };
                if lo > hi {
                    return Err(bad(col, &format!("empty range {item:?}")));
                }
                for n in lo..=hi {
                    let q = V::square(n).expect("checked range");
                    if (sets[0] | sets[1]) & bit(q) != 0 {
                        return Err(bad(col, &format!("square {n} is listed twice")));
                    }
                    sets[side.index()] |= bit(q);
                    if king {
                        kings |= bit(q);
                    }
                }
            }
        }
        if !seen[0] || !seen[1] {
            return Err(bad(0, "expected both piece lists, W… and B…"));
        }
        // The side that moved last cannot have lost its last piece: the
        // game ended when it did, with the other side to move
        // (docs/rules/checkers.md §5.3). The side to move without pieces is
        // a reachable end (it lost).
        let last = stm.flip();
        if sets[last.index()] == 0 {
            return Err(bad(
                0,
                &format!(
                    "{} has no piece but {} is to move: the game ended when {} lost its last piece",
                    last.name(),
                    stm.name(),
                    last.name()
                ),
            ));
        }
        Position::from_bitboards(rules, sets[0], sets[1], kings, stm).map_err(|e| bad(0, &e))
    }

    /// The board from `view`'s side, square numbers on the right.
    pub fn draw(&self, view: Side) -> String {
        // Internal rows grow away from the first mover; White sits at the
        // bottom of the drawing, so rank = row for White-first variants.
        let rank_of_row = |r: i32| if V::FIRST == Side::White { r } else { 7 - r };
        // Internal columns are files in both games: with English numbering
        // (Black's row 0 on rank 8, square 1 = b8) `col` is still the file.
        let file_of_col = |c: i32| c;
        // From Black's side the board is turned: ranks upwards, files from
        // the right.
        let (ranks, files): ([i32; 8], [i32; 8]) = match view {
            Side::White => ([7, 6, 5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5, 6, 7]),
            Side::Black => ([0, 1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1, 0]),
        };
        let mut out = String::new();
        for rank in ranks {
            out.push_str(&format!("{} ", rank + 1));
            let mut nums = Vec::new();
            for file in files {
                let r = rank_of_row(rank);
                let c = file_of_col(file);
                let s = square_at(r, c);
                let ch = if s == NONE {
                    ' '
                } else {
                    nums.push(V::number(s));
                    match self.piece_at(s) {
                        Some((Side::White, false)) => 'w',
                        Some((Side::White, true)) => 'W',
                        Some((Side::Black, false)) => 'b',
                        Some((Side::Black, true)) => 'B',
                        None => '.',
                    }
                };
                out.push(' ');
                out.push(ch);
            }
            let nums: Vec<String> = nums.iter().map(|n| format!("{n:>2}")).collect();
            out.push_str(&format!("    {}\n", nums.join(" ")));
        }
        out.push_str("  ");
        for file in files {
            out.push(' ');
            out.push((b'a' + file as u8) as char);
        }
        out.push('\n');
        out.push_str(&format!(
            "{} to move · w=White man W=White king b=Black man B=Black king\n",
            self.stm.name()
        ));
        out
    }

    /// Algebraic name (`h1`) of an internal square, as drawn.
    pub fn square_name(s: u8) -> String {
        let (r, c) = (row(s as usize), col(s as usize));
        let (rank, file) = if V::FIRST == Side::White {
            (r, c)
        } else {
            (7 - r, c)
        };
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }
}

/// Whether `want` appears in `path` in order, with the same first and last.
fn is_subsequence(want: &[u8], path: &[u8]) -> bool {
    if want.first() != path.first() || want.last() != path.last() {
        return false;
    }
    let mut i = 0;
    for &p in path {
        if i < want.len() && want[i] == p {
            i += 1;
        }
    }
    i == want.len()
}
