//! PDN (Portable Draughts Notation) game files: tags, move text with move
//! numbers, comments, variations (skipped), NAGs and results. Reading never
//! panics; a malformed file is reported with the line and column where the
//! problem starts. Replaying a game against the rules is separate
//! ([`replay`]) so that files can be read without choosing a variant.

use crate::position::{Move, Position};
use crate::variant::{RuleSet, Variant};
use std::fmt;
use zoo_core::Game;

/// A malformed PDN file or an illegal move in it. `line` and `column` are
/// 1-based (column counted in characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PDN line {line}, column {column}: {message}")]
pub struct PdnError {
    /// 1-based line of the fault.
    pub line: usize,
    /// 1-based column of the fault, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// One move as written, with where it stood and the comment after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnMove {
    /// The move as written (`11-15`, `22x15`).
    pub text: String,
    /// The comment that follows the move, without its braces.
    pub comment: Option<String>,
    /// 1-based line where the move starts.
    pub line: usize,
    /// 1-based column where the move starts.
    pub column: usize,
}

/// One game: tags in file order, moves, the comment before the first move,
/// and the result token (`1-0`, `0-1`, `1/2-1/2`, `*`, …) when present.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PdnGame {
    /// The tag pairs `[Name "value"]`, in file order.
    pub tags: Vec<(String, String)>,
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The moves of the main line.
    pub moves: Vec<PdnMove>,
    /// The result token, when present.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.moves.is_empty()
            && self.result.is_none()
            && self.comment.is_none()
    }
}

/// Result tokens accepted in move text (PDN's default and international sets).
pub const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"];

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    fn err<T>(
        &self,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Result<T, PdnError> {
        Err(PdnError {
            line,
            column,
            message: message.into(),
        })
    }
    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace()) {
            self.next();
        }
    }
}

/// Characters that may appear in a move-text word (numbers, moves,
/// results, annotations).
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | 'x' | 'X' | ':' | '/' | '.' | '!' | '?' | '*')
}

/// Reads every game of a PDN file.
pub fn parse_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut r = Reader {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    // A tag after move text starts the next game even without a result.
    let mut in_moves = false;
    loop {
        r.skip_space();
        let (line, column) = (r.line, r.column);
        let Some(c) = r.peek() else { break };
        match c {
            '[' => {
                if in_moves || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                }
                r.next();
                r.skip_space();
                let mut name = String::new();
                while r
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    name.push(r.next().unwrap_or_default());
                }
                if name.is_empty() {
                    return r.err(r.line, r.column, "expected a tag name after '['");
                }
                r.skip_space();
                if r.peek() != Some('"') {
                    return r.err(
                        r.line,
                        r.column,
                        format!("expected '\"' to open the value of tag {name}"),
                    );
                }
                r.next();
                let mut value = String::new();
                loop {
                    match r.next() {
                        None => {
                            return r.err(line, column, format!("unterminated value of tag {name}"))
                        }
                        Some('"') => break,
                        Some('\\') => match r.next() {
                            Some(e @ ('"' | '\\')) => value.push(e),
                            Some(e) => {
                                value.push('\\');
                                value.push(e);
                            }
                            None => {
                                return r.err(
                                    line,
                                    column,
                                    format!("unterminated value of tag {name}"),
                                )
                            }
                        },
                        Some('\n') => {
                            return r.err(
                                line,
                                column,
                                format!("value of tag {name} runs past the end of the line"),
                            )
                        }
                        Some(ch) => value.push(ch),
                    }
                }
                r.skip_space();
                if r.peek() != Some(']') {
                    return r.err(
                        r.line,
                        r.column,
                        format!("expected ']' to close tag {name}"),
                    );
                }
                r.next();
                game.tags.push((name, value));
            }
            '{' => {
                r.next();
                let mut body = String::new();
                loop {
                    match r.next() {
                        None => return r.err(line, column, "unterminated comment '{'"),
                        Some('}') => break,
                        Some(ch) => body.push(ch),
                    }
                }
                let body = body.trim().to_string();
                match game.moves.last_mut() {
                    Some(m) => match &mut m.comment {
                        Some(old) => {
                            old.push(' ');
                            old.push_str(&body);
                        }
                        None => m.comment = Some(body),
                    },
                    None => game.comment = Some(body),
                }
            }
            ';' => {
                // Rest-of-line comment (PGN heritage): ignored.
                while r.peek().is_some_and(|c| c != '\n') {
                    r.next();
                }
            }
            '(' => {
                // Variations are skipped whole (nested ones included).
                let mut depth = 0usize;
                loop {
                    match r.next() {
                        None => return r.err(line, column, "unterminated variation '('"),
                        Some('(') => depth += 1,
                        Some(')') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Some('{') => loop {
                            match r.next() {
                                None => {
                                    return r.err(
                                        line,
                                        column,
                                        "unterminated comment inside a variation",
                                    )
                                }
                                Some('}') => break,
                                Some(_) => {}
                            }
                        },
                        Some(_) => {}
                    }
                }
            }
            ')' => return r.err(line, column, "')' without a variation to close"),
            '$' => {
                r.next();
                if !r.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return r.err(line, column, "expected digits after '$' (a NAG)");
                }
                while r.peek().is_some_and(|c| c.is_ascii_digit()) {
                    r.next();
                }
            }
            c if word_char(c) => {
                let mut word = String::new();
                while r.peek().is_some_and(word_char) {
                    word.push(r.next().unwrap_or_default());
                }
                if game.result.is_some() {
                    // Move text after a result begins a new game.
                    games.push(std::mem::take(&mut game));
                }
                if word == "*" || RESULTS.contains(&word.as_str()) {
                    game.result = Some(word);
                    in_moves = false;
                    continue;
                }
                in_moves = true;
                // A move number: digits then dots, possibly glued to a move.
                let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
                let rest = &word[digits..];
                let (mv, mv_col) = if digits > 0 && rest.starts_with('.') {
                    let after = rest.trim_start_matches('.');
                    (after, column + word.len() - after.len())
                } else {
                    (word.as_str(), column)
                };
                if mv.is_empty() {
                    continue;
                }
                let body = mv.trim_end_matches(['!', '?']);
                if !is_move_syntax(body) {
                    return r.err(
                        line,
                        mv_col,
                        format!("expected a move like 11-15 or 22x15, found {mv:?}"),
                    );
                }
                game.moves.push(PdnMove {
                    text: body.to_string(),
                    comment: None,
                    line,
                    column: mv_col,
                });
            }
            other => return r.err(line, column, format!("unexpected character {other:?}")),
        }
    }
    if !game.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// `n-n`, `nxn`, `nxnxn…` (also `:` for captures) with 1–2 digit numbers.
fn is_move_syntax(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['-', 'x', 'X', ':']).collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Escapes a tag value for writing.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes games as PDN: tags, a blank line, move text with move numbers
/// (wrapped at 80 columns), comments in braces, the result.
pub fn write_pdn(games: &[PdnGame]) -> String {
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (k, v) in &g.tags {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        if !g.tags.is_empty() {
            out.push('\n');
        }
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &g.comment {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
        for (j, m) in g.moves.iter().enumerate() {
            if j % 2 == 0 {
                tokens.push(format!("{}.", j / 2 + 1));
            }
            tokens.push(m.text.clone());
            if let Some(c) = &m.comment {
                // A '}' would end the comment early: the one character PDN
                // comments cannot hold.
                tokens.push(format!("{{{}}}", c.replace('}', ")")));
            }
        }
        tokens.push(g.result.clone().unwrap_or_else(|| "*".to_string()));
        let mut line_len = 0;
        for t in tokens {
            if line_len > 0 && line_len + 1 + t.chars().count() > 80 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += t.chars().count();
            out.push_str(&t);
        }
        out.push('\n');
    }
    out
}

/// Plays a game's moves from its `FEN` tag (or the start position) and
/// returns the final position with the moves made. An illegal or
/// ambiguous move is reported where it stands in the file.
pub fn replay<V: Variant>(
    game: &PdnGame,
    rules: &'static RuleSet,
) -> Result<(Position<V>, Vec<Move>), PdnError> {
    let mut pos = match game.tag("FEN") {
        Some(f) => Position::<V>::from_fen_str(f, rules).map_err(|e| PdnError {
            line: 0,
            column: 0,
            message: format!("bad FEN tag: {e}"),
        })?,
        None => Position::<V>::start_position(rules),
    };
    let mut moves = Vec::with_capacity(game.moves.len());
    for m in &game.moves {
        let mv = pos.parse_move(&m.text).map_err(|e| PdnError {
            line: m.line,
            column: m.column,
            message: format!("move {}: {}", m.text, e.message),
        })?;
        pos.make(mv);
        moves.push(mv);
    }
    Ok((pos, moves))
}

/// A game record of `moves` played from `start`, in full notation.
pub fn game_from_moves<V: Variant>(
    start: &Position<V>,
    moves: &[Move],
    tags: Vec<(String, String)>,
    result: Option<&str>,
) -> PdnGame {
    let mut tags = tags;
    let start_fen = start.fen();
    if start_fen != Position::<V>::start_position(start.rule_set()).fen()
        && !tags.iter().any(|(k, _)| k == "FEN")
    {
        tags.push(("FEN".into(), start_fen));
    }
    let mut pos = *start;
    let mut list = Vec::with_capacity(moves.len());
    for &m in moves {
        list.push(PdnMove {
            text: pos.move_text(m),
            comment: None,
            line: 0,
            column: 0,
        });
        pos.make_move(m);
    }
    PdnGame {
        tags,
        comment: None,
        moves: list,
        result: result.map(str::to_string),
    }
}

impl fmt::Display for PdnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_pdn(std::slice::from_ref(self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{English, CLASSICAL, ENGLISH};

    const SAMPLE: &str = r#"[Event "Test \"match\""]
[White "A"]
[Black "B"]
[Result "1-0"]

{opening comment} 1. 9-14 22-18 {a comment} 2. 11-15 18x11 3. 8x15 $1 (3. 7x16 24-20) 1-0

[Event "second"]
1.9-13 ; rest of line
21-17 *
"#;

    #[test]
    fn reads_tags_moves_comments_results() {
        let games = parse_pdn(SAMPLE).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Test \"match\""));
        assert_eq!(g.comment.as_deref(), Some("opening comment"));
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["9-14", "22-18", "11-15", "18x11", "8x15"]);
        assert_eq!(g.moves[1].comment.as_deref(), Some("a comment"));
        assert_eq!(g.result.as_deref(), Some("1-0"));
        assert_eq!((g.moves[0].line, g.moves[0].column), (6, 22));
        let h = &games[1];
        assert_eq!(h.moves.len(), 2);
        assert_eq!(h.moves[0].text, "9-13");
        assert_eq!(h.result.as_deref(), Some("*"));
        let (_, moves) = replay::<English>(g, &ENGLISH).unwrap();
        assert_eq!(moves.len(), 5);
    }

    #[test]
    fn round_trip_through_writer() {
        let games = parse_pdn(SAMPLE).unwrap();
        let again = parse_pdn(&write_pdn(&games)).unwrap();
        assert_eq!(games.len(), again.len());
        for (a, b) in games.iter().zip(&again) {
            assert_eq!(a.tags, b.tags);
            assert_eq!(a.comment, b.comment);
            assert_eq!(a.result, b.result);
            let ta: Vec<_> = a.moves.iter().map(|m| (&m.text, &m.comment)).collect();
            let tb: Vec<_> = b.moves.iter().map(|m| (&m.text, &m.comment)).collect();
            assert_eq!(ta, tb);
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_pdn("[Event \"x\"]\n1. 9-14 {never closed").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        let e = parse_pdn("1. 9-14 c3-d4").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        let e = parse_pdn("[Event x]").unwrap_err();
        assert_eq!((e.line, e.column), (1, 8));
        let e = parse_pdn("1. 9-14 )").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        let e = parse_pdn("1. 9-14 # 2").unwrap_err();
        assert!(e.to_string().contains("line 1, column 9"), "{e}");
        // Legal syntax, illegal move: replay names the move's place.
        let g = &parse_pdn("1. 9-14 22-18\n2. 9-13").unwrap()[0];
        let e = replay::<English>(g, &ENGLISH).unwrap_err();
        assert_eq!((e.line, e.column), (2, 4));
        let e =
            replay::<crate::Classical>(&parse_pdn("1. 9-14").unwrap()[0], &CLASSICAL).unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
    }
}
