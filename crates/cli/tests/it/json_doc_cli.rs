//! docs/json.md says what each command's `--json` result holds: this runs
//! the cases of tests/data/json.txt and compares the keys of each result
//! (and of the objects inside it that the page spells out) with the keys
//! of the page's "Per command" row for that command, both ways: a key
//! printed but not documented, or documented but not printed, fails.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeSet;

use crate::common;
use common::words;

/// A documented object: its keys, each with the keys of the object it
/// holds where the page lists them (`rows[{pieces total}]`).
#[derive(Debug, Default, PartialEq)]
struct Shape(Vec<(String, Option<Shape>)>);

/// Parses `game rules rows[{pieces total}] machines{count}` (what the page
/// puts between backticks). `…` (as above) leaves an inner object
/// unchecked.
fn parse(text: &str) -> Shape {
    fn inner(chars: &[char], at: &mut usize) -> Shape {
        let mut keys = Vec::new();
        while *at < chars.len() {
            let c = chars[*at];
            if c == '}' {
                *at += 1;
                break;
            }
            if c.is_ascii_lowercase() || c == '_' {
                let start = *at;
                while *at < chars.len() && (chars[*at].is_ascii_alphanumeric() || chars[*at] == '_')
                {
                    *at += 1;
                }
                let name: String = chars[start..*at].iter().collect();
                let mut sub = None;
                // `[{…}]`, `{…}` or `[…]` after a name.
                if *at < chars.len() && chars[*at] == '[' {
                    *at += 1;
                }
                if *at < chars.len() && chars[*at] == '{' {
                    *at += 1;
                    sub = Some(inner(chars, at));
                }
                if *at < chars.len() && chars[*at] == '…' {
                    *at += 1;
                }
                if *at < chars.len() && chars[*at] == ']' {
                    *at += 1;
                }
                keys.push((name, sub));
            } else {
                *at += 1;
            }
        }
        Shape(keys)
    }
    let chars: Vec<char> = text.chars().collect();
    inner(&chars, &mut 0)
}

/// The result keys of one row of the page's table: the cell's first
/// backticked part (what follows explains them, and may name values).
fn documented(cell: &str) -> Shape {
    parse(cell.split('`').nth(1).unwrap_or(""))
}

/// The page's "Per command" rows: (command cell, result cell).
fn rows(page: &str) -> Vec<(String, String)> {
    let table = page
        .split("## Per command")
        .nth(1)
        .expect("docs/json.md has a \"Per command\" section");
    table
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            // `| command | progress lines | result keys |`
            let cells: Vec<&str> = l
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            (cells[0].to_string(), cells[cells.len() - 1].to_string())
        })
        .collect()
}

/// The row documenting `args`: the one whose command words (before the
/// first option) are the longest prefix of the case's, and whose options
/// outside brackets are all given; the more options, the better.
fn row_for<'a>(rows: &'a [(String, String)], args: &[String]) -> Option<&'a (String, String)> {
    let path: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .take_while(|a| !a.starts_with('-'))
        .collect();
    rows.iter()
        .filter_map(|r| {
            let cmd = r.0.split('`').nth(1)?;
            let plain: String = cmd
                .split('[')
                .map(|p| p.split(']').next_back().unwrap_or(""))
                .collect();
            let words: Vec<&str> = plain.split_whitespace().collect();
            let row_path: Vec<&str> = words
                .iter()
                .copied()
                .take_while(|w| !w.starts_with('-') && *w != "…")
                .collect();
            let flags: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| w.starts_with("--") && *w != "--json")
                .collect();
            // `--game a/b`: the case's --game is one of them (`N`, a
            // placeholder, stands for any value).
            let given = |f: &str| -> bool {
                let Some(i) = args.iter().position(|a| a == f) else {
                    return false;
                };
                let at = words
                    .iter()
                    .position(|w| *w == f)
                    .expect("a word of the row");
                match words.get(at + 1) {
                    Some(v) if v.chars().next().is_some_and(|c| c.is_ascii_lowercase()) => args
                        .get(i + 1)
                        .is_some_and(|a| v.split('/').any(|x| x == a)),
                    _ => true,
                }
            };
            let fits = path.starts_with(&row_path) && flags.iter().all(|f| given(f));
            fits.then_some((row_path.len(), flags.len(), r))
        })
        .max_by_key(|&(p, f, _)| (p, f))
        .map(|(_, _, r)| r)
}

/// How the printed `v` differs from the documented `shape`, at `at`.
fn compare(v: &Value, shape: &Shape, at: &str, out: &mut Vec<String>) {
    let v = match v {
        Value::Array(a) => match a.first() {
            Some(x) => x,
            None => return,
        },
        // A key without a value here (rule 4).
        Value::Null => return,
        v => v,
    };
    let Value::Object(m) = v else {
        out.push(format!("{at}: documented as an object, printed {v}"));
        return;
    };
    let printed: BTreeSet<&str> = m
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "type")
        .collect();
    let doc: BTreeSet<&str> = shape.0.iter().map(|(k, _)| k.as_str()).collect();
    for k in printed.difference(&doc) {
        out.push(format!("{at}: key {k:?} printed but not documented"));
    }
    for k in doc.difference(&printed) {
        out.push(format!("{at}: key {k:?} documented but not printed"));
    }
    for (k, sub) in &shape.0 {
        if let (Some(sub), Some(x)) = (sub, m.get(k)) {
            if !sub.0.is_empty() {
                compare(x, sub, &format!("{at}.{k}"), out);
            }
        }
    }
}

#[test]
fn the_page_lists_the_keys_each_command_prints() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/json.md"))
        .unwrap();
    let rows = rows(&page);
    let data = include_str!("../data/json.txt");
    let dir = std::env::temp_dir().join(format!("zoo-json-doc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    for block in data.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        let Some(command) = lines.first().and_then(|l| l.strip_prefix("zoo ")) else {
            continue;
        };
        let args = words(&command.replace("{dir}", dir.to_str().unwrap()));
        let stdin = lines
            .iter()
            .find_map(|l| l.strip_prefix("stdin:"))
            .map(|r| r.trim().replace("\\n", "\n"))
            .unwrap_or_default();
        let out = Command::cargo_bin("zoo")
            .unwrap()
            .args(&args)
            .write_stdin(stdin)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "zoo {command}: failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        if lines.iter().any(|l| l.trim() == "setup") {
            continue;
        }
        let Some((row, cell)) = row_for(&rows, &args) else {
            failures.push(format!(
                "zoo {command}: no row of docs/json.md documents it"
            ));
            continue;
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        let Some(result) = stdout
            .lines()
            .last()
            .and_then(|l| serde_json::from_str::<Value>(l).ok())
        else {
            failures.push(format!("zoo {command}: no JSON result"));
            continue;
        };
        compared += 1;
        let mut bad = Vec::new();
        compare(&result, &documented(cell), "result", &mut bad);
        for b in bad {
            failures.push(format!("zoo {command} (row {row}): {b}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared >= 10, "only {compared} results compared");
    assert!(
        failures.is_empty(),
        "docs/json.md against the output:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_comparison_catches_a_stale_page() {
    let shape =
        documented("`game rows[{pieces total}] total extra` (`extra`: `{\"a\":1}` or `null`)");
    assert_eq!(
        shape.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["game", "rows", "total", "extra"]
    );
    let printed: Value = serde_json::from_str(
        r#"{"type":"result","game":"x","rows":[{"pieces":1,"count":2}],"total":3,"extra":null,"new":1}"#,
    )
    .unwrap();
    let mut bad = Vec::new();
    compare(&printed, &shape, "result", &mut bad);
    bad.sort();
    assert_eq!(
        bad,
        [
            "result.rows: key \"count\" printed but not documented",
            "result.rows: key \"total\" documented but not printed",
            "result: key \"new\" printed but not documented",
        ]
    );
    let page = "## Per command\n\n| command | p | r |\n|---|---|---|\n| `tb advantage --pieces N --json` | | `a` |\n| `tb advantage --json` | | `b` |\n| `experiment … --json` | | `c` |\n| `census --game x/y --json` | | `d` |\n| `census --game z --json` | | `e` |\n";
    let rows = rows(page);
    let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert_eq!(
        row_for(&rows, &args("tb advantage --pieces 3 --json"))
            .unwrap()
            .1,
        "`a`"
    );
    assert_eq!(
        row_for(&rows, &args("tb advantage --material DEvd --json"))
            .unwrap()
            .1,
        "`b`"
    );
    assert_eq!(
        row_for(&rows, &args("experiment proving --json"))
            .unwrap()
            .1,
        "`c`"
    );
    assert!(row_for(&rows, &args("perft --json")).is_none());
    assert_eq!(
        row_for(&rows, &args("census --game y --json")).unwrap().1,
        "`d`"
    );
    assert_eq!(
        row_for(&rows, &args("census --game z --json")).unwrap().1,
        "`e`"
    );
    assert!(row_for(&rows, &args("census --game w --json")).is_none());
}
