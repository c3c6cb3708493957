//! The choices of a df-pn run: the graph-history mode, ε, the table's
//! size, the remedies and the threads.

use super::{table, MAX_DEPS};

/// How the transposition table meets repetition (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ghi {
    /// Store every value, including those that hold only on their path
    /// (wrong answers possible: for tests and experiments).
    Naive,
    /// Never store values decided or influenced by a repetition.
    NoRepetitionStore,
    /// Store a value unless a repetition it depends on repeats a position
    /// *above* the node on the path: a value whose repetitions all return
    /// into its own subtree holds whatever the path (docs/solve.md).
    LocalRepetition,
    /// Literature B's chain check, made sound: a value is stored with the
    /// positions above the node that its repetitions return to (at most
    /// [`MAX_DEPS`]; with more it is not stored), and a table hit counts
    /// only where all of them are on the current path (docs/solve.md).
    Path,
    /// Store every value; one that rests on a repetition is marked and
    /// trusted only once the marked values the root's answer rests on are
    /// found to close on themselves (docs/solve.md, "The closure check").
    Closure,
}

impl Ghi {
    /// The mode's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Ghi::Naive => "naive",
            Ghi::NoRepetitionStore => "no-repetition-store",
            Ghi::LocalRepetition => "local-repetition",
            Ghi::Path => "path",
            Ghi::Closure => "closure",
        }
    }
}

/// The choices of a df-pn run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// How the table meets repetition.
    pub ghi: Ghi,
    /// The ε of the 1+ε trick (0: Nagai's second-best + 1).
    pub epsilon: f64,
    /// The table's size in MB when [`Limits::memory_mb`](crate::limits::Limits::memory_mb) does not say.
    pub default_table_mb: u64,
    /// Derive the proof (or disproof) once the root is solved
    /// (`dfpn::extract`): up to as many MID calls again as the run may make,
    /// and at most [`MAX_PROOF_NODES`](super::MAX_PROOF_NODES) nodes.
    pub proof: bool,
    /// Kishimoto's (2010) remedies for loops and under- and
    /// overestimation, none by default (docs/solve.md, "df-pn's remedies").
    pub remedies: Remedies,
    /// Threads searching together on one table (docs/solve.md, "Parallel
    /// df-pn"); [`Ghi::Closure`] runs on one.
    pub threads: usize,
    /// df-pn+ (docs/solve.md, "Two pieces past the tables"): a node the table does not hold
    /// starts at φ = 1 + (how far [`Game::proof_guide`](zoo_core::Game::proof_guide)
    /// is below 0 for its side to move) / `guide`, and δ the same for the
    /// other side, each at most [`GUIDE_CAP`]; 0 (the default): at 1/1.
    pub guide: u32,
}

/// The remedies for df-pn's loops, underestimation and overestimation
/// (Kishimoto 2010; docs/solve.md, "df-pn's remedies"). They change which
/// open numbers are stored and how they are computed, never which solved
/// values are stored: the graph-history mode decides that alone, so the
/// root's answer is right under the same modes with or without them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Remedies {
    /// Kishimoto's threshold controlling algorithm: open numbers are
    /// stored whatever repetition they depend on (the GHI mode's rule then
    /// applies to solved values only), and a node with an unproven *old*
    /// child (one first reached nearer the root than the node) raises its
    /// thresholds above its own numbers on its first pass, so a call never
    /// returns at once on numbers that a cycle made too small.
    pub tca: bool,
    /// Weak proof numbers (Ueda et al. 2008) against the overestimation of
    /// δ = Σ φ where children share subtrees: δ = max φ + (unsolved − 1).
    pub wpn: bool,
}

impl Remedies {
    /// No remedy (plain df-pn).
    pub const NONE: Remedies = Remedies {
        tca: false,
        wpn: false,
    };
    /// Every remedy.
    pub const ALL: Remedies = Remedies {
        tca: true,
        wpn: true,
    };

    /// Its name on the command line and in reports: `none`, `tca`, `wpn`
    /// or `tca,wpn`.
    pub fn name(self) -> &'static str {
        match (self.tca, self.wpn) {
            (false, false) => "none",
            (true, false) => "tca",
            (false, true) => "wpn",
            (true, true) => "tca,wpn",
        }
    }

    /// Parses a comma-separated list of `tca`, `wpn` (or `none`, `all`).
    pub fn parse(s: &str) -> Result<Remedies, String> {
        if s.split(',').all(|p| p.trim().is_empty()) {
            return Err("no remedy named (give tca, wpn, all or none)".into());
        }
        let mut r = Remedies::NONE;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "tca" => r.tca = true,
                "wpn" => r.wpn = true,
                "none" => {}
                "all" => r = Remedies::ALL,
                other => {
                    return Err(format!(
                        "unknown remedy `{other}` (known: tca, wpn, none, all)"
                    ))
                }
            }
        }
        Ok(r)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            // The sound mode that decides the most and whose proofs derive
            // (docs/solve.md, "Why the root's answer is right").
            ghi: Ghi::Path,
            epsilon: 0.25,
            default_table_mb: 16,
            proof: false,
            remedies: Remedies::NONE,
            threads: 1,
            guide: 0,
        }
    }
}

/// The most a guided start ([`Options::guide`]) may be: a node however
/// lost-looking still counts as a few open leaves, not as solved.
pub const GUIDE_CAP: u32 = 64;

/// The bytes of one table entry without its chain (what the memory limit
/// is divided by in every mode but [`Ghi::Path`]).
pub fn bytes_per_entry() -> usize {
    table::ENTRY_BYTES
}

/// The bytes of one table entry under `ghi`: [`Ghi::Path`] keeps each
/// entry's chain ([`MAX_DEPS`] keys) in a side table beside it.
pub fn bytes_per_entry_in(ghi: Ghi) -> usize {
    match ghi {
        Ghi::Path => bytes_per_entry() + std::mem::size_of::<[u64; MAX_DEPS]>(),
        _ => bytes_per_entry(),
    }
}

/// The bytes of one table entry under `opts`: [`bytes_per_entry_in`] and,
/// with [`Remedies::tca`], the entry's least depth (4 bytes beside it).
pub fn bytes_per_entry_of(opts: &Options) -> usize {
    bytes_per_entry_in(opts.ghi)
        + if opts.remedies.tca {
            std::mem::size_of::<u32>()
        } else {
            0
        }
        + if opts.proof {
            std::mem::size_of::<u16>()
        } else {
            0
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remedies_parse_and_name() {
        assert_eq!(Remedies::parse("tca,wpn"), Ok(Remedies::ALL));
        assert_eq!(Remedies::parse("all"), Ok(Remedies::ALL));
        assert_eq!(Remedies::parse(" none "), Ok(Remedies::NONE));
        assert_eq!(Remedies::parse("wpn").map(Remedies::name), Ok("wpn"));
        assert_eq!(Remedies::parse("tca").map(Remedies::name), Ok("tca"));
        assert!(Remedies::parse("snda").unwrap_err().contains("snda"));
        assert!(Remedies::parse("").is_err() && Remedies::parse(" , ").is_err());
        for r in [Remedies::NONE, Remedies::ALL] {
            assert_eq!(Remedies::parse(r.name()), Ok(r));
        }
    }
}
