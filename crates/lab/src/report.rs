//! What an experiment hands back: the files it made and the table to show.
//! Experiments compute; where the files go and what is printed is the
//! caller's business (the CLI writes them under `--out-dir`).

/// The outcome of one experiment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// `(file name, contents)`, in the order they should be written: tables
    /// (Markdown, CSV) and plots (SVG). Names carry no directory.
    pub files: Vec<(String, String)>,
    /// The Markdown table to show once the files are written, if any.
    pub summary: Option<String>,
}
