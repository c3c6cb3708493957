//! Hand-checked table values (tests/data/table-probes.txt), each also
//! checked by a plain minimax search written here, and two kings against
//! one in English checkers: the longest win of the table, and a sample,
//! against the same search.

use super::build::{built, classical, english, test_pieces, up_to, Built};
use std::collections::HashMap;
use std::sync::OnceLock;
use zoo_checkers::tables::{CheckersScheme, Material};
use zoo_checkers::{Classical, English, Position, RuleSet, Variant, CLASSICAL, ENGLISH};
use zoo_core::{Game, MoveList, Outcome, Side, TableIndex};
use zoo_testkit::{cases, Rng};

const PROBES: &str = include_str!("../../data/table-probes.txt");

/// The tables the probes of `game` read: those the tests build (up to
/// [`test_pieces`]) and, for a probe with more pieces, its material and
/// every material it leads to (`CheckersScheme::needed`), in build order.
fn probe_materials<V: Variant>(game: &str) -> Vec<Material> {
    let cases = cases::read(PROBES, expect).expect("tests/data/table-probes.txt reads");
    let mut out = up_to::<V>(test_pieces());
    for c in cases.iter().filter(|c| c.game == game) {
        let rules = <Position<V> as Game>::rules_by_name(c.rules).expect("a rule set");
        let pos = Position::<V>::from_fen(c.position, &rules).expect("a FEN");
        for m in CheckersScheme::<V>::needed(Material::of(&pos)) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
    }
    out.sort_by_key(|m| (m.pieces(), m.men(), *m));
    out
}

/// The tables of [`probe_materials`]: the tests' own when they are all.
fn probe_tables<V: Variant>(
    rules: &'static RuleSet,
    game: &str,
    all: fn() -> &'static Built<V>,
    cell: &'static OnceLock<Built<V>>,
) -> &'static Built<V> {
    let materials = probe_materials::<V>(game);
    if materials.len() == up_to::<V>(test_pieces()).len() {
        return all();
    }
    cell.get_or_init(|| built(rules, &materials, "probes"))
}

/// The English tables the probes read (4 pieces: First Position's).
pub fn english_probes() -> &'static Built<English> {
    static B: OnceLock<Built<English>> = OnceLock::new();
    probe_tables(&ENGLISH, "english", english, &B)
}

/// The Classical tables the probes read.
pub fn classical_probes() -> &'static Built<Classical> {
    static B: OnceLock<Built<Classical>> = OnceLock::new();
    probe_tables(&CLASSICAL, "classical", classical, &B)
}

/// What a line expects: the value and, for a win or loss, the distance.
fn expect(s: &str) -> Option<(Outcome, u16)> {
    let mut w = s.split_whitespace();
    let o = match w.next()? {
        "win" => Outcome::Win,
        "loss" => Outcome::Loss,
        "draw" => Outcome::Draw,
        _ => return None,
    };
    let d = match o {
        Outcome::Draw => 0,
        _ => w.next()?.parse().ok()?,
    };
    w.next().is_none().then_some((o, d))
}

/// Plain minimax over the forward rules, with a memo of what it has
/// proved: no unmove, no table, no index.
struct Search<V: Variant> {
    won: HashMap<(u64, u16), bool>,
    lost: HashMap<(u64, u16), bool>,
    _v: std::marker::PhantomData<V>,
}

impl<V: Variant> Search<V> {
    fn new() -> Self {
        Search {
            won: HashMap::new(),
            lost: HashMap::new(),
            _v: std::marker::PhantomData,
        }
    }
    /// The side to move wins within `d` plies.
    fn won_within(&mut self, p: &Position<V>, d: u16) -> bool {
        if d == 0 || p.terminal().is_some() {
            return false;
        }
        if let Some(&v) = self.won.get(&(p.key(), d)) {
            return v;
        }
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let v = moves.iter().any(|&m| {
            let mut c = *p;
            c.make(m);
            self.lost_within(&c, d - 1)
        });
        self.won.insert((p.key(), d), v);
        v
    }
    /// The side to move loses within `d` plies (no piece or no move left).
    fn lost_within(&mut self, p: &Position<V>, d: u16) -> bool {
        if p.terminal().is_some() {
            return true;
        }
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            return true;
        }
        if d == 0 {
            return false;
        }
        if let Some(&v) = self.lost.get(&(p.key(), d)) {
            return v;
        }
        let v = moves.iter().all(|&m| {
            let mut c = *p;
            c.make(m);
            self.won_within(&c, d - 1)
        });
        self.lost.insert((p.key(), d), v);
        v
    }
    /// Whether `value` is what the search finds: a win or loss at exactly
    /// that distance, a draw as no result either way within `horizon`.
    fn agrees(&mut self, p: &Position<V>, value: (Outcome, u16), horizon: u16) -> bool {
        match value {
            (Outcome::Win, d) => self.won_within(p, d) && !self.won_within(p, d.saturating_sub(2)),
            (Outcome::Loss, d) => self.lost_within(p, d) && (d < 2 || !self.lost_within(p, d - 2)),
            (Outcome::Draw, _) => !self.won_within(p, horizon) && !self.lost_within(p, horizon),
        }
    }
}

fn probes<V: Variant>(b: &Built<V>, game: &str) -> usize {
    let cases = cases::read(PROBES, expect).expect("tests/data/table-probes.txt reads");
    let mut n = 0;
    for c in cases.iter().filter(|c| c.game == game) {
        let rules = <Position<V> as Game>::rules_by_name(c.rules).expect("a rule set");
        let pos = Position::<V>::from_fen(c.position, &rules).expect("a FEN");
        let got = b.tb.try_probe(&pos).expect("probed");
        assert_eq!(got, c.expect, "line {}: {}", c.line, c.label());
        let mut s = Search::<V>::new();
        assert!(
            s.agrees(&pos, c.expect, 30),
            "line {}: the search does not find {:?}",
            c.line,
            c.expect
        );
        n += 1;
    }
    n
}

#[test]
fn english_hand_checked_probes() {
    assert_eq!(probes(english_probes(), "english"), 10);
}

#[test]
fn classical_hand_checked_probes() {
    assert_eq!(probes(classical_probes(), "classical"), 5);
}

/// Two kings against one in English checkers: with the kings to move the
/// table's longest win, and a sample of the table, as the search finds.
#[test]
fn two_kings_beat_one_in_english() {
    let b = english();
    let m = Material {
        wm: 0,
        wk: 2,
        bm: 0,
        bk: 1,
    };
    let index = b.tb.scheme().index(m);
    let mut longest = (0u16, 0u64);
    let mut draws = 0;
    b.tb.read_values(m.into(), 0, |x, (o, d)| match o {
        Outcome::Win if d > longest.0 => longest = (d, x),
        Outcome::Draw => draws += 1,
        _ => {}
    })
    .expect("read");
    let pos = index.position(longest.1, Side::White);
    eprintln!(
        "KKvK, English, kings to move: longest win {} plies, {}",
        longest.0,
        pos.to_fen()
    );
    let mut s = Search::<zoo_checkers::English>::new();
    assert!(s.agrees(&pos, (Outcome::Win, longest.0), 0), "{pos:?}");
    let mut rng = Rng(2);
    for _ in 0..40 {
        let p = index.position(rng.below(index.size()), Side::White);
        let v = b.tb.lookup(&p).expect("probed");
        assert!(s.agrees(&p, v, 30), "{p:?} {v:?}");
    }
    eprintln!("{draws} draws with the kings to move");
}

/// A position of a material with no table (more pieces than built, or
/// than any table has) is an error naming the material, not a panic.
#[test]
fn a_position_without_its_table_is_an_error() {
    let b = english();
    let start = Position::<zoo_checkers::English>::start(&&zoo_checkers::ENGLISH);
    match b.tb.try_probe(&start) {
        Err(zoo_tb::TbError::Missing { material, .. }) => {
            assert_eq!(material, "MMMMMMMMMMMMvMMMMMMMMMMMM")
        }
        other => panic!("{other:?}"),
    }
    let seven = Position::<zoo_checkers::English>::from_fen(
        "W:WK1,K2,K3,K4:BK29,K30,K31",
        &&zoo_checkers::ENGLISH,
    )
    .expect("a FEN");
    assert!(matches!(
        b.tb.try_probe(&seven),
        Err(zoo_tb::TbError::Missing { .. })
    ));
}
