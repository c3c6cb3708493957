//! The check itself: a figure changed by hand on a copy of a page, or a
//! command that computes another value, fails naming the page and the
//! figure; the unchanged page passes.

use super::*;
use std::path::PathBuf;

fn repo() -> PathBuf {
    crate::root()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xtask-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The README's figures, and one of them (its perft(7) count) with its
/// page copied into a scratch directory.
fn readme_copy(name: &str) -> (PathBuf, Vec<Check>, Check) {
    let checks: Vec<Check> = load(&repo())
        .unwrap()
        .into_iter()
        .filter(|c| c.page == "README.md")
        .collect();
    let perft = checks
        .iter()
        .find(|c| {
            c.command.starts_with("zoo perft --game jungle --depth 7") && c.place_is("/nodes")
        })
        .expect("docs/checks.toml checks the README's perft(7) count")
        .clone();
    let dir = scratch(name);
    std::fs::copy(repo().join("README.md"), dir.join("README.md")).unwrap();
    (dir, checks, perft)
}

impl Check {
    fn place_is(&self, pointer: &str) -> bool {
        matches!(&self.place, checks::Place::Pointer(p) if p == pointer)
    }
}

#[test]
fn every_documented_figure_is_on_its_page() {
    let checks = load(&repo()).unwrap();
    assert!(
        checks.len() > 20,
        "docs/checks.toml lists {} figures",
        checks.len()
    );
    assert_eq!(
        page_failures(&repo(), &checks).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn a_figure_changed_by_hand_fails_naming_page_and_figure() {
    let (dir, checks, perft) = readme_copy("changed");
    assert_eq!(
        page_failures(&dir, &checks).unwrap(),
        Vec::<String>::new(),
        "the unchanged copy"
    );

    let page = dir.join("README.md");
    let text = std::fs::read_to_string(&page).unwrap();
    let changed = perft.figure.replacen('1', "2", 1);
    std::fs::write(&page, text.replace(&perft.figure, &changed)).unwrap();
    let failures = page_failures(&dir, &checks).unwrap();
    assert!(!failures.is_empty());
    assert!(
        failures
            .iter()
            .all(|f| f.starts_with("README.md: ") && f.contains(&perft.figure)),
        "{failures:?}"
    );
    let err = check_pages(&dir, &checks).unwrap_err().to_string();
    assert!(
        err.contains("README.md") && err.contains(&perft.figure),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_command_giving_another_value_fails_naming_page_and_figure() {
    let (dir, _, perft) = readme_copy("value");
    let digits = perft.figure.replace(',', "");
    let same = format!("{{\"type\":\"result\",\"nodes\":{digits}}}\n");
    assert_eq!(value_failure(&perft, &same), None);

    let other = format!(
        "{{\"type\":\"result\",\"nodes\":{}}}\n",
        digits.parse::<u64>().unwrap() + 1
    );
    let failure = value_failure(&perft, &other).expect("another value fails");
    assert!(
        failure.starts_with("README.md: ") && failure.contains(&perft.figure),
        "{failure}"
    );

    let failure = value_failure(&perft, "not json\n").expect("unreadable output fails");
    assert!(failure.contains(&perft.figure), "{failure}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_file_format_is_checked() {
    let text = "[[check]]\npage = \"README.md\"\ncommand = \"zoo x\"\nfigures = [{ figure = \"12\", text = \"13 apples\" }]\n";
    let err = format!("{:#}", checks::parse(text).unwrap_err());
    assert!(err.contains("does not contain its figure"), "{err}");
    let text = "[[check]]\npage = \"README.md\"\ncommand = \"zoo x\"\nfigure = \"12\"\nformat = \"roman\"\n";
    assert!(checks::parse(text).is_err());
    let text =
        "[[check]]\npage = \"README.md\"\ncommand = \"zoo x\"\nfigure = \"1 2\"\nline = \"1\"\n";
    let c = checks::parse(text).unwrap();
    assert_eq!(c[0].value("x\n1 2   \n").unwrap(), "1 2");
    let text = "[[check]]\npage = \"README.md\"\ncommand = \"zoo x\"\nformat = \"commas\"\nfigures = [{ figure = \"1,000\", line = \"total\", word = 2 }]\n";
    let c = checks::parse(text).unwrap();
    assert_eq!(c[0].value(" 1  5\n total  1000  7\n").unwrap(), "1,000");
    let text = "[[check]]\npage = \"README.md\"\ncommand = \"zoo x\"\nfigures = [{ figure = \"2\", count = \"null\" }]\n";
    let c = checks::parse(text).unwrap();
    assert_eq!(
        c[0].value("{\"a\":null}\n{\"a\":1}\n{\"a\":null}\n")
            .unwrap(),
        "2"
    );
}

#[test]
fn checks_that_share_a_setup_or_a_scratch_folder_run_in_one_group() {
    let mk = |command: &str, setup: &[&str]| {
        let mut c = load(&repo()).unwrap().remove(0);
        c.command = command.to_string();
        c.setup = setup.iter().map(|s| s.to_string()).collect();
        c
    };
    let checks = [
        mk("zoo perft --game jungle --depth 3", &[]),
        mk(
            "zoo tb stats --dir {tmp}/jc",
            &["zoo tb build --dir {tmp}/jc"],
        ),
        mk(
            "zoo tb stats --dir {tmp}/j",
            &["zoo tb build --dir {tmp}/j"],
        ),
        mk("zoo tb probe --dir {tmp}/jc/tables", &[]),
        mk(
            "zoo tb stats --dir {tmp}/j --pieces 2",
            &["zoo tb build --dir {tmp}/j"],
        ),
    ];
    let refs: Vec<&Check> = checks.iter().collect();
    assert_eq!(groups(&refs), vec![vec![0], vec![1, 3], vec![2, 4]]);
}
