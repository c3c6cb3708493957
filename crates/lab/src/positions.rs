//! Random positions a game could have, for the proving experiments: a
//! random subset of the start position's pieces on random squares, a
//! random side to move, kept when the rules' own FEN reading accepts them
//! (it refuses a piece in its den, or in water where it cannot swim) and
//! the game is not over. With an oracle, the positions it values as asked.

use anyhow::{anyhow, Result};
use rand::rngs::StdRng;
use rand::Rng;
use std::fmt::Write as _;
use zoo_core::{Game, Oracle, Outcome};

/// How many draws a sample may take before it gives up.
pub const MAX_DRAWS: usize = 1_000_000;

/// The board of a start position's FEN (`rank/rank/... side`, the
/// animal games' style): its ranks, top first, a byte per square (`.`
/// empty).
pub(crate) fn board_of(fen: &str) -> Option<Vec<Vec<u8>>> {
    let board = fen.split_whitespace().next()?;
    if !board.contains('/') {
        return None;
    }
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            for c in rank.bytes() {
                if c.is_ascii_digit() {
                    row.extend(std::iter::repeat_n(b'.', (c - b'0') as usize));
                } else if c.is_ascii_alphabetic() {
                    row.push(c);
                } else {
                    return None;
                }
            }
            Some(row)
        })
        .collect()
}

/// What random positions are made of.
#[derive(Clone, Debug)]
pub enum Pool {
    /// Any this many of the start position's pieces.
    Any(u32),
    /// One of these materials, chosen anew each draw: FEN letters, White's
    /// in upper case (`RDEvrde` is `b"RDErde"`).
    Materials(Vec<Vec<u8>>),
}

impl Pool {
    /// The letters of a material named as the tables name it (`RDEvrde`:
    /// White's letters, `v`, Black's in lower case), checked against the
    /// start's pieces; `pieces`, when given, its size.
    pub fn material(sampler: &Sampler, name: &str, pieces: Option<u32>) -> Result<Vec<u8>> {
        let (white, black) = name.split_once('v').ok_or_else(|| {
            anyhow!("material `{name}`: White's letters, `v`, Black's (`RDEvrde`)")
        })?;
        let upper = |c: char| c.is_ascii_uppercase();
        let lower = |c: char| c.is_ascii_lowercase();
        if !white.chars().all(upper) || !black.chars().all(lower) {
            return Err(anyhow!(
                "material `{name}`: White's letters in upper case, then `v`, then Black's in lower case"
            ));
        }
        let letters: Vec<u8> = white.bytes().chain(black.bytes()).collect();
        sampler.check_material(&letters)?;
        if let Some(n) = pieces.filter(|&n| n as usize != letters.len()) {
            return Err(anyhow!(
                "material `{name}` has {} pieces, not {n}",
                letters.len()
            ));
        }
        Ok(letters)
    }
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pool::Any(n) => write!(f, "{n} pieces"),
            Pool::Materials(list) => {
                let names: Vec<String> = list
                    .iter()
                    .map(|l| {
                        let white: String = l
                            .iter()
                            .filter(|c| c.is_ascii_uppercase())
                            .map(|&c| c as char)
                            .collect();
                        let black: String = l
                            .iter()
                            .filter(|c| c.is_ascii_lowercase())
                            .map(|&c| c as char)
                            .collect();
                        format!("{white}v{black}")
                    })
                    .collect();
                write!(
                    f,
                    "the material{} {}",
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )
            }
        }
    }
}

/// Draws positions of a game's start pieces on its board.
pub struct Sampler {
    ranks: usize,
    files: usize,
    /// The start position's pieces, as FEN letters.
    pieces: Vec<u8>,
}

impl Sampler {
    /// The sampler of `G`'s start position under `rules`; an error when its
    /// FEN is not written `rank/rank/... side`.
    pub fn new<G: Game>(rules: &G::Rules) -> Result<Sampler> {
        let start = G::start(rules);
        let board = board_of(&start.to_fen()).ok_or_else(|| {
            anyhow!(
                "{}: random positions are drawn on the start position's board, written `rank/rank/... side`, which this game's FEN is not",
                start.game_name()
            )
        })?;
        Ok(Sampler {
            ranks: board.len(),
            files: board.first().map_or(0, Vec::len),
            pieces: board
                .iter()
                .flatten()
                .copied()
                .filter(|&c| c != b'.')
                .collect(),
        })
    }

    /// An error unless positions of `pieces` pieces can be drawn.
    pub fn check(&self, pieces: u32) -> Result<()> {
        if (pieces as usize) > self.pieces.len() || pieces < 2 {
            return Err(anyhow!(
                "{pieces} pieces: the start position has {}",
                self.pieces.len()
            ));
        }
        Ok(())
    }

    /// An error unless every piece of `material` (FEN letters) is one of
    /// the start's, no more often than there.
    pub fn check_material(&self, material: &[u8]) -> Result<()> {
        let mut left = self.pieces.clone();
        for &c in material {
            let Some(i) = left.iter().position(|&p| p == c) else {
                return Err(anyhow!(
                    "{}: `{}` is not a piece of the start position, or is there fewer times",
                    String::from_utf8_lossy(material),
                    c as char
                ));
            };
            left.swap_remove(i);
        }
        Ok(())
    }

    /// One draw from `pool` (checked by [`Sampler::check`] or
    /// [`Sampler::check_material`]): the position, or `None` when the
    /// rules refuse it or the game is over there.
    pub fn draw_from<G: Game>(&self, rules: &G::Rules, pool: &Pool, rng: &mut StdRng) -> Option<G> {
        match pool {
            Pool::Any(pieces) => self.draw(rules, *pieces, rng),
            Pool::Materials(list) if !list.is_empty() => {
                let letters = &list[rng.gen_range(0..list.len())];
                let mut i = 0;
                self.place(rules, letters.len(), rng, |_| {
                    i += 1;
                    letters[i - 1]
                })
            }
            Pool::Materials(_) => None,
        }
    }

    /// One draw of `pieces` pieces (at most the start's; see
    /// [`Sampler::check`]): the position, or `None` when the rules refuse
    /// it or the game is over there.
    pub fn draw<G: Game>(&self, rules: &G::Rules, pieces: u32, rng: &mut StdRng) -> Option<G> {
        let mut left = self.pieces.clone();
        self.place(rules, pieces as usize, rng, |rng| {
            left.swap_remove(rng.gen_range(0..left.len()))
        })
    }

    /// `n` pieces, each given by `next` just before its square is drawn
    /// (so that a seed's positions stay those of earlier samples), on
    /// random empty squares, a random side to move.
    fn place<G: Game>(
        &self,
        rules: &G::Rules,
        n: usize,
        rng: &mut StdRng,
        mut next: impl FnMut(&mut StdRng) -> u8,
    ) -> Option<G> {
        let mut squares = vec![b'.'; self.ranks * self.files];
        for _ in 0..n {
            let p = next(rng);
            let mut s = rng.gen_range(0..squares.len());
            while squares[s] != b'.' {
                s = rng.gen_range(0..squares.len());
            }
            squares[s] = p;
        }
        let mut fen = fen_of(&squares, self.files);
        fen.push_str(if rng.gen_bool(0.5) { " w" } else { " b" });
        let pos = G::from_fen(&fen, rules).ok()?;
        pos.outcome().is_none().then_some(pos)
    }
}

/// The board part of a FEN (`rank/rank/...`, top rank first) of
/// `squares`, a byte per square row by row from the top (`.` empty),
/// `files` to a rank.
pub(crate) fn fen_of(squares: &[u8], files: usize) -> String {
    let mut fen = String::new();
    for (r, rank) in squares.chunks(files).enumerate() {
        if r > 0 {
            fen.push('/');
        }
        let mut empty = 0;
        for &c in rank {
            if c == b'.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(fen, "{empty}");
                empty = 0;
            }
            fen.push(c as char);
        }
        if empty > 0 {
            let _ = write!(fen, "{empty}");
        }
    }
    fen
}

/// `count` random unfinished positions of `pieces` pieces (gives up, with
/// an error, after [`MAX_DRAWS`] draws).
pub fn random_positions<G: Game>(
    rules: &G::Rules,
    pieces: u32,
    count: usize,
    rng: &mut StdRng,
) -> Result<Vec<G>> {
    let sampler = Sampler::new::<G>(rules)?;
    sampler.check(pieces)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..MAX_DRAWS {
        if out.len() == count {
            return Ok(out);
        }
        out.extend(sampler.draw::<G>(rules, pieces, rng));
    }
    Err(anyhow!(
        "found {} unfinished {pieces}-piece positions of {count} in {MAX_DRAWS} draws",
        out.len()
    ))
}

/// `count` random positions of `pieces` pieces whose value for the side to
/// move by `oracle` is one that `keep` accepts, each with that value
/// (gives up, with an error, after [`MAX_DRAWS`] draws).
pub fn random_valued<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    pieces: u32,
    count: usize,
    keep: &dyn Fn(Outcome) -> bool,
    rng: &mut StdRng,
) -> Result<Vec<(G, Outcome)>> {
    Sampler::new::<G>(rules)?.check(pieces)?;
    random_valued_from(rules, oracle, &Pool::Any(pieces), count, keep, rng)
}

/// [`random_valued`] of positions drawn from `pool` (checked).
pub fn random_valued_from<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    pool: &Pool,
    count: usize,
    keep: &dyn Fn(Outcome) -> bool,
    rng: &mut StdRng,
) -> Result<Vec<(G, Outcome)>> {
    let sampler = Sampler::new::<G>(rules)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..MAX_DRAWS {
        if out.len() == count {
            return Ok(out);
        }
        let Some(pos) = sampler.draw_from::<G>(rules, pool, rng) else {
            continue;
        };
        if let Some(o) = oracle.probe(&pos).map(|v| v.outcome).filter(|&o| keep(o)) {
            out.push((pos, o));
        }
    }
    Err(anyhow!(
        "found {} positions of {pool} of the values asked, of {count}, in {MAX_DRAWS} draws",
        out.len()
    ))
}
