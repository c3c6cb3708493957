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

/// Runs `zoo` with `args`, fails the test (showing its stderr) unless it
/// succeeded, and returns its output.
pub fn zoo_ok<I, S>(args: I) -> std::process::Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = assert_cmd::Command::cargo_bin("zoo")
        .expect("the zoo binary")
        .args(args)
        .output()
        .expect("zoo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
