//! The learner on textbook data sets: the trees of the cases in
//! `tests/data/cases.txt`, and the laws every tree keeps.

use std::path::PathBuf;
use zoo_learn::{added_errors, Dataset, Feature, GrowOptions, LearnError, Schema, Tree};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn load(name: &str) -> Dataset {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
    Dataset::parse(&text).unwrap()
}

#[test]
fn the_textbook_trees_come_out() {
    let cases = std::fs::read_to_string(data_dir().join("cases.txt")).unwrap();
    let mut n = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let data = load(f[0]);
        let grown = Tree::grow(
            &data,
            GrowOptions {
                min_leaf: f[1].parse().unwrap(),
            },
        )
        .unwrap();
        let tree = match f[2] {
            "-" => grown,
            cf => grown.pruned(cf.parse().unwrap()).unwrap(),
        };
        let want: Vec<u64> = f[3]
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let got = [
            tree.leaves() as u64,
            tree.depth() as u64,
            tree.training_errors(),
        ];
        assert_eq!(
            got.as_slice(),
            want.as_slice(),
            "{line}\n{}",
            tree.to_text()
        );
        // The counts the tree keeps say what classifying the data says.
        assert_eq!(tree.errors_on(&data), tree.training_errors(), "{line}");
        if f[4] != "-" {
            let expected = std::fs::read_to_string(data_dir().join(f[4])).unwrap();
            assert_eq!(tree.to_text(), expected, "{line}");
        }
        n += 1;
    }
    assert!(n >= 7);
}

#[test]
fn rows_that_no_feature_separates_are_a_conflict() {
    let data = load("conflict.csv");
    let t = Tree::grow(&data, GrowOptions::perfect()).unwrap();
    assert_eq!(t.conflicts(), (1, 2));
    assert!(t.to_text().contains("conflict"));
}

#[test]
fn a_perfect_tree_makes_no_error_where_rows_differ() {
    for name in ["weather.csv", "weather-nominal.csv", "contact-lenses.csv"] {
        let data = load(name);
        let t = Tree::grow(&data, GrowOptions::perfect()).unwrap();
        assert_eq!((t.errors_on(&data), t.conflicts().0), (0, 0), "{name}");
    }
}

#[test]
fn the_trade_off_goes_from_the_tree_to_its_root_one_step_at_a_time() {
    let data = load("contact-lenses.csv");
    let t = Tree::grow(&data, GrowOptions::perfect()).unwrap();
    let curve = t.trade_off();
    assert_eq!(curve[0].leaves, t.leaves());
    assert_eq!(curve[0].errors, 0);
    let last = curve.last().unwrap();
    // The root alone answers the majority, `none`: 15 of 24.
    assert_eq!((last.leaves, last.errors), (1, 9));
    for w in curve.windows(2) {
        assert!(w[1].leaves < w[0].leaves && w[1].errors >= w[0].errors);
    }
    // Each tree of the sequence is what limit_leaves gives.
    for p in &curve {
        let small = t.limit_leaves(p.leaves);
        assert_eq!(
            (small.leaves(), small.training_errors()),
            (p.leaves, p.errors)
        );
        assert_eq!(small.errors_on(&data), p.errors);
    }
}

#[test]
fn cutting_at_a_depth_bounds_the_depth() {
    let data = load("contact-lenses.csv");
    let t = Tree::grow(&data, GrowOptions::perfect()).unwrap();
    for d in 0..=t.depth() {
        let c = t.cut_to_depth(d);
        assert_eq!(c.depth(), d);
        assert_eq!(c.errors_on(&data), c.training_errors());
    }
}

#[test]
fn added_errors_follow_c45() {
    // No error seen: n·(1 − cf^(1/n)), the exact binomial bound.
    assert!((added_errors(1.0, 0.0, 0.25) - 0.75).abs() < 1e-12);
    assert!((added_errors(4.0, 0.0, 0.25) - 4.0 * (1.0 - 0.25f64.powf(0.25))).abs() < 1e-12);
    // More confidence asked, fewer errors added (less pruning).
    assert!(added_errors(20.0, 3.0, 0.5) < added_errors(20.0, 3.0, 0.25));
    assert!(added_errors(20.0, 3.0, 0.25) < added_errors(20.0, 3.0, 0.05));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let schema = Schema {
        features: vec![
            Feature::nominal("colour", &["red", "blue"]),
            Feature::numeric("x"),
        ],
        classes: vec!["a".into(), "b".into()],
    };
    let mut d = Dataset::new(schema);
    assert!(matches!(d.push(&[0.0], 0), Err(LearnError::Arity { .. })));
    assert!(matches!(
        d.push(&[2.0, 1.0], 0),
        Err(LearnError::Value { .. })
    ));
    assert!(matches!(
        d.push(&[0.0, f64::NAN], 0),
        Err(LearnError::Value { .. })
    ));
    assert!(matches!(
        d.push(&[0.0, 1.0], 2),
        Err(LearnError::Label { .. })
    ));
    assert!(matches!(
        Tree::grow(&d, GrowOptions::default()),
        Err(LearnError::Empty)
    ));
    d.push(&[1.0, 3.0], 1).unwrap();
    let t = Tree::grow(&d, GrowOptions::default()).unwrap();
    assert!(matches!(t.pruned(1.5), Err(LearnError::Confidence(_))));
    assert!(matches!(
        Dataset::parse("x:numeric,c\nfoo,a\n"),
        Err(LearnError::Parse { line: 2, .. })
    ));
}

#[test]
fn dot_and_svg_name_every_node() {
    let t = Tree::grow(&load("weather.csv"), GrowOptions::default()).unwrap();
    let dot = t.to_dot("weather");
    assert_eq!(dot.matches(" -> n").count(), 7, "{dot}");
    assert!(dot.starts_with("digraph") && dot.trim_end().ends_with('}'));
    let svg = t.to_svg("weather");
    assert_eq!(svg.matches("<line").count(), 7);
    assert_eq!(svg.matches("<rect").count(), 1 + 8);
    assert!(svg.contains("humidity") && svg.contains("&lt;= 70"));
}
