//! The CheckerBoard engine API (`getmove` and `enginecommand`), the
//! interface of the 8×8 checkers engines players use (Cake, Kingsrow,
//! GuiNN): its board and piece conventions ([`board`]) and a host that
//! loads such an engine and asks it for moves ([`host`]). zoo's own
//! library speaking the API is the `zoo-cb` crate (docs/cbapi.md).

pub mod board;
pub mod host;

/// `getmove`'s results: the engine's view of the game.
pub mod result {
    /// A draw.
    pub const DRAW: i32 = 0;
    /// The side that moved wins.
    pub const WIN: i32 = 1;
    /// The side that moved loses.
    pub const LOSS: i32 = 2;
    /// Not known.
    pub const UNKNOWN: i32 = 3;
}

/// The `gametype` of English checkers (`get gametype`).
pub const GAMETYPE_ENGLISH: i32 = 21;
