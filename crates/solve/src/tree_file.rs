//! A PNS or PN² tree written out and read back, so that a long run
//! outlives its process (`zoo solve --algo pns|pn2 --checkpoint FILE`).
//!
//! The moves are not written: a node's children are its position's legal
//! moves in [`zoo_core::Game::legal_moves`] order (that is how
//! [`crate::pns`] expands), so reading the tree back replays it from the
//! root and gives each child its move, checking on the way that every
//! expanded node has as many children as its position has moves. The
//! proofs PN² keeps for children its second level solved are written with
//! each move as its index among the legal moves of the position it is
//! played in. The bytes end with an FNV-1a hash of all the others: a
//! damaged file is refused, never loaded into a search.
//!
//! Layout (little endian): the magic `zoo-pnt1`; node count, expansions,
//! second-level nodes, peak held nodes (u64 each); per node
//! [`NODE_BYTES`]: pn, dn, parent, first child, children (u32 each), the
//! leaf kind and its outcome, OR (u8 each), one byte of padding; the
//! number of kept proofs (u64); per proof its node (u32), its answer (u8),
//! its node count (u32) and per proof node its parent and move index (u32
//! each), leaf kind and outcome (u8 each); the hash (u64).

use crate::leaf::End;
use crate::limits::add;
use crate::pns::{Node, Subproofs, Tree};
use crate::proof::{Proof, ProofNode};
use crate::value::{Answer, Goal};
use std::io::{self, Read, Write};
use std::time::Duration;
use zoo_core::{Game, MoveList, Outcome};

const MAGIC: &[u8; 8] = b"zoo-pnt1";

/// Bytes of one tree node in the file.
pub const NODE_BYTES: usize = 24;

/// A tree ready to be written ([`TreeView::write_to`]), as a saver is
/// handed it.
pub struct TreeView<'a> {
    /// Nodes in the first-level tree.
    pub nodes: u64,
    pub(crate) write: &'a dyn Fn(&mut dyn Write) -> io::Result<()>,
}

impl TreeView<'_> {
    /// Writes the tree (and PN²'s kept proofs), hash last.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        (self.write)(w)
    }
}

/// Called with the tree to save; an error stops the run.
pub type TreeSaver<'a> = &'a mut dyn FnMut(&TreeView<'_>) -> io::Result<()>;

/// Saving a PNS or PN² run now and then, and going on from a saved one
/// (docs/solve.md, "Long runs").
#[derive(Default)]
pub struct Resume<'a> {
    /// A saved tree to go on from (what [`TreeView::write_to`] wrote for
    /// the same root, goal and algorithm).
    pub from: Option<&'a mut dyn Read>,
    /// Called about every `Duration`, and when a limit stops the run,
    /// with the tree to save.
    pub save: Option<(TreeSaver<'a>, Duration)>,
}

/// What a run counts beside its tree, saved with it so that a resumed run
/// reports what an uninterrupted one would.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counters {
    /// PN²: nodes of every second-level tree made; PNS: nodes made and
    /// since cut off by the garbage collector.
    pub(crate) second_nodes: u64,
    /// PN²: the most nodes held at once.
    pub(crate) peak: u64,
}

/// FNV-1a over everything written or read through it.
struct Hashed<T> {
    inner: T,
    hash: u64,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl<T> Hashed<T> {
    fn new(inner: T) -> Self {
        Hashed {
            inner,
            hash: FNV_OFFSET,
        }
    }
    fn eat(&mut self, b: &[u8]) {
        for &x in b {
            self.hash = (self.hash ^ x as u64).wrapping_mul(FNV_PRIME);
        }
    }
}

impl<W: Write> Hashed<W> {
    fn put(&mut self, b: &[u8]) -> io::Result<()> {
        self.eat(b);
        self.inner.write_all(b)
    }
}

impl<R: Read> Hashed<R> {
    fn take<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut b = [0u8; N];
        self.inner.read_exact(&mut b).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                bad("the file ends before the tree does (cut short?)".into())
            } else {
                e
            }
        })?;
        self.eat(&b);
        Ok(b)
    }
    fn u64(&mut self) -> io::Result<u64> {
        Ok(u64::from_le_bytes(self.take::<8>()?))
    }
    fn u32(&mut self) -> io::Result<u32> {
        Ok(u32::from_le_bytes(self.take::<4>()?))
    }
    fn u8(&mut self) -> io::Result<u8> {
        Ok(self.take::<1>()?[0])
    }
}

/// A damaged or foreign file, with what is wrong with it.
fn bad(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

fn outcome_code(o: Outcome) -> u8 {
    match o {
        Outcome::Win => 0,
        Outcome::Draw => 1,
        Outcome::Loss => 2,
    }
}

fn end_code(end: Option<End>) -> [u8; 2] {
    match end {
        None => [0, 0],
        Some(End::Terminal(o)) => [1, outcome_code(o)],
        Some(End::NoMoves(o)) => [2, outcome_code(o)],
        Some(End::Repetition) => [3, 0],
        Some(End::Oracle(o)) => [4, outcome_code(o)],
        Some(End::Stored(o)) => [5, outcome_code(o)],
    }
}

fn end_of(b: [u8; 2]) -> Option<Option<End>> {
    let o = match b[1] {
        0 => Outcome::Win,
        1 => Outcome::Draw,
        2 => Outcome::Loss,
        _ => return None,
    };
    Some(match b[0] {
        0 => None,
        1 => Some(End::Terminal(o)),
        2 => Some(End::NoMoves(o)),
        3 => Some(End::Repetition),
        4 => Some(End::Oracle(o)),
        5 => Some(End::Stored(o)),
        _ => return None,
    })
}

/// The position of tree node `n`: the root with the moves down to it.
fn position_of<G: Game>(root: &G, tree: &Tree<G::Move>, mut n: usize) -> G {
    let mut line = Vec::new();
    while n != 0 {
        line.push(tree.nodes[n].mv.expect("a child has a move"));
        n = tree.nodes[n].parent as usize;
    }
    let mut pos = root.clone();
    for &mv in line.iter().rev() {
        pos.make(mv);
    }
    pos
}

/// Walks `children`'s tree depth first from `pos` (node 0), calling
/// `visit(pos, node, child, k)` at each child `child`, the `k`-th of
/// `node`, with `pos` at `node`; `visit` returns the child's move.
fn walk<G: Game>(
    pos: &mut G,
    children: impl Fn(usize) -> std::ops::Range<usize>,
    mut visit: impl FnMut(&G, usize, usize, usize) -> io::Result<G::Move>,
) -> io::Result<()> {
    // Per level: the node, its next child, the move that led to it.
    type Frame<G> = (usize, usize, Option<(<G as Game>::Move, <G as Game>::Undo)>);
    let mut stack: Vec<Frame<G>> = vec![(0, 0, None)];
    while let Some(top) = stack.last_mut() {
        let (n, k) = (top.0, top.1);
        let kids = children(n);
        if k >= kids.len() {
            if let Some((mv, u)) = stack.pop().and_then(|t| t.2) {
                pos.unmake(mv, u);
            }
            continue;
        }
        top.1 += 1;
        let c = kids.start + k;
        let mv = visit(pos, n, c, k)?;
        let u = pos.make(mv);
        stack.push((c, 0, Some((mv, u))));
    }
    Ok(())
}

/// Writes `tree` (searched from `root`), PN²'s kept proofs `subs` and the
/// counters to `w`.
pub(crate) fn write<G: Game>(
    w: &mut dyn Write,
    root: &G,
    tree: &Tree<G::Move>,
    subs: &Subproofs<G::Move>,
    c: Counters,
) -> io::Result<()> {
    let mut h = Hashed::new(io::BufWriter::new(w));
    h.put(MAGIC)?;
    for x in [
        tree.nodes.len() as u64,
        tree.expansions,
        c.second_nodes,
        c.peak,
    ] {
        h.put(&x.to_le_bytes())?;
    }
    for n in &tree.nodes {
        let mut b = [0u8; NODE_BYTES];
        for (i, x) in [n.pn, n.dn, n.parent, n.first_child, n.children]
            .into_iter()
            .enumerate()
        {
            b[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
        }
        b[20..22].copy_from_slice(&end_code(n.end));
        b[22] = n.or as u8;
        h.put(&b)?;
    }
    let mut keys: Vec<usize> = subs.keys().copied().collect();
    keys.sort_unstable();
    h.put(&(keys.len() as u64).to_le_bytes())?;
    let mut moves = MoveList::new();
    for k in keys {
        let proof = &subs[&k];
        let mut pos = position_of(root, tree, k);
        let mut index = vec![0u32; proof.len()];
        walk(
            &mut pos,
            |i| proof.children(i),
            |pos, _, c, _| {
                let mv = proof.nodes[c].mv.expect("a proof's child has a move");
                moves.clear();
                pos.legal_moves(&mut moves);
                index[c] = moves
                    .iter()
                    .position(|&m| m == mv)
                    .expect("a proof's move is legal") as u32;
                Ok(mv)
            },
        )?;
        h.put(&(k as u32).to_le_bytes())?;
        h.put(&[(proof.answer == Answer::Proven) as u8])?;
        h.put(&(proof.len() as u32).to_le_bytes())?;
        for (p, &i) in proof.nodes.iter().zip(&index) {
            h.put(&p.parent.to_le_bytes())?;
            h.put(&i.to_le_bytes())?;
            h.put(&end_code(p.end))?;
        }
    }
    let hash = h.hash;
    h.inner.write_all(&hash.to_le_bytes())?;
    h.inner.flush()
}

/// A kept proof's node as read: parent, move index, leaf kind.
type RawNode = (u32, u32, Option<End>);

/// What [`read`] gives back.
pub(crate) type Loaded<M> = (Tree<M>, Subproofs<M>, Counters);

/// Reads what [`write`] wrote for `root` under `goal`, refusing a file
/// that is damaged, of another position, or of more than `budget` nodes.
pub(crate) fn read<G: Game>(
    r: &mut dyn Read,
    root: &G,
    goal: Goal,
    budget: usize,
) -> io::Result<Loaded<G::Move>> {
    let mut h = Hashed::new(io::BufReader::new(r));
    if &h.take::<8>()? != MAGIC {
        return Err(bad("no saved PNS tree (wrong magic)".into()));
    }
    let count = h.u64()?;
    let expansions = h.u64()?;
    let c = Counters {
        second_nodes: h.u64()?,
        peak: h.u64()?,
    };
    if count == 0 {
        return Err(bad("a tree of no node".into()));
    }
    if count > budget as u64 {
        return Err(bad(format!(
            "the saved tree has {count} nodes, more than the limits allow ({budget}): give a larger --hash or --nodes"
        )));
    }
    let n = count as usize;
    let mut nodes: Vec<Node<G::Move>> = Vec::with_capacity(n);
    for i in 0..n {
        let b = h.take::<NODE_BYTES>()?;
        let u = |k: usize| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().expect("4 bytes"));
        let (pn, dn, parent, first_child, children) = (u(0), u(1), u(2), u(3), u(4));
        let end = end_of([b[20], b[21]])
            .filter(|_| b[22] <= 1)
            .ok_or_else(|| bad(format!("node {i}: a leaf kind {} {}", b[20], b[21])))?;
        let parent_ok = if i == 0 {
            parent == u32::MAX
        } else {
            (parent as usize) < i
        };
        let kids_ok = children == 0
            || ((first_child as usize) > i
                && first_child as u64 + children as u64 <= count
                && end.is_none());
        if !parent_ok || !kids_ok {
            return Err(bad(format!(
                "node {i}: parent {parent}, children {first_child}+{children} do not fit a tree of {count} nodes"
            )));
        }
        nodes.push(Node {
            pn,
            dn,
            parent,
            first_child,
            children,
            mv: None,
            end,
            or: b[22] == 1,
        });
    }
    let mut subs = Subproofs::new();
    let kept = h.u64()?;
    if kept > count {
        return Err(bad(format!(
            "{kept} kept proofs in a tree of {count} nodes"
        )));
    }
    // Per kept proof: its node, answer, and per proof node its parent,
    // move index and leaf kind.
    type RawProof = (usize, Answer, Vec<RawNode>);
    let mut raw: Vec<RawProof> = Vec::new();
    for _ in 0..kept {
        let k = h.u32()? as usize;
        let answer = match h.u8()? {
            1 => Answer::Proven,
            0 => Answer::Disproven,
            x => return Err(bad(format!("a kept proof's answer {x}"))),
        };
        let len = h.u32()?;
        let mut ps = Vec::new();
        for j in 0..len {
            let parent = h.u32()?;
            let index = h.u32()?;
            let end = end_of(h.take::<2>()?)
                .ok_or_else(|| bad(format!("kept proof of node {k}: node {j}'s leaf kind")))?;
            ps.push((parent, index, end));
        }
        raw.push((k, answer, ps));
    }
    let hash = h.hash;
    let mut tail = [0u8; 8];
    h.inner
        .read_exact(&mut tail)
        .map_err(|_| bad("the file ends before its hash (cut short?)".into()))?;
    if u64::from_le_bytes(tail) != hash {
        return Err(bad("its hash does not match its bytes (damaged)".into()));
    }

    // The structure: each child's parent is the node whose range holds it,
    // and each inner node's numbers are its children's (as every update
    // leaves them).
    for i in 0..n {
        let node = nodes[i];
        let kids = node.first_child as usize..(node.first_child + node.children) as usize;
        for c in kids.clone() {
            if nodes[c].parent as usize != i || nodes[c].or == node.or {
                return Err(bad(format!(
                    "node {c} is in node {i}'s children but not its child"
                )));
            }
        }
        if node.children > 0 && combine(&nodes, i) != (node.pn, node.dn) {
            return Err(bad(format!(
                "node {i}'s numbers ({}, {}) are not its children's",
                node.pn, node.dn
            )));
        }
    }
    for (i, node) in nodes.iter().enumerate().skip(1) {
        let p = &nodes[node.parent as usize];
        if !(p.first_child as usize..(p.first_child + p.children) as usize).contains(&i) {
            return Err(bad(format!("node {i} is not among its parent's children")));
        }
    }
    // The moves, replayed from the root.
    let mut tree = Tree { nodes, expansions };
    let mut pos = root.clone();
    let mut moves = MoveList::new();
    {
        let nodes = &mut tree.nodes;
        let ranges: Vec<(u32, u32)> = nodes.iter().map(|x| (x.first_child, x.children)).collect();
        walk(
            &mut pos,
            |i| ranges[i].0 as usize..(ranges[i].0 + ranges[i].1) as usize,
            |pos, p, c, k| {
                // Generated again for each child: the walk has been down
                // the previous child's subtree in between.
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.len() != ranges[p].1 as usize {
                    return Err(bad(format!(
                        "node {p} has {} children where its position has {} moves (another position?)",
                        ranges[p].1,
                        moves.len()
                    )));
                }
                let mv = moves[k];
                nodes[c].mv = Some(mv);
                Ok(mv)
            },
        )?;
    }
    for (k, answer, ps) in raw {
        let node = tree.nodes.get(k).copied();
        let solved = node.is_some_and(|x| {
            x.children == 0
                && x.end.is_none()
                && (x.pn, x.dn) == crate::pns::solved(answer == Answer::Proven)
        });
        if !solved || ps.is_empty() {
            return Err(bad(format!(
                "a kept proof at node {k}, which is not a solved unexpanded node"
            )));
        }
        let proof = proof_of(root, &tree, k, goal, answer, &ps)?;
        subs.insert(k, proof);
    }
    Ok((tree, subs, c))
}

/// A node's numbers from its children's.
fn combine<M>(nodes: &[Node<M>], i: usize) -> (u32, u32) {
    let node = &nodes[i];
    let kids = node.first_child as usize..(node.first_child + node.children) as usize;
    let (mut pn, mut dn);
    if node.or {
        (pn, dn) = (crate::INF, 0);
        for c in kids {
            pn = pn.min(nodes[c].pn);
            dn = add(dn, nodes[c].dn);
        }
    } else {
        (pn, dn) = (0, crate::INF);
        for c in kids {
            pn = add(pn, nodes[c].pn);
            dn = dn.min(nodes[c].dn);
        }
    }
    if pn == 0 {
        dn = crate::INF;
    }
    if dn == 0 {
        pn = crate::INF;
    }
    (pn, dn)
}

/// A kept proof read back: breadth first (parents in order), its moves
/// replayed from tree node `k`'s position.
fn proof_of<G: Game>(
    root: &G,
    tree: &Tree<G::Move>,
    k: usize,
    goal: Goal,
    answer: Answer,
    ps: &[RawNode],
) -> io::Result<Proof<G::Move>> {
    let wrong = |j: usize| bad(format!("kept proof of node {k}: node {j} out of order"));
    let mut nodes: Vec<ProofNode<G::Move>> = Vec::with_capacity(ps.len());
    for (j, &(parent, _, end)) in ps.iter().enumerate() {
        if j == 0 {
            if parent != u32::MAX {
                return Err(wrong(0));
            }
        } else {
            let last = if j == 1 { 0 } else { ps[j - 1].0 };
            if parent as usize >= j || parent < last {
                return Err(wrong(j));
            }
            let p = &mut nodes[parent as usize];
            if p.children == 0 {
                p.first_child = j as u32;
            }
            p.children += 1;
        }
        nodes.push(ProofNode {
            parent,
            mv: None,
            end,
            first_child: 0,
            children: 0,
            same: None,
        });
    }
    let mut proof = Proof {
        goal,
        answer,
        nodes,
    };
    let mut pos = position_of(root, tree, k);
    let ranges: Vec<std::ops::Range<usize>> = (0..proof.len()).map(|i| proof.children(i)).collect();
    let mut moves = MoveList::new();
    let pnodes = &mut proof.nodes;
    walk(
        &mut pos,
        |i| ranges[i].clone(),
        |pos, _, c, _| {
            moves.clear();
            pos.legal_moves(&mut moves);
            let mv = *moves.get(ps[c].1 as usize).ok_or_else(|| {
                bad(format!(
                    "kept proof of node {k}: node {c}'s move {} of {}",
                    ps[c].1,
                    moves.len()
                ))
            })?;
            pnodes[c].mv = Some(mv);
            Ok(mv)
        },
    )?;
    Ok(proof)
}
