//! An endgame oracle: exact values for positions with few pieces (endgame
//! tables), consulted by the search instead of searching below them.

use std::path::Path;
use std::sync::Arc;
use zoo_animal::board::Board;
use zoo_animal::Position;
use zoo_core::Outcome;
use zoo_tb::index::Material;
use zoo_tb::Tablebase;

/// Exact game-theoretic values (repetition ignored) for small positions.
pub trait Oracle<G>: Send + Sync {
    /// Positions with at most this many pieces are worth a probe.
    fn max_pieces(&self) -> u32;
    /// Value for the side to move and distance in plies counting the final
    /// winning move, or `None` when unknown (no table, damaged table).
    fn probe(&self, pos: &G) -> Option<(Outcome, u16)>;
}

/// The endgame tables of an animal game as an oracle.
pub struct TbOracle<B: Board> {
    tb: Tablebase<B>,
    max: u32,
}

impl<B: Board> TbOracle<B> {
    /// The tables of `rules` under `dir`, or `None` when no complete set
    /// exists there. Complete means every material with at most `max`
    /// pieces has its file, so that every capture from a probed position
    /// lands in a table too (the search relies on that for exactness).
    pub fn open(dir: &Path, rules: &'static zoo_animal::RuleSet) -> Option<TbOracle<B>> {
        let tb = Tablebase::<B>::open(dir, rules);
        let mut max = 0;
        for n in 2..=(2 * B::KINDS as u32) {
            let complete = Material::canonical::<B>(n)
                .into_iter()
                .all(|m| tb.path_of(m).exists());
            if !complete {
                break;
            }
            max = n;
        }
        (max >= 2).then_some(TbOracle { tb, max })
    }

    pub fn tablebase(&self) -> &Tablebase<B> {
        &self.tb
    }
}

impl<B: Board> Oracle<Position<B>> for TbOracle<B> {
    fn max_pieces(&self) -> u32 {
        self.max
    }
    fn probe(&self, pos: &Position<B>) -> Option<(Outcome, u16)> {
        self.tb.probe(pos)
    }
}

/// What the command line reports about the tables it opened.
pub struct OracleInfo<G> {
    pub oracle: Arc<dyn Oracle<G>>,
    /// `jungle leiden tables in DIR, up to N pieces`.
    pub description: String,
}

/// The oracle of an animal game and rule set from `dir`, `None` when the
/// directory holds no tables for them.
pub fn open_animal<B: Board>(
    dir: &Path,
    rules: &'static zoo_animal::RuleSet,
) -> Option<OracleInfo<Position<B>>> {
    TbOracle::<B>::open(dir, rules).map(|o| {
        let description = format!(
            "{} {} tables in {}, up to {} pieces",
            B::GAME,
            rules.name,
            dir.display(),
            o.max
        );
        OracleInfo {
            oracle: Arc::new(o) as Arc<dyn Oracle<Position<B>>>,
            description,
        }
    })
}
