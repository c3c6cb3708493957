//! The 1-bit advantage mode against the normal build: every entry's
//! win/draw/loss the same.

use crate::common::own_copy;
use std::sync::atomic::AtomicBool;
use zoo_animal::{Board, Jungle, JungleCheckers};
use zoo_animal_tb::advantage::{compare, solve, spill_path, wdl, write, Pass};
use zoo_animal_tb::index::Material;
use zoo_animal_tb::Tablebase;
use zoo_core::{Outcome, Side};
use zoo_tb::TbError;

/// Builds the normal tables up to `pieces` under `rules`, then solves every
/// configuration again in both passes and compares: each pass entry by
/// entry with the table, and the counts of the two passes combined with
/// the header's. Returns the most sweeps a pass took.
fn agrees<B: Board>(name: &str, rules: &str, pieces: u32) -> u32 {
    agrees_on::<B>(name, rules, pieces, None)
}

/// [`agrees`], with the materials of `pieces` pieces limited to `largest`
/// when given (every smaller material is still compared).
fn agrees_on<B: Board>(name: &str, rules: &str, pieces: u32, largest: Option<&[&str]>) -> u32 {
    let rules = zoo_animal::board::by_name::<B>(rules).expect("a rule set");
    // The WDL files written below go beside the tables: a directory of
    // its own.
    let dir = own_copy::<B>(name, rules, pieces);
    let tb = Tablebase::<B>::open(&dir, rules);
    let stop = AtomicBool::new(false);
    let mut most = 0;
    for n in 2..=pieces {
        for m in Material::canonical::<B>(n) {
            if n == pieces && largest.is_some_and(|l| !l.contains(&m.name::<B>().as_str())) {
                continue;
            }
            let [white, black] = [Side::White, Side::Black]
                .map(|a| solve(&tb, m, a, true, &|_| {}, &stop).expect("a pass"));
            for pass in [&white, &black] {
                let c = compare(&tb, pass).expect("a comparison");
                assert_eq!(c.entries, 2 * pass.size);
                assert_eq!(
                    c.disagreements,
                    0,
                    "{} {} with {:?}'s advantage: first at {:?}",
                    rules.name,
                    m.name::<B>(),
                    pass.advantage,
                    c.first
                );
                most = most.max(pass.sweeps);
            }
            let header = &tb.table(m).expect("a table").header;
            for side in 0..header.sides {
                // [draw, win, loss], as in the header.
                let mut counts = [0u64; 3];
                for x in 0..white.size {
                    counts[match wdl(&white, &black, side, x) {
                        Outcome::Draw => 0,
                        Outcome::Win => 1,
                        Outcome::Loss => 2,
                    }] += 1;
                }
                assert_eq!(counts, header.counts[side].entries, "{}", m.name::<B>());
            }
            wdl_file_equals_the_tables(&tb, m, white, black);
        }
    }
    most
}

/// The WDL file written from the two passes (the first spilled to disk)
/// against the full table: every value, and the header but for the
/// longest distance, which the passes do not know.
fn wdl_file_equals_the_tables<B: Board>(tb: &Tablebase<B>, m: Material, white: Pass, black: Pass) {
    let layout = tb.scheme().layout(m);
    let white = white.spill(&spill_path(tb, layout)).expect("spilled");
    write(tb, &white, &black, layout).expect("written");
    let (t, w) = (
        tb.table(m).expect("a table"),
        tb.wdl_table(m).expect("a WDL file"),
    );
    let mut expected = t.header.clone();
    for c in &mut expected.counts {
        c.longest = 0;
    }
    assert_eq!(w.header, expected, "{}", m.name::<B>());
    let n = t.header.size as usize;
    let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
    for side in 0..t.header.sides {
        t.read_wdl(side, 0, &mut a).expect("read");
        w.read_wdl(side, 0, &mut b).expect("read");
        assert!(a == b, "{} side {side}", m.name::<B>());
    }
}

/// How many materials of the largest size the default run compares
/// besides the largest one: every material of fewer pieces is compared
/// whole, and the advantage mode has no code path a material of the
/// largest size takes that one a size smaller does not (captures into
/// smaller tables, den wins, stalemates, both sides' passes); the largest
/// size adds length (more sweeps). The largest material and a seeded
/// sample of others keep that covered in a fraction of the time; every
/// material is compared by the slow step (`cargo xtask test --slow`).
const SAMPLED: usize = 2;

/// The largest material of `pieces` pieces (most entries) and
/// [`SAMPLED`] others drawn by a fixed seed, by name.
fn sample<B: Board>(pieces: u32) -> Vec<String> {
    // Only the index is read: no table is opened.
    let tb = Tablebase::<B>::open(std::path::Path::new("."), B::rule_sets()[0]);
    let mut all = Material::canonical::<B>(pieces);
    all.sort_by_key(|m| std::cmp::Reverse(tb.scheme().layout(*m).size));
    let mut picked = vec![all.remove(0)];
    // splitmix64 from a fixed seed: the same sample every run.
    let mut x: u64 = 54;
    for _ in 0..SAMPLED.min(all.len()) {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        picked.push(all.remove((z % all.len() as u64) as usize));
    }
    picked.iter().map(|m| m.name::<B>()).collect()
}

/// [`agrees_on`] with every material below `pieces` and [`sample`] at it.
fn agrees_on_sample<B: Board>(name: &str, rules: &str, pieces: u32) {
    let sample = sample::<B>(pieces);
    let names: Vec<&str> = sample.iter().map(String::as_str).collect();
    let sweeps = agrees_on::<B>(name, rules, pieces, Some(&names));
    eprintln!(
        "{} {rules} < {pieces} pieces and {names:?}: at most {sweeps} sweeps a pass",
        B::GAME
    );
}

#[test]
fn jungle_checkers_up_to_3_pieces_and_a_sample_of_4_equal_the_normal_build() {
    agrees_on_sample::<JungleCheckers>("adv-jc", "leiden", 4);
}

#[test]
fn jungle_up_to_2_pieces_and_a_sample_of_3_equal_the_normal_build() {
    agrees_on_sample::<Jungle>("adv-jungle", "leiden", 3);
}

#[test]
#[ignore = "slow: every 4-piece material (about five minutes); run by `cargo xtask test --slow`"]
fn slow_jungle_checkers_up_to_4_pieces_equal_the_normal_build() {
    let sweeps = agrees::<JungleCheckers>("adv-jc-all", "leiden", 4);
    eprintln!("jungle-checkers leiden <= 4 pieces: at most {sweeps} sweeps a pass");
}

#[test]
#[ignore = "slow: every 3-piece material (about two minutes); run by `cargo xtask test --slow`"]
fn slow_jungle_up_to_3_pieces_equal_the_normal_build() {
    let sweeps = agrees::<Jungle>("adv-jungle-all", "leiden", 3);
    eprintln!("jungle leiden <= 3 pieces: at most {sweeps} sweeps a pass");
}

#[test]
fn a_stalemate_that_loses_gives_the_same_values_too() {
    stalemate_cases(false);
}

#[test]
#[ignore = "slow: about half a minute; run by `cargo xtask test --slow`"]
fn slow_a_stalemate_that_loses_gives_the_same_values_against_the_other_lone_pieces() {
    stalemate_cases(true);
}

/// The materials of advantage-stalemate.txt, those marked `slow` or the
/// others, compared under `leiden+stalemate=loss`.
fn stalemate_cases(slow: bool) {
    // Jungle Checkers' small board has more positions without a move.
    let list = include_str!("../data/advantage-stalemate.txt");
    let lines: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // A name that is not a stored material would leave a case untested.
    let stored: Vec<String> = Material::canonical::<JungleCheckers>(4)
        .into_iter()
        .map(|m| m.name::<JungleCheckers>())
        .collect();
    let mut largest = Vec::new();
    for line in lines {
        let (marked, n) = match line.strip_prefix("slow ") {
            Some(n) => (true, n.trim()),
            None => (false, line),
        };
        assert!(
            stored.iter().any(|s| s == n),
            "{n} is not a stored 4-piece material"
        );
        if marked == slow {
            largest.push(n);
        }
    }
    assert!(!largest.is_empty(), "no case");
    agrees_on::<JungleCheckers>(
        if slow {
            "adv-jc-stalemate-slow"
        } else {
            "adv-jc-stalemate"
        },
        "leiden+stalemate=loss",
        4,
        Some(&largest),
    );
}

#[test]
fn a_missing_smaller_table_is_refused() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-adv-empty");
    let _ = std::fs::remove_dir_all(&dir);
    let tb = Tablebase::<JungleCheckers>::open(&dir, &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN);
    let m = Material::parse::<JungleCheckers>("DEvd").expect("a material");
    let r = solve(&tb, m, Side::White, false, &|_| {}, &AtomicBool::new(false));
    assert!(matches!(r, Err(TbError::Missing { .. })), "{:?}", r.err());
}

/// Both passes of canonical `m` in `tb`, then its WDL file written.
fn write_wdl<B: Board>(tb: &Tablebase<B>, m: Material) {
    let stop = AtomicBool::new(false);
    let layout = tb.scheme().layout(m);
    let white = solve(tb, m, Side::White, true, &|_| {}, &stop).expect("a pass");
    let white = white.spill(&spill_path(tb, layout)).expect("spilled");
    let black = solve(tb, m, Side::Black, true, &|_| {}, &stop).expect("a pass");
    write(tb, &white, &black, layout).expect("written");
}

#[test]
fn a_size_is_built_from_the_wdl_files_of_the_size_below() {
    let rules = &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
    let full = crate::common::jc4().clone();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zoo-tb-adv-chain");
    let _ = std::fs::remove_dir_all(&dir);
    let names = |n| Material::canonical::<JungleCheckers>(n);
    let tb = Tablebase::<JungleCheckers>::open(&dir, rules);
    let full = Tablebase::<JungleCheckers>::open(&full, rules);
    for m in names(2) {
        let to = tb.path_of(m);
        std::fs::create_dir_all(to.parent().expect("a directory")).expect("a directory");
        std::fs::copy(full.path_of(m), to).expect("copied");
    }
    // 3 pieces from the full 2-piece tables, then 4 from those WDL files.
    for m in names(3).into_iter().chain(names(4).into_iter().take(3)) {
        write_wdl(&tb, m);
        let (t, w) = (
            full.table(m).expect("a table"),
            tb.wdl_table(m).expect("a WDL file"),
        );
        let n = t.header.size as usize;
        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
        for side in 0..t.header.sides {
            t.read_wdl(side, 0, &mut a).expect("read");
            w.read_wdl(side, 0, &mut b).expect("read");
            assert!(a == b, "{} side {side}", m.name::<JungleCheckers>());
        }
        assert!(matches!(tb.table(m), Err(TbError::WdlOnly { .. })));
    }
}
