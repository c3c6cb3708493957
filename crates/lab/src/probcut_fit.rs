//! Buro's ProbCut margin, fitted: the value of a deep search regressed on
//! a shallow one over many positions, `deep ≈ a·shallow + b` with residual
//! spread σ. ProbCut then cuts where the shallow value clears
//! `(beta + t·σ − b) / a`; with `a` near 1 and `b` near 0 that is a
//! margin of `t·σ` (the search's `--probcut MARGIN`).

use crate::measure::experiment_eval;
use crate::plot::scatter_plot;
use crate::report::{csv_field, Report};
use anyhow::{bail, Result};
use std::fmt::Write as _;
use zoo_core::{History, Repetition, Tactics};
use zoo_search::{Config, Engine, EngineGame, Limits, MATE_BOUND};

/// One depth pair's regression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    /// The shallow depth.
    pub shallow: u32,
    /// The deep depth.
    pub deep: u32,
    /// Positions fitted (quiet ones whose values are both short of a mate).
    pub n: usize,
    /// Slope.
    pub a: f64,
    /// Intercept.
    pub b: f64,
    /// Residual standard deviation.
    pub sigma: f64,
    /// Correlation of the two values.
    pub r: f64,
}

/// Least squares of `y` on `x`; `None` for fewer than 3 points or no spread in `x`.
pub fn regress(points: &[(f64, f64)]) -> Option<(f64, f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 3 {
        return None;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx == 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let rss: f64 = points.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    let sigma = (rss / (n - 2.0)).sqrt();
    // No spread in y: no correlation to speak of (0, not an undefined 0/0).
    let r = if syy == 0.0 {
        0.0
    } else {
        sxy / (sxx * syy).sqrt()
    };
    Some((a, b, sigma, r))
}

/// The value of a fixed-depth search of `pos` by the full engine with a
/// fresh table and no repetition rule.
fn value<G: EngineGame>(pos: &G, depth: u32) -> Result<i32> {
    let eval = G::eval_by_name(experiment_eval::<G>()).map_err(anyhow::Error::msg)?;
    // A small table: hundreds of short searches, each with a fresh one.
    let cfg = Config {
        hash_mb: 8,
        ..Config::default()
    };
    let e = Engine::new(cfg, eval, G::Tactics::default());
    let h = History::starting_at(Repetition::None, pos.key(), pos.piece_count());
    Ok(e.search(pos, &h, &Limits::depth(depth), &mut |_| {}).score)
}

/// Fits each `(shallow, deep)` pair over the quiet positions of `set`
/// (those with no capture pending, where ProbCut acts). Files:
/// `probcut-fit-<game>.csv` (a row a pair: positions, `a`, `b`, σ, `r`),
/// `probcut-fit-<game>-values.csv` (every pair of values) and one scatter
/// plot a pair, `probcut-fit-<game>-<s>-<d>.svg`; the summary adds the
/// margins at t = 1, 1.5 and 2.
pub fn probcut_fit<G: EngineGame>(
    set: &[(String, G)],
    pairs: &[(u32, u32)],
    progress: &mut dyn FnMut(&str),
) -> Result<(Report, Vec<Fit>)> {
    if pairs.is_empty() {
        bail!("no depth pairs");
    }
    if let Some(&(s, d)) = pairs.iter().find(|(s, d)| s >= d || *s == 0) {
        bail!("depth pair {s},{d}: the shallow depth must be at least 1 and below the deep one");
    }
    let tactics = G::Tactics::default();
    let quiet: Vec<&G> = set
        .iter()
        .map(|(_, p)| p)
        .filter(|p| !tactics.in_danger(p) && p.terminal().is_none())
        .collect();
    if quiet.len() < 3 {
        bail!("fewer than 3 quiet positions to fit");
    }
    let name = quiet[0].game_name();
    let mut csv = String::from("shallow,deep,fen,shallow_value,deep_value\n");
    let mut fits_csv = String::from("shallow,deep,positions,a,b,sigma,r\n");
    let mut fits = Vec::new();
    let mut files = Vec::new();
    let mut summary = String::from(
        "| shallow | deep | positions | a | b | σ | r | margin t=1 | t=1.5 | t=2 |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for &(s, d) in pairs {
        let mut points = Vec::new();
        for p in &quiet {
            let (vs, vd) = (value(*p, s)?, value(*p, d)?);
            if vs.abs() >= MATE_BOUND || vd.abs() >= MATE_BOUND {
                continue;
            }
            let _ = writeln!(csv, "{s},{d},{},{vs},{vd}", csv_field(&p.to_fen()));
            points.push((vs as f64, vd as f64));
        }
        let Some((a, b, sigma, r)) = regress(&points) else {
            bail!("depths {s},{d}: too few positions short of a mate to fit");
        };
        progress(&format!(
            "depths {s} → {d}: {} positions, a {a:.3}, b {b:.1}, σ {sigma:.1}, r {r:.3}",
            points.len()
        ));
        let _ = writeln!(
            summary,
            "| {s} | {d} | {} | {a:.3} | {b:.1} | {sigma:.1} | {r:.3} | {:.0} | {:.0} | {:.0} |",
            points.len(),
            sigma,
            1.5 * sigma,
            2.0 * sigma
        );
        let _ = writeln!(fits_csv, "{s},{d},{},{a},{b},{sigma},{r}", points.len());
        files.push((
            format!("probcut-fit-{name}-{s}-{d}.svg"),
            scatter_plot(
                &format!("{name}: depth-{d} value against depth-{s} value"),
                &format!("depth-{s} value"),
                &format!("depth-{d} value"),
                &points,
                (a, b),
            )?,
        ));
        fits.push(Fit {
            shallow: s,
            deep: d,
            n: points.len(),
            a,
            b,
            sigma,
            r,
        });
    }
    files.insert(0, (format!("probcut-fit-{name}-values.csv"), csv));
    files.insert(0, (format!("probcut-fit-{name}.csv"), fits_csv));
    Ok((
        Report {
            files,
            summary: Some(summary),
        },
        fits,
    ))
}

#[cfg(test)]
mod tests {
    use super::regress;

    #[test]
    fn a_line_is_fitted_exactly_and_noise_is_measured() {
        let line: Vec<(f64, f64)> = (0..10).map(|x| (x as f64, 2.0 * x as f64 + 3.0)).collect();
        let (a, b, s, r) = regress(&line).unwrap();
        assert!((a - 2.0).abs() < 1e-12 && (b - 3.0).abs() < 1e-12);
        assert!(s.abs() < 1e-9 && (r - 1.0).abs() < 1e-12);
        // y = x ± 1 alternately: slope 1, σ = sqrt(n / (n - 2)).
        let noisy: Vec<(f64, f64)> = (0..10)
            .map(|x| (x as f64, x as f64 + if x % 2 == 0 { 1.0 } else { -1.0 }))
            .collect();
        let (_, _, s, _) = regress(&noisy).unwrap();
        assert!(s > 0.9 && s < 1.3, "{s}");
        assert!(regress(&line[..2]).is_none());
        assert!(regress(&[(1.0, 1.0), (1.0, 2.0), (1.0, 3.0)]).is_none());
    }
}
