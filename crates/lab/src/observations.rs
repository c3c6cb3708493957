//! Literature A's observations with its databases, for an animal game
//! whose tables are given:
//! - [`starts`]: the equal-material starts, where each side keeps the
//!   same kinds of pieces on their start squares and White is to move;
//!   valued by the tables when they hold that many pieces, else solved by
//!   df-pn with the tables as the oracle within a budget;
//! - [`parity`]: every position of one White and one Black piece of the
//!   same kind, White to move, its table value tallied by the parity of
//!   the Manhattan distance between the two pieces (the thesis: such
//!   endings are never drawn, the parity decides).
//!
//! Positions are written as FEN from the start position's board, so the
//! rules' own FEN reading decides what may stand where.

use crate::positions::{board_of, fen_of};
use crate::report::csv_field;
use crate::Report;
use anyhow::{anyhow, Result};
use std::fmt::Write as _;
use std::time::Duration;
use zoo_core::{Game, Oracle, Outcome};
use zoo_solve::{dfpn, solve_value, Limits};

/// What a start beyond the tables may cost: df-pn's MID calls and
/// seconds, each question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// MID calls at most a question.
    pub nodes: u64,
    /// Seconds at most a question.
    pub seconds: f64,
}

/// One equal-material start.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// White's kinds kept (FEN letters, weakest first); Black keeps the
    /// same.
    pub kinds: String,
    /// The position, White to move.
    pub fen: String,
    /// Its value for White, `None` when df-pn's budget ran out.
    pub value: Option<Outcome>,
    /// Plies to the end (the tables' distance), when the tables value it.
    pub plies: Option<u16>,
    /// df-pn's MID calls over its questions; 0 when the tables value it.
    pub calls: u64,
    /// Seconds df-pn took.
    pub seconds: f64,
}

/// The board of `G`'s start position (ranks top first) and its files.
fn start_board<G: Game>(rules: &G::Rules) -> Result<(Vec<Vec<u8>>, usize)> {
    let start = G::start(rules);
    let board = board_of(&start.to_fen()).ok_or_else(|| {
        anyhow!(
            "{}: the observations need a start position written `rank/rank/... side`",
            start.game_name()
        )
    })?;
    let files = board.first().map_or(0, Vec::len);
    Ok((board, files))
}

/// White's kinds in the start position, weakest first (Jungle's order of
/// strength, which Jungle Checkers' four kinds keep; a letter outside it
/// goes last).
fn white_kinds(board: &[Vec<u8>]) -> Vec<u8> {
    let mut kinds: Vec<u8> = board
        .iter()
        .flatten()
        .copied()
        .filter(u8::is_ascii_uppercase)
        .collect();
    let strength = |k: &u8| {
        <zoo_animal::Jungle as zoo_animal::Board>::LETTERS
            .iter()
            .position(|l| l == k)
            .unwrap_or(usize::MAX)
    };
    kinds.sort_by_key(strength);
    kinds
}

/// Every `k`-subset of `items`, in lexicographic order of positions.
fn subsets(items: &[u8], k: usize) -> Vec<Vec<u8>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        for mut rest in subsets(&items[i + 1..], k - 1) {
            rest.insert(0, items[i]);
            out.push(rest);
        }
    }
    out
}

/// The equal-material starts of `pieces` pieces (even: half a side), each
/// valued by `oracle` or solved by df-pn with it as the oracle within
/// `budget`; `progress` hears of each.
pub fn starts<G: Game>(
    rules: &G::Rules,
    oracle: &dyn Oracle<G>,
    pieces: u32,
    budget: &Budget,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Start>> {
    let (board, files) = start_board::<G>(rules)?;
    let kinds = white_kinds(&board);
    let per_side = pieces as usize / 2;
    if !pieces.is_multiple_of(2) || per_side == 0 || per_side > kinds.len() {
        return Err(anyhow!(
            "{pieces} pieces: an equal-material start has an even number, at most {}",
            2 * kinds.len()
        ));
    }
    let mut out = Vec::new();
    for kept in subsets(&kinds, per_side) {
        let squares: Vec<u8> = board
            .iter()
            .flatten()
            .map(|&c| {
                if kept.contains(&c.to_ascii_uppercase()) {
                    c
                } else {
                    b'.'
                }
            })
            .collect();
        let fen = format!("{} w", fen_of(&squares, files));
        let pos = G::from_fen(&fen, rules).map_err(|e| anyhow!("{fen}: {e}"))?;
        let start = start_value(&pos, oracle, budget)?;
        let row = Start {
            kinds: String::from_utf8_lossy(&kept).into_owned(),
            fen,
            ..start
        };
        progress(&format!(
            "{} {}: {} ({} calls, {:.1} s)",
            row.kinds,
            row.fen,
            row.value.map_or("unknown", Outcome::name),
            row.calls,
            row.seconds
        ));
        out.push(row);
    }
    Ok(out)
}

/// The value of `pos` by the tables when they hold it, else by df-pn.
fn start_value<G: Game>(pos: &G, oracle: &dyn Oracle<G>, budget: &Budget) -> Result<Start> {
    let mut row = Start {
        kinds: String::new(),
        fen: String::new(),
        value: None,
        plies: None,
        calls: 0,
        seconds: 0.0,
    };
    if pos.piece_count() <= oracle.complete_pieces() {
        let v = oracle
            .probe(pos)
            .ok_or_else(|| anyhow!("the tables do not value {}", pos.to_fen()))?;
        row.value = Some(v.outcome);
        row.plies = v.distance;
        return Ok(row);
    }
    let limits = Limits {
        nodes: Some(budget.nodes),
        time: Some(Duration::from_secs_f64(budget.seconds)),
        ..Limits::default()
    };
    let (value, _) = solve_value(|goal| {
        let r = dfpn::solve(pos, goal, Some(oracle), &limits, &dfpn::Options::default());
        row.calls += r.nodes;
        row.seconds += r.seconds;
        r.answer
    });
    row.value = value;
    Ok(row)
}

/// The starts' files (`starts-<game>-<pieces>.md`, `.csv`).
pub fn starts_report(game: &str, pieces: u32, rows: &[Start]) -> Report {
    let mut md = String::from(
        "| White's kinds (Black's the same) | position | value for White, to move | plies | df-pn MID calls | seconds |\n|---|---|---|---|---|---|\n",
    );
    let mut csv = String::from("kinds,fen,value,plies,dfpn_calls,seconds\n");
    for r in rows {
        let value = r.value.map_or("unknown", Outcome::name);
        let plies = r.plies.map_or(String::new(), |p| p.to_string());
        let _ = writeln!(
            md,
            "| {} | `{}` | {value} | {} | {} | {:.1} |",
            r.kinds,
            r.fen,
            if plies.is_empty() { "–" } else { &plies },
            r.calls,
            r.seconds
        );
        let _ = writeln!(
            csv,
            "{},{},{value},{plies},{},{:.1}",
            r.kinds,
            csv_field(&r.fen),
            r.calls,
            r.seconds
        );
    }
    Report {
        files: vec![
            (format!("starts-{game}-{pieces}.md"), md.clone()),
            (format!("starts-{game}-{pieces}.csv"), csv),
        ],
        summary: Some(md),
    }
}

/// The positions of one kind at one parity of the distance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parity {
    /// The kind (White's FEN letter; Black's piece is the same kind).
    pub kind: u8,
    /// The Manhattan distance between the two pieces, modulo 2.
    pub odd: bool,
    /// Wins, draws and losses for White, to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// The longest win or loss, in plies.
    pub longest: u16,
}

/// Every unfinished position of one White and one Black piece of the same
/// kind, White to move, valued by `oracle` and tallied by kind and the
/// parity of the distance between the two pieces (even first).
pub fn parity<G: Game>(rules: &G::Rules, oracle: &dyn Oracle<G>) -> Result<Vec<Parity>> {
    let (board, files) = start_board::<G>(rules)?;
    let cells = board.len() * files;
    let mut out = Vec::new();
    for kind in white_kinds(&board) {
        let mut rows = [false, true].map(|odd| Parity {
            kind,
            odd,
            ..Parity::default()
        });
        for w in 0..cells {
            for b in (0..cells).filter(|&b| b != w) {
                let mut squares = vec![b'.'; cells];
                squares[w] = kind;
                squares[b] = kind.to_ascii_lowercase();
                let fen = format!("{} w", fen_of(&squares, files));
                // A piece on its own den (refused) or on the enemy's (over).
                let Some(pos) = G::from_fen(&fen, rules)
                    .ok()
                    .filter(|p| p.outcome().is_none())
                else {
                    continue;
                };
                let v = oracle
                    .probe(&pos)
                    .ok_or_else(|| anyhow!("the tables do not value {fen}"))?;
                let distance = (w / files).abs_diff(b / files) + (w % files).abs_diff(b % files);
                let row = &mut rows[distance % 2];
                match v.outcome {
                    Outcome::Win => row.wins += 1,
                    Outcome::Draw => row.draws += 1,
                    Outcome::Loss => row.losses += 1,
                }
                row.longest = row.longest.max(v.distance.unwrap_or(0));
            }
        }
        out.extend(rows);
    }
    Ok(out)
}

/// The parity files (`parity-<game>.md`, `.csv`).
pub fn parity_report(game: &str, rows: &[Parity]) -> Report {
    let mut md = String::from(
        "| kind | distance | positions | White wins | draws | Black wins | longest (plies) |\n|---|---|---|---|---|---|---|\n",
    );
    let mut csv = String::from("kind,distance,positions,wins,draws,losses,longest\n");
    for r in rows {
        let parity = if r.odd { "odd" } else { "even" };
        let n = r.wins + r.draws + r.losses;
        let kind = r.kind as char;
        let _ = writeln!(
            md,
            "| {kind} v {} | {parity} | {n} | {} | {} | {} | {} |",
            kind.to_ascii_lowercase(),
            r.wins,
            r.draws,
            r.losses,
            r.longest
        );
        let _ = writeln!(
            csv,
            "{kind},{parity},{n},{},{},{},{}",
            r.wins, r.draws, r.losses, r.longest
        );
    }
    Report {
        files: vec![
            (format!("parity-{game}.md"), md.clone()),
            (format!("parity-{game}.csv"), csv),
        ],
        summary: Some(md),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_order() {
        assert_eq!(
            subsets(b"RDTE", 2),
            [b"RD", b"RT", b"RE", b"DT", b"DE", b"TE"].map(|s| s.to_vec())
        );
        assert_eq!(subsets(b"RDTE", 4).len(), 1);
    }
}
