//! PNS and PN² stopped by a node limit and resumed from their saved tree
//! make the same expansions as a run never stopped: the same answer,
//! nodes, expansions and proof. A damaged saved tree is refused.

use crate::common;

use std::io::ErrorKind;
use std::time::Duration;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN;
use zoo_animal::JungleCheckersPos;
use zoo_core::Game;
use zoo_solve::pns::{Resume, TreeSaver};
use zoo_solve::tree_file::TreeView;
use zoo_solve::{pn2, pns, Answer, Goal, Limits, Report};

type Jc = JungleCheckersPos;

fn jc(fen: &str) -> Jc {
    Jc::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap()
}

/// A Jungle Checkers position that PNS proves (not-lose fails: a loss for
/// Black to move) in some tens of thousands of nodes.
const FEN: &str = "7/3e3/7/7/7/3R3/2D4 b";

/// Which algorithm, run from `saved` (if any), saving into the result.
#[derive(Clone, Copy, Debug)]
enum Algo {
    Pns(pns::Options),
    Pn2(pn2::Options),
}

fn run(
    algo: Algo,
    pos: &Jc,
    goal: Goal,
    limits: &Limits,
    saved: Option<&[u8]>,
) -> std::io::Result<(Report<<Jc as Game>::Move>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut saver = |v: &TreeView<'_>| {
        out.clear();
        v.write_to(&mut out)
    };
    let mut from = saved;
    let resume = Resume {
        from: from.as_mut().map(|r| r as &mut dyn std::io::Read),
        save: Some((&mut saver as TreeSaver<'_>, Duration::from_secs(3600))),
    };
    let r = match algo {
        Algo::Pns(opts) => pns::solve_with(pos, goal, None, limits, &opts, resume)?,
        Algo::Pn2(opts) => pn2::solve_with(pos, goal, None, limits, &opts, resume)?,
    };
    Ok((r, out))
}

/// Runs `algo` once to the end, then again stopped every `step` nodes
/// and resumed from its saved tree, and compares.
fn stopped_and_resumed_equals_one_run(
    algo: Algo,
    goal: Goal,
    step: u64,
    memory_mb: Option<u64>,
) -> Report<<Jc as Game>::Move> {
    let pos = jc(FEN);
    let limit = 2_000_000;
    let limits = |nodes| Limits {
        memory_mb,
        ..Limits::nodes(nodes)
    };
    let (whole, _) = run(algo, &pos, goal, &limits(limit), None).unwrap();
    assert_ne!(whole.answer, Answer::Unknown, "{algo:?}: {whole:?}");

    let mut saved: Option<Vec<u8>> = None;
    let mut stops = 0;
    let last = loop {
        let l = (stops + 1) * step;
        let (r, out) = run(algo, &pos, goal, &limits(l.min(limit)), saved.as_deref()).unwrap();
        if r.answer != Answer::Unknown {
            break r;
        }
        assert!(!out.is_empty(), "a stopped run saves its tree");
        saved = Some(out);
        stops += 1;
        assert!(stops < 1000, "{algo:?}: no answer after {stops} stops");
    };
    eprintln!(
        "{algo:?} {goal:?}: {} nodes, {} expansions, {stops} stops",
        whole.nodes, whole.expansions
    );
    assert!(stops >= 3, "{algo:?}: stopped {stops} times only");
    assert_eq!(last.answer, whole.answer, "{algo:?}");
    assert_eq!(
        (last.nodes, last.expansions, last.pn, last.dn),
        (whole.nodes, whole.expansions, whole.pn, whole.dn),
        "{algo:?}: nodes, expansions and numbers"
    );
    assert_eq!(last.proof, whole.proof, "{algo:?}: the proof");
    if let Some(p) = &last.proof {
        common::replay(&pos, p, None);
    }
    last
}

#[test]
fn pns_resumed_makes_the_same_expansions() {
    for goal in [Goal::Win, Goal::NotLose] {
        stopped_and_resumed_equals_one_run(Algo::Pns(pns::Options::default()), goal, 5_000, None);
    }
}

#[test]
fn pn2_resumed_makes_the_same_expansions() {
    for goal in [Goal::Win, Goal::NotLose] {
        stopped_and_resumed_equals_one_run(Algo::Pn2(pn2::Options::default()), goal, 400, None);
        let fraction = pn2::Options {
            fraction: Some((2_000.0, 500.0)),
            ..pn2::Options::default()
        };
        stopped_and_resumed_equals_one_run(Algo::Pn2(fraction), goal, 400, None);
    }
}

/// PNS in 1 MiB (about 30,000 nodes) collecting its tree when full: it
/// decides what PNS without collection cannot in that memory, with a
/// proof, and a run stopped (the node limit counts nodes made) and resumed
/// from its saved tree and kept proofs collects and searches as one never
/// stopped.
#[test]
fn pns_with_gc_decides_in_little_memory_and_resumes() {
    let pos = jc(FEN);
    let small = Limits {
        memory_mb: Some(1),
        ..Limits::default()
    };
    let per = (pns::bytes_per_node::<Jc>() + zoo_solve::gc::SCRATCH_BYTES) as u64;
    for goal in [Goal::Win, Goal::NotLose] {
        let plain = pns::solve(&pos, goal, None, &small);
        assert_eq!(plain.answer, Answer::Unknown, "{goal:?}: {plain:?}");
        let gc = pns::Options {
            gc: true,
            ..pns::Options::default()
        };
        let last = stopped_and_resumed_equals_one_run(Algo::Pns(gc), goal, 20_000, Some(1));
        let full = pns::solve(&pos, goal, None, &Limits::default());
        assert_eq!(last.answer, full.answer, "{goal:?}");
        assert!(last.proof.is_some());
        assert!(
            last.nodes > (1 << 20) / per,
            "{goal:?}: {} nodes made, no collection",
            last.nodes
        );
        assert!(last.held <= 1 << 20, "{goal:?}: {} bytes held", last.held);
        eprintln!(
            "{goal:?}: PNS {} nodes; with gc in 1 MiB {} nodes made",
            full.nodes, last.nodes
        );
        // Without keeping proofs: the answer, no proof.
        let bare = pns::Options {
            gc: true,
            proofs: false,
        };
        let r = pns::solve_with(&pos, goal, None, &small, &bare, Resume::default()).unwrap();
        assert_eq!(r.answer, full.answer);
        assert!(r.proof.is_none());
    }
}

/// PN² collecting its first level (`pn2::Options::gc`) proves in 1 MiB
/// what it leaves open without: a Jungle Checkers draw (White not losing)
/// whose first level fills that memory (2026-11-24: without collection
/// stopped full after about 8·10⁷ nodes made; with it proven after about
/// 2.7·10⁸). Without proofs kept: this draw's proofs would fill the
/// memory themselves (docs/solve.md). What is held stays within it.
/// Hundreds of millions of nodes: the slow step's; the default run keeps
/// PN²'s and PNS's collection against the tables (`tables::pn2_with_gc…`,
/// `tables::pns_with_gc…`) and `zoo solve --algo pns --gc` on a draw
/// (docs/checks.toml).
#[test]
#[ignore = "slow: about 40 s; run by `cargo xtask test --slow`"]
fn slow_pn2_with_gc_decides_in_little_memory() {
    let pos = jc("7/d6/7/7/r6/7/1T5 w");
    let small = Limits {
        memory_mb: Some(1),
        ..Limits::default()
    };
    let bare = pn2::Options {
        proofs: false,
        ..pn2::Options::default()
    };
    let plain =
        pn2::solve_with(&pos, Goal::NotLose, None, &small, &bare, Resume::default()).unwrap();
    assert_eq!(plain.answer, Answer::Unknown, "{plain:?}");
    let gc = pn2::Options { gc: true, ..bare };
    let r = pn2::solve_with(&pos, Goal::NotLose, None, &small, &gc, Resume::default()).unwrap();
    assert_eq!(r.answer, Answer::Proven, "{r:?}");
    assert!(r.proof.is_none());
    assert!(r.held <= 1 << 20, "{} bytes held", r.held);
    assert!(
        r.nodes > plain.nodes,
        "{} nodes made, no collection",
        r.nodes
    );
}

/// A saved tree part way through a run, and the position it belongs to.
fn saved_tree(algo: Algo) -> Vec<u8> {
    let (r, out) = run(algo, &jc(FEN), Goal::NotLose, &Limits::nodes(1_000), None).unwrap();
    assert_eq!(r.answer, Answer::Unknown);
    out
}

#[test]
fn a_damaged_tree_is_refused() {
    for algo in [
        Algo::Pns(pns::Options::default()),
        Algo::Pn2(pn2::Options::default()),
    ] {
        let good = saved_tree(algo);
        let pos = jc(FEN);
        let limits = Limits::nodes(1_000_000);
        let refused = |bytes: &[u8]| {
            let e = run(algo, &pos, Goal::NotLose, &limits, Some(bytes)).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidData, "{algo:?}: {e}");
            e.to_string()
        };
        // Loads as it is.
        run(algo, &pos, Goal::NotLose, &limits, Some(&good)).unwrap();
        // One byte changed anywhere.
        for at in [3, 40, good.len() / 2, good.len() - 3] {
            let mut b = good.clone();
            b[at] ^= 0x10;
            let e = refused(&b);
            assert!(
                e.contains("hash") || e.contains("magic") || e.contains("nodes"),
                "{algo:?}: byte {at}: {e}"
            );
        }
        // Cut short.
        for len in [0, 20, good.len() / 3, good.len() - 1] {
            let e = refused(&good[..len]);
            assert!(e.contains("cut short"), "{algo:?}: {len} bytes: {e}");
        }
        // Of another position: its moves are not the tree's.
        let other = jc("7/3e3/7/7/7/3R3/D6 b");
        let e = run(algo, &other, Goal::NotLose, &limits, Some(&good)).unwrap_err();
        assert!(e.to_string().contains("another position"), "{algo:?}: {e}");
        // Larger than the limits allow.
        let e = run(algo, &pos, Goal::NotLose, &Limits::nodes(100), Some(&good)).unwrap_err();
        assert!(e.to_string().contains("--hash"), "{algo:?}: {e}");
    }
}
