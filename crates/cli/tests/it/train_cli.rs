//! `zoo train` end to end on a small budget (a few thousand positions):
//! the loss falls, the log and the plot are written, the same seed over
//! the saved positions gives the same net byte for byte, the net plays
//! (`--eval nnue:FILE`), and a damaged net or another game's net or
//! positions are refused with a message; for the animal games and
//! English checkers.

use crate::common::{zoo_err, zoo_ok, TempDir};

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
}

/// Checkers nets are made the same way: English self-play, the tables'
/// values for the positions they hold, the net playing English and (its
/// inputs are the same) Classical, and nets and data of other games refused.
#[test]
fn an_english_checkers_net_trains_and_plays() {
    let dir = TempDir::new("train-english");
    let p = |name: &str| dir.0.join(name).to_str().unwrap().to_string();
    zoo_ok([
        "tb",
        "build",
        "--game",
        "english-checkers",
        "--pieces",
        "3",
        "--dir",
        &p("tb"),
    ]);
    let out = zoo_ok([
        "train",
        "--game",
        "english-checkers",
        "--games",
        "40",
        "--depth",
        "4",
        "--hidden",
        "16",
        "--epochs",
        "8",
        "--tb",
        &p("tb"),
        "--out",
        &p("net.nnue"),
        "--save-data",
        &p("pos.txt"),
        "--log",
        &p("loss.csv"),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("40 games"), "{text}");
    let csv = std::fs::read_to_string(p("loss.csv")).unwrap();
    let first_last: Vec<f64> = [csv.lines().nth(1), csv.lines().last()]
        .iter()
        .map(|l| l.unwrap().split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(first_last[1] < first_last[0], "loss did not fall: {csv}");
    assert!(std::fs::read_to_string(p("pos.txt"))
        .unwrap()
        .starts_with("# zoo train positions of english-checkers (english rules)"));
    let eval = format!("nnue:{}", p("net.nnue"));
    for game in ["english-checkers", "classical-checkers"] {
        let out = zoo_ok([
            "analyse", "--game", game, "--eval", &eval, "--depth", "6", "--json",
        ]);
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .contains("\"bestmove\""));
    }
    // Classical checkers comes with no net of its own: it says how to make one.
    let err = zoo_err(&[
        "analyse",
        "--game",
        "classical-checkers",
        "--eval",
        "nnue",
        "--depth",
        "2",
    ]);
    assert!(err.contains("zoo train"), "{err}");
    // A Jungle Checkers net is not a checkers net, and English positions
    // are not Classical ones.
    let jc = "crates/animal/nets/jungle-checkers.nnue";
    let jc = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(jc);
    let err = zoo_err(&[
        "analyse",
        "--game",
        "english-checkers",
        "--eval",
        &format!("nnue:{}", jc.display()),
        "--depth",
        "2",
    ]);
    assert!(err.contains("inputs"), "{err}");
    let err = zoo_err(&[
        "train",
        "--game",
        "classical-checkers",
        "--data",
        &p("pos.txt"),
        "--out",
        &p("x.nnue"),
    ]);
    assert!(err.contains("not of classical-checkers"), "{err}");
}
