//! The proof store (`zoo solve --store`): answers kept on disk decide a
//! question asked again, and a neighbouring position's search uses them
//! as leaves with the same answers it finds without them; a damaged
//! store, another game's, or one that contradicts itself is refused.

use std::path::{Path, PathBuf};
use std::time::Duration;
use zoo_animal::{rules::JUNGLE_CHECKERS_LEIDEN, JungleCheckersPos};
use zoo_app::solve::{solve, Algorithm, Ghi, Limits, Question, SolveReport, SolveRequest};
use zoo_app::GameKind;
use zoo_core::{Game, MoveList};

/// A Jungle Checkers loss for Black that takes df-pn thousands of calls
/// (as in solve_checkpoint.rs).
const FEN: &str = "7/3e3/7/7/7/3R3/2D4 b";

/// A value question by the proof manager, as `zoo solve` asks it by
/// default with no graph (`--search-only`), one thread, no limits.
pub(crate) fn request(fen: &str, store: Option<&Path>) -> SolveRequest {
    SolveRequest {
        game: GameKind::JungleCheckers,
        rules: None,
        fen: Some(fen.into()),
        moves: vec![],
        question: Question::Value,
        algorithm: Algorithm::Dfpn,
        ghi: Ghi::Path,
        // The proof manager, as `zoo solve` runs by default, with no graph.
        remedies: None,
        pn2_fraction: None,
        gc: false,
        tables: None,
        limits: Limits::default(),
        proof: false,
        checkpoint: None,
        checkpoint_every: Duration::from_secs(3600),
        threads: 1,
        workers: 1,
        search_only: true,
        tuning: Default::default(),
        store: store.map(Path::to_path_buf),
        store_writes: Default::default(),
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zoo-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn calls(r: &SolveReport) -> u64 {
    r.answers.iter().map(|a| a.nodes).sum()
}

/// The FENs of the positions one move from `fen`.
pub(crate) fn children(fen: &str) -> Vec<String> {
    let pos = JungleCheckersPos::from_fen(fen, &&JUNGLE_CHECKERS_LEIDEN).unwrap();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = pos.clone();
            c.make(m);
            c.to_fen()
        })
        .collect()
}

#[test]
fn an_answer_kept_is_read_back_without_a_search() {
    let d = dir("again");
    let store = d.join("answers.store");
    let first = solve(&request(FEN, Some(&store))).unwrap();
    assert_eq!(first.value, Some(zoo_core::Outcome::Loss), "{first:?}");
    assert!(
        calls(&first) > 1000,
        "a real search first: {}",
        calls(&first)
    );
    let again = solve(&request(FEN, Some(&store))).unwrap();
    assert_eq!(again.value, first.value);
    assert_eq!(calls(&again), 0);
    assert!(again.answers.iter().all(|a| a.method == Some("store")));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_neighbour_starts_from_the_stored_answers_and_agrees() {
    let d = dir("neighbour");
    let store = d.join("answers.store");
    let fresh = solve(&request(FEN, None)).unwrap();
    // Every child of the root first, each into the store.
    for c in children(FEN) {
        let r = solve(&request(&c, Some(&store))).unwrap();
        assert!(r.value.is_some(), "{c}: {r:?}");
    }
    let with = solve(&request(FEN, Some(&store))).unwrap();
    assert_eq!(with.value, fresh.value);
    let asked = |r: &SolveReport| -> Vec<(&str, &str)> {
        r.answers.iter().map(|a| (a.goal, a.answer)).collect()
    };
    assert_eq!(asked(&with), asked(&fresh));
    // Each child is a leaf now: the root is decided on its first expansion.
    assert!(
        calls(&with) * 50 < calls(&fresh),
        "{} calls with the children stored, {} without",
        calls(&with),
        calls(&fresh)
    );
    // Two plies down: the grandchildren's searches meet the stored
    // children as leaves too (positions the search reaches by other
    // paths), and each still agrees with a search that has no store.
    for c in children(FEN).into_iter().take(3) {
        for g in children(&c).into_iter().take(4) {
            let a = solve(&request(&g, Some(&store))).unwrap();
            let b = solve(&request(&g, None)).unwrap();
            assert_eq!(a.value, b.value, "{g}");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_proof_is_never_written_through_the_store() {
    let d = dir("proof");
    let store = d.join("answers.store");
    solve(&request(FEN, Some(&store))).unwrap();
    let r = solve(&SolveRequest {
        proof: true,
        ..request(FEN, Some(&store))
    })
    .unwrap();
    assert!(calls(&r) > 0, "searched again for its proof");
    let text = r
        .answers
        .iter()
        .rev()
        .find_map(|a| a.proof.clone())
        .unwrap();
    assert!(!text.contains("stored"));
    zoo_app::solve::check_proof(&text, None).unwrap();
    let _ = std::fs::remove_dir_all(&d);
}

/// `body` with a right CRC-32 trailer again.
fn resummed(mut body: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&body);
    body.extend_from_slice(b"CRC:");
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

#[test]
fn damaged_foreign_and_contradictory_stores_are_refused() {
    let d = dir("bad");
    let store = d.join("answers.store");
    solve(&request(FEN, Some(&store))).unwrap();
    let good = std::fs::read(&store).unwrap();
    let refused = |bytes: &[u8], want: &str| {
        std::fs::write(&store, bytes).unwrap();
        let e = solve(&request(FEN, Some(&store))).unwrap_err().to_string();
        assert!(e.contains(want), "{e}");
        assert!(e.contains("answers.store"), "names the file: {e}");
        // Nothing replaced.
        assert_eq!(std::fs::read(&store).unwrap(), bytes);
    };
    // A byte changed, and the file cut short.
    let mut flipped = good.clone();
    flipped[40] ^= 1;
    refused(&flipped, "checksum");
    refused(&good[..good.len() - 3], "checksum");
    // Another rule set's answers.
    let body = String::from_utf8(good[..good.len() - 8].to_vec()).unwrap();
    let other = body.replacen("\"rules\":\"leiden\"", "\"rules\":\"common\"", 1);
    refused(&resummed(other.into_bytes()), "under common rules");
    // An answer that contradicts another (the loss proven, and the win too).
    let lying = format!(
        "{body}{{\"fen\":\"{FEN}\",\"goal\":\"win\",\"answer\":\"proven\",\"nodes\":1,\"seconds\":0.0,\"method\":\"dfpn\",\"oracle_pieces\":0}}\n"
    );
    refused(&resummed(lying.into_bytes()), "contradicts");
    // A directory in its place.
    std::fs::remove_file(&store).unwrap();
    std::fs::create_dir(&store).unwrap();
    assert!(solve(&request(FEN, Some(&store))).is_err());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_move_limit_and_a_checkpoint_with_a_store_are_refused() {
    let d = dir("refused");
    let limited = SolveRequest {
        game: GameKind::EnglishCheckers,
        rules: Some("english+draw=40".into()),
        fen: Some("W:WK1,K2:BK30".into()),
        ..request(FEN, None)
    };
    let e = solve(&limited).unwrap_err().to_string();
    assert!(e.contains("move limit"), "{e}");
    let both = SolveRequest {
        checkpoint: Some(d.join("run.ckpt")),
        ..request(FEN, Some(&d.join("answers.store")))
    };
    let e = solve(&both).unwrap_err().to_string();
    assert!(e.contains("--store and --checkpoint"), "{e}");
    assert!(!d.join("answers.store").exists() && !d.join("run.ckpt").exists());
    // No tables are made or read for such a rule set either.
    let e = zoo_app::tables::TableSet::new(GameKind::EnglishCheckers, Some("english+draw=40"), &d)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("move limit"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A process that is not the store's writer (a worker of a batch over
/// MPI) reads the store but leaves the file alone: the answers it decided
/// come back in the report, and down its channel as each is found (named
/// with the store's game and rules), the same records a writing run
/// saves.
#[test]
fn a_read_only_run_returns_its_answers_and_leaves_the_file() {
    let d = dir("read-only");
    let store = d.join("answers.store");
    let (to, sent) = std::sync::mpsc::channel();
    let read_only = solve(&SolveRequest {
        store_writes: zoo_app::solve::store::Writes::Return(Some(to)),
        ..request(FEN, Some(&store))
    })
    .unwrap();
    assert!(!store.exists(), "a read-only run wrote the store");
    assert!(!read_only.stored.is_empty());
    let sent: Vec<_> = sent.try_iter().collect();
    assert!(sent
        .iter()
        .all(|a| a.game == read_only.game && a.rules == read_only.rules));
    assert_eq!(
        sent.into_iter().map(|a| a.record).collect::<Vec<_>>(),
        read_only.stored
    );
    let writing = solve(&request(FEN, Some(&store))).unwrap();
    assert!(store.exists());
    let key = |r: &zoo_app::solve::store::Record| {
        (r.fen.clone(), r.goal.clone(), r.answer.clone(), r.nodes)
    };
    assert_eq!(
        read_only.stored.iter().map(key).collect::<Vec<_>>(),
        writing.stored.iter().map(key).collect::<Vec<_>>()
    );
    // Read-only again, with the file there: its answers are read, nothing
    // new is decided, and the file's bytes stay as they were.
    let before = std::fs::read(&store).unwrap();
    let again = solve(&SolveRequest {
        store_writes: zoo_app::solve::store::Writes::Return(None),
        ..request(FEN, Some(&store))
    })
    .unwrap();
    assert!(again.stored.is_empty());
    assert!(again.answers.iter().all(|a| a.method == Some("store")));
    assert_eq!(std::fs::read(&store).unwrap(), before);
    let _ = std::fs::remove_dir_all(&d);
}

/// An answer kept for a position serves it whatever the ply count it was
/// reached at: the children given without the count, as a file of
/// positions gives them, decide the root (whose search meets them one
/// ply down, with the count 1).
#[test]
fn a_stored_answer_serves_its_position_at_any_ply_count() {
    let d = dir("plies");
    let store = d.join("answers.store");
    let fresh = solve(&request(FEN, None)).unwrap();
    for c in children(FEN) {
        // `… w 1` as the move made it; a file of positions says `… w`.
        let bare = c.rsplit_once(' ').map_or(c.clone(), |(head, ply)| {
            assert_eq!(ply, "1", "{c}");
            head.to_string()
        });
        assert_ne!(bare, c);
        solve(&request(&bare, Some(&store))).unwrap();
    }
    let with = solve(&request(FEN, Some(&store))).unwrap();
    assert_eq!(with.value, fresh.value);
    assert!(
        calls(&with) * 50 < calls(&fresh),
        "{} calls with the children stored, {} without",
        calls(&with),
        calls(&fresh)
    );
    let moved = format!("{FEN} 2");
    let again = solve(&request(&moved, Some(&store))).unwrap();
    assert!(
        again.answers.iter().all(|a| a.method == Some("store")),
        "{again:?}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
