//! The progress bar of a job counted in units (materials, rows, root
//! moves), on standard error; indicatif draws it only when that is a
//! terminal, so piped and `--json` output stay clean.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `unit`s (`"materials"`; empty for none), with the time
/// taken and the time left.
pub fn count_bar(unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit}  ~{{eta}} left"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// The `progress(done, total)` callback the application layer calls,
/// moving `bar`.
pub fn follow(bar: &ProgressBar) -> impl Fn(usize, usize) + Sync + '_ {
    move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    }
}
