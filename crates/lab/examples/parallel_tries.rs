//! How often parallel df-pn runs astray: the same Jungle question (`win`
//! for the side to move) asked TRIES times of df-pn on THREADS threads
//! with no tables (`path`, the REMEDIES given, `none` if not, 4·10⁶ calls
//! at most, as `tests/it/ghi.rs` asks it), each try's calls and answer
//! printed, then their spread (docs/log/solve.md, 2026-12-01).
//!
//! ```text
//! cargo run --profile ci -p zoo-lab --example parallel_tries -- "7/7/1e5/7/7/3W3/5P1/7/7 b" 2 200
//! ```
use anyhow::{anyhow, bail, Result};
use zoo_animal::rules::JUNGLE_LEIDEN as RULES;
use zoo_animal::JunglePos;
use zoo_core::Game;
use zoo_solve::{dfpn, Answer, Ghi, Goal, Limits};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (fen, threads, tries, remedies) = match &args[..] {
        [_, f, th, t] => (f, th, t, "none"),
        [_, f, th, t, r] => (f, th, t, r.as_str()),
        _ => bail!("usage: parallel_tries FEN THREADS TRIES [REMEDIES]"),
    };
    let root = JunglePos::from_fen(fen, &&RULES).map_err(|e| anyhow!("{e}"))?;
    let opts = dfpn::Options {
        ghi: Ghi::Path,
        threads: threads.parse()?,
        remedies: dfpn::Remedies::parse(remedies).map_err(|e| anyhow!("{e}"))?,
        ..Default::default()
    };
    let mut calls = Vec::new();
    for i in 0..tries.parse::<usize>()? {
        let r = dfpn::solve(&root, Goal::Win, None, &Limits::nodes(4_000_000), &opts);
        println!("{i} {} {}", r.answer.name(), r.nodes);
        if r.answer == Answer::Unknown {
            eprintln!(
                "try {i}: open after {} calls, root pn {} dn {}",
                r.nodes, r.pn, r.dn
            );
        }
        calls.push(r.nodes);
    }
    calls.sort_unstable();
    let q = |f: f64| calls[((calls.len() - 1) as f64 * f) as usize];
    println!(
        "calls: min {} median {} p90 {} p99 {} max {}",
        q(0.0),
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    Ok(())
}
