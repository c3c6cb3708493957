//! The engine: a configuration, an evaluation, a tactics hook, the table and
//! the stop flag, kept between searches.

use crate::config::Config;
use crate::tt::Table;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use zoo_core::{Evaluator, Game, Oracle, OutOfMemory, Tactics};

/// The search engine of game `G` with evaluation `E` and tactics `T`. It
/// keeps its table between searches (a game's later moves reuse what the
/// earlier ones stored) until [`Engine::clear`].
pub struct Engine<G: Game, E: Evaluator<G>, T: Tactics<G>> {
    /// The switches; changing them between searches takes effect at the next
    /// search, except the table's size and layout, fixed by [`Engine::new`].
    pub cfg: Config,
    pub(crate) eval: Arc<E>,
    pub(crate) tactics: T,
    pub(crate) tt: Arc<Table>,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) oracle: Option<Arc<dyn Oracle<G>>>,
    pub(crate) _g: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, E: Evaluator<G>, T: Tactics<G>> Engine<G, E, T> {
    /// An engine with an empty table sized by `cfg` and no oracle.
    ///
    /// # Panics
    /// When the system refuses the table's memory: for tests and
    /// experiments; front ends use [`Engine::try_new`].
    pub fn new(cfg: Config, eval: E, tactics: T) -> Self {
        Self::try_new(cfg, eval, tactics).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An engine with an empty table sized by `cfg` and no oracle, or
    /// [`OutOfMemory`] when the system refuses the table's memory.
    pub fn try_new(cfg: Config, eval: E, tactics: T) -> Result<Self, OutOfMemory> {
        let mut tt = match (cfg.tt, cfg.hash_mb) {
            (false, _) => Table::with_buckets(1, cfg.replacement, cfg.two_bound)?,
            // 64 KiB: small enough to make replacement schemes matter in experiments.
            (true, 0) => Table::with_buckets(1024, cfg.replacement, cfg.two_bound)?,
            (true, mb) => Table::new(mb, cfg.replacement, cfg.two_bound)?,
        };
        tt.pv_flag = cfg.pv_flag;
        let tt = Arc::new(tt);
        Ok(Engine {
            cfg,
            eval: Arc::new(eval),
            tactics,
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            oracle: None,
            _g: Default::default(),
        })
    }

    /// The evaluation the engine scores leaves with.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Endgame oracle (tables) consulted below the root for positions with
    /// at most its `max_pieces()` pieces; `None` turns it off.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle<G>>>) {
        self.oracle = oracle;
    }

    /// The endgame oracle, if one is set.
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
