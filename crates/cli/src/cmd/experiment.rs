//! `zoo experiment`: the published search experiments, as tables (Markdown
//! and CSV) and plots (SVG).
//!
//! - `negamax`: negamax against alpha-beta from the Jungle start (literature D).
//! - `enhancements`: total nodes of each enhancement added in turn, by game
//!   phase and depth, over a test set (literature C).
//! - `depth-curve`: nodes against depth on a log scale.
//! - `testset`: assembles a test set by play from the start.

use crate::games::game_parser;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use zoo_app::{AppGame, GameKind, GameVisitor};
use zoo_core::{Game, History, MoveList, Repetition};
use zoo_search::{Config, Engine, EngineGame, Limits, Stats};

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub which: Which,
}

#[derive(Subcommand, Debug)]
pub enum Which {
    /// Negamax against alpha-beta from the Jungle start: nodes, leaves,
    /// effective branching factors (literature D).
    Negamax {
        /// Deepest depth (negamax at depth 7 takes a long time).
        #[arg(long, default_value_t = 5)]
        max_depth: u32,
        /// Depths 1–7 as published.
        #[arg(long)]
        full: bool,
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Total nodes of each enhancement added in turn, by phase and depth (literature C).
    Enhancements {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Test set file (default: crates/search/testsets/<game>.txt).
        #[arg(long)]
        testset: Option<PathBuf>,
        /// Depths, comma-separated (default: jungle 4,6; jungle-checkers 6,8).
        #[arg(long, value_delimiter = ',')]
        depths: Vec<u32>,
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Nodes against depth from the start position, log scale.
    DepthCurve {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        #[arg(long, default_value = "experiments")]
        out_dir: PathBuf,
    },
    /// Assembles a test set by engine play from the start (randomised first plies).
    Testset {
        #[arg(long, value_parser = game_parser())]
        game: GameKind,
        /// Positions per phase.
        #[arg(long, default_value_t = 8)]
        per_phase: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(a: &ExperimentArgs) -> Result<()> {
    match &a.which {
        Which::Negamax {
            max_depth,
            full,
            out_dir,
        } => {
            let d = if *full { 7 } else { *max_depth };
            if !(1..=9).contains(&d) {
                bail!("--max-depth must be between 1 and 9");
            }
            negamax_experiment(d, out_dir)
        }
        Which::Enhancements { game, .. } | Which::Testset { game, .. } => {
            game.visit(PerGame(&a.which))
        }
        Which::DepthCurve {
            game, max_depth, ..
        } => {
            if !(1..=30).contains(max_depth) {
                bail!("--max-depth must be between 1 and 30");
            }
            game.visit(PerGame(&a.which))
        }
    }
}

/// The experiments run on the chosen game's type.
struct PerGame<'a>(&'a Which);

impl GameVisitor for PerGame<'_> {
    type Output = Result<()>;
    fn visit<G: AppGame>(self) -> Result<()> {
        match self.0 {
            Which::Enhancements {
                testset,
                depths,
                out_dir,
                ..
            } => enhancements::<G>(testset.as_deref(), depths, out_dir),
            Which::DepthCurve {
                max_depth, out_dir, ..
            } => depth_curve::<G>(*max_depth, out_dir),
            Which::Testset {
                per_phase,
                seed,
                out,
                ..
            } => make_testset::<G>(*per_phase, *seed, out),
            Which::Negamax { .. } => Err(anyhow!("negamax runs on Jungle alone, not per game")),
        }
    }
}

/// The evaluation of the experiments: `strong` where the game has it (the
/// animal figures are published with it), else the game's default.
fn experiment_eval<G: EngineGame>() -> &'static str {
    let names = G::eval_names();
    if names.contains(&"strong") {
        "strong"
    } else {
        names[0]
    }
}

fn engine_with<G: EngineGame>(cfg: Config, eval: &str) -> Result<Engine<G, G::Eval, G::Tactics>> {
    let e = G::eval_by_name(eval).map_err(anyhow::Error::msg)?;
    Ok(Engine::new(cfg, e, G::Tactics::default()))
}

/// One fixed-depth search without repetition rule (pure node counts).
fn count<G: EngineGame>(pos: &G, cfg: &Config, eval: &str, depth: u32) -> Result<Stats> {
    let e = engine_with::<G>(cfg.clone(), eval)?;
    let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    Ok(e.search(pos, &h, &Limits::depth(depth), &mut |_| {}).stats)
}

fn write(out_dir: &Path, name: &str, text: &str) -> Result<()> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let p = out_dir.join(name);
    std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
    println!("wrote {}", p.display());
    Ok(())
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("plot: {e:?}")
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// A log-scale line plot: one series per (name, points).
fn log_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    x_labels: &[String],
    series: &[(String, Vec<(u32, f64)>)],
) -> Result<()> {
    let max_x = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .max()
        .unwrap_or(1);
    let min_x = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.0))
        .min()
        .unwrap_or(0);
    let max_y = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(10.0f64, f64::max)
        * 2.0;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(min_x..max_x, (1f64..max_y).log_scale())
        .map_err(plot_err)?;
    let labels = x_labels.to_vec();
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("nodes")
        .x_labels((max_x - min_x + 1) as usize)
        .x_label_formatter(&|x| {
            labels
                .get(*x as usize)
                .cloned()
                .unwrap_or_else(|| x.to_string())
        })
        .draw()
        .map_err(plot_err)?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(x, y)| (x, y.max(1.0))),
                c.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart
            .draw_series(
                pts.iter()
                    .map(|&(x, y)| Circle::new((x, y.max(1.0)), 3, c.filled())),
            )
            .map_err(plot_err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_err)?;
    root.present().map_err(plot_err)?;
    println!("wrote {}", path.display());
    Ok(())
}

fn geometric_mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

fn negamax_experiment(max_depth: u32, out_dir: &Path) -> Result<()> {
    type G = zoo_animal::JunglePos;
    let pos = G::start(&G::default_rules());
    let algos = [
        ("negamax", Config::negamax()),
        ("alpha-beta", Config::plain_alphabeta()),
        // Literature D's framework ordered moves; this column shows what
        // static ordering alone (captures first, development) does.
        (
            "alpha-beta + static ordering",
            Config {
                ordering: true,
                ..Config::plain_alphabeta()
            },
        ),
    ];
    let mut md = String::from(
        "# Negamax against alpha-beta from the Jungle start\n\n\
         Evaluation `simple` (literature D), no repetition rule, no table; plain alpha-beta \
         searches moves in generation order. b(d) = leaves(d) / leaves(d−1), the per-ply \
         effective branching factor; ratio = negamax nodes / alpha-beta nodes.\n\n| depth |",
    );
    for (name, _) in &algos {
        let _ = write!(md, " {name} nodes | leaves | b |");
    }
    md.push_str(" ratio | ratio (ordered) |\n|---:|");
    for _ in 0..algos.len() * 3 + 2 {
        md.push_str("---:|");
    }
    md.push('\n');
    let mut csv = String::from("algorithm,depth,nodes,leaves\n");
    let mut per: Vec<Vec<Stats>> = vec![Vec::new(); algos.len()];
    for d in 1..=max_depth {
        for (i, (name, cfg)) in algos.iter().enumerate() {
            let s = count(&pos, cfg, "simple", d)?;
            eprintln!("{name} depth {d}: {} nodes, {} leaves", s.nodes, s.leaves);
            let _ = writeln!(csv, "{name},{d},{},{}", s.nodes, s.leaves);
            per[i].push(s);
        }
    }
    let mut bf: Vec<Vec<f64>> = vec![Vec::new(); algos.len()];
    for d in 0..max_depth as usize {
        let _ = write!(md, "| {} |", d + 1);
        for i in 0..algos.len() {
            let s = &per[i][d];
            let prev = if d == 0 { 1 } else { per[i][d - 1].leaves };
            let b = s.leaves as f64 / prev.max(1) as f64;
            bf[i].push(b);
            let _ = write!(md, " {} | {} | {:.2} |", s.nodes, s.leaves, b);
        }
        let r1 = per[0][d].nodes as f64 / per[1][d].nodes.max(1) as f64;
        let r2 = per[0][d].nodes as f64 / per[2][d].nodes.max(1) as f64;
        let _ = writeln!(md, " {r1:.1} | {r2:.1} |");
    }
    let g: Vec<f64> = bf.iter().map(|b| geometric_mean(b)).collect();
    let _ = writeln!(
        md,
        "\nGeometric mean of b over depths 1–{max_depth}: negamax {:.2}, alpha-beta {:.2}, \
         alpha-beta with static ordering {:.2} (ideal for alpha-beta: √{:.2} = {:.2}).",
        g[0],
        g[1],
        g[2],
        g[0],
        g[0].sqrt()
    );
    write(out_dir, "negamax.md", &md)?;
    write(out_dir, "negamax.csv", &csv)?;
    let labels: Vec<String> = (0..=max_depth).map(|d| d.to_string()).collect();
    let series: Vec<(String, Vec<(u32, f64)>)> = algos
        .iter()
        .zip(&per)
        .map(|((name, _), p)| {
            (
                name.to_string(),
                p.iter()
                    .enumerate()
                    .map(|(d, s)| (d as u32 + 1, s.nodes as f64))
                    .collect(),
            )
        })
        .collect();
    log_plot(
        &out_dir.join("negamax.svg"),
        "Jungle start: negamax vs alpha-beta",
        "depth",
        &labels,
        &series,
    )?;
    print!("{md}");
    Ok(())
}

/// `label | fen | source` lines.
fn read_testset<G: Game>(path: &Path) -> Result<Vec<(String, G)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read test set {}", path.display()))?;
    let rules = G::default_rules();
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('|').map(str::trim);
        let (Some(label), Some(fen)) = (parts.next(), parts.next()) else {
            bail!(
                "{}:{}: expected `phase | fen | source`",
                path.display(),
                i + 1
            );
        };
        let p =
            G::from_fen(fen, &rules).with_context(|| format!("{}:{}", path.display(), i + 1))?;
        v.push((label.to_string(), p));
    }
    if v.is_empty() {
        bail!("{}: no positions", path.display());
    }
    Ok(v)
}

const PHASES: [&str; 3] = ["opening", "middle", "endgame"];

fn enhancements<G: EngineGame>(
    testset: Option<&Path>,
    depths: &[u32],
    out_dir: &Path,
) -> Result<()> {
    let start = G::start(&G::default_rules());
    let name = start.game_name();
    let default_path = PathBuf::from(format!("crates/search/testsets/{name}.txt"));
    let set = read_testset::<G>(testset.unwrap_or(&default_path))?;
    let depths: Vec<u32> = if depths.is_empty() {
        if name == "jungle" {
            vec![4, 6]
        } else {
            vec![6, 8]
        }
    } else {
        depths.to_vec()
    };
    // The ladder, then the variants of its top rung (the reference below the line).
    let mut stages = Config::ladder();
    let reference = stages.len() - 1;
    stages.extend(Config::ladder_variants());
    // totals[stage][phase][depth]
    let mut totals = vec![vec![vec![0u64; depths.len()]; PHASES.len()]; stages.len()];
    for (si, (sname, cfg)) in stages.iter().enumerate() {
        for (label, pos) in &set {
            let Some(pi) = PHASES.iter().position(|p| p == label) else {
                bail!(
                    "unknown phase {label:?} in the test set (expected opening, middle, endgame)"
                );
            };
            for (di, &d) in depths.iter().enumerate() {
                totals[si][pi][di] += count(pos, cfg, experiment_eval::<G>(), d)?.nodes;
            }
        }
        eprintln!("{sname}: done");
    }
    let mut md = format!(
        "# Enhancements added in turn: {name}\n\n\
         Total nodes over the test set ({} positions), fixed depth, evaluation `{}`, \
         no quiescence, no reductions, no repetition rule. In brackets: change against the row above \
         (for the variants below the line: against `+ordering/killers/history`).\n\n| configuration |",
        set.len(),
        experiment_eval::<G>()
    );
    let mut csv = String::from("configuration,phase,depth,nodes\n");
    for p in PHASES {
        for d in &depths {
            let _ = write!(md, " {p} d{d} |");
        }
    }
    md.push_str("\n|---|");
    for _ in 0..PHASES.len() * depths.len() {
        md.push_str("---:|");
    }
    md.push('\n');
    for (si, (sname, _)) in stages.iter().enumerate() {
        let _ = write!(md, "| {sname} |");
        for pi in 0..PHASES.len() {
            for (di, d) in depths.iter().enumerate() {
                let n = totals[si][pi][di];
                let base = if si == 0 {
                    None
                } else if si <= reference {
                    Some(totals[si - 1][pi][di])
                } else {
                    Some(totals[reference][pi][di])
                };
                match base.filter(|&b| b > 0) {
                    Some(b) => {
                        let _ = write!(
                            md,
                            " {n} ({:+.0}%) |",
                            100.0 * (n as f64 - b as f64) / b as f64
                        );
                    }
                    None => {
                        let _ = write!(md, " {n} |");
                    }
                }
                let _ = writeln!(csv, "{sname},{},{d},{n}", PHASES[pi]);
            }
        }
        md.push('\n');
        if si == reference {
            let _ = writeln!(
                md,
                "| *variants:* |{}",
                " |".repeat(PHASES.len() * depths.len())
            );
        }
    }
    write(out_dir, &format!("enhancements-{name}.md"), &md)?;
    write(out_dir, &format!("enhancements-{name}.csv"), &csv)?;
    let labels: Vec<String> = stages.iter().map(|s| s.0.to_string()).collect();
    let mut series = Vec::new();
    for (pi, p) in PHASES.iter().enumerate() {
        for (di, d) in depths.iter().enumerate() {
            let pts: Vec<(u32, f64)> = (0..=reference)
                .map(|si| (si as u32, totals[si][pi][di] as f64))
                .collect();
            series.push((format!("{p}, depth {d}"), pts));
        }
    }
    log_plot(
        &out_dir.join(format!("enhancements-{name}.svg")),
        &format!("{name}: total nodes as enhancements are added"),
        "configuration",
        &labels,
        &series,
    )?;
    print!("{md}");
    Ok(())
}

fn depth_curve<G: EngineGame>(max_depth: u32, out_dir: &Path) -> Result<()> {
    let pos = G::start(&G::default_rules());
    let name = pos.game_name();
    let exact = Config {
        quiescence: false,
        lmr: false,
        mtdf: false,
        ..Config::default()
    };
    let curves: [(&str, Config, u32); 4] = [
        ("negamax", Config::negamax(), max_depth.min(5)),
        ("alpha-beta", Config::plain_alphabeta(), max_depth.min(8)),
        ("all exact enhancements", exact, max_depth),
        (
            "full engine (quiescence, LMR, MTD(f))",
            Config::default(),
            max_depth,
        ),
    ];
    let mut series = Vec::new();
    let mut csv = String::from("configuration,depth,nodes\n");
    for (cname, cfg, dmax) in curves {
        let mut pts = Vec::new();
        for d in 1..=dmax {
            let n = count(&pos, &cfg, experiment_eval::<G>(), d)?.nodes;
            eprintln!("{cname} depth {d}: {n}");
            let _ = writeln!(csv, "{cname},{d},{n}");
            pts.push((d, n as f64));
        }
        series.push((cname.to_string(), pts));
    }
    write(out_dir, &format!("depth-curve-{name}.csv"), &csv)?;
    let labels: Vec<String> = (0..=max_depth).map(|d| d.to_string()).collect();
    log_plot(
        &out_dir.join(format!("depth-curve-{name}.svg")),
        &format!("{name} start: nodes against depth"),
        "depth",
        &labels,
        &series,
    )
}

fn make_testset<G: EngineGame>(per_phase: usize, seed: u64, out: &Path) -> Result<()> {
    if per_phase == 0 {
        bail!("--per-phase must be at least 1");
    }
    let start = G::start(&G::default_rules());
    let total = start.piece_count();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let phase_of = |p: &G, ply: usize| -> Option<usize> {
        let n = p.piece_count();
        if n >= total * 7 / 8 && (6..=14).contains(&ply) {
            Some(0)
        } else if n < total * 7 / 8 && n >= total / 2 {
            Some(1)
        } else if n < total / 2 && n >= 2 {
            Some(2)
        } else {
            None
        }
    };
    let engine = Engine::new(
        Config {
            hash_mb: 8,
            ..Config::default()
        },
        G::default_eval(),
        G::Tactics::default(),
    );
    let mut found: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut game = 0;
    while found.iter().any(|f| f.len() < per_phase) && game < 2000 {
        game += 1;
        let mut pos = start.clone();
        let mut hist = History::starting_at(pos.default_repetition(), pos.key(), pos.piece_count());
        let random_plies = 2 + (next() % 4) as usize;
        let mut taken = [false; 3];
        for ply in 0..300 {
            if pos.outcome().is_some() || hist.is_draw() {
                break;
            }
            if let Some(ph) = phase_of(&pos, ply) {
                // One position per phase and game, not always the first one seen.
                if !taken[ph] && found[ph].len() < per_phase && next() % 3 == 0 {
                    taken[ph] = true;
                    found[ph].push(format!(
                        "{} | {} | self-play seed {seed} game {game} ply {ply} ({} random plies, then zoo depth 4 with 10% random moves)",
                        PHASES[ph],
                        pos.to_fen(),
                        random_plies
                    ));
                }
            }
            let mut l = MoveList::new();
            pos.legal_moves(&mut l);
            let mv = if ply < random_plies || next() % 10 == 0 {
                l[(next() % l.len() as u64) as usize]
            } else {
                engine
                    .search(&pos, &hist, &Limits::depth(4), &mut |_| {})
                    .best
                    .unwrap_or(l[0])
            };
            pos.make(mv);
            hist.push(pos.key(), pos.piece_count());
        }
    }
    let mut text = format!(
        "# {} test set: `phase | FEN | source`. Positions reached by play from the start\n\
         # (`zoo experiment testset --game {} --per-phase {per_phase} --seed {seed}`).\n\
         # Phases by material: opening = at least 7/8 of the pieces (plies 6–14), middle = at least half, endgame = fewer.\n",
        start.game_name(),
        start.game_name()
    );
    for f in &found {
        for l in f {
            text.push_str(l);
            text.push('\n');
        }
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "wrote {} ({} / {} / {} positions)",
        out.display(),
        found[0].len(),
        found[1].len(),
        found[2].len()
    );
    Ok(())
}
