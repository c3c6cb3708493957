//! PDN move text as a tree: the main line, the variations in parentheses
//! (PDN's RAV: a variation follows the move it replaces and starts from
//! the position before it) and the comments in braces. `zoo_checkers`'
//! reader skips variations; this one keeps them. It reads a text that
//! reader has already accepted as one game (its tags, its unclosed
//! comments and brackets, its count of games), and adds what only a tree
//! needs: a variation after a move, not empty, not nested too deep, no
//! result inside one. Errors give the line and column, as that reader's
//! do; nothing here panics on any text.

use super::Ply;
use crate::AppError;
use zoo_checkers::pdn::RESULTS;

/// How deep variations may nest (a variation of a variation …): deeper
/// than any game record needs, and a bound on the recursion of the
/// readers, writers and checks of a tree.
pub(super) const MAX_NESTING: usize = 32;

fn error<T>(line: usize, column: usize, message: impl AsRef<str>) -> Result<T, AppError> {
    Err(AppError::Input(format!(
        "PDN line {line}, column {column}: {}",
        message.as_ref()
    )))
}

/// The text read character by character, with the place of the next one.
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
}

/// A line being read: its moves, where its `(` stood, and a comment met
/// before its first move (kept for that move: a [`Ply`] has one comment).
struct Frame {
    moves: Vec<Ply>,
    at: (usize, usize),
    before: Option<String>,
}

fn add_comment(to: &mut Option<String>, body: String) {
    match to {
        Some(old) => {
            old.push(' ');
            old.push_str(&body);
        }
        None => *to = Some(body),
    }
}

/// Characters of a move-text word, as `zoo_checkers`' reader has them.
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | 'x' | 'X' | ':' | '/' | '.' | '!' | '?' | '*')
}

/// `n-n`, `nxn`, `nxnxn…` (also `:`) with numbers of one or two digits.
fn is_move_syntax(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['-', 'x', 'X', ':']).collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The comment before the first move and the main line, with the
/// variations and comments, of the one game of `text`.
pub(super) fn read(text: &str) -> Result<(Option<String>, Vec<Ply>), AppError> {
    let mut r = Reader {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut stack = vec![Frame {
        moves: Vec::new(),
        at: (1, 1),
        before: None,
    }];
    let mut game_comment = None;
    let mut ended = false;
    loop {
        while r.peek().is_some_and(char::is_whitespace) {
            r.next();
        }
        let (line, column) = (r.line, r.column);
        let Some(c) = r.peek() else { break };
        match c {
            '[' => {
                // A tag (checked by the PDN reader): its value may hold
                // brackets and escaped quotes.
                let mut quoted = false;
                loop {
                    match r.next() {
                        None => return error(line, column, "unterminated tag '['"),
                        Some('\\') if quoted => {
                            r.next();
                        }
                        Some('"') => quoted = !quoted,
                        Some(']') if !quoted => break,
                        Some(_) => {}
                    }
                }
            }
            '{' => {
                r.next();
                let mut body = String::new();
                loop {
                    match r.next() {
                        None => return error(line, column, "unterminated comment '{'"),
                        Some('}') => break,
                        Some(ch) => body.push(ch),
                    }
                }
                let body = body.trim().to_string();
                if body.is_empty() {
                    continue;
                }
                let depth = stack.len();
                let f = stack.last_mut().expect("the main line is never popped");
                match f.moves.last_mut() {
                    Some(p) => add_comment(&mut p.comment, body),
                    None if depth == 1 => add_comment(&mut game_comment, body),
                    None => add_comment(&mut f.before, body),
                }
            }
            ';' => {
                while r.peek().is_some_and(|c| c != '\n') {
                    r.next();
                }
            }
            '(' => {
                r.next();
                if stack.len() > MAX_NESTING {
                    return error(
                        line,
                        column,
                        format!("variations nested more than {MAX_NESTING} deep"),
                    );
                }
                if stack.last().is_some_and(|f| f.moves.is_empty()) {
                    return error(
                        line,
                        column,
                        "a variation '(' must follow the move it replaces",
                    );
                }
                stack.push(Frame {
                    moves: Vec::new(),
                    at: (line, column),
                    before: None,
                });
            }
            ')' => {
                r.next();
                if stack.len() == 1 {
                    return error(line, column, "')' without a variation to close");
                }
                let f = stack.pop().expect("more than the main line");
                if f.moves.is_empty() {
                    return error(f.at.0, f.at.1, "an empty variation '()'");
                }
                let parent = stack.last_mut().expect("the main line is never popped");
                if let Some(p) = parent.moves.last_mut() {
                    p.variations.push(f.moves);
                }
            }
            '$' => {
                r.next();
                if !r.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return error(line, column, "expected digits after '$' (a NAG)");
                }
                while r.peek().is_some_and(|c| c.is_ascii_digit()) {
                    r.next();
                }
            }
            c if word_char(c) => {
                let mut word = String::new();
                while let Some(ch) = r.peek().filter(|&c| word_char(c)) {
                    word.push(ch);
                    r.next();
                }
                if word == "*" || RESULTS.contains(&word.as_str()) {
                    if let Some(open) = stack.get(1) {
                        return error(
                            line,
                            column,
                            format!(
                                "result {word} inside a variation (the '(' at line {}, column {} is not closed)",
                                open.at.0, open.at.1
                            ),
                        );
                    }
                    ended = true;
                    continue;
                }
                if ended {
                    return error(line, column, format!("{word:?} after the game's result"));
                }
                // A move number: digits then dots, perhaps glued to a move
                // (`1.`, `2...`, `3.11-15`). All characters are ASCII.
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
                    return error(
                        line,
                        mv_col,
                        format!("expected a move like 11-15 or 22x15, found {mv:?}"),
                    );
                }
                let f = stack.last_mut().expect("the main line is never popped");
                f.moves.push(Ply {
                    mv: body.to_string(),
                    comment: f.before.take(),
                    variations: Vec::new(),
                    at: Some((line, mv_col)),
                });
            }
            other => return error(line, column, format!("unexpected character {other:?}")),
        }
    }
    if let Some(open) = stack.last().filter(|_| stack.len() > 1) {
        return error(open.at.0, open.at.1, "unterminated variation '('");
    }
    let main = stack.pop().map(|f| f.moves).unwrap_or_default();
    Ok((game_comment, main))
}

/// A comment in braces: `}` would end it early, the one character a PDN
/// comment cannot hold; it is written `)`.
fn braced(c: &str) -> String {
    format!("{{{}}}", c.replace('}', ")"))
}

/// The tokens of `line`, whose first move is ply `first` of the game
/// (0: the first move): move numbers where PDN writes them (before the
/// first mover's moves, and `N...` before a reply that follows a comment
/// or a variation), each variation in brackets after the move it
/// replaces.
fn tokens(line: &[Ply], first: usize, out: &mut Vec<String>) {
    let mut numbered = false;
    for (k, p) in line.iter().enumerate() {
        let j = first + k;
        if j.is_multiple_of(2) {
            out.push(format!("{}.", j / 2 + 1));
        } else if k == 0 || !numbered {
            out.push(format!("{}...", j / 2 + 1));
        }
        out.push(p.mv.clone());
        numbered = true;
        if let Some(c) = &p.comment {
            out.push(braced(c));
            numbered = false;
        }
        for v in &p.variations {
            out.push("(".into());
            tokens(v, j, out);
            out.push(")".into());
            numbered = false;
        }
    }
}

/// One game as PDN: its tags, a blank line, the move text with the
/// comment before the first move, the variations and comments, wrapped at
/// 80 columns, and the result.
pub(super) fn write(
    tags: &[(&str, &str)],
    comment: Option<&str>,
    line: &[Ply],
    result: &str,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    if !tags.is_empty() {
        out.push('\n');
    }
    let mut words: Vec<String> = comment.map(braced).into_iter().collect();
    tokens(line, 0, &mut words);
    words.push(result.to_string());
    let mut width = 0;
    let mut prev = String::new();
    for t in words {
        // No space inside the brackets of a variation.
        let glued = prev == "(" || t == ")";
        let n = t.chars().count();
        if width > 0 && !glued && width + 1 + n > 80 {
            out.push('\n');
            width = 0;
        } else if width > 0 && !glued {
            out.push(' ');
            width += 1;
        }
        width += n;
        out.push_str(&t);
        prev = t;
    }
    out.push('\n');
    out
}
