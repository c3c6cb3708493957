//! The `zoo_core` traits for both animal games.

use crate::board::Board;
use crate::position::{Move, Position, Undo};
use crate::retro::Unmove;
use crate::rules::RuleSet;
use zoo_core::{Game, MoveList, Outcome, ParseError, Retro, Side};

impl<B: Board> Game for Position<B> {
    type Move = Move;
    type Undo = Undo;
    type Rules = &'static RuleSet;

    fn game_name(&self) -> &'static str {
        B::GAME
    }
    fn rules(&self) -> &&'static RuleSet {
        &self.rules
    }
    fn rules_name(&self) -> &'static str {
        self.rules.name
    }
    fn rule_names() -> Vec<&'static str> {
        B::rule_sets().iter().map(|r| r.name).collect()
    }
    fn rules_by_name(name: &str) -> Result<&'static RuleSet, ParseError> {
        crate::board::by_name::<B>(name)
    }
    fn default_repetition(&self) -> zoo_core::Repetition {
        self.rules.repetition
    }
    fn move_code(&self, mv: Move) -> u32 {
        mv.0 as u32
    }
    fn move_from_code(&self, code: u32) -> Option<Move> {
        let mv = Move(code as u16);
        (code < 1 << 12 && self.is_legal(mv)).then_some(mv)
    }
    fn start(rules: &&'static RuleSet) -> Self {
        Position::from_fen_str(rules.start_fen, rules)
            .expect("start position of a built-in rule set")
    }
    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.stm
    }
    fn proof_guide(&self) -> i32 {
        crate::eval::proof_guide(self)
    }
    #[inline(always)]
    fn counter_free(&self) -> bool {
        // The no-capture clock is the only counter play depends on.
        self.rules.no_capture_limit.is_none()
    }
    #[inline]
    fn mirror_key(&self) -> Option<u64> {
        // Both boards, their dens, traps and water, are left–right
        // symmetric (docs/rules/), as the tables' index also assumes.
        Some(Position::mirror_key(self))
    }
    fn mirror_image(&self) -> Option<Self> {
        Some(self.mirror())
    }
    fn material_positions(&self) -> Option<u64> {
        // Every piece on any square but its own den, water for rats only.
        let water = B::WATER.count_ones() as u64;
        let land = B::SQUARES as u64 - 1 - water;
        let mut n = 2u64;
        for side in &self.sq {
            for (kind, &s) in side.iter().enumerate().take(B::KINDS) {
                if s != crate::board::NONE {
                    n = n.saturating_mul(if kind == crate::board::RAT {
                        land + water
                    } else {
                        land
                    });
                }
            }
        }
        Some(n)
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
        Position::piece_count(self)
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
        self.piece_at(mv.to()).is_some()
    }
    #[inline(always)]
    fn terminal(&self) -> Option<Outcome> {
        self.terminal_outcome()
    }
    fn no_moves_outcome(&self) -> Outcome {
        if self.rules.stalemate_loses {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }
    fn from_fen(s: &str, rules: &&'static RuleSet) -> Result<Self, ParseError> {
        Position::from_fen_str(s, rules)
    }
    fn to_fen(&self) -> String {
        self.fen()
    }
    fn position_fen(&self) -> String {
        if !self.counter_free() || self.ply == 0 {
            return self.fen();
        }
        // Under rules without a no-capture clock the FEN's only counter
        // is the ply count, written when it is not 0.
        let mut p = self.clone();
        p.ply = 0;
        p.fen()
    }
    fn parse_move(&self, s: &str) -> Result<Move, ParseError> {
        self.parse_move_str(s)
    }
    fn move_to_string(&self, mv: Move) -> String {
        self.short_move(mv)
    }
    fn move_to_coord(&self, mv: Move) -> String {
        self.coord_move(mv)
    }
    fn render_from(&self, view: Side) -> String {
        self.draw(view)
    }
}

impl<B: Board> Retro for Position<B> {
    type Unmove = Unmove;
    fn unmoves(&self, out: &mut Vec<Unmove>) {
        self.generate_unmoves(out)
    }
    fn apply_unmove(&mut self, u: Unmove) {
        Position::apply_unmove(self, u)
    }
    fn revert_unmove(&mut self, u: Unmove) {
        Position::revert_unmove(self, u)
    }
    fn unmove_forward(&self, u: Unmove) -> Move {
        Position::<B>::unmove_to_move(u)
    }
    fn mirrored(&self) -> Self {
        self.mirror()
    }
    fn colour_swapped(&self) -> Self {
        self.colour_swap()
    }
}
