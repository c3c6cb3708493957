//! Errors for user input: every malformed string names what is wrong and where.

use std::fmt;

/// A malformed position, move or rule name. `column` is 1-based within the
/// input string when the fault can be pinned to a place, 0 otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The text that failed to parse.
    pub input: String,
    /// 1-based column of the fault in `input`, or 0 when it has no one place.
    pub column: usize,
    /// What is wrong, in words for the user.
    pub message: String,
}

impl ParseError {
    /// An error about `input` at `column` (1-based; 0 for the whole input).
    pub fn new(input: &str, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            input: input.to_string(),
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(
                f,
                "{} (at column {} of {:?})",
                self.message, self.column, self.input
            )
        } else {
            write!(f, "{} (in {:?})", self.message, self.input)
        }
    }
}

impl std::error::Error for ParseError {}
