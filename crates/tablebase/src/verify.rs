//! An independent check of the tables: forward value iteration.
