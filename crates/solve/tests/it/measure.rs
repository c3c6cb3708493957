//! Node counts and times of PNS, df-pn (no-repetition-store) and df-pn
//! (path) on a few positions, for
//! docs/solve.md: `cargo test --release -p zoo-solve --test it measure:: --
//! --ignored --nocapture`.

use zoo_animal::rules::{JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_core::Game;
use zoo_solve::{dfpn, pns, Ghi, Goal, Limits};

fn row<G: Game>(name: &str, pos: &G) {
    for goal in Goal::ALL {
        let limits = Limits::nodes(4_000_000);
        let p = pns::solve(pos, goal, None, &limits);
        let d = dfpn::solve(pos, goal, None, &limits, &dfpn::Options::default());
        let path = dfpn::Options {
            ghi: Ghi::Path,
            ..dfpn::Options::default()
        };
        let c = dfpn::solve(pos, goal, None, &limits, &path);
        println!(
            "| {name} `{}` | {goal} | {} | {} | {:.3} | {} | {} | {:.3} | {} | {} | {:.3} |",
            pos.to_fen(),
            p.answer.name(),
            p.nodes,
            p.seconds,
            d.answer.name(),
            d.nodes,
            d.seconds,
            c.answer.name(),
            c.nodes,
            c.seconds
        );
    }
}

#[test]
#[ignore]
fn measure() {
    for fen in [
        "7/7/d6/7/5T1/1D5/7 w",
        "7/3e3/7/2E1t2/7/7/7 b",
        "2t4/7/rR5/7/7/7/7 w",
        "5e1/6T/7/7/7/7/1E5 b",
    ] {
        row(
            "JC",
            &JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap(),
        );
    }
    for fen in ["7/7/1e5/7/7/3W3/5P1/7/7 b", "7/7/6p/7/3C3/7/7/7/5R1 b"] {
        row(
            "Jungle",
            &JunglePos::from_fen(fen, &&JUNGLE_LEIDEN).unwrap(),
        );
    }
}
