//! Nodes per second of each algorithm (PNS, PN², df-pn) on fixed
//! positions of docs/solve.md's Measurements table:
//! `cargo bench -p zoo-solve --bench solve`. Criterion's throughput is
//! the run's node count (PNS: tree nodes; PN²: both levels' nodes; df-pn:
//! MID calls; the reachable graph: positions listed and valued), so its
//! "elem/s" is nodes per second. The bytes each
//! algorithm stores per node are printed by `tests/it/sizes.rs`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::Game;
use zoo_solve::{dfpn, graph, pn2, pns, Ghi, Goal, Limits, Report};

/// Each run stops here at the latest: the positions' unknown answers
/// would otherwise take seconds an iteration.
const NODES: u64 = 300_000;

#[derive(Clone, Copy)]
enum Algo {
    Pns,
    Pn2,
    /// df-pn in this mode on this many threads.
    Dfpn(Ghi, usize),
}

impl Algo {
    fn name(self) -> String {
        match self {
            Algo::Pns => "pns".into(),
            Algo::Pn2 => "pn2".into(),
            Algo::Dfpn(ghi, 1) => format!("dfpn {}", ghi.name()),
            Algo::Dfpn(ghi, threads) => format!("dfpn {} {threads} threads", ghi.name()),
        }
    }

    fn run<G: Game>(self, pos: &G, goal: Goal) -> Report<G::Move> {
        let limits = Limits::nodes(NODES);
        match self {
            Algo::Pns => pns::solve(pos, goal, None, &limits),
            Algo::Pn2 => pn2::solve(pos, goal, None, &limits),
            Algo::Dfpn(ghi, threads) => {
                let opts = dfpn::Options {
                    ghi,
                    threads,
                    ..dfpn::Options::default()
                };
                dfpn::solve(pos, goal, None, &limits, &opts)
            }
        }
    }
}

fn position<G: Game>(c: &mut Criterion, name: &str, pos: &G, goal: Goal) {
    let mut g = c.benchmark_group(format!("solve {name} `{}` {goal}", pos.to_fen()));
    g.sample_size(10);
    for algo in [
        Algo::Pns,
        Algo::Pn2,
        Algo::Dfpn(Ghi::NoRepetitionStore, 1),
        Algo::Dfpn(Ghi::Path, 1),
    ] {
        // The runs are deterministic: one run gives every run's count.
        let nodes = algo.run(pos, goal).nodes;
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(algo.name(), |b| b.iter(|| algo.run(pos, goal).nodes));
    }
    g.finish();
}

/// The reachable graph of `pos` listed and valued, without tables.
fn whole_graph<G: Game>(c: &mut Criterion, name: &str, pos: &G) {
    let mut g = c.benchmark_group(format!("graph {name} `{}`", pos.to_fen()));
    g.sample_size(10);
    let solve = || graph::solve(pos, None, &Limits::default(), 1 << 26).map(|g| g.positions());
    g.throughput(Throughput::Elements(solve().expect("it fits")));
    g.bench_function("list and value", |b| b.iter(solve));
    g.finish();
}

fn bench(c: &mut Criterion) {
    let jc = |fen| JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap();
    let jungle = |fen| JunglePos::from_fen(fen, &&JUNGLE_LEIDEN).unwrap();
    // A win that every algorithm proves.
    position(c, "JC", &jc("7/7/d6/7/5T1/1D5/7 w"), Goal::Win);
    // A draw: Win disproven (PNS needs millions of nodes; capped).
    position(c, "JC", &jc("2t4/7/rR5/7/7/7/7 w"), Goal::Win);
    // A Jungle win PNS does not prove within the cap.
    position(c, "Jungle", &jungle("7/7/6p/7/3C3/7/7/7/5R1 b"), Goal::Win);
    // A 3-piece loss in 32 (df-pn's hardest before the manager): its
    // whole graph.
    whole_graph(c, "Jungle", &jungle("1w5/7/7/7/7/3t3/7/2E4/7 w"));
}

criterion_group!(benches, bench);
criterion_main!(benches);
