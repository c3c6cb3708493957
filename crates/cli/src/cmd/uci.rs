//! `zoo uci`: a text protocol on stdin/stdout modelled on UCI
//! (docs/protocol.md). The protocol is `zoo_app::protocol`'s; this file
//! reads the lines, parses `setoption name EngineOptions` as `zoo analyse`
//! parses its flags, and prints the answers.

use super::engine::{EngineOpts, EngineSpec};
use super::input::text_lines;
use crate::games::game_parser;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use zoo_app::protocol::{Flow, Protocol};
use zoo_app::GameKind;

#[derive(Args, Debug)]
pub struct UciArgs {
    /// The game until `setoption name Game` changes it.
    #[arg(long, value_parser = game_parser(), default_value = "jungle")]
    pub game: GameKind,
    #[command(flatten)]
    pub rules: crate::games::RulesArgs,
    /// Initial engine options (as for `zoo analyse`).
    #[command(flatten)]
    pub engine: EngineOpts,
}

pub fn run(a: &UciArgs) -> Result<()> {
    let mut protocol = Protocol::new(
        a.game,
        a.rules.name().as_deref(),
        a.engine.options(),
        |s: &str| {
            EngineSpec::parse_str(s)
                .map(|spec| spec.opts.options())
                .map_err(|e| format!("{e:#}"))
        },
        // One line at a time under the lock, so the search thread's lines
        // never interleave with the answers; a closed output is ignored
        // (the client went away; end of input follows).
        |line: &str| {
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        },
    )?;
    let mut quit = false;
    for line in text_lines(std::io::stdin().lock()) {
        match line? {
            Ok(line) => {
                if protocol.line(&line) == Flow::Quit {
                    quit = true;
                    break;
                }
            }
            Err(not_text) => protocol.error(&not_text),
        }
    }
    protocol.finish(quit);
    Ok(())
}
