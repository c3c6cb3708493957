//! What can go wrong when data is given to the learner: each error says
//! which row or column and what was wrong with it.

/// An error of the data or of the options given to the learner.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LearnError {
    /// A row with another number of values than the data has features.
    #[error("row {row}: {got} values, but the data has {want} features")]
    Arity {
        /// The row, counted from 0.
        row: usize,
        /// Values given.
        got: usize,
        /// Features of the data.
        want: usize,
    },
    /// A value a feature cannot take: a nominal index out of range or a
    /// numeric value that is not finite.
    #[error("row {row}: feature {feature:?} cannot take the value {value}")]
    Value {
        /// The row, counted from 0.
        row: usize,
        /// The feature's name.
        feature: String,
        /// The value given.
        value: f64,
    },
    /// A class label out of range.
    #[error("row {row}: class {label} out of range (the data has {classes} classes)")]
    Label {
        /// The row, counted from 0.
        row: usize,
        /// The label given.
        label: usize,
        /// Classes of the data.
        classes: usize,
    },
    /// Nothing to learn from.
    #[error("no rows to learn from")]
    Empty,
    /// A pruning confidence outside (0, 1).
    #[error("confidence {0}: give a number between 0 and 1 (C4.5's usual is 0.25)")]
    Confidence(f64),
    /// A line of the text form of a data set that does not parse.
    #[error("line {line}: {why}")]
    Parse {
        /// The line, counted from 1.
        line: usize,
        /// What was wrong.
        why: String,
    },
}
