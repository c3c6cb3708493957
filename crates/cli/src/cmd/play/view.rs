//! What a game in the terminal tells its view (text or JSON lines), and the
//! view's side: the events, refusals and endings both views show.

use super::NotText;
use anyhow::Result;
use zoo_app::{AppError, IterationReport, MoveInfo, SearchReport, Session};
use zoo_core::Side;

pub(super) const COMMANDS: &str =
    "Commands: `moves` lists the legal moves; `undo`, `redo`; `hint`; \
`flip` turns the board; `new` starts again; `save FILE`, `load FILE`; `resign`; `quit`.";

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum End {
    /// `quit` typed.
    Quit,
    /// End of input.
    InputClosed,
    /// The engine had no move where the status said there was one (a
    /// safeguard against a loop).
    EngineStuck,
}

/// What happened, for a view to show. Each event is about the session
/// the view is given with it.
pub(super) enum Event<'a> {
    /// Play begins: the tables in use, the side(s) the human plays.
    Start {
        tables: Option<&'a str>,
        you: &'a str,
    },
    /// The position changed (or the board was asked for), seen from `view`.
    Position {
        view: Side,
    },
    /// The game is over (by the rules, or `resigned` resigned).
    Over {
        resigned: Option<Side>,
    },
    /// The human's first turn: how to type a move.
    Example,
    /// Waiting for the human (`over`: only commands make sense now).
    Prompt {
        over: bool,
    },
    /// The engine chose `mv` for `side`, about to be played.
    EngineMove {
        side: Side,
        mv: &'a MoveInfo,
        report: &'a SearchReport,
    },
    /// The human moved.
    Played {
        side: Side,
        mv: &'a MoveInfo,
    },
    /// `hint` (for `side`); the search is about to start.
    HintThinking,
    Hint {
        side: Side,
        report: &'a SearchReport,
    },
    Help,
    Moves,
    ResignationTakenBack,
    Resigned(Side),
    NewGame,
    Saved(&'a str),
    Loaded(&'a str),
    /// Input refused, the game goes on: a line not text, an unknown word,
    /// an illegal move, a command that makes no sense now, a file not
    /// saved or loaded.
    Refused(Refusal<'a>),
    /// The game ends here.
    End(End, Option<Side>),
}

/// Why a line was refused.
pub(super) enum Refusal<'a> {
    NotText(&'a NotText),
    IllegalMove(&'a AppError),
    NothingToUndo,
    NothingToRedo,
    /// A move or `hint`/`resign` after the end.
    GameOver,
    /// A move typed after the end (text: with the commands' list).
    MoveAfterEnd,
    NoHint,
    NotSaved(&'a AppError),
    NotLoaded(&'a AppError),
}

/// The engine thinking about its move (the session is busy meanwhile).
pub(super) enum Thinking<'a> {
    Begins,
    Iteration(&'a IterationReport),
    Ends,
}

/// A way of showing a game: text for people, JSON lines for programs.
pub(super) trait View {
    fn show(&mut self, s: &Session, e: Event) -> Result<()>;
    fn thinking(&mut self, t: Thinking);
}
