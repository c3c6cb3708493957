//! The endgame tables as the search's and the solver's oracle
//! ([`zoo_core::Oracle`]).

use crate::index::Material;
use crate::Tablebase;
use std::path::Path;
use zoo_animal::{Board, Position};
use zoo_core::{Oracle, Outcome};

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

    /// The tables behind the oracle.
    pub fn tablebase(&self) -> &Tablebase<B> {
        &self.tb
    }

    /// `jungle leiden tables in DIR, up to N pieces`.
    pub fn describe(&self, dir: &Path) -> String {
        format!(
            "{} {} tables in {}, up to {} pieces",
            B::GAME,
            self.tb.rules().name,
            dir.display(),
            self.max
        )
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
