//! Configurations that are one game under other names: copied, not solved.
//!
//! Pieces that move alike differ only in which enemy pieces they may
//! capture. So when the kinds of one configuration can be renamed into the
//! kinds of another, White's into White's and Black's into Black's, such
//! that every capture between enemies stays allowed or forbidden, the
//! renaming maps its positions one to one onto the other's, move for move,
//! with the same values and distances. Its table is then copied entry by
//! entry from the other's, in a small fraction of the time a solve takes.
//! (Renaming into the colour swap of a configuration is covered too: the
//! other configuration may be the swap of a stored one.)
//!
//! In Jungle Checkers every kind moves alike, so only the captures count.
//! For example rat, dog, tiger against rat, dog, tiger is
//! dog, tiger, elephant against dog, tiger, elephant renamed (rat to dog,
//! dog to tiger, tiger to elephant): in both, the first kind takes only its
//! own kind, the second the first two, the third all three. Of the 28
//! five-piece configurations, 7 are copies. In Jungle the
//! rat (water) and the leapers (tiger, lion) move in their own ways, so a
//! kind is only renamed into one that moves the same way.

use crate::file::{Header, SideCounts};
use crate::index::{mirror_sq, turned, Material};
use crate::{slot_of, Tablebase, TbError};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use zoo_animal::board::{bit, file_of, RAT};
use zoo_animal::{Board, RuleSet};
use zoo_core::Side;

/// How the kinds of a configuration are renamed into those of another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rename {
    /// The stored configuration the values come from.
    pub source: Material,
    /// `source` or its colour swap: the configuration the renaming leads to.
    renamed: Material,
    kinds: Kinds,
}

/// Whether renaming kind `a` into `b` keeps every move: always where all
/// kinds move alike, else only between kinds that move the same way.
fn moves_alike<B: Board>(a: usize, b: usize) -> bool {
    let leaper = |k: usize| B::LEAPERS >> k & 1;
    // The rat alone enters the water and stops the leaps over it.
    let rat_apart = B::WATER != 0 || B::LEAPERS != 0;
    leaper(a) == leaper(b) && (!rat_apart || (a == RAT) == (b == RAT))
}

fn kinds_of(mask: u8) -> Vec<usize> {
    (0..8).filter(|k| mask & (1 << k) != 0).collect()
}

/// A kind not (yet) renamed.
const UNSET: u8 = u8::MAX;

/// For White's kinds and Black's: the kind each is renamed into.
type Kinds = [[u8; 8]; 2];

/// A renaming of `from`'s kinds into `to`'s that keeps every move and
/// every capture between enemies, found by backtracking: each piece is
/// checked against the enemies renamed before it.
fn renaming<B: Board>(rules: &RuleSet, from: Material, to: Material) -> Option<Kinds> {
    let from_kinds = [kinds_of(from.white), kinds_of(from.black)];
    let to_kinds = [kinds_of(to.white), kinds_of(to.black)];
    if from_kinds[0].len() != to_kinds[0].len() || from_kinds[1].len() != to_kinds[1].len() {
        return None;
    }
    let beats = |a: usize, b: usize| rules.beats(a, b, B::ELEPHANT);
    // Whether kind `k` of side `s`, renamed as `kinds` says, moves like its
    // new name and keeps its captures against the enemies renamed so far.
    let fits = |s: usize, k: usize, kinds: &Kinds| -> bool {
        let t = kinds[s][k] as usize;
        let e = 1 - s;
        moves_alike::<B>(k, t)
            && from_kinds[e].iter().all(|&ek| {
                let et = kinds[e][ek];
                et == UNSET || {
                    let et = et as usize;
                    beats(k, ek) == beats(t, et) && beats(ek, k) == beats(et, t)
                }
            })
    };
    fn go(
        pieces: &[(usize, usize)],
        to_kinds: &[Vec<usize>; 2],
        kinds: &mut Kinds,
        fits: &dyn Fn(usize, usize, &Kinds) -> bool,
    ) -> bool {
        let Some((&(s, k), rest)) = pieces.split_first() else {
            return true;
        };
        for &t in &to_kinds[s] {
            if kinds[s].contains(&(t as u8)) {
                continue;
            }
            kinds[s][k] = t as u8;
            if fits(s, k, kinds) && go(rest, to_kinds, kinds, fits) {
                return true;
            }
        }
        kinds[s][k] = UNSET;
        false
    }
    let pieces: Vec<(usize, usize)> = (0..2)
        .flat_map(|s| from_kinds[s].iter().map(move |&k| (s, k)))
        .collect();
    let mut kinds = [[UNSET; 8]; 2];
    go(&pieces, &to_kinds, &mut kinds, &fits).then_some(kinds)
}

/// The first of `sources` (stored configurations) whose table `target`'s can
/// be copied from, with the renaming.
pub fn find<B: Board>(rules: &RuleSet, target: Material, sources: &[Material]) -> Option<Rename> {
    sources.iter().find_map(|&source| {
        [source, source.swapped()].into_iter().find_map(|renamed| {
            renaming::<B>(rules, target, renamed).map(|kinds| Rename {
                source,
                renamed,
                kinds,
            })
        })
    })
}

/// Where one stored side of the target finds its values in the source.
struct SideMap {
    /// The source's stored side.
    side: usize,
    /// Whether the ranks turn (the stored source is the colour swap).
    turn: bool,
    /// For each piece of the target (index order), its place in the
    /// source's index order.
    to: [usize; 16],
}

/// A configuration copied: its header and value codes, ready to be written.
pub struct Copied {
    pub header: Header,
    values: Vec<Vec<u8>>,
}

impl Copied {
    /// The value codes (0 draw, else distance + 1) of `side`'s entries
    /// `start..start + out.len()`.
    pub fn fill(&self, side: usize, start: u64, out: &mut [u8]) {
        let s = start as usize;
        out.copy_from_slice(&self.values[side][s..s + out.len()]);
    }
}

/// Counts value code `v` as the generator counts entries: draws, wins
/// (odd distances), losses.
#[inline(always)]
fn tally(entries: &mut [u64; 3], v: u8) {
    entries[if v == 0 { 0 } else { 2 - (v as usize - 1) % 2 }] += 1;
}

/// Entries a copy job handles between two looks at the stop flag.
const CHUNK: usize = 1 << 16;

/// Bytes a copy holds at once: the source's stored sides and the target's.
pub fn copy_bytes<B: Board>(tb: &Tablebase<B>, target: Material, r: &Rename) -> u64 {
    tb.scheme().layout(r.source).size * r.source.stored_sides() as u64
        + tb.scheme().layout(target).size * target.stored_sides() as u64
}

/// Copies `target`'s values from its source through the renaming `r`. Both
/// sides to move are mapped even where one is stored, because the header
/// counts the entries of both, as the generator does.
pub fn copy<B: Board>(
    tb: &Tablebase<B>,
    target: Material,
    r: &Rename,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Result<Copied, TbError> {
    let table = tb.table(r.source)?;
    let src_layout = tb.scheme().layout(r.source);
    let layout = tb.scheme().layout(target);
    let size = layout.size as usize;
    let maps: Vec<SideMap> = [Side::White, Side::Black]
        .into_iter()
        .map(|stm| {
            let slot = slot_of(r.renamed, stm);
            debug_assert_eq!(slot.material, r.source);
            let mut to = [0usize; 16];
            for (i, &(side, kind)) in layout.pieces.iter().enumerate() {
                let kind = r.kinds[side.index()][kind] as usize;
                let side = if slot.swap { side.flip() } else { side };
                to[i] = src_layout
                    .place(side, kind)
                    .expect("the renamed pieces are the source's");
            }
            SideMap {
                side: slot.side,
                turn: slot.swap,
                to,
            }
        })
        .collect();
    // The source's sides, whole: the renaming scatters its reads.
    let mut source: Vec<Vec<u8>> = Vec::new();
    for side in 0..table.header.sides {
        let mut v = vec![0u8; src_layout.size as usize];
        v.par_chunks_mut(1 << 20)
            .enumerate()
            .try_for_each(|(i, c)| table.read_codes(side, (i << 20) as u64, c))?;
        source.push(v);
    }
    let mut header = crate::header::<B>(tb.rules().name, target, layout.size);
    let mut values = Vec::new();
    for (side, map) in maps.iter().enumerate() {
        let src = &source[map.side];
        // Pieces renamed in their own places of the index: entry x is the
        // source's entry x (the renaming keeps how each piece moves, so
        // the squares a piece may stand on too).
        let same_index = !map.turn && (0..layout.n).all(|i| map.to[i] == i);
        // Entries `c * CHUNK..` into `out`, counted (`tally`).
        let chunk = |c: usize, out: &mut [u8]| -> Result<[u64; 3], TbError> {
            if stop.load(Relaxed) {
                return Err(TbError::Interrupted);
            }
            let mut digits = [0u32; 16];
            let mut sqs = [0u8; 16];
            let mut from = [0u8; 16];
            let mut entries = [0u64; 3];
            if same_index {
                out.copy_from_slice(&src[c * CHUNK..c * CHUNK + out.len()]);
                for &v in out.iter() {
                    tally(&mut entries, v);
                }
                progress(2 * out.len() as u64);
                return Ok(entries);
            }
            layout.locate((c * CHUNK) as u64, &mut digits, &mut sqs);
            // The source's placement as its index sees it (mirrored when its
            // first piece is on files e-g), its squares and its entry.
            let (mut mirror, mut occupied, mut x) = (false, 0u64, 0u64);
            let last = layout.n - 1;
            let k = map.to[last];
            for (j, o) in out.iter_mut().enumerate() {
                let moved = if j > 0 {
                    layout.advance(&mut digits, &mut sqs)
                } else {
                    0
                };
                if moved == last && k != 0 {
                    // Most steps move the last piece only: one piece of the
                    // source moves, not its first (whose file decides the
                    // mirror).
                    let s = if map.turn {
                        turned::<B>(sqs[last])
                    } else {
                        sqs[last]
                    };
                    let s = if mirror { mirror_sq(s) } else { s };
                    x = src_layout.rank_moved(x, &from, occupied, src_layout.frees(&from)[k], k, s);
                    occupied ^= bit(from[k]) | bit(s);
                    from[k] = s;
                } else {
                    for i in 0..layout.n {
                        let s = sqs[i];
                        from[map.to[i]] = if map.turn { turned::<B>(s) } else { s };
                    }
                    mirror = file_of(from[0]) > 3;
                    occupied = 0;
                    for s in &mut from[..layout.n] {
                        if mirror {
                            *s = mirror_sq(*s);
                        }
                        occupied |= bit(*s);
                    }
                    x = src_layout.rank_squares(&from[..layout.n], false);
                }
                debug_assert_eq!(x, src_layout.rank(&from[..layout.n]));
                let v = src[x as usize];
                *o = v;
                tally(&mut entries, v);
            }
            progress(2 * out.len() as u64);
            Ok(entries)
        };
        let add = |a: [u64; 3], b: [u64; 3]| Ok([a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
        let entries = if side < header.sides {
            let mut out = vec![0u8; size];
            let e = out
                .par_chunks_mut(CHUNK)
                .enumerate()
                .map(|(c, o)| chunk(c, o))
                .try_reduce(|| [0; 3], add)?;
            values.push(out);
            e
        } else {
            // Black to move of a colour-symmetric target is not stored, only
            // counted: a chunk at a time.
            (0..size.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| chunk(c, &mut vec![0u8; CHUNK.min(size - c * CHUNK)]))
                .try_reduce(|| [0; 3], add)?
        };
        // The positions the entries stand for are the source's, renamed.
        header.counts[side] = SideCounts {
            entries,
            ..table.header.counts[map.side]
        };
    }
    Ok(Copied { header, values })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zoo_animal::{Jungle, JungleCheckers};

    fn jc(s: &str) -> Material {
        Material::parse::<JungleCheckers>(s).expect("a material")
    }

    fn leiden<B: Board>() -> &'static RuleSet {
        B::rule_sets()[0]
    }

    #[test]
    fn finds_the_jungle_checkers_renamings() {
        let rules = leiden::<JungleCheckers>();
        let copy = |t: &str, s: &str| find::<JungleCheckers>(rules, jc(t), &[jc(s)]).is_some();
        // Rat, dog, tiger become dog, tiger, elephant.
        assert!(copy("DTEvdte", "RDTvrdt"));
        // Dog and tiger trade places when they never meet.
        assert!(copy("RTEvrte", "RDEvrde"));
        // Through the colour swap: DTE against re is RE against dte.
        assert!(copy("DTEvre", "RDTvre"));
        // Not the same game: a rat takes an elephant, a dog does not.
        assert!(!copy("RDvre", "RDvde"));
        assert!(!copy("RDTvrdt", "RDEvrde"));
        // Another count of pieces is never a copy.
        assert!(!copy("RDvr", "RDTvr"));
    }

    #[test]
    fn jungle_renames_only_kinds_that_move_alike() {
        let rules = leiden::<Jungle>();
        let m = |s: &str| Material::parse::<Jungle>(s).expect("a material");
        // Cat against wolf is cat against dog: the stronger takes the weaker.
        assert!(find::<Jungle>(rules, m("Cvd"), &[m("Cvw")]).is_some());
        // The tiger leaps and the panther does not.
        assert!(find::<Jungle>(rules, m("Cvt"), &[m("Cvp")]).is_none());
        // The rat swims.
        assert!(find::<Jungle>(rules, m("Rvd"), &[m("Cvd")]).is_none());
    }
}
