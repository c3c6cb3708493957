//! The build plan as jobs, one material on its own, and the manifest.

use crate::common::{build_with, jc3, options};
use std::sync::atomic::AtomicBool;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::{Board, JungleCheckers};
use zoo_animal_tb::build::build;
use zoo_animal_tb::index::Material;
use zoo_animal_tb::plan::{plan, plan_for};
use zoo_tb::manifest::{self, Problem};

fn material(s: &str) -> Material {
    Material::parse::<JungleCheckers>(s).expect("a material")
}

#[test]
fn every_job_comes_after_the_tables_it_needs() {
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-no-tables");
    let p = plan::<JungleCheckers>(&empty, &JUNGLE_CHECKERS_LEIDEN, &options(4)).unwrap();
    for (i, j) in p.jobs.iter().enumerate() {
        for need in &j.needs {
            let at = p.jobs.iter().position(|k| k.material == *need);
            assert!(
                at.is_some_and(|at| at < i),
                "{} needs {}, not made before it",
                j.material.name::<JungleCheckers>(),
                need.name::<JungleCheckers>()
            );
        }
    }
}

#[test]
fn one_material_is_built_with_what_it_needs_and_equals_the_full_build() {
    let (dir, _) = build_with::<JungleCheckers>("none", &JUNGLE_CHECKERS_LEIDEN, &options(0));
    let target = material("DTvd");
    let opts = options(3);
    let p = plan_for::<JungleCheckers>(&dir, &JUNGLE_CHECKERS_LEIDEN, &opts, target).unwrap();
    let names: Vec<String> = p
        .jobs
        .iter()
        .map(|j| j.material.name::<JungleCheckers>())
        .collect();
    // It comes last, after the tables its captures lead to (or those it is
    // copied from) and theirs: a few of the 34 tables of up to 3 pieces.
    assert_eq!(names.last().map(String::as_str), Some("DTvd"));
    let whole = plan::<JungleCheckers>(&dir, &JUNGLE_CHECKERS_LEIDEN, &opts).unwrap();
    assert!(names.len() < whole.jobs.len() / 4, "{names:?}");
    for j in &p.jobs {
        for need in &j.needs {
            assert!(names.contains(&need.name::<JungleCheckers>()));
        }
    }
    let stop = AtomicBool::new(false);
    let r = build::<JungleCheckers>(
        &dir,
        &JUNGLE_CHECKERS_LEIDEN,
        &opts,
        &p,
        &|_| {},
        &|_| {},
        &stop,
    )
    .unwrap();
    assert_eq!(r.built.len(), names.len());
    let table = |d: &std::path::Path, n: &str| {
        std::fs::read(
            zoo_tb::file::table_dir(d, JungleCheckers::GAME, "leiden").join(format!("{n}.zootb")),
        )
        .expect("a table")
    };
    for n in &names {
        assert!(table(&dir, n) == table(jc3(), n), "{n} differs");
    }
    // Built: nothing left to do for it.
    let again = plan_for::<JungleCheckers>(&dir, &JUNGLE_CHECKERS_LEIDEN, &opts, target).unwrap();
    assert!(again.jobs.is_empty());
}

#[test]
fn materials_without_tables_are_refused() {
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-no-tables");
    let one_side = Material::new(0b11, 0);
    assert!(
        plan_for::<JungleCheckers>(&empty, &JUNGLE_CHECKERS_LEIDEN, &options(3), one_side).is_err()
    );
}

#[test]
fn the_manifest_lists_every_table_and_catches_a_changed_byte() {
    let (dir, _) = build_with::<JungleCheckers>("manifest", &JUNGLE_CHECKERS_LEIDEN, &options(2));
    let tdir = zoo_tb::file::table_dir(&dir, JungleCheckers::GAME, "leiden");
    let listed = manifest::read(&tdir).unwrap();
    let files = std::fs::read_dir(&tdir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".zootb")
        })
        .count();
    assert_eq!(listed.len(), files);
    // Every file has its own digest (a whole-file CRC-32 would not: each
    // file ends with the CRC-32 of the rest, which gives all the same one).
    let mut digests: Vec<_> = listed.values().map(|e| e.sha256).collect();
    digests.sort();
    digests.dedup();
    assert_eq!(digests.len(), listed.len());
    assert_eq!(manifest::check(&tdir).unwrap(), []);
    // The build's record and a rewrite from scratch agree.
    assert_eq!(manifest::write(&tdir).unwrap(), listed);
    let (name, _) = listed.iter().next().unwrap();
    let path = tdir.join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    std::fs::write(tdir.join("extra.zootb"), b"x").unwrap();
    let problems = manifest::check(&tdir).unwrap();
    assert!(
        matches!(&problems[..], [Problem::Damaged(n), Problem::Unlisted(u)] if n == name && u == "extra.zootb"),
        "{problems:?}"
    );
    // An intact table other than the one listed differs.
    let (other, _) = listed.iter().nth(1).unwrap();
    std::fs::copy(tdir.join(other), &path).unwrap();
    let problems = manifest::check(&tdir).unwrap();
    assert!(
        matches!(&problems[..], [Problem::Differs { name: n, .. }, Problem::Unlisted(_)] if n == name),
        "{problems:?}"
    );
    std::fs::remove_file(&path).unwrap();
    assert!(manifest::check(&tdir)
        .unwrap()
        .contains(&Problem::Missing(name.clone())));
    std::fs::write(tdir.join(manifest::NAME), "DvE.zootb 12\n").unwrap();
    assert!(manifest::read(&tdir).is_err());
}
