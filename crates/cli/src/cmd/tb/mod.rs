//! `zoo tb build | plan | stats | probe | verify | …`: endgame tables of
//! every game with tables (the animal games and both checkers games).

mod args;
mod build;
mod files;
mod plan;
mod query;
mod verify;

use anyhow::Result;
pub use args::*;
use zoo_app::{GameKind, TableSet};

pub fn run(a: &TbArgs) -> Result<()> {
    match &a.command {
        TbCommand::Build(b) => build::run_build(b),
        TbCommand::Plan(p) => plan::run(p),
        TbCommand::Manifest(m) => files::run_manifest(m),
        TbCommand::Stats(s) => query::run_stats(s),
        TbCommand::Size(s) => files::run_size(s),
        TbCommand::Wdl(w) => files::run_wdl(w),
        TbCommand::Recompress(r) => files::run_recompress(r),
        TbCommand::Diff(d) => query::run_diff(d),
        TbCommand::Probe(p) => query::run_probe(p),
        TbCommand::Advantage(a) => query::run_advantage(a),
        TbCommand::Verify(v) => verify::run(v),
    }
}

impl TableArgs {
    pub(crate) fn set(&self, game: GameKind) -> Result<TableSet> {
        Ok(TableSet::new(
            game,
            self.rules.name().as_deref(),
            &self.dir,
        )?)
    }
}
