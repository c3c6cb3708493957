//! A census enumeration goes on from its checkpoint: a run cut short
//! (its last line half written) gives the same rows; a damaged or foreign
//! checkpoint is refused with its name and line.

use std::sync::atomic::AtomicBool;
use zoo_app::census::{animal_census, CensusRequest, Method, Reading};
use zoo_app::{AppError, GameKind};

fn request(path: &std::path::Path, reach: Reading) -> CensusRequest {
    CensusRequest {
        game: GameKind::JungleCheckers,
        rules: None,
        pieces: (1, 3),
        reach,
        method: Some(Method::Enumerate),
        threads: 2,
        checkpoint: Some(path.to_path_buf()),
    }
}

#[test]
fn a_run_goes_on_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("zoo-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("census.jsonl");
    let _ = std::fs::remove_file(&path);
    let stop = AtomicBool::new(false);
    let whole = animal_census(&request(&path, Reading::Thesis), &|_, _| {}, &stop).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Header and one line per material of 1 to 3 pieces.
    assert_eq!(lines.len(), 1 + 8 + 28 + 56);

    // Cut after 40 materials, the 41st half written: the same rows.
    let cut = lines[..41].join("\n") + "\n" + &lines[41][..20];
    std::fs::write(&path, cut).unwrap();
    let again = animal_census(&request(&path, Reading::Thesis), &|_, _| {}, &stop).unwrap();
    assert_eq!(again.rows, whole.rows);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count(),
        lines.len()
    );

    // Another reading's census does not read this file.
    let err = animal_census(&request(&path, Reading::One), &|_, _| {}, &stop).unwrap_err();
    assert!(matches!(err, AppError::Input(_)), "{err}");
    assert!(
        err.to_string().contains("checkpoint of another census"),
        "{err}"
    );

    // A damaged line in the middle is named.
    let damaged = lines[..10].join("\n") + "\n{\"pieces\":3,\n" + &lines[11..].join("\n") + "\n";
    std::fs::write(&path, damaged).unwrap();
    let err = animal_census(&request(&path, Reading::Thesis), &|_, _| {}, &stop).unwrap_err();
    assert!(
        err.to_string().contains("line 11: not a counted material"),
        "{err}"
    );

    // One digit changed, a line moved or dropped: its checksum does not
    // match, and the file is named (a resumed census never gives other
    // totals).
    let digit = lines[20].replacen("\"reachable\":", "\"reachable\":1", 1);
    let moved = [&lines[..20], &lines[21..22], &lines[20..21], &lines[22..]].concat();
    let dropped = [&lines[..20], &lines[21..]].concat();
    for (what, text) in [
        (
            "digit",
            [&lines[..20], &[digit.as_str()][..], &lines[21..]].concat(),
        ),
        ("moved", moved),
        ("dropped", dropped),
    ] {
        std::fs::write(&path, text.join("\n") + "\n").unwrap();
        let err = animal_census(&request(&path, Reading::Thesis), &|_, _| {}, &stop).unwrap_err();
        let err = err.to_string();
        assert!(
            err.contains("line 21: its checksum does not match") && err.contains("census.jsonl"),
            "{what}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
