//! What the CLI tests that read cases from data files share.
#![allow(dead_code)]

/// The words of a command line; double quotes group words.
pub fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (i, part) in line.split('"').enumerate() {
        if i % 2 == 1 {
            words.push(part.to_string());
        } else {
            words.extend(part.split_whitespace().map(str::to_string));
        }
    }
    words
}
