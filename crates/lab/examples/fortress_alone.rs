//! The strategy search alone on one Jungle Checkers position: whether
//! the side to move (`me`) or the other side (`other`) keeps from losing,
//! within SECONDS and MB of memory; then the proof written from its
//! graph (docs/solve.md, "The strategy search").
//!
//! ```text
//! zoo tb build --game jungle-checkers --pieces 3 --dir JC3
//! cargo run --profile ci -p zoo-lab --example fortress_alone -- JC3 "7/4r2/5e1/5E1/5d1/T6/7 w" me 60 4096
//! ```
use anyhow::{anyhow, bail, Context, Result};
use std::time::{Duration, Instant};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN as RULES;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Oracle};
use zoo_solve::fortress::Search;
use zoo_solve::{Goal, Limits};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (args, out) = match args.len() {
        6 => (&args[..], None),
        7 => (&args[..6], Some(&args[6])),
        _ => bail!("usage: fortress_alone TABLES FEN me|other SECONDS MB [PROOF_FILE]"),
    };
    let [_, dir, fen, who, secs, mb] = args else {
        bail!("usage: fortress_alone TABLES FEN me|other SECONDS MB [PROOF_FILE]");
    };
    let tables = TbOracle::<JungleCheckers>::open(std::path::Path::new(dir), &RULES)
        .ok_or_else(|| anyhow!("no tables"))?;
    let root = JungleCheckersPos::from_fen(fen, &&RULES).map_err(|e| anyhow!("{e}"))?;
    let (keeper, goal) = match who.as_str() {
        "me" => (root.side_to_move(), Goal::NotLose),
        "other" => (root.side_to_move().flip(), Goal::Win),
        _ => bail!("{who}: me or other"),
    };
    let limits = Limits {
        time: Some(Duration::from_secs(secs.parse()?)),
        memory_mb: Some(mb.parse()?),
        ..Limits::default()
    };
    let t = Instant::now();
    let oracle: &dyn Oracle<JungleCheckersPos> = &tables;
    let mut s = Search::new(&root, keeper, Some(oracle), &limits).map_err(|e| anyhow!(e))?;
    let o = s.go(u64::MAX);
    println!(
        "{fen} keeper {who}: {:?} expanded {} ({} MB; {} passes walked {} positions) in {:.1} s{}",
        o,
        s.calls(),
        s.bytes() >> 20,
        s.passes().0,
        s.passes().1,
        t.elapsed().as_secs_f64(),
        if s.full() { ", memory full" } else { "" }
    );
    let t = Instant::now();
    if let Some(r) = s.report(goal, out.is_some()) {
        println!(
            "{:?} {:?}: proof {:?} nodes in {:.1} s",
            goal,
            r.answer,
            r.proof.as_ref().map(|p| p.nodes.len()),
            t.elapsed().as_secs_f64()
        );
        if let (Some(out), Some(p)) = (out, r.proof) {
            // `zoo solve --check FILE --tb TABLES` re-checks it.
            std::fs::write(out, p.to_text(&root)).with_context(|| out.clone())?;
            println!("proof written to {out}");
        }
    }
    Ok(())
}
