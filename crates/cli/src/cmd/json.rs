//! The one JSON style of every `--json` (docs/json.md): JSON lines on
//! standard output, each object with a `"type"`: progress lines first
//! (`"iteration"`, `"game"`, `"measure"`, `"table"` …), then exactly one
//! final object of type `"result"`. Keys are snake_case and name the same
//! thing the same way in every command; a key that has no value here is
//! `null`, not missing; counts are JSON numbers, however large.

use anyhow::Result;
use serde::Serialize;
use std::io::Write;

/// `body` (an object) with `"type": kind` first, as one line.
#[derive(Serialize)]
struct Typed<'a, T: Serialize> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// Prints `body` as one JSON line of type `kind` (a progress line). A
/// closed standard output is an error here, not a panic as in `println!`,
/// so a long job whose reader went away can go on or stop cleanly.
pub fn line<T: Serialize>(kind: &str, body: &T) -> Result<()> {
    // Written by serde_json directly, not through `serde_json::Value`, so
    // that integers beyond 64 bits (the census) stay numbers.
    let text = serde_json::to_string(&Typed { kind, body })?;
    writeln!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}

/// Prints the final object of a command.
pub fn result<T: Serialize>(body: &T) -> Result<()> {
    line("result", body)
}

/// The final object of a command as its line (with the newline), for a
/// report shown on one process and printed by another (a batch over MPI).
pub fn result_line<T: Serialize>(body: &T) -> Result<String> {
    Ok(serde_json::to_string(&Typed {
        kind: "result",
        body,
    })? + "\n")
}

#[cfg(test)]
mod tests {
    use super::Typed;

    #[test]
    fn the_type_comes_first_and_big_counts_stay_numbers() {
        #[derive(serde::Serialize)]
        struct Count {
            total: u128,
            mate: Option<i32>,
        }
        let body = Count {
            total: 500_995_484_682_338_672_639,
            mate: None,
        };
        let text = serde_json::to_string(&Typed {
            kind: "result",
            body: &body,
        })
        .unwrap();
        assert_eq!(
            text,
            r#"{"type":"result","total":500995484682338672639,"mate":null}"#
        );
    }
}
