//! Replaying a proof tree with the rules.
//!
//! A `same J` leaf says that play goes on as from node J, of the same
//! position. The proof is then a graph: it gives the choosing side a move
//! in every position it reaches, and every line of it either ends at a
//! leaf or goes on forever, and one that goes on forever passes a
//! position twice, which the rules make a draw (or an earlier
//! repetition does). So a `same` leaf is accepted where a draw meets the
//! claim, as a repetition leaf is. Where a draw misses the claim, `same`
//! leaves are accepted only when no line through them comes back to a
//! node it passed (the graph has no cycle): then every line ends at a
//! leaf, each of which meets the claim.

use crate::read::{self, End, Goal, Node};
use crate::{err, CheckError};
use zoo_core::{Game, MoveList, Outcome, Side};

/// What a checked proof showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The header, as checked.
    pub header: read::Header,
    /// Node lines.
    pub nodes: usize,
    /// Leaves among them.
    pub leaves: usize,
    /// Leaves that are table positions.
    pub table_leaves: usize,
}

/// The position without its move counters, to compare positions on a
/// path: the fields of its FEN that are not plain numbers.
fn placement<G: Game>(pos: &G) -> String {
    pos.to_fen()
        .split_whitespace()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tables' value of a position for its side to move, or why they
/// give none (not covered, a table missing or damaged).
pub type Probe<'a, G> = &'a dyn Fn(&G) -> Result<Outcome, String>;

/// Checks the proof file `text` of game `G` under `rules`, with `table`
/// giving the tables' value of a position (for the side to move) where the
/// file has table leaves.
pub fn check<G: Game>(
    text: &str,
    rules: &G::Rules,
    table: Option<Probe<'_, G>>,
) -> Result<Checked, CheckError> {
    let header = read::header(text)?;
    let root =
        G::from_fen(&header.fen, rules).or_else(|e| err(4, format!("the root position: {e}")))?;
    if root.game_name() != header.game {
        return err(
            2,
            format!(
                "a proof of {}, checked as {}",
                header.game,
                root.game_name()
            ),
        );
    }
    if root.rules_name() != header.rules {
        return err(
            3,
            format!(
                "rule set {}, checked under {}",
                header.rules,
                root.rules_name()
            ),
        );
    }
    let nodes = read::nodes(text, header.nodes)?;
    if nodes.is_empty() {
        return err(7, "a proof has a root node");
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            children[p].push(i);
        }
    }
    let attacker = root.side_to_move();
    // The side that picks the moves the proof follows: the attacker when
    // the goal holds, else its opponent.
    let chooser = if header.proven {
        attacker
    } else {
        attacker.flip()
    };
    let mut leaves = 0;
    let mut table_leaves = 0;
    // Depth first without recursion (a file may hold a very deep line):
    // per level the node, its position and the next child to visit.
    let mut path: Vec<(usize, G, usize)> = vec![(0, root, 0)];
    // The positions of the nodes `same` leaves point to, and of the
    // leaves, compared once all are known.
    let mut targets: std::collections::HashMap<usize, String> = nodes
        .iter()
        .filter_map(|n| match n.end {
            End::Same(j) => Some((j, String::new())),
            _ => None,
        })
        .collect();
    let mut sames: Vec<(usize, String)> = Vec::new();
    // A draw meets the claim of a disproof of `win` and a proof of
    // `not-lose`.
    let draws_meet = (header.goal == Goal::Win) != header.proven;
    let mut seen: Vec<String> = Vec::new();
    let mut first = true;
    while let Some((i, pos, next)) = path.last_mut() {
        let (i, next_child) = (*i, *next);
        if first {
            first = false;
            let n = &nodes[i];
            let here = placement(&*pos);
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let over = pos.terminal();
            if let Some(t) = targets.get_mut(&i) {
                *t = here.clone();
            }
            match n.end {
                End::Inner => {
                    if over.is_some() {
                        return err(n.line, "the game is over here, but the line goes on");
                    }
                    inner(n, &*pos, &legal, &children[i], &nodes, chooser)?;
                }
                leaf => {
                    leaves += 1;
                    let o = match leaf {
                        End::Terminal(o) => {
                            if over != Some(o) {
                                return err(
                                    n.line,
                                    format!(
                                        "not a finished game with that result (the rules say {})",
                                        said(over)
                                    ),
                                );
                            }
                            o
                        }
                        End::NoMoves(o) => {
                            if over.is_some() || !legal.is_empty() {
                                return err(n.line, "the side to move has a move here");
                            }
                            if pos.no_moves_outcome() != o {
                                return err(
                                    n.line,
                                    "no legal move, but the rules give another result",
                                );
                            }
                            o
                        }
                        End::Repetition => {
                            if over.is_some() || !seen.contains(&here) {
                                return err(n.line, "no earlier position on its path repeats here");
                            }
                            Outcome::Draw
                        }
                        End::Same(_) => {
                            // Play goes on from the node of the same
                            // position (compared below). Where a draw
                            // meets the claim, a line that goes on forever
                            // repeats a position: a draw. Where it misses,
                            // no line may go on forever (checked below),
                            // and the leaves it reaches meet the claim.
                            if over.is_some() {
                                return err(n.line, "the game is over here, but play goes on");
                            }
                            sames.push((i, here.clone()));
                            if !draws_meet {
                                seen.push(here);
                                continue;
                            }
                            Outcome::Draw
                        }
                        End::Table(o) => {
                            let Some(probe) = table else {
                                return err(
                                    n.line,
                                    "a table position: give the tables to check it (--tb)",
                                );
                            };
                            table_leaves += 1;
                            match probe(&*pos) {
                                Ok(v) if v == o => o,
                                Ok(v) => return err(n.line, format!("the tables say {}", name(v))),
                                Err(why) => {
                                    return err(n.line, format!("the tables give no value: {why}"))
                                }
                            }
                        }
                        End::Inner => unreachable!("matched above"),
                    };
                    let for_attacker = if pos.side_to_move() == attacker {
                        o
                    } else {
                        o.flip()
                    };
                    let achieved = match header.goal {
                        Goal::Win => for_attacker == Outcome::Win,
                        Goal::NotLose => for_attacker != Outcome::Loss,
                    };
                    if achieved != header.proven {
                        return err(
                            n.line,
                            format!(
                                "a {} for the side that asked, which {} the goal",
                                name(for_attacker),
                                if achieved { "meets" } else { "misses" }
                            ),
                        );
                    }
                }
            }
            seen.push(here);
        }
        let Some(&c) = children[i].get(next_child) else {
            path.pop();
            seen.pop();
            continue;
        };
        let (_, pos, next) = path.last_mut().expect("not empty");
        *next += 1;
        let mv = nodes[c].mv.as_deref().unwrap_or("");
        let m = find_move(&*pos, mv).ok_or_else(|| CheckError {
            line: nodes[c].line,
            message: format!("{mv} is not a legal move here"),
        })?;
        let mut child = pos.clone();
        child.make(m);
        path.push((c, child, 0));
        first = true;
    }
    for (i, here) in sames {
        let n = &nodes[i];
        let End::Same(j) = n.end else {
            unreachable!("only same leaves are kept")
        };
        if targets.get(&j) != Some(&here) {
            return err(n.line, format!("node {j} is not the same position"));
        }
    }
    if !draws_meet {
        if let Some(line) = cycle(&nodes, &children) {
            return err(
                line,
                "play through this same leaf comes back to where it was: a line that goes on \
                 forever is a draw, which misses the claim",
            );
        }
    }
    Ok(Checked {
        header,
        nodes: nodes.len(),
        leaves,
        table_leaves,
    })
}

/// The line of a `same` leaf through which play returns to a node it
/// passed, if any: a depth-first walk of the nodes, each going on to its
/// children or, at a `same J` leaf, to node J (without recursion: a file
/// may hold a very deep line).
fn cycle(nodes: &[Node], children: &[Vec<usize>]) -> Option<usize> {
    // 0: not reached, 1: on the walk's current line, 2: every line below done.
    let mut state = vec![0u8; nodes.len()];
    let next = |i: usize| -> Vec<usize> {
        match nodes[i].end {
            End::Same(j) => vec![j],
            _ => children[i].clone(),
        }
    };
    let mut stack: Vec<(usize, Vec<usize>)> = vec![(0, next(0))];
    state[0] = 1;
    while let Some((i, todo)) = stack.last_mut() {
        let i = *i;
        match todo.pop() {
            Some(c) => match state[c] {
                0 => {
                    state[c] = 1;
                    let below = next(c);
                    stack.push((c, below));
                }
                1 => return Some(nodes[i].line),
                _ => {}
            },
            None => {
                state[i] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// The legal move of `pos` written `text` in coordinates.
fn find_move<G: Game>(pos: &G, text: &str) -> Option<G::Move> {
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    legal
        .iter()
        .copied()
        .find(|&m| pos.move_to_coord(m) == text)
}

/// An inner node: the moves below it are legal, and all of them where the
/// side that does not choose is to move.
fn inner<G: Game>(
    n: &Node,
    pos: &G,
    legal: &MoveList<G::Move>,
    kids: &[usize],
    nodes: &[Node],
    chooser: Side,
) -> Result<(), CheckError> {
    if kids.is_empty() {
        return err(
            n.line,
            "an inner node without moves (the line ends without saying why)",
        );
    }
    let mut written: Vec<&str> = kids
        .iter()
        .map(|&c| nodes[c].mv.as_deref().unwrap_or(""))
        .collect();
    written.sort_unstable();
    if let Some(w) = written.windows(2).find(|w| w[0] == w[1]) {
        return err(n.line, format!("the move {} is given twice below it", w[0]));
    }
    if pos.side_to_move() != chooser {
        let mut all: Vec<String> = legal.iter().map(|&m| pos.move_to_coord(m)).collect();
        all.sort_unstable();
        if let Some(missing) = all
            .iter()
            .find(|m| written.binary_search(&m.as_str()).is_err())
        {
            return err(n.line, format!("the reply {missing} is missing below it: every move of the side that does not choose must be answered"));
        }
    }
    Ok(())
}

fn name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

fn said(o: Option<Outcome>) -> String {
    match o {
        Some(o) => format!("a {} for the side to move", name(o)),
        None => "the game goes on".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(parent: Option<usize>, end: End) -> Node {
        Node {
            line: 8 + parent.map_or(0, |p| p + 1),
            parent,
            mv: None,
            end,
        }
    }

    fn children_of(nodes: &[Node]) -> Vec<Vec<usize>> {
        let mut c = vec![Vec::new(); nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                c[p].push(i);
            }
        }
        c
    }

    #[test]
    fn a_same_leaf_back_to_its_line_is_a_cycle_and_one_across_is_not() {
        // 0 -> 1 -> 2 (same 0): play returns to the root.
        let back = [
            node(None, End::Inner),
            node(Some(0), End::Inner),
            node(Some(1), End::Same(0)),
        ];
        assert!(cycle(&back, &children_of(&back)).is_some());
        // 0 -> {1 -> 3 (terminal), 2 (same 1)}: a shared subtree, no cycle.
        let across = [
            node(None, End::Inner),
            node(Some(0), End::Inner),
            node(Some(0), End::Same(1)),
            node(Some(1), End::Terminal(Outcome::Loss)),
        ];
        assert!(cycle(&across, &children_of(&across)).is_none());
    }
}
