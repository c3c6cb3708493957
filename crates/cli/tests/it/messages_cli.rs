//! The messages of tests/data/messages.txt: each command's output holds
//! (or does not hold) the text the file gives.

use assert_cmd::Command;

use crate::common;
use common::words;

#[test]
fn messages_hold_what_the_data_file_says() {
    let data = include_str!("../data/messages.txt");
    let mut cases = 0;
    for block in data.split("\n\n") {
        let mut lines = block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        let Some(command) = lines.next() else {
            continue;
        };
        let args = words(
            command
                .strip_prefix("zoo ")
                .expect("a case starts with `zoo`"),
        );
        let out = Command::cargo_bin("zoo")
            .unwrap()
            .args(&args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        for check in lines {
            let (what, text) = check
                .split_once(": ")
                .expect("`<stream> [once|not]: <text>`");
            let (stream, how) = what.split_once(' ').unwrap_or((what, "has"));
            let output = match stream {
                "stdout" => &stdout,
                "stderr" => &stderr,
                other => panic!("unknown stream {other:?} in {check:?}"),
            };
            let n = output.matches(text).count();
            let ok = match how {
                "has" => n > 0,
                "once" => n == 1,
                "not" => n == 0,
                other => panic!("unknown check {other:?} in {check:?}"),
            };
            assert!(
                ok,
                "{command}: {stream} {how} {text:?} fails ({n} times)\n{stdout}{stderr}"
            );
        }
        cases += 1;
    }
    assert!(cases > 0, "no case read");
}
