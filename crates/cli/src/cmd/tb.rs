//! `zoo tb build | stats | probe | verify`: endgame tablebases of the animal
//! games (crate `zoo-tb`).

use crate::games::game_parser;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use zoo_animal::{Board, Jungle, JungleCheckers, Position, RuleSet};
use zoo_app::GameKind;
use zoo_core::{Game, Outcome};
use zoo_tb::build::{build, human_bytes, plan, stats, BuildOptions};
use zoo_tb::index::Material;
use zoo_tb::verify::verify;
use zoo_tb::Tablebase;

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build every missing table up to a number of pieces (resumable).
    Build(BuildArgs),
    /// Statistics of all positions with exactly N pieces, White to move.
    Stats(StatsArgs),
    /// Value and distance of a position, and of every move.
    Probe(ProbeArgs),
    /// Check the tables against an independent exhaustive search (up to
    /// --pieces), or, with --positions, random entries of the tables of
    /// exactly --pieces against the values of their moves.
    Verify(VerifyArgs),
}

/// Where the tables are and which rule set they are for (every `zoo tb`
/// subcommand).
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Named rule set (default: the game's first, `leiden`).
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Bound on the working memory of the tables solved at once, in GB
    /// (default: 80% of the machine's memory). A table larger than this is
    /// solved alone with its state in files beside the tables (slower).
    #[arg(long)]
    pub memory: Option<f64>,
    /// How the new tables are stored: `plain` (2-bit values and a distance
    /// byte, the fastest to probe) or `zstd` (independent compressed
    /// blocks, about a ninth of the size). Default: plain up to 5 pieces,
    /// zstd from 6.
    #[arg(long, value_enum)]
    pub encoding: Option<EncodingArg>,
    /// Solve every configuration, also those whose table is another's with
    /// the pieces renamed (by default copied from it): to check the copies.
    #[arg(long)]
    pub solve_all: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum EncodingArg {
    Plain,
    Zstd,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[arg(long)]
    pub fen: String,
    #[command(flatten)]
    pub tables: TableArgs,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// One game (default: both animal games).
    #[arg(long, value_parser = game_parser())]
    pub game: Option<GameKind>,
    /// Largest tables to check (default 3): the exhaustive check covers
    /// every size up to it, --positions exactly this size.
    #[arg(long, default_value_t = 3)]
    pub pieces: u32,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Check only one in this many materials of the largest size (chosen
    /// by a fixed hash); 1 checks them all. Selects whole tables, in both
    /// modes; --positions selects entries inside them.
    #[arg(long, default_value_t = 1)]
    pub sample: u64,
    /// Instead of the exhaustive search: check this many random entries of
    /// every table with exactly --pieces pieces, each against the value of
    /// its moves (one ply over the tables). For sizes the exhaustive
    /// solver cannot hold in memory (6-piece Jungle Checkers); tables not
    /// built yet are listed and skipped.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seed of the --positions entries (default: from the clock). Printed,
    /// so a run can be repeated exactly.
    #[arg(long, requires = "positions")]
    pub seed: Option<u64>,
    /// With --positions: one JSON object per game on stdout.
    #[arg(long, requires = "positions")]
    pub json: bool,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

/// Runs `$f::<Board>(args)` for the animal games; other games have no tables.
macro_rules! animal {
    ($kind:expr, $f:ident ( $($arg:expr),* )) => {{
        #[allow(unreachable_patterns)]
        match $kind {
            GameKind::Jungle => $f::<Jungle>($($arg),*),
            GameKind::JungleCheckers => $f::<JungleCheckers>($($arg),*),
            other => Err(anyhow!("no endgame tables for {other:?}: tables exist for jungle and jungle-checkers")),
        }
    }};
}

pub fn run(a: &TbArgs) -> Result<()> {
    match &a.command {
        TbCommand::Build(b) => animal!(b.game, run_build(b)),
        TbCommand::Stats(s) => animal!(s.game, run_stats(s)),
        TbCommand::Probe(p) => animal!(p.game, run_probe(p)),
        TbCommand::Verify(v) => match v.game {
            Some(g) => animal!(g, run_verify(v)),
            None => {
                run_verify::<Jungle>(v)?;
                run_verify::<JungleCheckers>(v)
            }
        },
    }
}

/// A table has one piece a side at least and at most every piece.
fn check_pieces<B: Board>(pieces: u32) -> Result<()> {
    if pieces < 2 || pieces > 2 * B::KINDS as u32 {
        bail!(
            "--pieces {pieces}: tables of {} have 2 to {} pieces (one a side at least)",
            B::GAME,
            2 * B::KINDS
        );
    }
    Ok(())
}

fn rules_of<B: Board>(name: Option<&str>) -> Result<&'static RuleSet> {
    match name {
        Some(n) => Ok(zoo_animal::rules::by_name::<B>(n)?),
        None => Ok(B::rule_sets()[0]),
    }
}

fn run_build<B: Board>(a: &BuildArgs) -> Result<()> {
    let rules = rules_of::<B>(a.tables.rules.as_deref())?;
    check_pieces::<B>(a.pieces)?;
    let memory_bytes = match a.memory {
        Some(gb) if gb.is_finite() && gb > 0.0 => Some((gb * 1e9) as u64),
        Some(gb) => bail!("--memory {gb}: give a positive number of GB"),
        // Without --memory: 80% of the machine's memory, so a table that
        // cannot fit keeps its state in files instead of failing half-way.
        None => total_memory().map(|b| b / 5 * 4),
    };
    let opts = BuildOptions {
        pieces: a.pieces,
        threads: a.threads,
        memory_bytes,
        encoding: a.encoding.map(|e| match e {
            EncodingArg::Plain => zoo_tb::file::Encoding::Plain,
            EncodingArg::Zstd => zoo_tb::file::Encoding::Zstd,
        }),
        copies: !a.solve_all,
    };
    let (planned, present) = plan::<B>(&a.tables.dir, rules, &opts);
    let copies = planned.iter().filter(|p| p.source.is_some()).count();
    let total: u64 = planned
        .iter()
        .fold(0u64, |t, p| t.saturating_add(p.positions));
    eprintln!(
        "{} {}: {} tables present, {} to build ({} of them copies, {} positions), up to {} pieces, in {}",
        B::GAME,
        rules.name,
        present,
        planned.len(),
        copies,
        total,
        a.pieces,
        zoo_tb::file::table_dir(&a.tables.dir, B::GAME, rules.name).display()
    );
    for p in planned.iter().filter(|p| p.state_in_file) {
        let need = human_bytes(p.working_bytes);
        eprintln!(
            "{}: {need} of working memory, more than the {} allowed (--memory): solved alone with its state \
             in files beside the tables, paged by the kernel (slower; {need} of disk until it is done)",
            p.material.name::<B>(),
            human_bytes(opts.budget()),
        );
    }
    if planned.is_empty() {
        return Ok(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while the current tables finish their chunk ends at once.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    // Every entry is visited twice: by the forward pass and when it is
    // taken back (or found drawn at the end); the bar counts both, so it
    // covers the whole build, and shows positions per second as entries
    // solved (half the visits).
    let bar = ProgressBar::new(total.saturating_mul(2));
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {percent}%  {rate}  ~{left} left  {msg}",
        )
        .expect("valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.2} M positions/s", s.per_sec() / 2e6);
            },
        )
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let left = seconds_left(s.pos(), s.len().unwrap_or(0), s.elapsed().as_secs_f64());
                let _ = write!(w, "{}", indicatif::HumanDuration(left));
            },
        )
        .progress_chars("=> "),
    );
    let t0 = Instant::now();
    let last_line = std::sync::Mutex::new(Instant::now());
    let r = build::<B>(
        &a.tables.dir,
        rules,
        &opts,
        &|n| {
            bar.inc(n);
            // Without a terminal the bar is hidden: a line a minute in the
            // log says how far a long build is.
            if bar.is_hidden() {
                let mut last = last_line.lock().expect("progress lock");
                if last.elapsed().as_secs() >= 60 {
                    *last = Instant::now();
                    let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
                    let secs = bar.elapsed().as_secs_f64();
                    eprintln!(
                        "{:.1}% after {secs:.0} s, {:.2} M positions/s, ~{:.0} s left",
                        100.0 * pos as f64 / len.max(1) as f64,
                        bar.per_sec() / 2e6,
                        seconds_left(pos, len, secs).as_secs_f64()
                    );
                }
            }
        },
        &|b| {
            // Without a terminal (a log file) each finished table is a line,
            // with the work of its backward pass (a measure that does not
            // depend on the machine's load, unlike the time).
            if bar.is_hidden() {
                match &b.copied_from {
                    Some(s) => eprintln!("{} copied from {s} in {:.1} s", b.name, b.secs),
                    None => eprintln!(
                        "{} built in {:.1} s ({} positions taken back, {} predecessors told)",
                        b.name, b.secs, b.work.taken_back, b.work.told
                    ),
                }
            }
            if let Some(why) = &b.unsaved {
                bar.suspend(|| {
                    eprintln!(
                        "warning: {}: no checkpoint could be saved ({why}); the table was solved without one",
                        b.name
                    )
                });
            }
            bar.set_message(format!("{} done in {:.1} s", b.name, b.secs))
        },
        &stop,
    );
    bar.finish_and_clear();
    match r {
        Ok(rep) => {
            eprintln!(
                "built {} tables in {:.1} s",
                rep.built.len(),
                t0.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Err(zoo_tb::TbError::Interrupted) => {
            let (left, _) = plan::<B>(&a.tables.dir, rules, &opts);
            eprintln!(
                "interrupted: {} tables still missing; run the same command again to resume",
                left.len()
            );
            std::process::exit(130);
        }
        Err(e) => Err(e.into()),
    }
}

/// The time left at the average pace of the whole run so far. The
/// progress bar's own estimate follows the recent pace, which in a build
/// stalls for minutes (a checkpoint being written; most positions of a
/// level phase are only counted when their table is done) and then
/// promised days.
fn seconds_left(done: u64, total: u64, elapsed: f64) -> std::time::Duration {
    if done == 0 {
        return std::time::Duration::ZERO;
    }
    let left = elapsed * total.saturating_sub(done) as f64 / done as f64;
    std::time::Duration::from_secs_f64(left)
}

/// Physical memory in bytes (Linux), if known.
fn total_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn run_stats<B: Board>(a: &StatsArgs) -> Result<()> {
    let rules = rules_of::<B>(a.tables.rules.as_deref())?;
    check_pieces::<B>(a.pieces)?;
    let tb = Tablebase::<B>::open(&a.tables.dir, rules);
    let s = stats(&tb, a.pieces)?;
    if a.json {
        println!(
            "{}",
            serde_json::json!({
                "game": B::GAME, "rules": rules.name, "pieces": a.pieces,
                "positions": s.positions, "wins": s.wins, "losses": s.losses,
                "draws": s.draws, "longest": s.longest,
            })
        );
    } else {
        println!(
            "{} {}, {} pieces, White to move, both colours, no piece on a den, no stalemate:",
            B::GAME,
            rules.name,
            a.pieces
        );
        println!(
            "positions {}  wins {}  losses {}  draws {}  longest {} plies",
            s.positions, s.wins, s.losses, s.draws, s.longest
        );
    }
    Ok(())
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

fn run_probe<B: Board>(a: &ProbeArgs) -> Result<()> {
    let rules = rules_of::<B>(a.tables.rules.as_deref())?;
    let pos = Position::<B>::from_fen_str(&a.fen, rules).context("bad --fen")?;
    let tb = Tablebase::<B>::open(&a.tables.dir, rules);
    let (o, d) = tb.try_probe(&pos)?;
    let over = pos.terminal_outcome().is_some();
    let moves = if over {
        Vec::new()
    } else {
        tb.probe_moves(&pos)?
    };
    // Each move is shown from the mover's view: the opposite of the value of
    // the position it leads to, one ply longer.
    let rows: Vec<(String, String, Outcome, u16)> = moves
        .iter()
        .map(|&(m, co, cd)| {
            let dist = if co == Outcome::Draw { 0 } else { cd + 1 };
            (pos.move_to_coord(m), pos.move_to_string(m), co.flip(), dist)
        })
        .collect();
    if a.json {
        let mv: Vec<serde_json::Value> = rows
            .iter()
            .map(|(c, s, o, d)| serde_json::json!({"move": c, "san": s, "value": outcome_name(*o), "distance": d}))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "game": B::GAME, "rules": rules.name, "fen": pos.to_fen(),
                "value": outcome_name(o), "distance": d, "game_over": over, "moves": mv,
            })
        );
    } else {
        println!("{}", pos.to_fen());
        if over {
            println!("game over: {} for the side to move", outcome_name(o));
        } else if o == Outcome::Draw {
            println!("draw");
        } else {
            println!("{} in {} plies for the side to move", outcome_name(o), d);
        }
        for (c, s, o, d) in rows {
            if o == Outcome::Draw {
                println!("  {c:<6} {s:<6} draw");
            } else {
                println!("  {c:<6} {s:<6} {} in {d}", outcome_name(o));
            }
        }
    }
    Ok(())
}

/// `--sample K`: one in K materials, by a fixed hash of the material.
fn keep_one_in(sample: u64) -> impl Fn(Material) -> bool + Sync {
    move |m: Material| {
        ((m.key() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40).is_multiple_of(sample)
    }
}

fn run_verify<B: Board>(a: &VerifyArgs) -> Result<()> {
    let rules = rules_of::<B>(a.tables.rules.as_deref())?;
    if a.sample == 0 {
        bail!("--sample must be at least 1");
    }
    check_pieces::<B>(a.pieces)?;
    if let Some(positions) = a.positions {
        return run_verify_sample::<B>(a, rules, positions);
    }
    // The verifier addresses positions square by square (64 per piece): its
    // value arrays alone are 2 x 64^n bytes per material being solved, and
    // every material one size smaller is kept. Refuse what cannot fit
    // rather than fail on an allocation.
    let raw = |n: u32| 2f64 * 64f64.powi(n as i32);
    let need = a.threads.max(1) as f64 * raw(a.pieces)
        + Material::all::<B>(a.pieces - 1).len() as f64 * raw(a.pieces - 1);
    if let Some(total) = total_memory() {
        if need > 0.8 * total as f64 {
            bail!(
                "verifying {} pieces needs at least {:.0} GB (the independent solver's arrays), more than this machine's {:.0} GB allow; verify fewer pieces, or check random positions of the {}-piece tables with --positions K",
                a.pieces,
                need / 1e9,
                total as f64 / 1e9,
                a.pieces
            );
        }
    }
    let tb = Tablebase::<B>::open(&a.tables.dir, rules);
    for n in 2..=a.pieces {
        for m in Material::canonical::<B>(n) {
            tb.table(m)
                .with_context(|| format!("cannot verify {} up to {} pieces", B::GAME, a.pieces))?;
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.max(1))
        .build()?;
    let t0 = Instant::now();
    let keep = keep_one_in(a.sample);
    let r = pool.install(|| verify(&tb, a.pieces, &keep));
    println!(
        "{} {}: {} materials, {} positions checked up to {} pieces in {:.1} s: {} disagreements",
        B::GAME,
        rules.name,
        r.materials,
        r.positions,
        a.pieces,
        t0.elapsed().as_secs_f64(),
        r.mismatch_count
    );
    for s in &r.mismatches {
        println!("  {s}");
    }
    if r.mismatch_count > 0 {
        bail!("verification failed");
    }
    Ok(())
}

/// `verify --positions K`: K random entries of every table with exactly
/// `--pieces` pieces against the values of their moves. Tables not built
/// yet are listed and skipped; the smaller tables the captures of the
/// checked ones lead to must all be there.
fn run_verify_sample<B: Board>(
    a: &VerifyArgs,
    rules: &'static RuleSet,
    positions: u64,
) -> Result<()> {
    if positions == 0 {
        bail!("--positions must be at least 1");
    }
    let tb = Tablebase::<B>::open(&a.tables.dir, rules);
    // The tables of `ms` that open and those not built; any other failure
    // (a damaged file) stops the check.
    let split = |ms: Vec<Material>| -> Result<(Vec<Material>, Vec<Material>)> {
        let (mut present, mut missing) = (Vec::new(), Vec::new());
        for m in ms {
            match tb.table(m) {
                Ok(_) => present.push(m),
                Err(zoo_tb::TbError::Missing { .. }) => missing.push(m),
                Err(e) => return Err(e).context(format!("cannot check {}", m.name::<B>())),
            }
        }
        Ok((present, missing))
    };
    let keep = keep_one_in(a.sample);
    let (present, missing) = split(
        Material::canonical::<B>(a.pieces)
            .into_iter()
            .filter(|&m| keep(m))
            .collect(),
    )?;
    if present.is_empty() {
        bail!(
            "no {}-piece {} {} tables in {} to check{}",
            a.pieces,
            B::GAME,
            rules.name,
            tb.dir().display(),
            if missing.is_empty() {
                " (--sample left none)"
            } else {
                " (build them with `zoo tb build`)"
            }
        );
    }
    // Captures lead into smaller tables: every one of those must be there,
    // or each position with such a capture would read as a disagreement.
    let mut needed: Vec<Material> = present
        .iter()
        .flat_map(|&m| zoo_tb::sample::capture_tables::<B>(m))
        .collect();
    needed.sort();
    needed.dedup();
    let (_, absent) = split(needed)?;
    let names = |v: &[Material]| v.iter().map(|m| m.name::<B>()).collect::<Vec<_>>();
    if !absent.is_empty() {
        bail!(
            "cannot check {}-piece tables: the captures lead to {}-piece tables missing in {}: {}",
            a.pieces,
            a.pieces - 1,
            tb.dir().display(),
            names(&absent).join(", ")
        );
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.max(1))
        .build()?;
    let t0 = Instant::now();
    let r = pool.install(|| zoo_tb::sample::sample(&tb, &present, positions, seed))?;
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        let value = |v: &zoo_tb::sample::Value| match v {
            Ok((o, d)) => serde_json::json!({"value": outcome_name(*o), "distance": d}),
            Err(e) => serde_json::json!({"error": e}),
        };
        let bad: Vec<serde_json::Value> = r
            .disagreements
            .iter()
            .map(|d| {
                serde_json::json!({
                    "table": d.material, "side": d.side, "index": d.index, "fen": d.fen,
                    "stored": value(&d.stored), "recomputed": value(&d.recomputed),
                })
            })
            .collect();
        let tables: Vec<serde_json::Value> = r
            .tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "table": t.material.name::<B>(), "positions": t.positions,
                    "disagreements": t.disagreements,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "game": B::GAME, "rules": rules.name, "pieces": a.pieces, "seed": seed,
                "positions_per_table": positions, "positions": r.positions,
                "seconds": secs, "tables": tables, "missing": names(&missing),
                "disagreements": r.disagreement_count, "listed": bad,
            })
        );
    } else {
        println!(
            "{} {}: {} of {} {}-piece tables, {} random positions ({} per table, seed {}) checked against their moves in {:.1} s: {} disagreements",
            B::GAME,
            rules.name,
            present.len(),
            present.len() + missing.len(),
            a.pieces,
            r.positions,
            positions,
            seed,
            secs,
            r.disagreement_count
        );
        if !missing.is_empty() {
            println!(
                "  not built yet, not checked: {}",
                names(&missing).join(", ")
            );
        }
        for d in &r.disagreements {
            println!("  {d}");
        }
        if r.disagreements.len() as u64 != r.disagreement_count {
            println!("  (the first {} listed)", r.disagreements.len());
        }
    }
    if r.disagreement_count > 0 {
        bail!("verification failed (repeat it with --seed {seed})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::seconds_left;

    #[test]
    fn time_left_follows_the_average_pace() {
        // A quarter done in 100 s: 300 s to go, whatever the last minute did.
        assert_eq!(seconds_left(25, 100, 100.0).as_secs(), 300);
        assert_eq!(seconds_left(100, 100, 100.0).as_secs(), 0);
        // Nothing done yet (or a total overrun): no estimate, no panic.
        assert_eq!(seconds_left(0, 100, 5.0).as_secs(), 0);
        assert_eq!(seconds_left(120, 100, 5.0).as_secs(), 0);
    }
}
