//! `topoplan completions SHELL`: print a completion script generated from the clap definition.

use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

use super::terminal::{Failure, write_stdout};

/// Arguments of `topoplan completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Print the script for the command line `cli` (the dispatch passes its own definition).
pub fn run(args: &CompletionsArgs, cli: clap::Command) -> Result<ExitCode, Failure> {
    write_stdout(&super::generated::completion(args.shell, cli))?;
    Ok(ExitCode::SUCCESS)
}
