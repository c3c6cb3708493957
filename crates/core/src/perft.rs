//! Move-path counting. A finished game (terminal, no legal move, or a
//! repetition draw under the history's policy) is a leaf where it stands
//! ([`Counting::FinishedAsLeaves`], the rules pages' §8); chess engines and
//! JCEI engines count only the paths of the full length instead
//! ([`Counting::FullLength`]: a game that ends earlier counts 0).
//! The last ply is counted without making the moves (bulk counting).

use crate::{Game, History, MoveList, Repetition};
use rayon::prelude::*;

/// Which paths a count counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Counting {
    /// Every path to depth `d` or to a finished game before it (each
    /// finished game is one leaf where it stands): zoo's published counts.
    #[default]
    FinishedAsLeaves,
    /// Only the paths of exactly `d` plies; a game that ends earlier
    /// (a den entered, the last piece taken, no legal move) counts 0, as
    /// chess's perft and the JCEI engines' `perft` count. The two agree
    /// wherever no game ends within `d - 1` plies.
    FullLength,
}

impl Counting {
    /// The count of a finished game (or a repetition draw) with `depth`
    /// plies still to go.
    fn finished(self, depth: u32) -> u64 {
        match self {
            Counting::FinishedAsLeaves => 1,
            Counting::FullLength => u64::from(depth == 0),
        }
    }

    /// Its name in reports: `finished-as-leaves` or `full-length`.
    pub fn name(self) -> &'static str {
        match self {
            Counting::FinishedAsLeaves => "finished-as-leaves",
            Counting::FullLength => "full-length",
        }
    }
}

/// perft(depth) from `pos`, whose record so far is `hist` (its last entry
/// must be `pos`).
pub fn perft<G: Game>(pos: &mut G, depth: u32, hist: &mut History) -> u64 {
    perft_counting(pos, depth, hist, Counting::FinishedAsLeaves)
}

/// [`perft`] counting the paths `counting` says.
pub fn perft_counting<G: Game>(
    pos: &mut G,
    depth: u32,
    hist: &mut History,
    counting: Counting,
) -> u64 {
    match (hist.policy(), counting) {
        (Repetition::None, Counting::FinishedAsLeaves) => perft_plain(pos, depth),
        _ => perft_hist(pos, depth, hist, counting),
    }
}

fn perft_plain<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 || pos.terminal().is_some() {
        return 1;
    }
    if depth == 1 {
        return pos.count_moves().max(1);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    let mut n = 0;
    for &m in &moves {
        let u = pos.make(m);
        n += perft_plain(pos, depth - 1);
        pos.unmake(m, u);
    }
    n
}

/// The general count: any repetition policy, either counting. (The plain
/// one above is the published counts' hot path.)
fn perft_hist<G: Game>(pos: &mut G, depth: u32, hist: &mut History, counting: Counting) -> u64 {
    if depth == 0 || pos.terminal().is_some() || hist.is_draw() {
        return counting.finished(depth);
    }
    if depth == 1 {
        let n = pos.count_moves();
        return if n == 0 { counting.finished(depth) } else { n };
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return counting.finished(depth);
    }
    let mut n = 0;
    for &m in &moves {
        let u = pos.make(m);
        hist.push(pos.key(), pos.piece_count());
        n += perft_hist(pos, depth - 1, hist, counting);
        hist.pop();
        pos.unmake(m, u);
    }
    n
}

/// Whether the root itself is a leaf (over, or drawn by repetition).
fn root_is_leaf<G: Game>(pos: &G, hist: &History) -> bool {
    pos.terminal().is_some() || hist.is_draw() || pos.count_moves() == 0
}

/// The count below each root move, in move-generation order.
pub fn perft_divide<G: Game>(
    pos: &G,
    depth: u32,
    hist: &History,
    threads: usize,
) -> Vec<(G::Move, u64)> {
    perft_divide_with_progress(pos, depth, hist, threads, &|_, _| {})
}

/// [`perft_divide`], calling `progress(done, total)` as each root move's
/// count is finished (from the thread that counted it), so a long count
/// can show how far it is.
pub fn perft_divide_with_progress<G: Game>(
    pos: &G,
    depth: u32,
    hist: &History,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(G::Move, u64)> {
    perft_divide_counting(
        pos,
        depth,
        hist,
        threads,
        Counting::FinishedAsLeaves,
        progress,
    )
}

/// [`perft_divide_with_progress`] counting the paths `counting` says.
pub fn perft_divide_counting<G: Game>(
    pos: &G,
    depth: u32,
    hist: &History,
    threads: usize,
    counting: Counting,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(G::Move, u64)> {
    if depth == 0 || root_is_leaf(pos, hist) {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let work = |&m: &G::Move| {
        let mut p = pos.clone();
        let mut h = hist.clone();
        p.make(m);
        h.push(p.key(), p.piece_count());
        let n = perft_counting(&mut p, depth - 1, &mut h, counting);
        let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(d, moves.len());
        (m, n)
    };
    if threads <= 1 {
        moves.iter().map(work).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        pool.install(|| moves.par_iter().map(work).collect())
    }
}

/// perft with the root moves spread over `threads` threads.
pub fn perft_parallel<G: Game>(pos: &G, depth: u32, hist: &History, threads: usize) -> u64 {
    if depth == 0 || root_is_leaf(pos, hist) {
        return 1;
    }
    if threads <= 1 || depth == 1 {
        return perft(&mut pos.clone(), depth, &mut hist.clone());
    }
    perft_divide(pos, depth, hist, threads)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}
