//! The enhancement ladder: the configurations from plain alpha-beta to the
//! full exact engine, one enhancement added per rung, and variants of the top
//! rung. Defined once here so that the published experiment (`zoo
//! experiment enhancements`) and the equivalence test climb the same ladder.

use crate::config::Config;
use crate::tt::Replacement;

impl Config {
    /// The rungs, in order: each is the one before plus one enhancement
    /// (table, PVS, iterative deepening, aspiration windows, ETC, then
    /// static ordering with killers and history). None of them is selective
    /// (no quiescence, no reductions), so at a fixed depth all return the
    /// negamax value and differ only in the nodes they search.
    pub fn ladder() -> Vec<(&'static str, Config)> {
        let ab = Config {
            hash_mb: 16,
            ..Config::plain_alphabeta()
        };
        let tt = Config {
            tt: true,
            ..ab.clone()
        };
        let pvs = Config {
            pvs: true,
            ..tt.clone()
        };
        let id = Config {
            iterative: true,
            ..pvs.clone()
        };
        let asp = Config {
            aspiration: 50,
            ..id.clone()
        };
        let etc = Config {
            etc_min_depth: 3,
            ..asp.clone()
        };
        let ord = Config {
            ordering: true,
            killers: true,
            history: true,
            ..etc.clone()
        };
        vec![
            ("alpha-beta", ab),
            ("+TT", tt),
            ("+PVS", pvs),
            ("+ID", id),
            ("+aspiration", asp),
            ("+ETC", etc),
            ("+ordering/killers/history", ord),
        ]
    }

    /// Variants of the top rung of [`Config::ladder`], each changing one
    /// thing: the iterative deepening step, MTD(f) instead of aspiration
    /// windows, two-bound table entries, each replacement scheme in a
    /// 64 KiB table (small enough that replacement matters) and the PV
    /// flag there, and quiescence (also literature C's slower form).
    pub fn ladder_variants() -> Vec<(&'static str, Config)> {
        let top = Config::ladder()
            .pop()
            .map(|(_, c)| c)
            .expect("the ladder has rungs");
        let small = |replacement| Config {
            hash_mb: 0,
            replacement,
            ..top.clone()
        };
        vec![
            (
                "ID step 2",
                Config {
                    id_step: 2,
                    ..top.clone()
                },
            ),
            (
                "MTD(f)",
                Config {
                    mtdf: true,
                    aspiration: 0,
                    ..top.clone()
                },
            ),
            (
                "two-bound",
                Config {
                    two_bound: true,
                    ..top.clone()
                },
            ),
            ("64 KiB always", small(Replacement::Always)),
            ("64 KiB deep", small(Replacement::Deep)),
            ("64 KiB big", small(Replacement::Big)),
            ("64 KiB big-1", small(Replacement::Big1)),
            ("64 KiB hits", small(Replacement::Hits)),
            (
                "64 KiB deep, PV flag",
                Config {
                    pv_flag: true,
                    ..small(Replacement::Deep)
                },
            ),
            (
                "quiescence",
                Config {
                    quiescence: true,
                    ..top.clone()
                },
            ),
            (
                "quiescence + a ply after captures",
                Config {
                    quiescence: true,
                    quiescence_after_capture: true,
                    ..top.clone()
                },
            ),
        ]
    }
}
