//! The ply-bounded df-pn alone on one Jungle or Jungle Checkers position
//! (the leiden rules; told apart by the FEN's ranks, nine or seven):
//! whether the side to move (`me`) or the other side (`other`) wins, in
//! rounds of growing bounds (the first bound, the growth), within SECONDS
//! and a table of MB; then the proof derived from its table
//! (docs/solve.md, "Ply-bounded df-pn").
//!
//! ```text
//! zoo tb build --game jungle-checkers --pieces 3 --dir JC3
//! cargo run --profile ci -p zoo-lab --example bounded_alone -- JC3 "6t/7/1e5/2R4/d6/7/2E4 b" me 16 1.5 60 512
//! zoo tb build --game jungle --pieces 3 --dir J3
//! cargo run --profile ci -p zoo-lab --example bounded_alone -- J3 "6e/2r4/7/7/7/6T/6E/4W2/7 w" me 16 1.5 300 2048
//! ```
use anyhow::{anyhow, bail, Context, Result};
use std::time::{Duration, Instant};
use zoo_animal::rules::{RuleSet, JUNGLE_CHECKERS_LEIDEN, JUNGLE_LEIDEN};
use zoo_animal::{Board, Jungle, JungleCheckers, Position};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Oracle};
use zoo_solve::bounded::{Options, Search};
use zoo_solve::Limits;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (args, out) = match args.len() {
        8 => (&args[..], None),
        9 => (&args[..8], Some(&args[8])),
        _ => bail!("usage: bounded_alone TABLES FEN me|other FIRST GROW SECONDS MB [PROOF_FILE]"),
    };
    let board = args[2].split_whitespace().next().unwrap_or("");
    match board.split('/').count() {
        9 => run::<Jungle>(&JUNGLE_LEIDEN, args, out),
        7 => run::<JungleCheckers>(&JUNGLE_CHECKERS_LEIDEN, args, out),
        _ => bail!(
            "{}: not a Jungle (9 ranks) or Jungle Checkers (7 ranks) position",
            args[2]
        ),
    }
}

/// The run on a board of `B`: `args` as [`main`] takes them, the proof
/// file apart.
fn run<B: Board>(rules: &'static RuleSet, args: &[String], out: Option<&String>) -> Result<()> {
    let [_, dir, fen, who, first, grow, secs, mb] = args else {
        bail!("usage: bounded_alone TABLES FEN me|other FIRST GROW SECONDS MB [PROOF_FILE]");
    };
    let tables = TbOracle::<B>::open(std::path::Path::new(dir), rules)
        .ok_or_else(|| anyhow!("no tables"))?;
    let root = Position::<B>::from_fen(fen, &rules).map_err(|e| anyhow!("{e}"))?;
    let prover = match who.as_str() {
        "me" => root.side_to_move(),
        "other" => root.side_to_move().flip(),
        _ => bail!("{who}: me or other"),
    };
    let opts = Options {
        first: first.parse()?,
        grow: grow.parse()?,
        table_mb: mb.parse()?,
        ..Options::default()
    };
    let limits = Limits {
        time: Some(Duration::from_secs(secs.parse()?)),
        ..Limits::default()
    };
    let t = Instant::now();
    let oracle: &dyn Oracle<Position<B>> = &tables;
    let mut s = Search::new(&root, prover, Some(oracle), &limits, &opts)?;
    let o = s.go(u64::MAX);
    println!(
        "{fen} prover {who}: {:?} bound {} calls {} in {:.1} s",
        o,
        s.bound(),
        s.calls(),
        t.elapsed().as_secs_f64()
    );
    if o.is_some() {
        let t = Instant::now();
        match s.proof(
            if who == "me" {
                zoo_solve::Goal::Win
            } else {
                zoo_solve::Goal::NotLose
            },
            u64::MAX,
            20_000_000,
        ) {
            Ok(p) => {
                println!(
                    "proof: {} nodes, calls {} in {:.1} s",
                    p.nodes.len(),
                    s.calls(),
                    t.elapsed().as_secs_f64()
                );
                if let Some(out) = out {
                    // `zoo solve --check FILE --tb TABLES` re-checks it.
                    std::fs::write(out, p.to_text(&root)).with_context(|| out.clone())?;
                    println!("proof written to {out}");
                }
            }
            Err(e) => println!("no proof: {e:?}"),
        }
    }
    Ok(())
}
