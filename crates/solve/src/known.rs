//! Answers and proofs where the value of every position a root reaches
//! is known: from its reachable graph ([`crate::graph`]) or from its
//! material's whole table ([`crate::material`]). The side the answer
//! favours plays a best move, the other every move; no search.

use crate::leaf::{settled, End};
use crate::limits::{Derivation, NoProof, Progress, Report, INF, PROGRESS_EVERY};
use crate::proof::{Proof, ProofNode};
use crate::value::{Answer, Goal};
use std::collections::{HashMap, VecDeque};
use std::time::Instant;
use zoo_core::{Game, MoveList, Oracle, Outcome};

/// At most this many nodes in a proof.
pub const MAX_PROOF_NODES: usize = 20_000_000;

/// Where the search stops, as the other algorithms' [`crate::Leaves`] say
/// it, without the repetition (values known for every position have
/// none): `None` with the moves in `moves` at an inner position, else the
/// leaf with its distance (the oracle's where it knows one, else 0).
pub(crate) fn leaf<G: Game>(
    pos: &G,
    oracle: Option<&dyn Oracle<G>>,
    moves: &mut MoveList<G::Move>,
) -> Option<(End, u16)> {
    moves.clear();
    if let Some(o) = pos.terminal() {
        return Some((End::Terminal(o), 0));
    }
    settled(pos, oracle, oracle.map_or(0, |o| o.max_pieces()), moves)
}

/// What the valuation cost, for the report, and where the proof's
/// progress goes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cost {
    pub nodes: u64,
    pub expansions: u64,
    pub bytes: u64,
    pub seconds: f64,
    /// [`crate::Limits::progress`] of the run that valued it: told about
    /// every [`PROGRESS_EVERY`] how many proof nodes are written.
    pub progress: Option<fn(&Progress)>,
}

/// The answer to `goal` at `root`, whose value is `value`, as the other
/// algorithms report one, with its proof when `proof` asks for it.
/// `values` gives the value and distance of every inner position the
/// proof meets (the fewest plies to a win, the most to a loss).
pub(crate) fn report<G: Game>(
    root: &G,
    oracle: Option<&dyn Oracle<G>>,
    goal: Goal,
    value: Outcome,
    proof: bool,
    values: &dyn Fn(&G) -> Option<(Outcome, u16)>,
    cost: Cost,
) -> Report<G::Move> {
    let holds = match goal {
        Goal::Win => value == Outcome::Win,
        Goal::NotLose => value != Outcome::Loss,
    };
    let answer = if holds {
        Answer::Proven
    } else {
        Answer::Disproven
    };
    let start = Instant::now();
    let (proof, derivation) = if proof {
        let p = write_proof(root, oracle, goal, answer, values, &cost);
        let failed = p.is_none().then_some(NoProof::TooLarge);
        (
            p,
            Some(Derivation {
                calls: 0,
                seconds: start.elapsed().as_secs_f64(),
                failed,
            }),
        )
    } else {
        (None, None)
    };
    Report {
        goal,
        answer,
        pn: if holds { 0 } else { INF },
        dn: if holds { INF } else { 0 },
        nodes: cost.nodes,
        expansions: cost.expansions,
        bytes: cost.bytes,
        held: cost.bytes,
        seconds: cost.seconds + start.elapsed().as_secs_f64(),
        derivation,
        proof,
        samples: Vec::new(),
    }
}

/// The proof of `answer` to `goal`: the side the answer favours plays a
/// best move (the nearest win; where a draw meets its claim, a drawing
/// move when it has no win), the other side every move. A position met
/// again after its first inner node is a `same` leaf pointing there:
/// where a draw meets the claim, a line through them that goes on for
/// ever is a draw; where it does not, the distance falls along every
/// move written, so no line returns (the checker refuses a cycle there).
/// Breadth first, so a node's children are consecutive. `None` past
/// [`MAX_PROOF_NODES`] or where `values` does not know a position.
fn write_proof<G: Game>(
    root: &G,
    oracle: Option<&dyn Oracle<G>>,
    goal: Goal,
    answer: Answer,
    values: &dyn Fn(&G) -> Option<(Outcome, u16)>,
    cost: &Cost,
) -> Option<Proof<G::Move>> {
    let start = Instant::now();
    let mut last = start;
    let attacker = root.side_to_move();
    let chooser = if answer == Answer::Proven {
        attacker
    } else {
        attacker.flip()
    };
    // A draw meets the claim of a disproof of `win` and a proof of
    // `not-lose`.
    let draws_meet = (goal == Goal::Win) != (answer == Answer::Proven);
    let mut nodes = vec![ProofNode {
        parent: u32::MAX,
        mv: None,
        end: None,
        first_child: 0,
        children: 0,
        same: None,
    }];
    // The proof node of each position's inner node, once written.
    let mut inner_of: HashMap<u64, u32> = HashMap::new();
    let mut queue: VecDeque<(usize, G)> = VecDeque::from([(0, root.clone())]);
    let mut moves = MoveList::new();
    while let Some((id, pos)) = queue.pop_front() {
        if let Some(f) = cost.progress {
            if id % 4096 == 0 && last.elapsed() >= PROGRESS_EVERY {
                last = Instant::now();
                f(&Progress {
                    nodes: cost.nodes,
                    bytes: cost.bytes,
                    seconds: cost.seconds + start.elapsed().as_secs_f64(),
                    root: None,
                    deriving: Some((0, nodes.len() as u64)),
                });
            }
        }
        if let Some((end, _)) = leaf(&pos, oracle, &mut moves) {
            nodes[id].end = Some(end);
            continue;
        }
        match inner_of.entry(pos.key()) {
            std::collections::hash_map::Entry::Occupied(e) => {
                nodes[id].same = Some(*e.get());
                continue;
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(id as u32);
            }
        }
        let chosen: Vec<G::Move> = if pos.side_to_move() == chooser {
            // The child best for the chooser: lost for its side to move
            // the soonest, else (where draws meet) drawn, a drawn one
            // already written first: it is a `same` leaf, and the proof
            // does not grow there.
            let mut best: Option<(u8, u16, G::Move)> = None;
            for &m in moves.iter() {
                let mut child = pos.clone();
                child.make(m);
                // The values first: a leaf's test generates its moves.
                let (x, d) = match values(&child) {
                    Some(v) => v,
                    None => leaf(&child, oracle, &mut MoveList::new())
                        .map(|(end, d)| (end.outcome(), d))?,
                };
                let rank = match x {
                    Outcome::Loss => 0,
                    Outcome::Draw if draws_meet && inner_of.contains_key(&child.key()) => 1,
                    Outcome::Draw if draws_meet => 2,
                    _ => continue,
                };
                if best.is_none_or(|(r, bd, _)| (rank, d) < (r, bd)) {
                    best = Some((rank, d, m));
                }
            }
            vec![best?.2]
        } else {
            moves.iter().copied().collect()
        };
        nodes[id].first_child = nodes.len() as u32;
        nodes[id].children = chosen.len() as u32;
        for m in chosen {
            if nodes.len() >= MAX_PROOF_NODES {
                return None;
            }
            let mut child = pos.clone();
            child.make(m);
            queue.push_back((nodes.len(), child));
            nodes.push(ProofNode {
                parent: id as u32,
                mv: Some(m),
                end: None,
                first_child: 0,
                children: 0,
                same: None,
            });
        }
    }
    Some(Proof {
        goal,
        answer,
        nodes,
    })
}
