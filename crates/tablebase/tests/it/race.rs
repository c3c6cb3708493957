//! `Race`, a game that is not an animal game, written here with
//! `zoo_core`'s traits alone, with an index of its own and an independent
//! forward solver (depth-by-depth minimax over all positions, no unmoves).
//!
//! Race: a line of ten cells; each side has up to two stones (labelled, so
//! a material says which); a stone steps one cell either way onto an empty
//! cell or onto an enemy stone, which it takes. White wins by reaching cell
//! 9, Black by reaching cell 0, or either by taking the last enemy stone.
//! A side with no move draws. Stones can shuffle, so there are draws.

use std::collections::HashMap;
use zoo_core::{Game, MoveList, Outcome, ParseError, Repetition, Retro, Side, TableIndex};

pub const CELLS: i8 = 10;

pub fn goal(side: usize) -> i8 {
    if side == 0 {
        CELLS - 1
    } else {
        0
    }
}

pub fn side_index(s: Side) -> usize {
    if s == Side::White {
        0
    } else {
        1
    }
}

pub type Stones = [[Option<i8>; 2]; 2];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Race {
    pub stones: Stones,
    pub stm: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    label: u8,
    from: i8,
    to: i8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unstep {
    step: Step,
    /// The label of the stone of the side to move that the step took.
    uncapture: Option<u8>,
}

impl Race {
    fn at(&self, side: usize, cell: i8) -> Option<u8> {
        (0..2u8).find(|&l| self.stones[side][l as usize] == Some(cell))
    }
    fn empty(&self, cell: i8) -> bool {
        self.at(0, cell).is_none() && self.at(1, cell).is_none()
    }
}

impl Game for Race {
    type Move = Step;
    type Undo = Option<u8>;
    type Rules = ();

    fn game_name(&self) -> &'static str {
        "race"
    }
    fn rules(&self) -> &() {
        &()
    }
    fn rules_name(&self) -> &'static str {
        "std"
    }
    fn default_repetition(&self) -> Repetition {
        Repetition::First
    }
    fn start(_: &()) -> Self {
        Race {
            stones: [[Some(0), Some(1)], [Some(8), Some(9)]],
            stm: Side::White,
        }
    }
    fn rule_names() -> Vec<&'static str> {
        vec!["std"]
    }
    fn rules_by_name(name: &str) -> Result<(), ParseError> {
        if name == "std" {
            Ok(())
        } else {
            Err(ParseError {
                input: name.into(),
                column: 0,
                message: "race has one rule set, std".into(),
            })
        }
    }
    fn side_to_move(&self) -> Side {
        self.stm
    }
    fn key(&self) -> u64 {
        self.compute_key()
    }
    fn compute_key(&self) -> u64 {
        let mut k = side_index(self.stm) as u64;
        for s in self.stones.iter().flatten() {
            k = k * 11 + s.map_or(10, |c| c as u64);
        }
        k
    }
    fn piece_count(&self) -> u32 {
        self.stones.iter().flatten().flatten().count() as u32
    }
    fn legal_moves(&self, out: &mut MoveList<Step>) {
        out.clear();
        let us = side_index(self.stm);
        for label in 0..2u8 {
            let Some(from) = self.stones[us][label as usize] else {
                continue;
            };
            for to in [from - 1, from + 1] {
                if (0..CELLS).contains(&to) && self.at(us, to).is_none() {
                    out.push(Step { label, from, to });
                }
            }
        }
    }
    fn make(&mut self, mv: Step) -> Option<u8> {
        let us = side_index(self.stm);
        let taken = self.at(1 - us, mv.to);
        if let Some(l) = taken {
            self.stones[1 - us][l as usize] = None;
        }
        self.stones[us][mv.label as usize] = Some(mv.to);
        self.stm = self.stm.flip();
        taken
    }
    fn unmake(&mut self, mv: Step, undo: Option<u8>) {
        self.stm = self.stm.flip();
        let us = side_index(self.stm);
        self.stones[us][mv.label as usize] = Some(mv.from);
        if let Some(l) = undo {
            self.stones[1 - us][l as usize] = Some(mv.to);
        }
    }
    fn is_capture(&self, mv: Step) -> bool {
        self.at(1 - side_index(self.stm), mv.to).is_some()
    }
    fn move_code(&self, mv: Step) -> u32 {
        mv.label as u32 * 100 + mv.from as u32 * 10 + mv.to as u32
    }
    fn terminal(&self) -> Option<Outcome> {
        let us = side_index(self.stm);
        let them = 1 - us;
        let lost = self.stones[them].contains(&Some(goal(them)))
            || self.stones[us].iter().all(Option::is_none);
        lost.then_some(Outcome::Loss)
    }
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
    fn from_fen(s: &str, _: &()) -> Result<Self, ParseError> {
        Err(ParseError {
            input: s.into(),
            column: 0,
            message: "race positions have no text form".into(),
        })
    }
    fn to_fen(&self) -> String {
        format!("{self:?}")
    }
    fn parse_move(&self, s: &str) -> Result<Step, ParseError> {
        Err(ParseError {
            input: s.into(),
            column: 0,
            message: "race moves have no text form".into(),
        })
    }
    fn move_to_string(&self, mv: Step) -> String {
        format!("{}{}-{}", mv.label, mv.from, mv.to)
    }
    fn render_from(&self, _: Side) -> String {
        format!("{self:?}")
    }
}

impl Retro for Race {
    type Unmove = Unstep;

    fn unmoves(&self, out: &mut Vec<Unstep>) {
        out.clear();
        let us = side_index(self.stm);
        let mover = 1 - us;
        for label in 0..2u8 {
            let Some(to) = self.stones[mover][label as usize] else {
                continue;
            };
            for from in [to - 1, to + 1] {
                // The stone came from an empty cell that was not its goal
                // (the game would have ended there).
                if !(0..CELLS).contains(&from) || !self.empty(from) || from == goal(mover) {
                    continue;
                }
                // The side to move's goal was not reached before either.
                let step = Step { label, from, to };
                out.push(Unstep {
                    step,
                    uncapture: None,
                });
                for l in 0..2u8 {
                    if self.stones[us][l as usize].is_none() && to != goal(us) {
                        out.push(Unstep {
                            step,
                            uncapture: Some(l),
                        });
                    }
                }
            }
        }
    }
    fn apply_unmove(&mut self, u: Unstep) {
        let mover = 1 - side_index(self.stm);
        self.stones[mover][u.step.label as usize] = Some(u.step.from);
        if let Some(l) = u.uncapture {
            self.stones[1 - mover][l as usize] = Some(u.step.to);
        }
        self.stm = self.stm.flip();
    }
    fn revert_unmove(&mut self, u: Unstep) {
        self.stm = self.stm.flip();
        let mover = 1 - side_index(self.stm);
        self.stones[mover][u.step.label as usize] = Some(u.step.to);
        if let Some(l) = u.uncapture {
            self.stones[1 - mover][l as usize] = None;
        }
    }
    fn unmove_forward(&self, u: Unstep) -> Step {
        u.step
    }
    /// The line has no left and right: the identity is its mirror.
    fn mirrored(&self) -> Self {
        self.clone()
    }
    fn colour_swapped(&self) -> Self {
        let turn = |s: &[Option<i8>; 2]| s.map(|c| c.map(|c| CELLS - 1 - c));
        Race {
            stones: [turn(&self.stones[1]), turn(&self.stones[0])],
            stm: self.stm.flip(),
        }
    }
}

/// Which labels each side has.
pub type Material = [[bool; 2]; 2];

pub fn material_of(s: &Stones) -> Material {
    s.map(|side| side.map(|c| c.is_some()))
}

/// Every placement of a material: stones on distinct cells, none on its
/// own goal (the game is over then).
pub fn placements(m: &Material) -> Vec<Stones> {
    let mut out = vec![[[None; 2]; 2]];
    for side in 0..2 {
        for label in 0..2 {
            if !m[side][label] {
                continue;
            }
            let mut next = Vec::new();
            for s in &out {
                for c in 0..CELLS {
                    let taken = s.iter().flatten().any(|&x| x == Some(c));
                    if c != goal(side) && !taken {
                        let mut t = *s;
                        t[side][label] = Some(c);
                        next.push(t);
                    }
                }
            }
            out = next;
        }
    }
    out
}

/// Race's own index: the placements of one material in a list.
pub struct RaceIndex {
    pub entries: Vec<Stones>,
    pub rank: HashMap<Stones, u64>,
}

impl RaceIndex {
    pub fn new(m: &Material) -> RaceIndex {
        let entries = placements(m);
        let rank = entries
            .iter()
            .enumerate()
            .map(|(i, s)| (*s, i as u64))
            .collect();
        RaceIndex { entries, rank }
    }
}

impl TableIndex<Race> for RaceIndex {
    fn size(&self) -> u64 {
        self.entries.len() as u64
    }
    fn position(&self, entry: u64, stm: Side) -> Race {
        Race {
            stones: self.entries[entry as usize],
            stm,
        }
    }
    fn rank(&self, pos: &Race) -> Option<u64> {
        self.rank.get(&pos.stones).copied()
    }
}

/// The forward solver: every position of every material at once, decided
/// depth by depth (a win at k when a move reaches a loss at k - 1, a loss
/// at k when every move reaches a win, the longest at k - 1).
pub fn forward(materials: &[Material]) -> HashMap<Race, (Outcome, u16)> {
    let all: Vec<Race> = materials
        .iter()
        .flat_map(placements)
        .flat_map(|s| [Side::White, Side::Black].map(|stm| Race { stones: s, stm }))
        .collect();
    let mut val: HashMap<Race, (Outcome, u16)> = HashMap::new();
    let mut empty_levels = 0;
    let mut k = 1u16;
    while empty_levels < 2 {
        let mut found = Vec::new();
        for p in all.iter().filter(|p| !val.contains_key(*p)) {
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            let children: Vec<Option<(Outcome, u16)>> = moves
                .iter()
                .map(|&mv| {
                    let mut c = p.clone();
                    c.make(mv);
                    match c.terminal() {
                        Some(o) => Some((o, 0)),
                        None => val.get(&c).copied(),
                    }
                })
                .collect();
            let win = children.iter().any(|c| *c == Some((Outcome::Loss, k - 1)));
            let all_won = !children.is_empty()
                && children
                    .iter()
                    .all(|c| matches!(c, Some((Outcome::Win, _))));
            let longest = children.iter().flatten().map(|c| c.1).max();
            if win {
                found.push((p.clone(), (Outcome::Win, k)));
            } else if all_won && longest == Some(k - 1) {
                found.push((p.clone(), (Outcome::Loss, k)));
            }
        }
        empty_levels = if found.is_empty() {
            empty_levels + 1
        } else {
            0
        };
        val.extend(found);
        k += 1;
    }
    val
}

/// Every material, smallest first (a capture leads to fewer stones).
pub fn materials() -> Vec<Material> {
    let mut materials: Vec<Material> = Vec::new();
    for w in 1..4u8 {
        for b in 1..4u8 {
            materials.push([[w & 1 != 0, w & 2 != 0], [b & 1 != 0, b & 2 != 0]]);
        }
    }
    materials.sort_by_key(|m| m.iter().flatten().filter(|&&x| x).count());
    materials
}
