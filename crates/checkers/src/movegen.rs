//! Move generation: quiet moves, capture sequences under each variant's
//! priorities, fast capture detection and move counting (perft's last ply).

use crate::geometry::{
    bit, nearest, opposite, shift, squares, DL, DR, JUMP, NONE, RAY, STEP, UL, UR,
};
use crate::position::{Move, Position};
use crate::variant::Variant;
use zoo_core::MoveList;

/// Longest recorded capture path: the origin plus one landing per captured
/// piece (at most 18: only the inner squares can be jumped).
pub const MAX_PATH: usize = 24;

/// The squares a capture sequence visits, origin first.
#[derive(Clone, Copy)]
pub struct Path {
    sq: [u8; MAX_PATH],
    len: usize,
}

impl Path {
    fn new(from: u8) -> Path {
        let mut sq = [0; MAX_PATH];
        sq[0] = from;
        Path { sq, len: 1 }
    }
    #[inline(always)]
    fn push(&mut self, s: u8) {
        // Never full (see MAX_PATH); the guard keeps bad input from panicking.
        if self.len < MAX_PATH {
            self.sq[self.len] = s;
        }
        self.len += 1;
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
    }
    /// The squares visited so far, origin first.
    pub fn squares(&self) -> &[u8] {
        &self.sq[..self.len.min(MAX_PATH)]
    }
}

/// Receives each complete capture sequence. `TRACK` says whether the
/// sequence's landing squares are wanted: the move generator does not pay
/// for them, notation does.
pub(crate) trait Sink {
    const TRACK: bool;
    fn emit(&mut self, from: u8, to: u8, captured: u32, path: &Path);
}

/// The fast sink: applies the quantity and quality rules when the variant
/// has them, and merges sequences that are the same move.
struct ListSink<'a> {
    out: &'a mut MoveList<Move>,
    start: usize,
    best: (u32, u32),
    kings: u32,
    majority: bool,
}

impl Sink for ListSink<'_> {
    const TRACK: bool = false;
    #[inline]
    fn emit(&mut self, from: u8, to: u8, captured: u32, _: &Path) {
        if self.majority {
            let score = (captured.count_ones(), (captured & self.kings).count_ones());
            if score < self.best {
                return;
            }
            if score > self.best {
                self.out.truncate(self.start);
                self.best = score;
            }
        }
        let m = Move { captured, from, to };
        if !self.out[self.start..].contains(&m) {
            // A list of 256 distinct captures is beyond any reachable
            // position; dropping the excess keeps absurd input from panicking.
            let _ = self.out.try_push(m);
        }
    }
}

/// Every complete capture sequence with its path (no priority rule
/// applied, no merging): for notation.
pub(crate) struct PathSink {
    pub found: Vec<(Move, Vec<u8>)>,
}

impl Sink for PathSink {
    const TRACK: bool = true;
    fn emit(&mut self, from: u8, to: u8, captured: u32, path: &Path) {
        self.found
            .push((Move { captured, from, to }, path.squares().to_vec()));
    }
}

/// Counts complete capture sequences without merging equal moves (for
/// comparing with move generators that keep duplicates).
struct CountSink {
    n: u64,
}

impl Sink for CountSink {
    const TRACK: bool = false;
    fn emit(&mut self, _: u8, _: u8, _: u32, _: &Path) {
        self.n += 1;
    }
}

/// What a capture search needs to know about the board.
struct Ctx {
    /// The opponent's pieces.
    enemy: u32,
    /// Every piece except the capturing one (captured pieces stay: they
    /// block until the sequence ends).
    occ: u32,
    /// Where the mover's men are crowned.
    far: u32,
}

const ALL_DIRS: [usize; 4] = [UR, UL, DR, DL];

#[inline(always)]
fn forward_dirs(up: bool) -> [usize; 2] {
    if up {
        [UR, UL]
    } else {
        [DR, DL]
    }
}

/// Empty squares along a ray before the first piece of `occ`.
#[inline(always)]
pub(crate) fn ray_free(s: u8, d: usize, occ: u32) -> u32 {
    let ray = RAY[s as usize][d];
    let blk = ray & occ;
    if blk == 0 {
        ray
    } else {
        let b = nearest(blk, d);
        ray & !(RAY[b as usize][d] | bit(b))
    }
}

/// Short jumps (men in both games, kings in English): jump an adjacent
/// uncaptured enemy to the empty square beyond. `stop_on_far` ends the
/// sequence when a man reaches its crowning row.
fn short_dfs<S: Sink, const N: usize>(
    c: &Ctx,
    dirs: [usize; N],
    stop_on_far: bool,
    sq: u8,
    captured: u32,
    path: &mut Path,
    sink: &mut S,
) {
    let mut any = false;
    for d in dirs {
        let n = STEP[sq as usize][d];
        if n == NONE || bit(n) & c.enemy & !captured == 0 {
            continue;
        }
        let j = JUMP[sq as usize][d];
        if j == NONE || bit(j) & c.occ != 0 {
            continue;
        }
        any = true;
        let cap = captured | bit(n);
        if S::TRACK {
            path.push(j);
        }
        if stop_on_far && bit(j) & c.far != 0 {
            sink.emit(path.sq[0], j, cap, path);
        } else {
            short_dfs(c, dirs, stop_on_far, j, cap, path, sink);
        }
        if S::TRACK {
            path.pop();
        }
    }
    if !any && captured != 0 {
        sink.emit(path.sq[0], sq, captured, path);
    }
}

/// Flying-king captures: along a diagonal over empty squares to an
/// uncaptured enemy piece, landing on any empty square beyond it; every
/// landing is tried, and a sequence ends only where no capture goes on.
fn flying_dfs<S: Sink>(c: &Ctx, sq: u8, captured: u32, path: &mut Path, sink: &mut S) {
    let mut any = false;
    for d in ALL_DIRS {
        let blk = RAY[sq as usize][d] & c.occ;
        if blk == 0 {
            continue;
        }
        let b = nearest(blk, d);
        if bit(b) & c.enemy & !captured == 0 {
            continue;
        }
        let land = ray_free(b, d, c.occ);
        if land == 0 {
            continue;
        }
        any = true;
        for l in squares(land) {
            if S::TRACK {
                path.push(l);
            }
            flying_dfs(c, l, captured | bit(b), path, sink);
            if S::TRACK {
                path.pop();
            }
        }
    }
    if !any && captured != 0 {
        sink.emit(path.sq[0], sq, captured, path);
    }
}

impl<V: Variant> Position<V> {
    /// Runs the capture search of every piece of the side to move into `sink`.
    pub(crate) fn captures_into<S: Sink>(&self, sink: &mut S) {
        let us = self.stm;
        let up = Self::moves_up(us);
        let all = self.occupied();
        let enemy = self.pieces(us.flip());
        let far = Self::far_row(us);
        // Only pieces with a first jump start a search: most men have none.
        let empty = !all;
        let jumpers = |pieces: u32, dirs: &[usize]| {
            dirs.iter().fold(0, |acc, &d| {
                acc | (shift(shift(empty, opposite(d)) & enemy, opposite(d)) & pieces)
            })
        };
        for s in squares(jumpers(self.men(us), &forward_dirs(up))) {
            let c = Ctx {
                enemy,
                occ: all & !bit(s),
                far,
            };
            short_dfs(&c, forward_dirs(up), true, s, 0, &mut Path::new(s), sink);
        }
        let kings = self.kings_of(us);
        let kings = if V::FLYING_KINGS {
            kings
        } else {
            jumpers(kings, &ALL_DIRS)
        };
        for s in squares(kings) {
            let c = Ctx {
                enemy,
                occ: all & !bit(s),
                far,
            };
            if V::FLYING_KINGS {
                flying_dfs(&c, s, 0, &mut Path::new(s), sink);
            } else {
                short_dfs(&c, ALL_DIRS, false, s, 0, &mut Path::new(s), sink);
            }
        }
    }

    /// Whether the side to move has a capture (then it must capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        // Directions as constants: the shifts' masks and amounts fold away.
        if Self::moves_up(self.stm) {
            self.has_capture_dirs::<UR, UL>()
        } else {
            self.has_capture_dirs::<DR, DL>()
        }
    }

    #[inline(always)]
    fn has_capture_dirs<const A: usize, const B: usize>(&self) -> bool {
        let us = self.stm;
        let enemy = self.pieces(us.flip());
        let occ = self.occupied();
        let empty = !occ;
        let men = self.men(us);
        if (shift(shift(men, A) & enemy, A) | shift(shift(men, B) & enemy, B)) & empty != 0 {
            return true;
        }
        let kings = self.kings_of(us);
        kings != 0 && self.kings_can_capture(kings, enemy, occ)
    }

    #[inline]
    fn kings_can_capture(&self, kings: u32, enemy: u32, occ: u32) -> bool {
        if V::FLYING_KINGS {
            for k in squares(kings) {
                for d in ALL_DIRS {
                    let blk = RAY[k as usize][d] & occ;
                    if blk == 0 {
                        continue;
                    }
                    let b = nearest(blk, d);
                    let beyond = STEP[b as usize][d];
                    if bit(b) & enemy != 0 && beyond != NONE && bit(beyond) & occ == 0 {
                        return true;
                    }
                }
            }
            false
        } else {
            let empty = !occ;
            (shift(shift(kings, UR) & enemy, UR)
                | shift(shift(kings, UL) & enemy, UL)
                | shift(shift(kings, DR) & enemy, DR)
                | shift(shift(kings, DL) & enemy, DL))
                & empty
                != 0
        }
    }

    fn gen_captures(&self, out: &mut MoveList<Move>) {
        let simple = if Self::moves_up(self.stm) {
            self.gen_single_jumps::<UR, UL>(out)
        } else {
            self.gen_single_jumps::<DR, DL>(out)
        };
        if simple {
            return;
        }
        let mut sink = ListSink {
            start: out.len(),
            out,
            best: (0, 0),
            kings: self.kings,
            majority: V::MAJORITY,
        };
        self.captures_into(&mut sink);
    }

    fn gen_quiet(&self, out: &mut MoveList<Move>) {
        let us = self.stm;
        let occ = self.occupied();
        let empty = !occ;
        let men = self.men(us);
        for d in forward_dirs(Self::moves_up(us)) {
            for t in squares(shift(men, d) & empty) {
                out.push(Move::quiet(STEP[t as usize][opposite(d)], t));
            }
        }
        for k in squares(self.kings_of(us)) {
            for d in ALL_DIRS {
                let to = if V::FLYING_KINGS {
                    ray_free(k, d, occ)
                } else {
                    shift(bit(k), d) & empty
                };
                for t in squares(to) {
                    // At most 12 kings with 13 squares each: never full.
                    let _ = out.try_push(Move::quiet(k, t));
                }
            }
        }
    }

    /// The legal moves: the captures allowed by the variant's priority
    /// rules when any capture exists, the quiet moves otherwise.
    pub fn generate(&self, out: &mut MoveList<Move>) {
        if self.has_capture() {
            self.gen_captures(out);
        } else {
            self.gen_quiet(out);
        }
    }

    /// The legal moves with every capture found by the full sequence
    /// search (no bitboard shortcut): a reference for tests of the fast
    /// paths of [`Self::generate`] and [`Self::count`].
    pub fn generate_by_search(&self, out: &mut MoveList<Move>) {
        if self.has_capture() {
            let mut sink = ListSink {
                start: out.len(),
                out,
                best: (0, 0),
                kings: self.kings,
                majority: V::MAJORITY,
            };
            self.captures_into(&mut sink);
        } else {
            self.gen_quiet(out);
        }
    }

    /// Number of legal moves; quiet moves are counted without listing them.
    #[inline]
    pub fn count(&self) -> u64 {
        if Self::moves_up(self.stm) {
            self.count_dirs::<UR, UL>()
        } else {
            self.count_dirs::<DR, DL>()
        }
    }

    /// [`Self::count`] for a side whose men step in directions `A` and `B`.
    ///
    /// The common case of perft's last ply is decided with bitboards alone:
    /// the side has men only and no capturing man can capture again from
    /// where it lands. Then every capture is one jump, a distinct move per
    /// (origin, direction); under the quality rule only those taking a king
    /// count when there are some.
    #[inline(always)]
    fn count_dirs<const A: usize, const B: usize>(&self) -> u64 {
        let us = self.stm;
        let men = self.men(us);
        let kings = self.kings_of(us);
        let enemy = self.pieces(us.flip());
        let occ = self.occupied();
        let empty = !occ;
        let la = shift(shift(men, A) & enemy, A) & empty;
        let lb = shift(shift(men, B) & enemy, B) & empty;
        if la | lb != 0 {
            if kings == 0 {
                // Squares from which a forward jump exists. A man's origin
                // and the piece it took are behind its landing square, so
                // they cannot matter for a next forward jump.
                let (ra, rb) = (opposite(A), opposite(B));
                let sources =
                    shift(shift(empty, ra) & enemy, ra) | shift(shift(empty, rb) & enemy, rb);
                if (la | lb) & sources & !Self::far_row(us) == 0 {
                    if V::MAJORITY {
                        let ek = enemy & self.kings;
                        let ka = shift(shift(men, A) & ek, A) & empty;
                        let kb = shift(shift(men, B) & ek, B) & empty;
                        if ka | kb != 0 {
                            return (ka.count_ones() + kb.count_ones()) as u64;
                        }
                    }
                    return (la.count_ones() + lb.count_ones()) as u64;
                }
            }
            return self.count_captures();
        }
        if kings != 0 && self.kings_can_capture(kings, enemy, occ) {
            return self.count_captures();
        }
        let mut n = (shift(men, A) & empty).count_ones() + (shift(men, B) & empty).count_ones();
        if kings != 0 {
            if V::FLYING_KINGS {
                for k in squares(kings) {
                    for d in ALL_DIRS {
                        n += ray_free(k, d, occ).count_ones();
                    }
                }
            } else {
                for d in ALL_DIRS {
                    n += (shift(kings, d) & empty).count_ones();
                }
            }
        }
        n as u64
    }

    /// The captures when, as usual, the side has men only and no capture
    /// can go on from where it lands (see [`Self::count_dirs`]): listed
    /// straight from the bitboards. Returns false, listing nothing, when
    /// the full search is needed.
    #[inline(always)]
    fn gen_single_jumps<const A: usize, const B: usize>(&self, out: &mut MoveList<Move>) -> bool {
        let us = self.stm;
        if self.kings_of(us) != 0 {
            return false;
        }
        let men = self.men(us);
        let enemy = self.pieces(us.flip());
        let empty = !self.occupied();
        let (ra, rb) = (opposite(A), opposite(B));
        let mut la = shift(shift(men, A) & enemy, A) & empty;
        let mut lb = shift(shift(men, B) & enemy, B) & empty;
        let sources = shift(shift(empty, ra) & enemy, ra) | shift(shift(empty, rb) & enemy, rb);
        if (la | lb) & sources & !Self::far_row(us) != 0 {
            return false;
        }
        if V::MAJORITY {
            let ek = enemy & self.kings;
            let ka = shift(shift(men, A) & ek, A) & empty;
            let kb = shift(shift(men, B) & ek, B) & empty;
            if ka | kb != 0 {
                (la, lb) = (ka, kb);
            }
        }
        for (landings, back) in [(la, ra), (lb, rb)] {
            for t in squares(landings) {
                let jumped = STEP[t as usize][back];
                let from = STEP[jumped as usize][back];
                out.push(Move {
                    captured: bit(jumped),
                    from,
                    to: t,
                });
            }
        }
        true
    }

    #[inline(never)]
    fn count_captures(&self) -> u64 {
        let mut l = MoveList::new();
        self.gen_captures(&mut l);
        l.len() as u64
    }

    /// The number of capture paths of the side to move, without merging
    /// sequences that are the same move and without the priority rules.
    /// Published English perft figures beyond 11 plies count moves this way.
    pub fn count_capture_paths(&self) -> u64 {
        let mut sink = CountSink { n: 0 };
        self.captures_into(&mut sink);
        sink.n
    }

    /// Every capture sequence of the side to move that the rules allow,
    /// with its landing squares (origin first). Sequences that are the same
    /// move all appear.
    pub fn capture_sequences(&self) -> Vec<(Move, Vec<u8>)> {
        if !self.has_capture() {
            return Vec::new();
        }
        let mut legal = MoveList::new();
        self.gen_captures(&mut legal);
        let mut sink = PathSink { found: Vec::new() };
        self.captures_into(&mut sink);
        sink.found.retain(|(m, _)| legal.contains(m));
        sink.found
    }

    /// The squares a capture passes through, origin first and destination
    /// last (the first sequence found when several make the same move);
    /// `[from, to]` for a quiet move.
    pub fn capture_path(&self, m: Move) -> Vec<u8> {
        if m.captured == 0 {
            return vec![m.from, m.to];
        }
        self.capture_sequences()
            .into_iter()
            .find(|(x, _)| *x == m)
            .map(|(_, p)| p)
            .unwrap_or_else(|| vec![m.from, m.to])
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut l = MoveList::new();
        self.generate(&mut l);
        l.contains(&m)
    }
}
