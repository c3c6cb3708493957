//! The `zoo_core::Game` implementation for both variants.

use crate::geometry::{squares, EDGE};
use crate::position::{Move, Position, Undo};
use crate::variant::{by_name, RuleSet, Variant};
use zoo_core::{Game, MoveList, Outcome, ParseError, Side};

/// Packs the captured set into the 18 bits of the inner squares (edge
/// squares are never jumped), so (from, to, captured) fits 28 bits and the
/// code is unique among all moves, not just the legal ones.
pub fn move_code(m: Move) -> u32 {
    let mut packed = 0u32;
    for (i, s) in squares(!EDGE).enumerate() {
        if m.captured & (1 << s) != 0 {
            packed |= 1 << i;
        }
    }
    m.from as u32 | (m.to as u32) << 5 | packed << 10
}

/// The move a code stands for (whether legal or not).
pub fn move_from_code(code: u32) -> Option<Move> {
    if code >> 28 != 0 {
        return None;
    }
    let mut captured = 0u32;
    for (i, s) in squares(!EDGE).enumerate() {
        if code >> 10 & (1 << i) != 0 {
            captured |= 1 << s;
        }
    }
    Some(Move {
        captured,
        from: (code & 31) as u8,
        to: (code >> 5 & 31) as u8,
    })
}

impl<V: Variant> Game for Position<V> {
    type Move = Move;
    type Undo = Undo;
    type Rules = &'static RuleSet;

    fn game_name(&self) -> &'static str {
        V::GAME
    }
    fn rules(&self) -> &&'static RuleSet {
        &self.rules
    }
    fn rules_name(&self) -> &'static str {
        self.rules.name
    }
    fn default_repetition(&self) -> zoo_core::Repetition {
        self.rules.repetition
    }
    fn start(rules: &&'static RuleSet) -> Self {
        Position::start_position(rules)
    }
    fn rule_names() -> Vec<&'static str> {
        V::rule_sets().iter().map(|r| r.name).collect()
    }
    fn rules_by_name(name: &str) -> Result<&'static RuleSet, ParseError> {
        by_name::<V>(name)
    }
    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.stm
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
    fn compute_key(&self) -> u64 {
        Position::compute_key(self)
    }
    #[inline(always)]
    fn piece_count(&self) -> u32 {
        self.total_pieces()
    }
    #[inline]
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        self.generate(out)
    }
    #[inline]
    fn count_moves(&self) -> u64 {
        self.count()
    }
    #[inline(always)]
    fn make(&mut self, mv: Move) -> Undo {
        self.make_move(mv)
    }
    #[inline(always)]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.unmake_move(mv, undo)
    }
    #[inline(always)]
    fn is_capture(&self, mv: Move) -> bool {
        mv.captured != 0
    }
    fn move_code(&self, mv: Move) -> u32 {
        move_code(mv)
    }
    fn move_from_code(&self, code: u32) -> Option<Move> {
        move_from_code(code).filter(|&m| self.is_legal(m))
    }
    #[inline(always)]
    fn terminal(&self) -> Option<Outcome> {
        if self.pieces(self.stm) == 0 {
            Some(Outcome::Loss)
        } else if self.move_limit_reached() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Loss
    }
    fn from_fen(s: &str, rules: &&'static RuleSet) -> Result<Self, ParseError> {
        Position::from_fen_str(s, rules)
    }
    fn to_fen(&self) -> String {
        self.fen()
    }
    fn parse_move(&self, s: &str) -> Result<Move, ParseError> {
        self.parse_move_text(s)
    }
    fn move_to_string(&self, mv: Move) -> String {
        self.move_text(mv)
    }
    fn render_from(&self, view: Side) -> String {
        self.draw(view)
    }
}
