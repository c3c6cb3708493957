//! The progress of a long job on standard error: a bar when that is a
//! terminal (drawn by indicatif), else a plain line at the start, every
//! [`EVERY`] and at the end, so that a log shows how far a job is; the
//! standard output (tables, `--json`) stays clean either way.
//!
//! The time left is the elapsed time scaled by the work left at the
//! average pace of the whole run, not indicatif's recent pace (which
//! promised "~4s left" for 80 s of a `tb verify` whose last parts are the
//! largest). It holds as far as the units measure the work: callers count
//! positions or materials weighted by size, not parts of unequal size.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Time between two plain lines when standard error is not a terminal.
pub const EVERY: Duration = Duration::from_secs(10);

/// A job's progress: the bar, and the plain lines when the bar is hidden.
pub struct Bar {
    bar: ProgressBar,
    /// What `done` and `total` count; `None`: a share of the work, shown
    /// as a percentage.
    unit: Option<String>,
    start: Instant,
    /// When the last plain line was printed (`None`: none yet).
    last: Mutex<Option<Instant>>,
}

impl std::ops::Deref for Bar {
    type Target = ProgressBar;
    fn deref(&self) -> &ProgressBar {
        &self.bar
    }
}

fn new_bar(template: &str, unit: Option<String>) -> Bar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .with_key(
                "left",
                |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let left =
                        seconds_left(s.pos(), s.len().unwrap_or(0), s.elapsed().as_secs_f64());
                    let _ = write!(w, "{}", indicatif::HumanDuration(left));
                },
            )
            .progress_chars("=> "),
    );
    Bar {
        bar,
        unit,
        start: Instant::now(),
        last: Mutex::new(None),
    }
}

/// A bar counting `unit`s (`"root moves"`), with the time taken and the
/// time left.
pub fn count_bar(unit: &str) -> Bar {
    new_bar(
        &format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit}  ~{{left}} left"),
        Some(unit.to_string()),
    )
}

/// A bar of a share of the work (the callback's `done` of `total`
/// weighted units), shown as a percentage.
pub fn share_bar() -> Bar {
    new_bar(
        "{elapsed_precise} [{bar:40}] {percent}%  ~{left} left",
        None,
    )
}

/// The `progress(done, total)` callback the application layer calls,
/// moving `bar`; without a terminal it prints the plain lines.
pub fn follow(bar: &Bar) -> impl Fn(usize, usize) + Sync + '_ {
    move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        if bar.is_hidden() {
            let mut last = bar.last.lock().unwrap_or_else(|e| e.into_inner());
            let due = last.is_none_or(|t| t.elapsed() >= EVERY) || done >= total;
            if due {
                *last = Some(Instant::now());
                eprintln!(
                    "{}",
                    plain_line(
                        bar.unit.as_deref(),
                        done as u64,
                        total as u64,
                        bar.start.elapsed()
                    )
                );
            }
        }
    }
}

/// One plain progress line: `3/24 root moves after 12 s, ~84 s left`, or
/// `12.5% after 12 s, ~84 s left` for a share.
pub fn plain_line(unit: Option<&str>, done: u64, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let left = seconds_left(done, total, secs).as_secs_f64();
    let part = match unit {
        Some(u) => format!("{done}/{total} {u}"),
        None => format!("{:.1}%", 100.0 * done as f64 / total.max(1) as f64),
    };
    if done >= total {
        format!("{part} after {secs:.0} s, done")
    } else if done * 100 < total {
        // Under 1% done the pace says little yet (the first parts are the
        // smallest): no estimate.
        format!("{part} after {secs:.0} s")
    } else {
        format!("{part} after {secs:.0} s, ~{left:.0} s left")
    }
}

/// The time left at the average pace of the whole run so far.
pub fn seconds_left(done: u64, total: u64, elapsed: f64) -> Duration {
    if done == 0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(elapsed * total.saturating_sub(done) as f64 / done as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_follows_the_average_pace() {
        // A quarter done in 100 s: 300 s to go, whatever the last part took.
        assert_eq!(seconds_left(25, 100, 100.0).as_secs(), 300);
        assert_eq!(seconds_left(100, 100, 100.0).as_secs(), 0);
        // Nothing done yet, or an overrun: no estimate, no panic.
        assert_eq!(seconds_left(0, 100, 5.0).as_secs(), 0);
        assert_eq!(seconds_left(120, 100, 5.0).as_secs(), 0);
    }

    #[test]
    fn plain_lines() {
        let s = Duration::from_secs(12);
        assert_eq!(
            plain_line(Some("root moves"), 3, 24, s),
            "3/24 root moves after 12 s, ~84 s left"
        );
        assert_eq!(
            plain_line(None, 125_000, 1_000_000, s),
            "12.5% after 12 s, ~84 s left"
        );
        assert_eq!(plain_line(None, 9_999, 1_000_000, s), "1.0% after 12 s");
        assert_eq!(
            plain_line(None, 1_000_000, 1_000_000, s),
            "100.0% after 12 s, done"
        );
    }
}
