//! Lines of text from standard input that survive bytes which are not
//! UTF-8: `std::io::Lines` ends with an error at the first such byte, which
//! would end `zoo uci` and `zoo play` on one bad line, where they promise
//! to answer bad input and go on.

use std::io::{BufRead, Read};

/// The longest line read: a protocol command or a move is far shorter, and
/// a longer line is skipped (not held in memory) and answered as an error.
pub const LINE_LIMIT: usize = 64 * 1024;

/// A line of input that is not UTF-8 text, or is too long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotText {
    /// A byte that is not part of a UTF-8 character.
    Byte {
        /// The first such byte.
        byte: u8,
        /// Its position in the line, from 1.
        column: usize,
    },
    /// A line longer than [`LINE_LIMIT`] bytes, skipped.
    TooLong,
}

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotText::Byte { byte, column } => write!(
                f,
                "the line is not UTF-8 text (byte 0x{byte:02x} at column {column})"
            ),
            NotText::TooLong => write!(
                f,
                "the line is longer than {LINE_LIMIT} bytes, the most read; it was skipped"
            ),
        }
    }
}

impl std::error::Error for NotText {}

/// Reads past the rest of a line without keeping it; false at end of input.
fn skip_line<R: BufRead>(input: &mut R) -> std::io::Result<bool> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(true);
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// The lines of `input` without their line ends (`\n` or `\r\n`), each
/// as text or as the reason it is not text (at most [`LINE_LIMIT`] bytes
/// of a line are held). Ends at end of input or at a read error (the
/// error is the last item).
pub fn text_lines<R: BufRead>(
    mut input: R,
) -> impl Iterator<Item = std::io::Result<Result<String, NotText>>> {
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match (&mut input)
            .take(LINE_LIMIT as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) => None,
            Ok(_) if buf.len() > LINE_LIMIT && buf.last() != Some(&b'\n') => {
                Some(skip_line(&mut input).map(|_| Err(NotText::TooLong)))
            }
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                Some(Ok(String::from_utf8(buf).map_err(|e| {
                    let at = e.utf8_error().valid_up_to();
                    NotText::Byte {
                        byte: e.as_bytes()[at],
                        column: at + 1,
                    }
                })))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_spoil_only_their_line() {
        let input: &[u8] = b"uci\r\n\xff\nab\xc3\nisready";
        let lines: Vec<_> = text_lines(input).map(|l| l.unwrap()).collect();
        assert_eq!(
            lines,
            vec![
                Ok("uci".to_string()),
                Err(NotText::Byte {
                    byte: 0xff,
                    column: 1
                }),
                Err(NotText::Byte {
                    byte: 0xc3,
                    column: 3
                }),
                Ok("isready".to_string()),
            ]
        );
    }

    #[test]
    fn an_over_long_line_is_skipped_not_held() {
        let mut input = b"uci\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * LINE_LIMIT));
        input.extend(b"\nisready\n");
        let lines: Vec<_> = text_lines(&input[..]).map(|l| l.unwrap()).collect();
        assert_eq!(
            lines,
            vec![
                Ok("uci".to_string()),
                Err(NotText::TooLong),
                Ok("isready".to_string())
            ]
        );
    }
}
