//! C4.5 decision trees (Quinlan 1993) over rows of nominal and numeric
//! features and a class: gain ratio among the tests of at least average
//! gain, one branch per value of a nominal feature, a binary threshold on
//! a numeric one, pessimistic pruning at a confidence (0.25 by default in
//! C4.5), and the weakest-link sequence of smaller trees that trades
//! leaves for errors. Nothing here knows of games: zoo-app turns endgame
//! tables into rows. The trainer of the learned evaluation ([`nnue`]) is
//! here too: rows of sparse features and a target, no game in sight.
//!
//! ```
//! use zoo_learn::{Dataset, GrowOptions, Tree};
//! // Quinlan's weather data: play tennis or not.
//! let data = Dataset::parse(
//!     "outlook,temperature:numeric,humidity:numeric,windy,play
//!      sunny,85,85,false,no
//!      sunny,80,90,true,no
//!      overcast,83,86,false,yes
//!      rainy,70,96,false,yes
//!      rainy,68,80,false,yes
//!      rainy,65,70,true,no
//!      overcast,64,65,true,yes
//!      sunny,72,95,false,no
//!      sunny,69,70,false,yes
//!      rainy,75,80,false,yes
//!      sunny,75,70,true,yes
//!      overcast,72,90,true,yes
//!      overcast,81,75,false,yes
//!      rainy,71,91,true,no",
//! )?;
//! let tree = Tree::grow(&data, GrowOptions::default())?;
//! // Quinlan's book prints `humidity <= 75`: the same cut, written with a
//! // value of the whole data; here the value of the node's rows below it.
//! assert_eq!(tree.to_text(), "\
//! outlook = sunny:
//! |   humidity <= 70: yes (2)
//! |   humidity > 70: no (3)
//! outlook = overcast: yes (4)
//! outlook = rainy:
//! |   windy = false: yes (3)
//! |   windy = true: no (2)
//! ");
//! assert_eq!((tree.leaves(), tree.errors_on(&data)), (5, 0));
//! // The usual pruning keeps it: every leaf is pure.
//! assert_eq!(tree.pruned(0.25)?.leaves(), 5);
//! # Ok::<(), zoo_learn::LearnError>(())
//! ```
//!
//! Why a crate of our own: of the Rust crates found (crates.io and
//! docs.rs searched for C4.5 and decision trees), `decision` has a C4.5
//! module but no pruning, hardly any documentation and no maintenance
//! since its 0.1 releases; `rustrees`, `linfa-trees` and `smartcore` grow
//! CART-style binary trees (Gini or entropy, no gain ratio, no multi-way
//! splits, no pessimistic pruning); `rustyml` names a C4.5 variant inside
//! a large machine-learning library but without C4.5's error-based
//! pruning. The trees of the Jungle study need exactly C4.5's choices,
//! so that they compare with the literature, and the whole of it is a few
//! hundred lines.
//!
//! Choices, as in C4.5 release 8 unless said:
//! - A test is admissible when two of its branches get at least
//!   [`GrowOptions::min_leaf`] rows (C4.5's `-m`, default 2).
//! - A nominal split has a branch per value present at the node (C4.5
//!   also makes empty branches, which only add leaves); an unseen value
//!   takes the node's majority class.
//! - A numeric threshold is the best-gain cut between two consecutive
//!   values, written as the lower value (`x <= 75`); release 8's
//!   MDL penalty on thresholds is not applied, so that perfect trees can
//!   be grown.
//! - When no test gains but the rows are mixed (an exclusive-or), the
//!   widest admissible split is taken, so growth with `min_leaf` 1 ends
//!   only at pure leaves or at rows no feature tells apart, which are
//!   marked [`Node::conflict`].
//! - Pruning replaces subtrees by leaves (no subtree raising).

#![warn(missing_docs)]

mod data;
mod error;
mod grow;
pub mod nnue;
mod prune;
mod render;
mod svg;
mod tree;

pub use data::{Dataset, Feature, Kind, Schema};
pub use error::LearnError;
pub use grow::GrowOptions;
pub use prune::{added_errors, TradeOff};
pub use tree::{Node, Split, Test, Tree};
