//! `zoo train`: a game's learned evaluation (`--eval nnue`), from
//! self-play. The application layer plays and trains
//! (`zoo_app::train`); this file parses the options, prints each epoch's
//! loss and writes the loss log and plot.

use crate::cmd::progress;
use crate::games::{game_parser, RulesArgs};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use zoo_app::train::{TrainEvent, TrainRequest};
use zoo_app::GameKind;
use zoo_learn::nnue::TrainOptions;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game: jungle, jungle-checkers, english-checkers or
    /// classical-checkers.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Self-play games to play.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Search depth of each self-play move.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// The evaluation self-play searches with (default: the game's first
    /// hand-written one, `strong` in Jungle, `development` in Jungle
    /// Checkers, `turska` in checkers; `nnue` plays the net, for a next
    /// generation).
    #[arg(long, value_name = "NAME")]
    pub play_eval: Option<String>,
    /// Train on these positions files (`--save-data` of an earlier run)
    /// instead of playing; repeatable.
    #[arg(long, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Save the positions played (`FEN | score | result | game`).
    #[arg(long, value_name = "FILE")]
    pub save_data: Option<PathBuf>,
    /// Weight of the search's score in the target (the rest: the result).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Hidden units per side.
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// Passes over the positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    /// Seed of the self-play openings, the initial weights and the order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tables (as `zoo tb build --dir`) whose exact values are the target
    /// of the positions they hold.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
    /// The net file to write (`--eval nnue:FILE` plays with it).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Write each epoch's losses as CSV.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Write the loss curve as SVG.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

pub fn run(a: &TrainArgs) -> Result<()> {
    // The log and the plot are written here, after the run: refused now,
    // not after hours of self-play.
    for path in a.log.iter().chain(&a.plot) {
        zoo_core::files::check_writable(path)?;
    }
    let req = TrainRequest {
        game: a.game,
        rules: a.rules.name(),
        games: a.games,
        depth: a.depth,
        play_eval: a.play_eval.clone(),
        data: a.data.clone(),
        save_data: a.save_data.clone(),
        lambda: a.lambda,
        options: TrainOptions {
            hidden: a.hidden,
            epochs: a.epochs,
            batch: a.batch,
            lr: a.lr,
            seed: a.seed,
            ..TrainOptions::default()
        },
        tb: a.tb.clone(),
        out: a.out.clone(),
    };
    let bar = progress::count_bar("games");
    let follow = progress::follow(&bar);
    let report = zoo_app::train::train(&req, &|e| match e {
        TrainEvent::Played(done, total) => follow(done, total),
        TrainEvent::Epoch(e) => bar.suspend(|| {
            eprintln!(
                "epoch {:>3}: loss {:.5} (training), {:.5} (held out)",
                e.epoch, e.train_loss, e.validation_loss
            )
        }),
    })?;
    bar.finish_and_clear();
    println!(
        "{} games, {} positions ({} held out, {} valued by the tables), k = {:.0}; played in {:.1} s, trained in {:.1} s; {} written ({} bytes)",
        report.games,
        report.positions.0 + report.positions.1,
        report.positions.1,
        report.exact,
        report.k,
        report.seconds.0,
        report.seconds.1,
        a.out.display(),
        report.bytes
    );
    println!(
        "quantised: the integer net differs from the float one by {:.1} evaluation units on average (held out)",
        report.quantisation_error
    );
    if let Some(e) = zoo_learn::nnue::kept_epoch(&report.epochs) {
        println!(
            "kept the net of epoch {}: loss {:.5} (training), {:.5} (held out)",
            e.epoch, e.train_loss, e.validation_loss
        );
    }
    if let Some(path) = &a.log {
        let mut csv = String::from("epoch,train_loss,validation_loss\n");
        for e in &report.epochs {
            csv.push_str(&format!(
                "{},{:.6},{:.6}\n",
                e.epoch, e.train_loss, e.validation_loss
            ));
        }
        zoo_core::files::save_bytes(path, csv.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &a.plot {
        let series = |name: &str, f: fn(&zoo_learn::nnue::Epoch) -> f64| {
            (
                name.to_string(),
                report
                    .epochs
                    .iter()
                    .map(|e| (e.epoch as f64, f(e)))
                    .collect(),
            )
        };
        let svg = zoo_lab::plot::line_plot_xy(
            &format!("zoo train --game {}: loss by epoch", a.game),
            "epoch",
            "loss (squared error of the win probability)",
            &[
                series("training", |e| e.train_loss),
                series("held out", |e| e.validation_loss),
            ],
        )?;
        zoo_core::files::save_bytes(path, svg.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
