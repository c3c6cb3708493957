//! Shared by the solver's tests: the 3-piece tables built once per test
//! binary, reproducible positions, and a replay of proofs that shares no
//! code with the solver's search.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use zoo_animal::board::{bit, Board, RAT};
use zoo_animal::{Jungle, JungleCheckers, Position, RuleSet};
use zoo_core::{Game, History, MoveList, Oracle, OracleValue, Outcome, Repetition, Side};
use zoo_solve::{Answer, End, Goal, Proof};

/// Builds the tables of `rules` up to `pieces` pieces in a fresh directory.
/// These are zoo-tb's only build calls in the solver's tests (its API is
/// about to change).
fn build<B: Board>(name: &str, rules: &'static RuleSet, pieces: u32) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("zoo-solve-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = zoo_animal_tb::build::BuildOptions {
        pieces,
        threads: 2,
        memory_bytes: None,
        encoding: None,
        copies: true,
        checkpoint_from: None,
    };
    let stop = AtomicBool::new(false);
    let plan = zoo_animal_tb::plan::plan::<B>(&dir, rules, &opts).expect("a plan");
    zoo_animal_tb::build::build::<B>(&dir, rules, &opts, &plan, &|_| {}, &|_| {}, &stop)
        .expect("tables build");
    dir
}

pub fn jc3() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| build::<JungleCheckers>("jc", &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 3))
}

/// The Jungle Checkers tables up to 4 pieces (about 10 s on 2 cores).
pub fn jc4() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| build::<JungleCheckers>("jc4", &zoo_animal::rules::JUNGLE_CHECKERS_LEIDEN, 4))
}

pub fn jungle3() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| build::<Jungle>("jungle", &zoo_animal::rules::JUNGLE_LEIDEN, 3))
}

pub use zoo_testkit::Rng;

/// A random unfinished position with exactly `pieces` pieces, both sides
/// present, each piece on a square it may stand on (no den, water only for
/// rats), either side to move.
pub fn placement<B: Board>(rules: &'static RuleSet, rng: &mut Rng, pieces: u32) -> Position<B> {
    loop {
        let mut pos = Position::<B>::empty(rules);
        let white = 1 + rng.below(pieces as u64 - 1) as u32;
        let mut placed = 0;
        while placed < pieces {
            let side = if placed < white {
                Side::White
            } else {
                Side::Black
            };
            let kind = rng.below(B::KINDS as u64) as usize;
            if pos.square_of(side, kind).is_some() {
                continue;
            }
            let s = rng.below(B::SQUARES as u64) as u8;
            let water_ok = kind == RAT || B::WATER & bit(s) == 0;
            if pos.piece_at(s).is_none() && water_ok && !B::DEN.contains(&s) {
                pos.put(side, kind, s);
                placed += 1;
            }
        }
        if rng.below(2) == 1 {
            pos.set_side_to_move(Side::Black);
        }
        if pos.outcome().is_none() {
            return pos;
        }
    }
}

/// An oracle that knows only the positions of at most `max` pieces of
/// another: the 3-piece tables serve as 2-piece ones.
pub struct Fewer<'a, G> {
    pub inner: &'a dyn Oracle<G>,
    pub max: u32,
}

impl<G: Game> Oracle<G> for Fewer<'_, G> {
    fn max_pieces(&self) -> u32 {
        self.max
    }
    fn probe(&self, pos: &G) -> Option<OracleValue> {
        if pos.piece_count() > self.max {
            return None;
        }
        self.inner.probe(pos)
    }
}

/// The tables' values beyond `fewer.max` pieces given as bounds
/// ([`Oracle::bounds`], as a proof store gives them), for some positions
/// only and often one-sided, chosen by the key: a tenth of the positions
/// get the exact value, a fifth the bound on one side only, the rest
/// none. Every bound is true, so every answer must stay right.
pub struct Bounded<'a, G> {
    pub fewer: Fewer<'a, G>,
}

impl<G: Game> Oracle<G> for Bounded<'_, G> {
    fn max_pieces(&self) -> u32 {
        self.fewer.max
    }
    fn probe(&self, pos: &G) -> Option<OracleValue> {
        self.fewer.probe(pos)
    }
    fn bounds(&self, pos: &G) -> Option<(Outcome, Outcome)> {
        let v = self.fewer.inner.probe(pos)?.outcome;
        match pos.key() % 10 {
            0 => Some((v, v)),
            1 => Some((v, Outcome::Win)),
            2 => Some((Outcome::Loss, v)),
            _ => None,
        }
    }
}

/// Replays `proof` from `root` with the rules alone and checks every step:
/// the moves are legal, where the losing side of the question moves every
/// legal move is answered, each leaf is what it says (a finished game, a
/// repetition of the path, the oracle's value) and gives the answer.
/// Returns the number of nodes checked.
pub fn replay<G: Game>(root: &G, proof: &Proof<G::Move>, oracle: Option<&dyn Oracle<G>>) -> usize {
    assert_ne!(proof.answer, Answer::Unknown);
    let attacker = root.side_to_move();
    let mut hist = History::starting_at(Repetition::First, root.key(), root.piece_count());
    let mut pos = root.clone();
    if (proof.goal == Goal::NotLose) != (proof.answer == Answer::Proven) {
        assert!(acyclic(proof), "a line through same leaves comes back");
    }
    walk(root, &mut pos, &mut hist, proof, 0, attacker, oracle)
}

/// Whether no line of `proof`, going on at a `same J` leaf from node J,
/// comes back to a node it passed.
fn acyclic<M>(proof: &Proof<M>) -> bool {
    // Kahn's order: every node's in-degree from children and same leaves.
    let n = proof.nodes.len();
    let next = |i: usize| -> Vec<usize> {
        match proof.nodes[i].same {
            Some(j) => vec![j as usize],
            None => proof.children(i).collect(),
        }
    };
    let mut indegree = vec![0usize; n];
    for i in 0..n {
        for c in next(i) {
            indegree[c] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut done = 0;
    while let Some(i) = ready.pop() {
        done += 1;
        for c in next(i) {
            indegree[c] -= 1;
            if indegree[c] == 0 {
                ready.push(c);
            }
        }
    }
    done == n
}

/// The position of node `j`: its line's moves played from `root`.
pub fn position_of<G: Game>(root: &G, proof: &Proof<G::Move>, j: usize) -> G {
    let mut line = Vec::new();
    let mut k = j;
    while k != 0 {
        line.push(proof.nodes[k].mv.unwrap());
        k = proof.nodes[k].parent as usize;
    }
    let mut pos = root.clone();
    for mv in line.into_iter().rev() {
        pos.make(mv);
    }
    pos
}

fn walk<G: Game>(
    root: &G,
    pos: &mut G,
    hist: &mut History,
    proof: &Proof<G::Move>,
    i: usize,
    attacker: Side,
    oracle: Option<&dyn Oracle<G>>,
) -> usize {
    let node = &proof.nodes[i];
    let ours = pos.side_to_move() == attacker;
    if let Some(j) = node.same {
        // Play goes on from node j, of the same position: a line that
        // goes on forever is a repetition draw, which must meet the claim.
        assert_eq!(position_of(root, proof, j as usize).key(), pos.key());
        assert!(
            proof.nodes[j as usize].children > 0,
            "same {j}: an inner node"
        );
        // Where a draw misses the claim, no line may come back to a node
        // it passed: `acyclic`, asserted once for the whole proof.
        return 1;
    }
    if let Some(end) = node.end {
        let o = match end {
            End::Terminal(o) => {
                assert_eq!(pos.terminal(), Some(o), "{}", pos.to_fen());
                o
            }
            End::Repetition => {
                assert!(hist.is_draw(), "no repetition at {}", pos.to_fen());
                Outcome::Draw
            }
            End::NoMoves(o) => {
                assert_eq!(pos.count_moves(), 0);
                assert_eq!(pos.no_moves_outcome(), o);
                o
            }
            End::Oracle(o) => {
                let probed = oracle.and_then(|t| t.probe(pos)).map(|v| v.outcome);
                assert_eq!(probed, Some(o), "{}", pos.to_fen());
                o
            }
            End::Stored(o) => {
                let (lo, hi) = oracle.and_then(|t| t.bounds(pos)).expect("stored bounds");
                assert!(o == lo || o == hi, "{}", pos.to_fen());
                o
            }
        };
        let for_attacker = if ours { o } else { o.flip() };
        let achieved = match for_attacker {
            Outcome::Win => true,
            Outcome::Draw => proof.goal == Goal::NotLose,
            Outcome::Loss => false,
        };
        assert_eq!(achieved, proof.answer == Answer::Proven, "{}", pos.to_fen());
        return 1;
    }
    // An inner node may repeat a position of its path where a draw misses
    // the claim (the ply-bounded derivation's repeats): every line of the
    // finite proof ends in a win, so the winner can play at the first
    // occurrence as below the last. `zoo-proofcheck` accepts them alike.
    let draw_misses = (proof.goal == Goal::NotLose) != (proof.answer == Answer::Proven);
    assert!(pos.terminal().is_none() && (draw_misses || !hist.is_draw()));
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let kids = proof.children(i);
    let moves: Vec<G::Move> = kids.clone().map(|c| proof.nodes[c].mv.unwrap()).collect();
    if ours == (proof.answer == Answer::Proven) {
        assert_eq!(moves.len(), 1, "one move where the winning side chooses");
        assert!(legal.contains(&moves[0]));
    } else {
        assert_eq!(moves.len(), legal.len(), "every move answered");
        assert!(legal.iter().all(|m| moves.contains(m)));
    }
    let mut count = 1;
    for c in kids {
        let mv = proof.nodes[c].mv.unwrap();
        let u = pos.make(mv);
        hist.push(pos.key(), pos.piece_count());
        count += walk(root, pos, hist, proof, c, attacker, oracle);
        hist.pop();
        pos.unmake(mv, u);
    }
    count
}
