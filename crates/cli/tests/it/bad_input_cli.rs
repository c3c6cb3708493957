//! Input that is not text: `zoo uci` and `zoo play` answer a line that is
//! not UTF-8 and go on (docs/protocol.md: the engine never exits on bad
//! input).

use assert_cmd::Command;

fn zoo() -> Command {
    Command::cargo_bin("zoo").unwrap()
}

#[test]
fn protocol_answers_a_line_that_is_not_text_and_goes_on() {
    let out = zoo()
        .arg("uci")
        .write_stdin(&b"uci\n\xff\nisready\nposition startpos moves a3a4\xc3\nisready\n"[..])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(
        errors,
        vec![
            "info string error: the line is not UTF-8 text (byte 0xff at column 1)",
            "info string error: the line is not UTF-8 text (byte 0xc3 at column 29)",
        ],
        "{text}"
    );
    assert_eq!(text.matches("readyok").count(), 2, "{text}");
}

#[test]
fn play_answers_a_line_that_is_not_text_and_goes_on() {
    let out = zoo()
        .args(["play", "--game", "jungle", "--depth", "1"])
        .write_stdin(&b"\xfe\xff\nmoves\n"[..])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Not a move: the line is not UTF-8 text (byte 0xfe at column 1)."),
        "{text}"
    );
    // The next line is still read: the legal moves are listed.
    assert!(text.contains("Input closed"), "{text}");
    assert!(text.contains("Ea2 Eb3 Ea4"), "{text}");
}
