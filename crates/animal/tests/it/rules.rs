//! One test per rule of docs/rules/jungle.md and docs/rules/jungle-checkers.md,
//! and per difference of the `common` rule set (docs/rules/jungle.md §10).
//! Each test names the sections it checks. Cases that are plain data (a
//! position and which moves are legal there) are lines of
//! tests/data/moves.txt, checked by tests/moves.rs.

use zoo_animal::{rules, JungleCheckersPos, JunglePos};
use zoo_core::{Game, History, MoveList, Outcome, Repetition};

fn jungle(fen: &str) -> JunglePos {
    JunglePos::from_fen(fen, &&rules::JUNGLE_LEIDEN).unwrap()
}
fn common(fen: &str) -> JunglePos {
    JunglePos::from_fen(fen, &&rules::JUNGLE_COMMON).unwrap()
}
fn moves<G: Game>(p: &G) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|&m| p.move_to_coord(m)).collect();
    v.sort();
    v
}
fn has<G: Game>(p: &G, m: &str) -> bool {
    moves(p).iter().any(|x| x == m)
}

/// docs/rules/jungle.md §5.4, §8.2.
#[test]
fn repetition_policies_differ_from_ply_five() {
    let p = JunglePos::start(&&rules::JUNGLE_LEIDEN);
    let count = |pol| {
        let mut h = History::starting_at(pol, p.key(), p.piece_count());
        (4..=5)
            .map(|d| zoo_core::perft(&mut p.clone(), d, &mut h))
            .collect::<Vec<_>>()
    };
    let none = count(Repetition::None);
    let first = count(Repetition::First);
    assert_eq!(none[0], first[0], "no repeat possible in four plies");
    // At five plies the start can have repeated (after four plies) and is a leaf.
    assert!(first[1] < none[1]);
    assert_eq!(
        count(Repetition::Threefold),
        none,
        "a third occurrence needs eight plies"
    );
}

/// docs/rules/jungle.md §3.2, §5.1.
#[test]
fn own_den_forbidden_and_enemy_den_wins() {
    // No entry into the own den: tests/data/moves.txt.
    // White dog on c9 enters d9 and wins.
    let mut p = jungle("2D4/7/7/7/7/7/7/7/6e w");
    assert!(has(&p, "c9d9"));
    let m = p.parse_move("c9d9").unwrap();
    p.make(m);
    assert_eq!(p.terminal(), Some(Outcome::Loss), "Black to move has lost");
    // A FEN with a piece in its own den is refused.
    assert!(JunglePos::from_fen("3d3/7/7/7/7/7/7/7/3D3 w", &&rules::JUNGLE_LEIDEN).is_err());
}

/// docs/rules/jungle.md §5.2.
#[test]
fn capturing_the_last_piece_wins() {
    let mut p = jungle("7/7/7/7/7/7/7/1c5/1D5 w");
    let m = p.parse_move("Dxb2").unwrap();
    p.make(m);
    assert_eq!(p.terminal(), Some(Outcome::Loss));
}

/// docs/rules/jungle.md §5.3, §10.6.
#[test]
fn stalemate_draws_in_leiden_and_loses_in_common() {
    // White cat a1 walled in by the Black dog a2 and wolf b1 (no traps there).
    let fen = "7/7/7/7/7/7/7/d6/Cw5 w";
    let p = jungle(fen);
    assert!(moves(&p).is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    let q = common(fen);
    assert_eq!(q.outcome(), Some(Outcome::Loss));
}

/// docs/rules/jungle.md §10.2, §10.7, §10.8, §11.
#[test]
fn common_start_position_and_counters() {
    let p = JunglePos::start(&&rules::JUNGLE_COMMON);
    assert_eq!(
        p.to_fen(),
        "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w 0 1"
    );
    // The `r` side letter and the two counters are accepted.
    let q = common("t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T r 12 7");
    assert_eq!(q.clock(), 12);
    assert_eq!(
        q.to_fen(),
        "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w 12 7"
    );
    // 200 plies without a capture draw.
    let d = common("t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w 200 120");
    assert_eq!(d.terminal(), Some(Outcome::Draw));
    let l = jungle("t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T w 200");
    assert_eq!(l.terminal(), None, "leiden has no move limit");
}

/// docs/rules/jungle-checkers.md §8.1.
#[test]
fn eight_piece_parity_fact_holds_for_reachable_positions() {
    // With all 8 pieces on the board, White is to move exactly when the
    // number of pieces on white squares (a1 white) is even.
    let mut p = JungleCheckersPos::start(&&rules::JUNGLE_CHECKERS_LEIDEN);
    let mut rng = 12345u64;
    for _ in 0..2000 {
        let mut l = MoveList::new();
        p.legal_moves(&mut l);
        let quiet: Vec<_> = l.iter().copied().filter(|&m| !p.is_capture(m)).collect();
        if quiet.is_empty() || p.terminal().is_some() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        p.make(quiet[(rng >> 33) as usize % quiet.len()]);
        if p.terminal().is_some() {
            break;
        }
        let mut on_white = 0;
        for s in 0..49u8 {
            let (f, r) = (s % 7, s / 7);
            if p.piece_at(s).is_some() && (f + r) % 2 == 1 {
                on_white += 1;
            }
        }
        let white_to_move = p.side_to_move() == zoo_core::Side::White;
        assert_eq!(white_to_move, on_white % 2 == 0, "{}", p.to_fen());
    }
}

/// docs/rules/jungle.md §7.
#[test]
fn notation_round_trips_and_errors() {
    let p = JunglePos::start(&&rules::JUNGLE_LEIDEN);
    let m = p.parse_move("Ea4").unwrap();
    assert_eq!(p.move_to_coord(m), "a3a4");
    assert_eq!(p.parse_move("a3a4").unwrap(), m);
    for bad in ["", "Xa4", "Ea0", "Eh4", "a3a5", "Exa4", "e", "a3", "Ea44"] {
        assert!(p.parse_move(bad).is_err(), "{bad:?}");
    }
    for bad in [
        "",
        "l5t/1d3c1 w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5 w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4LL w",
        "l5t/1d3c1/r1p1w1e/7/1E5/7/7/1C3D1/T5L w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w x",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 1 2 3",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L/7 w",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T05L w",
        // Move numbers past the 16-bit ply count are refused, not wrapped.
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 32769",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 40000",
    ] {
        let e = JunglePos::from_fen(bad, &&rules::JUNGLE_LEIDEN);
        assert!(e.is_err(), "{bad:?} parsed");
        assert!(!e.unwrap_err().to_string().is_empty());
    }
    // The last move number counted is the last ply count, 65535.
    let last = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 32768";
    let p = JunglePos::from_fen(last, &&rules::JUNGLE_LEIDEN).unwrap();
    assert_eq!(
        p.to_fen(),
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 65535"
    );
}

/// docs/rules/README.md, "Changing one rule": a field changed by name
/// gives a rule set of its own name, made once, that plays the change.
#[test]
fn single_fields_change_by_name() {
    use zoo_animal::board::by_name;
    use zoo_animal::{Jungle, JungleCheckers};
    let a = by_name::<Jungle>("leiden+stalemate=loss").unwrap();
    assert_eq!(a.name, "leiden+stalemate=loss");
    assert!(a.stalemate_loses);
    // An empty base is the default; the same rules are the same rule set.
    let b = by_name::<Jungle>("+stalemate=loss").unwrap();
    assert!(std::ptr::eq(a, b));
    // Changes are written in one order; a change that changes nothing is
    // dropped, so equal rules have one name.
    let c = by_name::<Jungle>("leiden+repetition=threefold+stalemate=loss+elephant-takes-rat=yes")
        .unwrap();
    assert_eq!(c.name, "leiden+stalemate=loss+repetition=threefold");
    assert!(std::ptr::eq(
        by_name::<Jungle>("common+stalemate=loss").unwrap(),
        &rules::JUNGLE_COMMON
    ));
    let d = by_name::<Jungle>("common+no-capture-limit=none+water-edge-captures=yes").unwrap();
    assert_eq!(
        d.name,
        "common+water-edge-captures=yes+no-capture-limit=none"
    );
    assert_eq!(d.no_capture_limit, None);
    // The change is played: the walled-in cat of the test above loses.
    let fen = "7/7/7/7/7/7/7/d6/Cw5 w";
    let p = JunglePos::from_fen(fen, &a).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Loss));
    let jc = by_name::<JungleCheckers>("+stalemate=loss").unwrap();
    let q = JungleCheckersPos::from_fen("7/7/7/7/7/t6/Rd5 w", &jc).unwrap();
    assert_eq!(q.outcome(), Some(Outcome::Loss));
    // Errors name the field or value.
    for (name, says) in [
        (
            "leiden+stalemate=win",
            "stalemate: `win` is not draw or loss",
        ),
        ("leiden+colour=red", "unknown rule field `colour`"),
        ("leiden+stalemate", "`stalemate` is not FIELD=VALUE"),
        (
            "leiden+no-capture-limit=0",
            "no-capture-limit: `0` is not a number",
        ),
        ("dutch+stalemate=loss", "unknown rule set for jungle"),
    ] {
        let e = by_name::<Jungle>(name).unwrap_err().to_string();
        assert!(e.contains(says), "{name}: {e}");
    }
}
