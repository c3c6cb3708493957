//! `zoo serve`: the web board and its JSON API (docs/web.md).

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Endgame tables for probes and for the engine.
    #[arg(long = "tb", value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Search threads per search.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Searches at once; more are answered 503 (1 to 256).
    #[arg(long, default_value_t = 2,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub max_searches: usize,
    /// The longest search, whatever a request asks (milliseconds, 1 to
    /// 3,600,000).
    #[arg(long, default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub max_movetime: u64,
    /// Each search's hash table (MiB); every search at once has its own.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

pub fn run(a: &ServeArgs) -> Result<()> {
    if !(1..=zoo_app::options::MAX_THREADS).contains(&a.threads) {
        anyhow::bail!(
            "threads {} is not between 1 and {}",
            a.threads,
            zoo_app::options::MAX_THREADS
        );
    }
    // Every search at once has its own table: all of them must fit.
    zoo_app::options::check_hash(a.max_searches.max(1), a.hash)?;
    if let Some(dir) = &a.tables {
        if !dir.is_dir() {
            anyhow::bail!("tables directory {}: no such directory", dir.display());
        }
    }
    let config = zoo_web::Config {
        tables: a.tables.clone(),
        threads: a.threads,
        max_searches: a.max_searches,
        max_movetime_ms: a.max_movetime,
        hash_mb: a.hash,
        ..zoo_web::Config::default()
    };
    let addr = format!("{}:{}", a.host, a.port);
    zoo_web::serve(&addr, config, |at| {
        eprintln!("zoo serve: http://{at}/ (Ctrl-C stops)")
    })
    .with_context(|| format!("serving on {addr}"))
}
