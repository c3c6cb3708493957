//! Every argument of every `zoo` command has a help line: a flag without
//! one is a flag a user cannot learn from `--help` (issue 36).

use crate::Cli;
use clap::CommandFactory;

/// The arguments of `cmd` and of its subcommands, at any depth, that have
/// no help text, as `zoo tb build --threads`; and the subcommands without
/// an `about`.
fn without_help(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        // clap's own --help and --version have their help.
        if id == "help" || id == "version" {
            continue;
        }
        if arg.get_help().is_none() && arg.get_long_help().is_none() {
            let name = match arg.get_long() {
                Some(l) => format!("--{l}"),
                None => format!("<{id}>"),
            };
            out.push(format!("{path} {name}"));
        }
    }
    for sub in cmd.get_subcommands() {
        let sub_path = format!("{path} {}", sub.get_name());
        if sub.get_name() != "help" && sub.get_about().is_none() && sub.get_long_about().is_none() {
            out.push(format!("{sub_path} (the command itself)"));
        }
        without_help(sub, &sub_path, out);
    }
}

#[test]
fn every_argument_has_a_help_line() {
    let cmd = Cli::command();
    cmd.clone().debug_assert();
    let mut missing = Vec::new();
    without_help(&cmd, "zoo", &mut missing);
    assert!(
        missing.is_empty(),
        "{} arguments without a help line:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_walk_finds_an_argument_without_help() {
    // The check itself: a command with one undocumented flag is caught.
    let cmd = clap::Command::new("demo")
        .about("a demo")
        .arg(clap::Arg::new("quiet").long("quiet").help("Say less."))
        .arg(clap::Arg::new("loud").long("loud"));
    let mut missing = Vec::new();
    without_help(&cmd, "demo", &mut missing);
    assert_eq!(missing, ["demo --loud"]);
}
