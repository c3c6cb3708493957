//! Every command that reports in JSON keeps the one style of docs/json.md,
//! case by case from tests/data/json.txt: JSON lines, each an object with
//! a "type", exactly one "result" and it last, snake_case keys, no second
//! name for a thing that has one, and the keys each result promises.

use assert_cmd::Command;
use serde_json::Value;

use crate::common;
use common::words;

/// Every key of `v`, nested objects and arrays included, but not the
/// keys of `divide`, which are moves (data, not names).
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                if k != "divide" {
                    keys(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

fn snake(k: &str) -> bool {
    !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// What is wrong with one command's output, if anything.
fn check(stdout: &str, result_keys: &[&str], line_types: &[&str], never: &[&str]) -> Vec<String> {
    let mut bad = Vec::new();
    let lines: Vec<&str> = stdout.lines().collect();
    let mut types = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let v: Value = match serde_json::from_str(l) {
            Ok(v @ Value::Object(_)) => v,
            _ => {
                bad.push(format!("line {} is not a JSON object: {l}", i + 1));
                continue;
            }
        };
        let Some(t) = v["type"].as_str() else {
            bad.push(format!("line {} has no \"type\": {l}", i + 1));
            continue;
        };
        types.push(t.to_string());
        let mut ks = Vec::new();
        keys(&v, &mut ks);
        for k in ks {
            if !snake(&k) {
                bad.push(format!("key {k:?} is not snake_case"));
            }
            if never.contains(&k.as_str()) {
                bad.push(format!(
                    "key {k:?} is another name for a thing that has one"
                ));
            }
        }
        if t == "result" {
            for k in result_keys {
                if v.get(*k).is_none() {
                    bad.push(format!("the result has no {k:?}: {l}"));
                }
            }
        }
    }
    match types.iter().position(|t| t == "result") {
        Some(i) if i + 1 == types.len() => {}
        Some(_) => bad.push("a line follows the result".into()),
        None => bad.push("no result line".into()),
    }
    for t in line_types {
        if !types.iter().any(|x| x == t) {
            bad.push(format!("no progress line of type {t:?}"));
        }
    }
    bad
}

#[test]
fn every_command_keeps_the_json_style() {
    let data = include_str!("../data/json.txt");
    let dir = std::env::temp_dir().join(format!("zoo-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let never: Vec<&str> = data
        .lines()
        .find_map(|l| l.strip_prefix("never:"))
        .expect("a never: line")
        .split_whitespace()
        .collect();
    let mut failures = Vec::new();
    let mut cases = 0;
    for block in data.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect();
        let Some(command) = lines.first().and_then(|l| l.strip_prefix("zoo ")) else {
            continue;
        };
        let field = |name: &str| -> Vec<&str> {
            lines
                .iter()
                .find_map(|l| l.strip_prefix(name))
                .map(|r| r.split_whitespace().collect())
                .unwrap_or_default()
        };
        let args: Vec<String> = words(&command.replace("{dir}", dir.to_str().unwrap()));
        // What is typed, `\n` for a line end (`zoo play --json`).
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
        cases += 1;
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
        let stdout = String::from_utf8_lossy(&out.stdout);
        for b in check(&stdout, &field("result:"), &field("lines:"), &never) {
            failures.push(format!("zoo {command}: {b}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(cases >= 10, "only {cases} cases read");
    assert!(
        failures.is_empty(),
        "tests/data/json.txt:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_are_for() {
    let ok = "{\"type\":\"iteration\",\"nodes\":1}\n{\"type\":\"result\",\"nodes\":2}\n";
    assert!(check(ok, &["nodes"], &["iteration"], &[]).is_empty());
    let camel = "{\"type\":\"result\",\"bestMove\":1}\n";
    assert_eq!(check(camel, &[], &[], &["bestMove"]).len(), 2);
    let late = "{\"type\":\"result\"}\n{\"type\":\"game\"}\n";
    assert_eq!(check(late, &[], &[], &[]), ["a line follows the result"]);
    assert_eq!(
        check("{\"type\":\"result\"}\n", &["mate"], &[], &[]).len(),
        1
    );
    assert_eq!(check("nonsense\n", &[], &[], &[]).len(), 2);
}
