//! The engine: a configuration, an evaluation, a tactics hook, the table and
//! the stop flag, kept between searches.

use crate::config::Config;
use crate::tt::Table;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use zoo_core::{Evaluator, Game, Oracle, Tactics};

/// The search engine of game `G` with evaluation `E` and tactics `T`.
pub struct Engine<G: Game, E: Evaluator<G>, T: Tactics<G>> {
    pub cfg: Config,
    pub(crate) eval: Arc<E>,
    pub(crate) tactics: T,
    pub(crate) tt: Arc<Table>,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) oracle: Option<Arc<dyn Oracle<G>>>,
    pub(crate) _g: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, E: Evaluator<G>, T: Tactics<G>> Engine<G, E, T> {
    pub fn new(cfg: Config, eval: E, tactics: T) -> Self {
        let tt = Arc::new(match (cfg.tt, cfg.hash_mb) {
            (false, _) => Table::with_buckets(1, cfg.replacement, cfg.two_bound),
            // 64 KiB: small enough to make replacement schemes matter in experiments.
            (true, 0) => Table::with_buckets(1024, cfg.replacement, cfg.two_bound),
            (true, mb) => Table::new(mb, cfg.replacement, cfg.two_bound),
        });
        Engine {
            cfg,
            eval: Arc::new(eval),
            tactics,
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            oracle: None,
            _g: Default::default(),
        }
    }

    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Endgame oracle (tables) consulted below the root for positions with
    /// at most its `max_pieces()` pieces; `None` turns it off.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    pub fn oracle(&self) -> Option<&dyn Oracle<G>> {
        self.oracle.as_deref()
    }

    /// Set it to true (from another thread) to end the running search soon;
    /// it is cleared when that search returns.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets what earlier searches stored (a new game).
    pub fn clear(&self) {
        self.tt.clear();
    }
}
