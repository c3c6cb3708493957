//! Lines of text from standard input that survive bytes which are not
//! UTF-8: `std::io::Lines` ends with an error at the first such byte, which
//! would end `zoo uci` and `zoo play` on one bad line, where they promise
//! to answer bad input and go on.

use std::io::BufRead;

/// A line of input that is not UTF-8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotText {
    /// The first byte that is not part of a UTF-8 character.
    pub byte: u8,
    /// Its position in the line, from 1.
    pub column: usize,
}

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the line is not UTF-8 text (byte 0x{:02x} at column {})",
            self.byte, self.column
        )
    }
}

impl std::error::Error for NotText {}

/// The lines of `input` without their line ends (`\n` or `\r\n`), each
/// as text or as the reason it is not text. Ends at end of input or at a
/// read error (the error is the last item).
pub fn text_lines<R: BufRead>(
    mut input: R,
) -> impl Iterator<Item = std::io::Result<Result<String, NotText>>> {
    std::iter::from_fn(move || {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                Some(Ok(String::from_utf8(buf).map_err(|e| {
                    let at = e.utf8_error().valid_up_to();
                    NotText {
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
                Err(NotText {
                    byte: 0xff,
                    column: 1
                }),
                Err(NotText {
                    byte: 0xc3,
                    column: 3
                }),
                Ok("isready".to_string()),
            ]
        );
    }
}
