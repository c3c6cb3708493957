//! `zoo train` end to end on a small budget (a few thousand positions):
//! the loss falls, the log and the plot are written, the same seed over
//! the saved positions gives the same net byte for byte, the net plays
//! (`--eval nnue:FILE`), and a damaged net or a game without a learned
//! evaluation is refused with a message.

use crate::common::{zoo_ok, TempDir};

fn zoo_err(args: &[&str]) -> String {
    let out = assert_cmd::Command::cargo_bin("zoo")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_small_net_trains_reproduces_and_plays() {
    let dir = TempDir::new("train");
    let p = |name: &str| dir.0.join(name).to_str().unwrap().to_string();
    let common = [
        "train",
        "--game",
        "jungle-checkers",
        "--hidden",
        "16",
        "--epochs",
        "8",
        "--seed",
        "2",
    ];
    let out = zoo_ok(common.iter().copied().chain([
        "--games",
        "80",
        "--depth",
        "3",
        "--out",
        &p("net.nnue"),
        "--save-data",
        &p("pos.txt"),
        "--log",
        &p("loss.csv"),
        "--plot",
        &p("loss.svg"),
    ]));
    let text = String::from_utf8(out.stdout).unwrap();
    let positions: usize = text
        .split(" positions")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(positions >= 1500, "{text}");
    let csv = std::fs::read_to_string(p("loss.csv")).unwrap();
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 8);
    assert!(
        rows[7][1] < rows[0][1] * 0.9,
        "training loss did not fall: {csv}"
    );
    assert!(std::fs::read_to_string(p("loss.svg"))
        .unwrap()
        .contains("<svg"));
    // The saved positions and the seed give the same net.
    zoo_ok(
        common
            .iter()
            .copied()
            .chain(["--data", &p("pos.txt"), "--out", &p("again.nnue")]),
    );
    assert_eq!(
        std::fs::read(p("net.nnue")).unwrap(),
        std::fs::read(p("again.nnue")).unwrap()
    );
    // It plays.
    let eval = format!("nnue:{}", p("net.nnue"));
    let out = zoo_ok([
        "analyse",
        "--game",
        "jungle-checkers",
        "--eval",
        &eval,
        "--depth",
        "4",
        "--json",
    ]);
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("\"bestmove\""));
    // A damaged net is refused, named; a Jungle net is not a Jungle Checkers net.
    let mut bytes = std::fs::read(p("net.nnue")).unwrap();
    bytes[100] ^= 1;
    std::fs::write(p("bad.nnue"), &bytes).unwrap();
    let bad = format!("nnue:{}", p("bad.nnue"));
    let err = zoo_err(&[
        "analyse",
        "--game",
        "jungle-checkers",
        "--eval",
        &bad,
        "--depth",
        "2",
    ]);
    assert!(err.contains("bad.nnue") && err.contains("damaged"), "{err}");
    let err = zoo_err(&[
        "analyse", "--game", "jungle", "--eval", &eval, "--depth", "2",
    ]);
    assert!(err.contains("inputs"), "{err}");
    // Positions the tables hold are trained on their exact value.
    zoo_ok([
        "tb",
        "build",
        "--game",
        "jungle-checkers",
        "--pieces",
        "3",
        "--dir",
        &p("tb"),
    ]);
    std::fs::write(
        p("few.txt"),
        "7/3e3/7/7/7/3R3/2D4 b | 40 | 1 | 0\n7/7/d6/7/5T1/1D5/7 w | -3 | 0.5 | 1\n\
         1r3e1/2t1d2/7/7/7/2D1T2/1E3R1 w | 0 | 0.5 | 2\n",
    )
    .unwrap();
    let out = zoo_ok(common.iter().copied().chain([
        "--data",
        &p("few.txt"),
        "--tb",
        &p("tb"),
        "--out",
        &p("few.nnue"),
    ]));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("3 positions (0 held out, 2 valued by the tables)"),
        "{text}"
    );
    // Positions of another game or rules, or the net written over its own data, are
    // refused before any training.
    let err = zoo_err(&[
        "train",
        "--game",
        "jungle",
        "--data",
        &p("pos.txt"),
        "--out",
        &p("x.nnue"),
    ]);
    assert!(
        err.contains("are of jungle-checkers (leiden rules), not of jungle"),
        "{err}"
    );
    let err = zoo_err(&[
        "train",
        "--game",
        "jungle-checkers",
        "--data",
        &p("pos.txt"),
        "--out",
        &p("pos.txt"),
    ]);
    assert!(err.contains("pos.txt"), "{err}");
    let err = zoo_err(&[
        "train",
        "--game",
        "jungle-checkers",
        "--depth",
        "0",
        "--out",
        &p("x.nnue"),
    ]);
    assert!(err.contains("--depth"), "{err}");
    let err = zoo_err(&["train", "--game", "english-checkers", "--out", &p("x.nnue")]);
    assert!(err.contains("animal games"), "{err}");
}
