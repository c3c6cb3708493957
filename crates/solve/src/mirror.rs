//! One node for a position and its left–right mirror image, where the
//! game is symmetric ([`Game::mirror_key`]): the two have the same value,
//! and the mirror of a move is a move of the image, so a search that
//! values positions by key (the reachable graph, the strategy search)
//! may key both by the smaller key. Where both sides roam, a search meets
//! both images of most positions, and this halves what it holds
//! (docs/solve.md, "The strategy search").

use zoo_core::Game;

/// The key `pos`'s node is found by: the smaller of its own key and its
/// mirror image's where the game is symmetric (one node for both).
#[inline]
pub(crate) fn node_key<G: Game>(pos: &G) -> u64 {
    pos.mirror_key().map_or(pos.key(), |m| m.min(pos.key()))
}

/// `pos` or its mirror image: the one whose key is [`node_key`], for a
/// search that must always expand the same one of the two (its listed
/// moves are that position's).
pub(crate) fn keyed<G: Game>(pos: G) -> G {
    match pos.mirror_key() {
        Some(m) if m < pos.key() => pos
            .mirror_image()
            .expect("a game that gives a mirror key gives the mirror image"),
        _ => pos,
    }
}
