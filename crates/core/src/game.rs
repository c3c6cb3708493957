//! The game trait: positions, moves, make/unmake, keys, status and notation.

use crate::ParseError;
use arrayvec::ArrayVec;
use std::fmt::Debug;
use std::hash::Hash;

/// Room for the legal moves of any position of any game we play. Flying
/// kings in checkers produce the longest lists; the animal games stay
/// under 50.
pub const MAX_MOVES: usize = 256;
/// The legal moves of one position, on the stack (at most [`MAX_MOVES`]).
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
/// The two sides. Which one moves first is a rule of each game (White in
/// Jungle and Classical checkers, Black in English checkers).
pub enum Side {
    /// The side that moves first in the animal games and Classical checkers.
    White = 0,
    /// The other side (first to move in English checkers).
    Black = 1,
}

impl Side {
    #[inline(always)]
    /// The opponent.
    pub fn flip(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    #[inline(always)]
    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The lowercase name (`white`, `black`) used in output and files.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// A finished game's result, seen from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// Neither side wins.
    Draw,
    /// The side to move has lost.
    Loss,
}

impl Outcome {
    /// The same result seen from the other side.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// `win`, `draw` or `loss`: the word of the JSON output and of people.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// One game's rules over one position type.
///
/// The game's end is split in two so that hot loops pay only for what they
/// need: [`Game::terminal`] is the cheap check made before generating moves
/// (a den entered, the last piece taken, a move-limit), and
/// [`Game::no_moves_outcome`] says what an empty move list means (a draw by
/// stalemate in Jungle, a loss in checkers). Repetition is not part of the
/// position: it lives in [`crate::History`] with the caller's policy.
pub trait Game: Clone + Debug + Send + Sync + Sized + 'static {
    /// A legal move of this game, small and copied freely.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What make() returns and unmake() needs to restore the position exactly.
    type Undo: Copy + Debug;
    /// A named rule set (data, with a stable name recorded in files and logs).
    type Rules: Clone + Debug + Send + Sync + 'static;

    /// Stable game name as used on the command line (`jungle`, ...).
    fn game_name(&self) -> &'static str;
    /// The rule set this position is played under.
    fn rules(&self) -> &Self::Rules;
    /// Stable name of the rule set in force (`leiden`, `common`, ...).
    fn rules_name(&self) -> &'static str;
    /// The repetition policy games under these rules are played with.
    fn default_repetition(&self) -> crate::Repetition;
    /// The start position under `rules`.
    fn start(rules: &Self::Rules) -> Self;
    /// The names of this game's rule sets; the default first.
    fn rule_names() -> Vec<&'static str>;
    /// Looks a rule set up by its stable name.
    fn rules_by_name(name: &str) -> Result<Self::Rules, ParseError>;
    /// The default rule set: the first of [`Game::rule_names`].
    fn default_rules() -> Self::Rules {
        Self::rules_by_name(Self::rule_names()[0]).expect("the default rule set exists")
    }

    /// The side whose turn it is.
    fn side_to_move(&self) -> Side;
    /// Zobrist key of pieces and side to move (kept incrementally).
    fn key(&self) -> u64;
    /// The key computed from scratch; must always equal [`Game::key`].
    fn compute_key(&self) -> u64;
    /// Whether play from here depends on nothing but what [`Game::key`]
    /// hashes (the pieces and the side to move), no move counter: then a
    /// position's value is a function of its key and a solver may merge
    /// positions by key (`zoo_solve::graph`). `false` unless a game says so.
    fn counter_free(&self) -> bool {
        false
    }
    /// The key of the position's left–right mirror image, where the game
    /// is left–right symmetric (the image has the same value): a solver
    /// may then merge the two, keyed by the smaller key, and play on from
    /// [`Game::mirror_image`]. `None` (the default) where the game has no
    /// such symmetry or does not say.
    fn mirror_key(&self) -> Option<u64> {
        None
    }
    /// The left–right mirror image, where [`Game::mirror_key`] is `Some`
    /// (its key is that key).
    fn mirror_image(&self) -> Option<Self> {
        None
    }
    /// At most how many positions hold this position's pieces (on any
    /// squares they may stand on, either side to move), or `None` when
    /// the game does not say: what a search that lists every position of
    /// a material may have to hold.
    fn material_positions(&self) -> Option<u64> {
        None
    }
    /// Number of pieces on the board (both sides).
    fn piece_count(&self) -> u32;
    /// A cheap static score of the position for the side to move (higher
    /// is better, about 100 a pawn's worth), or 0 when the game has none:
    /// what proof search may start a new node's numbers from instead of
    /// 1/1 (df-pn+, `zoo_solve::dfpn::Options::guide`). Never changes an
    /// answer, only the order positions are searched in.
    fn proof_guide(&self) -> i32 {
        0
    }

    /// Legal moves of the side to move. Empty when the game is over through
    /// [`Game::terminal`] is not guaranteed: check terminal first.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// Number of legal moves; games override it with a faster count.
    fn count_moves(&self) -> u64 {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l.len() as u64
    }
    /// Plays a legal move; returns what [`Game::unmake`] needs to take it back.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, restoring the position exactly as before [`Game::make`].
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// Whether the move takes material (quiescence search extends these).
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// A compact code of a legal move, unique among this position's legal
    /// moves (transposition tables store it).
    fn move_code(&self, mv: Self::Move) -> u32;
    /// The legal move with this code here, if any (a stale table entry may
    /// name none).
    fn move_from_code(&self, code: u32) -> Option<Self::Move> {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        l.into_iter().find(|&m| self.move_code(m) == code)
    }

    /// The game ended before the side to move moves (from its point of view),
    /// regardless of the move list. `None` while play goes on.
    fn terminal(&self) -> Option<Outcome>;
    /// The result for the side to move when it has no legal move.
    fn no_moves_outcome(&self) -> Outcome;
    /// Full status: terminal, or no legal moves, or `None` (play on).
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.terminal() {
            return Some(o);
        }
        if self.count_moves() == 0 {
            return Some(self.no_moves_outcome());
        }
        None
    }

    /// Reads a position string (each game's FEN) under `rules`.
    fn from_fen(s: &str, rules: &Self::Rules) -> Result<Self, ParseError>;
    /// The position string that [`Game::from_fen`] reads back to this position.
    fn to_fen(&self) -> String;
    /// The position string without the counters a [`Game::counter_free`]
    /// position's value does not depend on (a ply count): one string for
    /// the position however many plies led to it, which a store of
    /// answers matches. By default the FEN itself.
    fn position_fen(&self) -> String {
        self.to_fen()
    }
    /// Parses a move in any notation the game accepts and checks it is legal here.
    fn parse_move(&self, s: &str) -> Result<Self::Move, ParseError>;
    /// The short human form (`Txe5`, `11-14`).
    fn move_to_string(&self, mv: Self::Move) -> String;
    /// The coordinate form for programs (`e2e3`); defaults to the short form.
    fn move_to_coord(&self, mv: Self::Move) -> String {
        self.move_to_string(mv)
    }
    /// A drawing of the position for a terminal, White at the bottom.
    fn render(&self) -> String {
        self.render_from(Side::White)
    }
    /// A drawing of the position for a terminal with `view`'s side at the
    /// bottom (a player's view of the board), with a legend of the pieces.
    fn render_from(&self, view: Side) -> String;
}

/// Retrograde extension: predecessors and symmetries (tablebases, census).
pub trait Retro: Game {
    /// A retrograde move: the step back to one predecessor.
    type Unmove: Copy + Eq + Debug + Send + Sync + 'static;
    /// Every way the side that just moved could have arrived here: one
    /// piece of it steps (or leaps) back, and optionally a piece of the side
    /// to move reappears on the square it came to (an un-capture). Each
    /// predecessor is a position that was not already over, from which the
    /// move leads here.
    fn unmoves(&self, out: &mut Vec<Self::Unmove>);
    /// Turns this position into the predecessor.
    fn apply_unmove(&mut self, u: Self::Unmove);
    /// Undoes [`Retro::apply_unmove`].
    fn revert_unmove(&mut self, u: Self::Unmove);
    /// The forward move that leads from the predecessor back to here.
    fn unmove_forward(&self, u: Self::Unmove) -> Self::Move;
    /// Left–right mirror image (same value).
    fn mirrored(&self) -> Self;
    /// Colours swapped, board turned, side to move switched (same value for
    /// the side to move).
    fn colour_swapped(&self) -> Self;
}
