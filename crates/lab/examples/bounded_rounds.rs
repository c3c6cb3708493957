//! Where the ply-bounded df-pn's calls go: the calls of each round (each
//! bound) of `bounded::Search` alone on one Jungle Checkers position,
//! until the win is found or SECONDS pass (docs/log/solve.md, 2026-11-30
//! twenty-seventh session).
//!
//! ```text
//! zoo tb build --game jungle-checkers --pieces 3 --dir JC3
//! cargo run --profile ci -p zoo-lab --example bounded_rounds -- JC3 "6t/7/1e5/2R4/d6/7/2E4 b" me 16 1.5 60 1024
//! ```
use anyhow::{anyhow, bail, Result};
use std::time::Duration;
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN as RULES;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, Oracle};
use zoo_solve::bounded::{Options, Search};
use zoo_solve::Limits;

/// Calls between two looks at the bound: a round's calls are counted to
/// within this.
const STEP: u64 = 50_000;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, fen, who, first, grow, secs, mb] = &args[..] else {
        bail!("usage: bounded_rounds TABLES FEN me|other FIRST GROW SECONDS MB");
    };
    let tables = TbOracle::<JungleCheckers>::open(std::path::Path::new(dir), &RULES)
        .ok_or_else(|| anyhow!("no tables in {dir}"))?;
    let root = JungleCheckersPos::from_fen(fen, &&RULES).map_err(|e| anyhow!("{e}"))?;
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
    let oracle: &dyn Oracle<JungleCheckersPos> = &tables;
    let mut s = Search::new(&root, prover, Some(oracle), &limits, &opts)?;
    let (mut bound, mut at) = (s.bound(), 0);
    loop {
        let won = s.go(s.calls() + STEP);
        let over = won.is_some() || s.out_of_time() || s.exhausted();
        if s.bound() != bound || over {
            println!("bound {bound}: {} calls", s.calls() - at);
            (bound, at) = (s.bound(), s.calls());
        }
        if over {
            println!("{fen} prover {who}: {won:?}, {} calls in all", s.calls());
            return Ok(());
        }
    }
}
