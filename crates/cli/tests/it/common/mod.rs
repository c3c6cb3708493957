//! What the CLI tests share: reading cases from data files, running
//! `zoo`, a directory of a test's own, a match's last JSON line.
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

/// Runs `zoo` with `args`, fails the test unless it refused them with
/// exit code 2, and returns its stderr.
pub fn zoo_err(args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("zoo")
        .expect("the zoo binary")
        .args(args)
        .output()
        .expect("zoo runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A directory of its own for each test, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("zoo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The stdout of a `zoo match --json` that must have succeeded (the test
/// fails showing both outputs otherwise) and its summary, the last line.
pub fn match_summary(out: &std::process::Output) -> (String, serde_json::Value) {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{:?}: {stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap();
    (stdout, summary)
}

/// Sends signal `name` (`INT`, `PIPE`, `9` …) to process `pid`, by
/// `kill`, as a user or a launcher would.
pub fn signal(pid: u32, name: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{name} {pid}");
}
