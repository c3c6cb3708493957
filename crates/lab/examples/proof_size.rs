//! How big a proof must be: the positions of a proof of a Jungle Checkers
//! win (or loss) down to the tables of `STOP` pieces, the winner always
//! playing a move that keeps to the tables' shortest win, the loser every
//! move. A lower bound of sorts on what proof search two pieces past the
//! tables has to hold (docs/solve.md, "Two pieces past the tables").
//!
//! ```text
//! zoo tb build --game jungle-checkers --pieces 5 --dir JC5
//! cargo run --profile ci -p zoo-lab --example proof_size -- JC5 "t6/5e1/5T1/7/2D4/7/E6 w" 3
//! ```

use anyhow::{anyhow, bail, Context, Result};
use std::collections::{HashSet, VecDeque};
use zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN as RULES;
use zoo_animal::{JungleCheckers, JungleCheckersPos};
use zoo_animal_tb::TbOracle;
use zoo_core::{Game, MoveList, Oracle, Outcome};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (dir, fen, stop, keeper) = match args.as_slice() {
        [_, dir, fen, stop] => (dir, fen, stop, None),
        [_, dir, fen, stop, who] => (dir, fen, stop, Some(who.as_str())),
        _ => bail!(
            "usage: proof_size TABLES_DIR FEN STOP_PIECES [me|other: at a draw, whose not-lose]"
        ),
    };
    let stop: u32 = stop.parse().context("STOP_PIECES: a number")?;
    let tables = TbOracle::<JungleCheckers>::open(std::path::Path::new(dir), &RULES)
        .ok_or_else(|| anyhow!("no Jungle Checkers tables in {dir}"))?;
    let root = JungleCheckersPos::from_fen(fen, &&RULES).map_err(|e| anyhow!("{e}"))?;
    let value = |p: &JungleCheckersPos| {
        tables
            .probe(p)
            .ok_or_else(|| anyhow!("the tables do not hold {}", p.to_fen()))
    };
    let v = value(&root)?;
    // At a draw the prover keeps the draw (its `not-lose`): any move the
    // tables do not value as a loss for it.
    let draw = v.outcome == Outcome::Draw;
    let winner = if draw {
        match keeper {
            Some("me") => root.side_to_move(),
            Some("other") => root.side_to_move().flip(),
            _ => bail!("{fen} is a draw: say whose not-lose (me or other)"),
        }
    } else if v.outcome == Outcome::Win {
        root.side_to_move()
    } else {
        root.side_to_move().flip()
    };
    let plies = v.distance.map_or("?".to_string(), |d| d.to_string());
    println!("{fen}: {:?} in {plies} plies", v.outcome);
    let mut seen = HashSet::from([root.key()]);
    let mut queue = VecDeque::from([root]);
    let (mut inner, mut leaves) = ([0u64; 9], [0u64; 9]);
    let mut moves = MoveList::new();
    while let Some(p) = queue.pop_front() {
        let n = p.piece_count() as usize;
        if p.terminal().is_some() || p.piece_count() <= stop {
            leaves[n] += 1;
            continue;
        }
        inner[n] += 1;
        moves.clear();
        p.legal_moves(&mut moves);
        let mut kids = Vec::new();
        if p.side_to_move() == winner && draw {
            for &mv in &moves {
                let mut c = p.clone();
                c.make(mv);
                let keeps = match c.terminal() {
                    Some(o) => o != Outcome::Win,
                    None => value(&c)?.outcome != Outcome::Win,
                };
                if keeps {
                    kids.push(c);
                    break;
                }
            }
        } else if p.side_to_move() == winner {
            let d = value(&p)?
                .distance
                .context("the tables hold no distances")?;
            // One move down the shortest win.
            for &mv in &moves {
                let mut c = p.clone();
                c.make(mv);
                let keeps = c.terminal().is_some() || {
                    let cv = value(&c)?;
                    cv.outcome == Outcome::Loss && cv.distance.map(|x| x + 1) == Some(d)
                };
                if keeps {
                    kids.push(c);
                    break;
                }
            }
        } else {
            for &mv in &moves {
                let mut c = p.clone();
                c.make(mv);
                kids.push(c);
            }
        }
        for c in kids {
            if seen.insert(c.key()) {
                queue.push_back(c);
            }
        }
    }
    println!(
        "inner positions by pieces: {:?}",
        &inner[stop as usize + 1..]
    );
    println!("leaves by pieces: {:?}", &leaves[..]);
    println!(
        "in all: {} positions, {} inner",
        seen.len(),
        inner.iter().sum::<u64>()
    );
    Ok(())
}
